export function App() {
  return (
    <main>
      <h1>Workspace Sync</h1>
    </main>
  );
}
