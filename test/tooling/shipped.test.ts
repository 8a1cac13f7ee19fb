import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type * as esbuild from 'esbuild';
import { describe, expect, it } from 'vitest';
import { targets } from '../../scripts/build-targets.mjs';
import { metafileOf } from './bundle-meta';
import { runMain } from '../cli/in-process';
import { NO_SANDBOX } from '../../src/main/cli/sandbox';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/main/accounts/oauth-client';
import { SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET } from '../../src/service/sandbox';

/** The files esbuild bundles into one target of scripts/build.mjs (repository-relative). */
async function inputsOf(target: esbuild.BuildOptions): Promise<string[]> {
  return Object.keys((await metafileOf(target)).inputs);
}

describe('what the app ships', () => {
  it('builds main, the engine host, the preload and the headless CLI without the sandbox or the source entry', async () => {
    const entries = targets.map((t) => (t.entryPoints as string[])[0]);
    expect(entries).toEqual([
      'src/main/index.ts',
      'src/main/host/index.ts',
      'src/preload/index.ts',
      'src/main/cli/main.ts',
    ]);
    for (const target of targets) {
      const inputs = await inputsOf(target);
      // The bundle holds the CLI (main's --cli) and the backend: a real check, not an empty one.
      expect(inputs.length, String(target.entryPoints)).toBeGreaterThan(0);
      expect(
        inputs.filter((f) => f.startsWith('src/service/') || f.startsWith('src/dev/')),
        String(target.entryPoints),
      ).toEqual([]);
    }
    const main = await inputsOf(targets[0]!);
    expect(main).toContain('src/main/cli/main.ts');
    expect(main).toContain('src/main/cli/sandbox.ts');
    const host = await inputsOf(targets[1]!);
    expect(host).toContain('src/main/backend/backend.ts');
    expect(host.filter((f) => f.startsWith('src/main/cli/'))).toEqual([]);
    const cli = await inputsOf(targets[3]!);
    // The headless CLI is the terminal program itself (its `ui` serves the window's backend).
    expect(cli).toContain('src/main/cli/main.ts');
    expect(cli).toContain('src/main/cli/sandbox.ts');
  });

  it('signs in by default as the client the sandbox registers', () => {
    expect({ id: DEFAULT_CLIENT_ID, secret: DEFAULT_CLIENT_SECRET }).toEqual({
      id: SANDBOX_CLIENT_ID,
      secret: SANDBOX_CLIENT_SECRET,
    });
  });

  it('has a CLI that says in one line that --sandbox needs the source', async () => {
    const state = await mkdtemp(path.join(tmpdir(), 'ws-shipped-'));
    try {
      for (const args of [
        ['workspaces', '--sandbox'],
        ['sync', '--sandbox', '--once', '--dir', state],
      ]) {
        const { code, err } = await runMain(args, { WORKSPACE_SYNC_STATE: state });
        expect(code, args.join(' ')).toBe(1);
        expect(err, args.join(' ')).toBe(`workspace-sync: ${NO_SANDBOX}\n`);
      }
    } finally {
      await rm(state, { recursive: true, force: true });
    }
  });

  it('has a CLI that never starts the demo without --sandbox, nor offers it in its help', async () => {
    const state = await mkdtemp(path.join(tmpdir(), 'ws-shipped-'));
    const run = (args: string[]) => runMain(args, { WORKSPACE_SYNC_STATE: state });
    try {
      const dir = path.join(state, 'Q3');
      for (const args of [['sync', '--once', '--dir', dir, '--workspace', '42'], ['workspaces']]) {
        const { code, err } = await run(args);
        expect(code, args.join(' ')).toBe(2);
        expect(err, args.join(' ')).toMatch(/^workspace-sync: --server URL is required\n/);
      }
      expect(existsSync(dir)).toBe(false);
      for (const args of [
        ['--help'],
        ['sync', '--help'],
        ['workspaces', '--help'],
        ['ui', '--help'],
      ]) {
        const { code, out } = await run(args);
        expect(code).toBe(0);
        expect(out, args.join(' ')).not.toMatch(/demo|--sandbox/i);
      }
    } finally {
      await rm(state, { recursive: true, force: true });
    }
  });
});
