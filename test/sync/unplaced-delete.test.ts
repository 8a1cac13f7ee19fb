import { renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { remoteChain } from './deep-tree';
import { TempDirs, localTree, openPair, remoteTree, sha } from './harness';
import { usingPair, withSandbox } from './sandbox-pair';

// A folder deleted here is deleted on the service with everything in it there; what this computer
// could never hold (a path past PATH_MAX) must not go with it (docs/SYNC.md, "One bad item never
// blocks the rest"): the delete is not sent and the folder comes back, with a problem saying why.

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

const LEVELS = 40;
/** A level's name of 120 bytes: 40 of them pass PATH_MAX (4,096 bytes) at about level 34. */
const level = (i: number) => {
  const head = `level ${String(i).padStart(2, '0')} `;
  return head + 'd'.repeat(120 - head.length);
};

describe('a folder deleted here whose subtree on the service was never all here', () => {
  it('is not deleted there: it comes back as far as it fits, with a problem; a plain folder is deleted', async () => {
    await withSandbox(async ({ sb, client }) => {
      const root = (await client.rootFolder(sb.workspaceId)).id;
      const levels = await remoteChain(client, sb.workspaceId, root, LEVELS, level);
      const top = levels[0]!;
      const parent = levels.at(-1)!;
      await client.uploadFile(parent, 'bottom.txt', () => Readable.from([Buffer.from('deep')]));
      const plain = await client.createFolder(sb.workspaceId, root, 'plain');
      await client.uploadFile(plain.id, 'a.txt', () => Readable.from([Buffer.from('a')]));
      // Files beside, more than the chain: its delete is no mass delete (held back either way).
      const beside = await client.createFolder(sb.workspaceId, root, 'beside');
      for (let i = 0; i < 40; i++) {
        await client.uploadFile(beside.id, `f${i}.txt`, () => Readable.from([Buffer.from(`${i}`)]));
      }
      const chain = [...remoteTree(sb).keys()].filter((k) => k.startsWith(level(0)));
      expect(chain).toHaveLength(LEVELS + 1);
      await client.uploadFile(top, 'note.txt', () => Readable.from([Buffer.from('note')]));

      await usingPair(await openPair(sb, client, dirs), async (pair) => {
        await pair.engine.syncOnce();
        const placed = [...localTree(pair.dir).keys()].filter((k) => k.startsWith(level(0)));
        expect(placed.length).toBeGreaterThan(20);
        expect(placed.length).toBeLessThan(LEVELS);
        const deep = pair.engine.status().problems;
        expect(deep).toHaveLength(1);

        // The person moves a file out of the chain's top folder, then deletes that folder here,
        // and a plain folder beside it.
        renameSync(path.join(pair.dir, level(0), 'note.txt'), path.join(pair.dir, 'note.txt'));
        rmSync(path.join(pair.dir, level(0)), { recursive: true });
        rmSync(path.join(pair.dir, 'plain'), { recursive: true });
        await pair.engine.syncOnce();

        // The service still has the whole chain and its bottom file; the plain folder is gone.
        const there = remoteTree(sb);
        for (const k of chain) expect(there.has(k), k).toBe(true);
        expect(there.get(chain.find((k) => k.endsWith('/bottom.txt'))!)).toBe(sha('deep'));
        expect(there.has('plain')).toBe(false);
        expect(there.has('plain/a.txt')).toBe(false);
        // The file moved out went with its move, and is not brought back into the folder.
        expect(there.get('note.txt')).toBe(sha('note'));
        expect(there.has(`${level(0)}/note.txt`)).toBe(false);
        expect(localTree(pair.dir).get('note.txt')).toBe(sha('note'));
        // Back here as far as it fits.
        const back = [...localTree(pair.dir).keys()].filter((k) => k.startsWith(level(0)));
        expect(back.sort()).toEqual(placed.filter((k) => !k.endsWith('/note.txt')).sort());
        expect([...localTree(pair.dir).keys()].filter((k) => k.includes('conflict'))).toEqual([]);
        expect(localTree(pair.dir).has('plain')).toBe(false);
        // One problem on the folder says why; the chain's own stays.
        const problems = pair.engine.status().problems;
        const onTop = problems.filter((p) => p.path === level(0));
        expect(onTop).toHaveLength(1);
        expect(onTop[0]!.remoteId).toBe(top);
        expect(onTop[0]!.message).toMatch(/cannot be on this computer/);
        expect(onTop[0]!.message).toMatch(/not deleted on the service and is back/);
        expect(problems.map((p) => p.path).sort()).toEqual([level(0), deep[0]!.path].sort());

        // A pass more finds nothing to do, and says nothing new.
        const again = await pair.engine.syncOnce();
        expect(again.remoteDeleted ?? 0).toBe(0);
        expect(pair.engine.status().problems).toHaveLength(2);

        // Deleted on the service (as the problem advises), from the feed: it goes to the trash
        // here, and both problems end, the chain's too (its folder is gone from here).
        await client.deleteFolder(top);
        await pair.engine.syncOnce();
        expect([...localTree(pair.dir).keys()].filter((k) => k.startsWith(level(0)))).toHaveLength(
          0,
        );
        expect(pair.engine.status().problems).toEqual([]);
        expect(localTree(pair.dir).get('beside/f0.txt')).toBe(sha('0'));
      });
    });
  }, 120_000);
});
