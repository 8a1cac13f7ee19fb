import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { TempDirs, clientFor, localTree, openPair, remoteTree, tokenOf } from './harness';
import { runCrashChild } from './run-crash-child';

// Crash safety: the engine runs in a child process that kills itself (SIGKILL) between an
// intent, its request and its record; a restarted engine must resolve what was in flight by
// looking at the service: no duplicates, nothing lost, converged.

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

/** Items sharing a parent and a name (case-insensitively) in the sandbox: duplicates. */
function duplicates(sb: RunningSandbox): string[] {
  return (
    sb.sandbox.db
      .prepare(
        `SELECT parent_id, lower(filename) AS name, count(*) AS n FROM items
         WHERE parent_id IS NOT NULL GROUP BY parent_id, lower(filename) HAVING n > 1`,
      )
      .all() as { name: string }[]
  ).map((r) => r.name);
}

const write = (dir: string, rel: string, data: string) => {
  mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  writeFileSync(path.join(dir, rel), data);
};

/** A synced tree, then local changes of every kind waiting to be sent. */
function prepareChanges(dir: string): void {
  write(dir, 'new/deep/one.txt', 'one');
  write(dir, 'new/two.txt', 'two');
  write(dir, 'keep/a.txt', 'a changed');
  renameSync(path.join(dir, 'move-me'), path.join(dir, 'keep/moved'));
  rmSync(path.join(dir, 'delete-me'), { recursive: true });
}

const STEPS = ['intent-written', 'answered', 'recorded'] as const;
const OPS = ['mkdir', 'upload', 'move', 'delete'] as const;

describe('a crash between intent, request and record', () => {
  for (const step of STEPS) {
    for (const op of OPS) {
      it(`${op}, killed at ${step}: restarted, converged, no duplicates`, async () => {
        const sb = await startSandbox({ seed: 'empty' });
        try {
          const owner = sb.users.find((u) => u.role === 'Administrator')!;
          const client = clientFor(sb.baseUrl, tokenOf(owner));
          const root = (await client.rootFolder(sb.workspaceId)).id;
          const keep = await client.createFolder(sb.workspaceId, root, 'keep');
          await client.uploadFile(keep.id, 'a.txt', () => Readable.from([Buffer.from('a')]));
          const move = await client.createFolder(sb.workspaceId, root, 'move-me');
          await client.uploadFile(move.id, 'm.txt', () => Readable.from([Buffer.from('m')]));
          await client.createFolder(sb.workspaceId, root, 'delete-me');
          const pair = await openPair(sb, client, dirs);
          await pair.engine.syncOnce();
          await pair.close();

          prepareChanges(pair.dir);
          const config = {
            baseUrl: sb.baseUrl,
            token: owner.token,
            workspaceId: sb.workspaceId,
            dir: pair.dir,
            state: pair.state,
          };
          const crashed = await runCrashChild({ ...config, crash: { step, op, nth: 1 } });
          expect(crashed.killed, crashed.err).toBe(true);
          const restarted = await runCrashChild(config);
          expect(restarted.out, restarted.err).toContain('"done":true');
          // Its own interrupted change is not mistaken for someone else's.
          expect(restarted.out).toContain('"conflicts":[]');

          expect(duplicates(sb)).toEqual([]);
          expect(localTree(pair.dir)).toEqual(remoteTree(sb));
          expect([...remoteTree(sb).keys()].sort()).toEqual([
            'keep',
            'keep/a.txt',
            'keep/moved',
            'keep/moved/m.txt',
            'new',
            'new/deep',
            'new/deep/one.txt',
            'new/two.txt',
          ]);
        } finally {
          await sb.close();
        }
      });
    }
  }
});

describe('lost answers', () => {
  it('20% of answers lost through a run of mixed operations: converged, no duplicates', async () => {
    const sb = await startSandbox({ seed: 'empty' });
    try {
      const owner = sb.users.find((u) => u.role === 'Administrator')!;
      const client = clientFor(sb.baseUrl, tokenOf(owner), { maxAttempts: 8, maxTotalMs: 10_000 });
      const pair = await openPair(sb, client, dirs);
      try {
        for (let i = 0; i < 20; i++) write(pair.dir, `d${i}/f${i}.txt`, `file ${i}`);
        await pair.engine.syncOnce();
        for (let i = 0; i < 20; i += 2) {
          renameSync(path.join(pair.dir, `d${i}`), path.join(pair.dir, `d${i + 1}`, `in${i}`));
        }
        for (let i = 0; i < 10; i++) write(pair.dir, `new${i}/x/y.txt`, `new ${i}`);
        rmSync(path.join(pair.dir, 'd1', `f1.txt`));
        write(pair.dir, 'd3/f3.txt', 'changed');
        sb.setFaults('lost=0.2,seed=11');
        let rounds = 0;
        for (; rounds < 20; rounds++) {
          const ok = await pair.engine.syncOnce().then(
            () => true,
            () => false,
          );
          if (ok) break;
        }
        expect(rounds).toBeLessThan(20);
        sb.setFaults('');
        await pair.engine.syncOnce();
        expect(duplicates(sb)).toEqual([]);
        expect(localTree(pair.dir)).toEqual(remoteTree(sb));
        expect(remoteTree(sb).get('d3/f3.txt')).toBeDefined();
        expect(remoteTree(sb).has('d1/in0/f0.txt')).toBe(true);
      } finally {
        await pair.close();
      }
    } finally {
      await sb.close();
    }
  });
});
