import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import * as esbuild from 'esbuild';
import { describe, expect, it } from 'vitest';
import { targets } from '../../scripts/build-targets.mjs';
import { main } from '../../src/main/cli/main';
import { NO_SANDBOX } from '../../src/main/cli/sandbox';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/main/accounts/oauth-client';
import { SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET } from '../../src/service/sandbox';

const repoRoot = path.resolve(import.meta.dirname, '../..');

/** The files esbuild bundles into one target of scripts/build.mjs (repository-relative). */
async function inputsOf(target: esbuild.BuildOptions): Promise<string[]> {
  const result = await esbuild.build({
    ...target,
    absWorkingDir: repoRoot,
    write: false,
    metafile: true,
    sourcemap: false,
    logLevel: 'silent',
  });
  return Object.keys(result.metafile.inputs);
}

describe('what the app ships', () => {
  it('builds main, the engine host and the preload without the sandbox or the source entry', async () => {
    const entries = targets.map((t) => (t.entryPoints as string[])[0]);
    expect(entries).toEqual([
      'src/main/index.ts',
      'src/main/host/index.ts',
      'src/preload/index.ts',
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
        ['sync', '--once', '--dir', state],
      ]) {
        const stdout = new PassThrough();
        const stderr = new PassThrough();
        let err = '';
        stderr.on('data', (d: Buffer) => (err += d.toString()));
        const code = await main(args, {
          stdout,
          stderr,
          stdin: new PassThrough(),
          env: { WORKSPACE_SYNC_STATE: state },
        });
        expect(code, args.join(' ')).toBe(1);
        expect(err, args.join(' ')).toBe(`workspace-sync: ${NO_SANDBOX}\n`);
      }
    } finally {
      await rm(state, { recursive: true, force: true });
    }
  });
});
