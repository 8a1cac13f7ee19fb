import { execFileSync, spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitOf } from '../../src/service/child';

// A fresh machine without libsecret: `npm ci` succeeds there with keytar left out (it is an
// optional dependency whose build failed). `npm test` must still type-check, and the tests that
// need keytar must say in one line what to install. Checked on a copy of this checkout (the
// files git knows, as they are now) whose node_modules has every package but keytar.

const repoRoot = path.resolve(import.meta.dirname, '../..');
let copy: string;

beforeAll(async () => {
  copy = await mkdtemp(path.join(tmpdir(), 'no-keytar-'));
  const files = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--deduplicate'],
    { cwd: repoRoot, encoding: 'utf8' },
  )
    .split('\0')
    .filter((f) => f !== '');
  for (const f of files) {
    await mkdir(path.dirname(path.join(copy, f)), { recursive: true });
    // A file deleted in the working tree but still in the index is not part of the checkout.
    await copyFile(path.join(repoRoot, f), path.join(copy, f)).catch((err: unknown) => {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    });
  }
  const modules = path.join(copy, 'node_modules');
  await mkdir(modules);
  for (const name of await readdir(path.join(repoRoot, 'node_modules'))) {
    if (name === 'keytar') continue;
    await symlink(path.join(repoRoot, 'node_modules', name), path.join(modules, name));
  }
}, 60_000);

afterAll(async () => {
  if (copy) await rm(copy, { recursive: true, force: true });
});

async function run(args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, args, {
    cwd: copy,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const { code } = await exitOf(child);
  return { code, out };
}

describe('a checkout where keytar did not build', () => {
  it(
    'type-checks the Node target (the window cannot import keytar)',
    { timeout: 180_000 },
    async () => {
      const tsc = path.join(copy, 'node_modules', 'typescript', 'bin', 'tsc');
      for (const config of ['tsconfig.node.json']) {
        const { code, out } = await run([tsc, '-p', config, '--noEmit']);
        expect(out, config).toBe('');
        expect(code, config).toBe(0);
      }
    },
  );

  it(
    'fails the keychain tests with one line naming the packages to install',
    {
      timeout: 120_000,
    },
    async () => {
      const vitest = path.join(copy, 'node_modules', 'vitest', 'vitest.mjs');
      const { code, out } = await run([vitest, 'run', 'test/accounts/keychain.test.ts']);
      expect(code).not.toBe(0);
      const line = out.split('\n').find((l) => l.includes('keytar is not built'));
      expect(line, out).toBeDefined();
      expect(line).toContain('libsecret-1-dev');
      expect(out).not.toContain('Cannot find module');
    },
  );
});
