import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Methods, type MethodName } from '../../src/shared/app-api';
import type { HandlerContext } from '../../src/main/backend/handlers/context';

// The backend's handlers: one file per namespace of the window's API (backend/handlers/), each
// answering exactly its namespace's methods. The compiler checks each file's shapes
// (`HandlersOf<'accounts'>`); this checks the files themselves, so a namespace's methods do not
// drift back into backend.ts or into another namespace's file.

const DIR = path.resolve(import.meta.dirname, '../../src/main/backend/handlers');

/** The files under handlers/ that answer no namespace: types, the composition, helpers. */
const NOT_A_NAMESPACE = ['context.ts', 'index.ts', 'instants.ts', 'roles.ts'];

const namespaces = [...new Set(Object.keys(Methods).map((m) => m.split('.')[0]!))].sort();

describe("the backend's handlers", () => {
  it('have one file per namespace, and no other file but the shared ones', () => {
    const files = readdirSync(DIR).filter((f) => f.endsWith('.ts'));
    expect(files.filter((f) => !NOT_A_NAMESPACE.includes(f)).sort()).toEqual(
      namespaces.map((n) => `${n}.ts`),
    );
  });

  it("answer, in each namespace's file, exactly that namespace's methods", async () => {
    // Only building the table: no handler runs, so the context needs nothing but a state dir.
    const ctx = { stateDir: '/nonexistent' } as unknown as HandlerContext;
    for (const ns of namespaces) {
      const mod = (await import(path.join(DIR, `${ns}.ts`))) as Record<string, unknown>;
      const makers = Object.entries(mod).filter(
        ([name, v]) => name.endsWith('Handlers') && typeof v === 'function',
      );
      expect(makers, ns).toHaveLength(1);
      const table = (makers[0]![1] as (c: HandlerContext) => object)(ctx);
      const want = (Object.keys(Methods) as MethodName[]).filter((m) => m.startsWith(`${ns}.`));
      expect(Object.keys(table).sort(), ns).toEqual(want.sort());
    }
  });

  it('stay small: no file over 400 lines', () => {
    const long = readdirSync(DIR)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => [f, readFileSync(path.join(DIR, f), 'utf8').split('\n').length] as const)
      .filter(([, lines]) => lines > 400);
    expect(long).toEqual([]);
  });
});
