import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/service/sandbox';
import { MOVING_DIR } from '../../src/main/sync/paths';
import { TempDirs, clientFor, localTree, openPair, remoteTree, tokenOf } from './harness';
import { runCrashChild } from './run-crash-child';

// Freeing files is safe against a crash midway (docs/SYNC.md, Files on demand): the engine frees
// a folder in a child process that kills itself (SIGKILL) as a placeholder is written or as a
// file is handed to the trash; restarted, each file is either freed (its placeholder here, its
// bytes in the trash) or whole where it was, and nothing is deleted on the service.

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

/** Every file below `dir` (the trash), by content. */
function contents(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(path.join(e.parentPath, e.name), 'utf8'))
    .sort();
}

const FILES = Array.from({ length: 6 }, (_, i) => `f${i}.txt`);
const content = (name: string) => `the content of ${name}\n`;

describe('freeing files, killed midway', () => {
  for (const crashAt of [
    { step: 'placeholder', nth: 3 },
    { step: 'trash', nth: 3 },
  ] as const) {
    it(`killed at the ${crashAt.nth}rd ${crashAt.step}: each file freed or whole, none deleted there`, async () => {
      const sb = await startSandbox({ seed: 'empty' });
      try {
        const owner = sb.users.find((u) => u.role === 'Administrator')!;
        const client = clientFor(sb.baseUrl, tokenOf(owner));
        const root = (await client.rootFolder(sb.workspaceId)).id;
        const big = (await client.createFolder(sb.workspaceId, root, 'Big')).id;
        for (const name of FILES) {
          await client.uploadFile(big, name, () => Readable.from([Buffer.from(content(name))]));
        }
        const first = await openPair(sb, client, dirs);
        await first.engine.syncOnce();
        await first.close();
        const before = remoteTree(sb);

        const config = {
          baseUrl: sb.baseUrl,
          token: owner.token,
          workspaceId: sb.workspaceId,
          dir: first.dir,
          state: first.state,
        };
        const crashed = await runCrashChild({ ...config, free: { paths: ['Big'], crashAt } });
        expect(crashed.killed, crashed.err).toBe(true);

        const pair = await openPair(sb, client, dirs, { dir: first.dir, state: first.state });
        try {
          await pair.engine.syncOnce();
          expect(remoteTree(sb)).toEqual(before);
          const freed: string[] = [];
          for (const name of FILES) {
            const at = path.join(pair.dir, 'Big', name);
            const j = pair.journal.items.atPath(`Big/${name}`);
            if (existsSync(at)) {
              expect(readFileSync(at, 'utf8')).toBe(content(name));
              expect(existsSync(`${at}.wsync`), name).toBe(false);
              expect(j?.state).toBe('synced');
            } else {
              expect(existsSync(`${at}.wsync`), name).toBe(true);
              expect(j?.state).toBe('online');
              freed.push(content(name));
            }
          }
          // What was freed is in the trash, and only that: nothing is left in the holding place.
          expect(contents(path.join(pair.state, 'trash'))).toEqual(freed.sort());
          expect(contents(path.join(pair.dir, MOVING_DIR))).toEqual([]);
          if (crashAt.step === 'trash') expect(freed).toHaveLength(FILES.length);
          else expect(freed).toEqual([]);
          expect([...localTree(pair.dir).keys()].filter((p) => p.endsWith('.wsync'))).toHaveLength(
            freed.length,
          );
        } finally {
          await pair.close();
        }
      } finally {
        await sb.close();
      }
    });
  }

  it("puts back a file an earlier version's free left in its box (free-<id>/<name>)", async () => {
    const sb = await startSandbox({ seed: 'empty' });
    try {
      const owner = sb.users.find((u) => u.role === 'Administrator')!;
      const client = clientFor(sb.baseUrl, tokenOf(owner));
      const root = (await client.rootFolder(sb.workspaceId)).id;
      const big = (await client.createFolder(sb.workspaceId, root, 'Big')).id;
      await client.uploadFile(big, 'f0.txt', () => Readable.from([Buffer.from(content('f0.txt'))]));
      const pair = await openPair(sb, client, dirs);
      try {
        await pair.engine.syncOnce();
        const before = remoteTree(sb);
        // Killed after its move into the holding place, as the version before this one did it.
        const id = pair.journal.items.atPath('Big/f0.txt')!.remoteId;
        const box = path.join(pair.dir, MOVING_DIR, `free-${id}`);
        mkdirSync(box, { recursive: true });
        renameSync(path.join(pair.dir, 'Big/f0.txt'), path.join(box, 'f0.txt'));

        await pair.engine.syncOnce();
        expect(readFileSync(path.join(pair.dir, 'Big/f0.txt'), 'utf8')).toBe(content('f0.txt'));
        expect(remoteTree(sb)).toEqual(before);
        expect(existsSync(box)).toBe(false);
      } finally {
        await pair.close();
      }
    } finally {
      await sb.close();
    }
  });
});
