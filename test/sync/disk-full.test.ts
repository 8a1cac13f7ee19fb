import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { startCli } from '../cli/run-cli';
import { TempDirs } from './harness';

// A full disk, for real: the CLI runs in a user and mount namespace whose sync folder is a
// 512 KiB tmpfs, and the demo workspace holds 1.6 MB. It says so in one line naming the folder:
// no raw ENOSPC, and in continuous mode once, not twice per retry.

const dirs = new TempDirs();
let sb: RunningSandbox;

beforeAll(async () => {
  sb = await startSandbox({ seed: 'demo' });
});
afterAll(async () => {
  await sb?.close();
  dirs.cleanup();
});

/** `workspace-sync sync ARGS` with its folder `mount/W` on a small tmpfs mounted at `mount`. */
function syncOnSmallDisk(args: string[]) {
  const mount = dirs.make('wsync-full-');
  const dir = path.join(mount, 'W');
  const script = 'mount -t tmpfs -o size=512k tmpfs "$0" && exec "$@"';
  const cli = ['sync', ...args];
  cli.push('--server', sb.baseUrl, '--workspace', String(sb.workspaceId), '--dir', dir);
  cli.push('--state', dirs.make('wsync-state-'));
  const { child, out, exited } = startCli(cli, {
    env: { WORKSPACE_SYNC_TOKEN: sb.users[0]!.token },
    under: ['unshare', '-Urm', 'sh', '-c', script, mount],
  });
  return { child, dir, out, exited: exited.then((run) => run.code) };
}

const FULL = (dir: string) => `The disk holding ${dir} is full: free some space`;

describe('a full disk', () => {
  it.runIf(process.platform === 'linux')(
    'sync --once ends with one line naming the folder, not ENOSPC',
    async () => {
      const probe = spawnSync('unshare', ['-Urm', 'true'], { encoding: 'utf8' });
      expect(probe.status, `unshare -Urm: ${probe.stderr}`).toBe(0);
      const run = syncOnSmallDisk(['--once']);
      let stderr = '';
      run.child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      expect(await run.exited).toBe(1);
      expect(stderr).toBe(`workspace-sync: ${FULL(run.dir)}, then sync again.\n`);
      expect(run.out.stdout).toContain(FULL(run.dir));
      expect(run.out.stdout).not.toContain('ENOSPC');
    },
  );

  it.runIf(process.platform === 'linux')(
    'running continuously, says it once while it tries again, with no countdown',
    async () => {
      const run = syncOnSmallDisk(['--verbose']);
      // --verbose mirrors the log on stderr: one "sync failed" line per failed try.
      let failures = 0;
      const tried = new Promise<void>((resolve) => {
        run.child.stderr.on('data', (d: Buffer) => {
          failures += (d.toString().match(/"msg":"sync failed"/g) ?? []).length;
          if (failures >= 3) resolve();
        });
      });
      await Promise.race([
        tried,
        run.exited.then((code) => {
          throw new Error(`exited (${code}): ${run.out.stdout}`);
        }),
      ]);
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
      const said = run.out.stdout.split('\n').filter((l) => l.includes(FULL(run.dir)));
      expect(said).toHaveLength(1);
      expect(said[0]).toMatch(/free some space; syncing resumes by itself\.$/);
      expect(run.out.stdout).not.toMatch(/ENOSPC|trying again/);
    },
  );
});
