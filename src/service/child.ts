import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

/** The JSON line `npm run sandbox` prints once it listens. */
export interface SandboxLine {
  base_url: string;
  workspace_id: number;
  client_id: string;
  client_secret: string;
  users: {
    id: number;
    name: string;
    email: string;
    password: string;
    role: string;
    token: string;
    time_zone: string;
  }[];
}

export interface SandboxProcess {
  child: ChildProcess;
  info: SandboxLine;
  /** SIGTERM, then the exit code and signal. */
  stop(): Promise<{ code: number | null; signal: string | null }>;
}

const repoRoot = path.resolve(import.meta.dirname, '../..');

export function exitOf(
  child: ChildProcess,
): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child.exitCode, signal: child.signalCode });
      return;
    }
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
}

/**
 * Starts the sandbox CLI in its own process (so that benchmarks give it its own core, and
 * tests see the command a person runs) and resolves with the JSON line it prints: the first
 * stdout line that starts with `{`.
 */
export function spawnSandbox(args: string[], nodeArgs: string[] = []): Promise<SandboxProcess> {
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', path.join(repoRoot, 'src/service/cli.ts'), ...args],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (!line.startsWith('{')) return;
      lines.close();
      resolve({
        child,
        info: JSON.parse(line) as SandboxLine,
        stop: () => {
          const exited = exitOf(child);
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          return exited;
        },
      });
    });
    child.once('exit', (code) =>
      reject(new Error(`the sandbox exited (${code}) before printing its line: ${stderr}`)),
    );
  });
}
