import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/service/sandbox';
import type { EngineChildLine } from './enospc-engine-child';
import { TempDirs, remoteTree } from './harness';

// The engine, not only its watcher, out of inotify watches: it runs in a child process inside a
// user namespace with a lowered limit. The status carries the notice naming the setting, and a
// change in a folder that is polled instead still reaches the service.

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

const CHILD = path.join(import.meta.dirname, 'enospc-engine-child.ts');
const WATCH_LIMIT = 40;

/** The child's lines, in order, and a way to wait for the next ones. */
class Lines {
  readonly lines: EngineChildLine[] = [];
  private wake: (() => void) | null = null;
  private ended: Error | null = null;

  add(line: EngineChildLine): void {
    this.lines.push(line);
    this.wake?.();
  }

  end(err: Error): void {
    this.ended = err;
    this.wake?.();
  }

  /** Resolves once there are more than `seen` lines. */
  async after(seen: number): Promise<void> {
    while (this.lines.length <= seen) {
      if (this.ended) throw this.ended;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = null;
    }
  }

  /** Waits, round after settled round, until `done` holds after one. */
  async settledUntil(done: () => boolean): Promise<void> {
    for (let seen = this.lines.length; ; seen++) {
      await this.after(seen);
      if (this.lines[seen]!.type === 'settled' && done()) return;
    }
  }
}

describe('the engine out of inotify watches (ENOSPC)', () => {
  it.runIf(process.platform === 'linux')(
    'says so in the status, naming the setting, and syncs a polled folder',
    async () => {
      const probe = spawnSync('unshare', ['-Ur', 'true'], { encoding: 'utf8' });
      expect(probe.status, `unshare -Ur: ${probe.stderr}`).toBe(0);

      const sb = await startSandbox({ seed: 'empty' });
      const dir = path.join(dirs.make(), 'Workspace');
      for (let i = 0; i < 20; i++) {
        for (let j = 0; j < 4; j++) {
          mkdirSync(path.join(dir, `top${i}`, `sub${j}`), { recursive: true });
          writeFileSync(path.join(dir, `top${i}`, `sub${j}`, 'f.txt'), `${i}/${j}`);
        }
      }
      const config = {
        baseUrl: sb.baseUrl,
        token: sb.users.find((u) => u.role === 'Administrator')!.token,
        workspaceId: sb.workspaceId,
        dir,
        state: dirs.make('wsync-state-'),
      };
      const script = `echo ${WATCH_LIMIT} > /proc/sys/user/max_inotify_watches && exec "$0" --import tsx "$1" "$2"`;
      const child = spawn(
        'unshare',
        ['-Ur', 'sh', '-c', script, process.execPath, CHILD, JSON.stringify(config)],
        { stdio: ['pipe', 'pipe', 'pipe'] },
      );
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const lines = new Lines();
      createInterface({ input: child.stdout }).on('line', (text) =>
        lines.add(JSON.parse(text) as EngineChildLine),
      );
      child.once('exit', (code) => lines.end(new Error(`child exited (${code}): ${stderr}`)));
      try {
        // Everything up, and the watcher fallen back to polling somewhere.
        await lines.settledUntil(
          () =>
            remoteTree(sb).size === 20 * 4 * 2 + 20 && lines.lines.some((l) => l.type === 'notice'),
        );
        const notices = lines.lines.flatMap((l) => (l.type === 'notice' ? [l.message] : []));
        expect(notices).toHaveLength(1);
        expect(notices[0]).toContain('fs.inotify.max_user_watches');
        const polled = /for "([^"]+)"/.exec(notices[0]!)?.[1] ?? '';

        // A change in the polled folder reaches the service.
        const rel = polled === '' ? 'late.txt' : `${polled}/late.txt`;
        writeFileSync(path.join(dir, rel), 'written while polled');
        await lines.settledUntil(() => remoteTree(sb).has(rel));
        expect(remoteTree(sb).size).toBe(20 * 4 * 2 + 20 + 1);
      } finally {
        child.stdin.end();
        expect(await exited).toBe(0);
        await sb.close();
      }
    },
  );
});
