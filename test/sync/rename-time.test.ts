import { Readable } from 'node:stream';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/main/api/client';
import type { RunningSandbox } from '../../src/service/sandbox';
import { TempDirs, localTree, openPair, remoteTree, requestsOf, type Pair } from './harness';
import { closeBoth, pairWithSandbox } from './sandbox-pair';
import { runCrashChild } from './run-crash-child';

// A rename or move sent from here gives the item a new `updated_at` on the service. The journal
// records the answer's time (when it is the rename's alone), so the next full walk does not take
// our own rename for a new version and download the file again. Someone's version that came
// between still comes down.

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

let sb: RunningSandbox;
let client: ServiceClient;
let pair: Pair;

beforeEach(async () => {
  ({ sb, client, pair } = await pairWithSandbox(dirs));
});
afterEach(() => closeBoth(pair, sb));

const disk = (rel: string) => path.join(pair.dir, rel);
const put = (rel: string, data: string) => writeFileSync(disk(rel), data);
const mv = (from: string, to: string) => renameSync(disk(from), disk(to));
const downloads = (stats: Record<string, number>) =>
  Object.entries(stats)
    .filter(([route]) => route.includes('download') || route.includes('archive'))
    .reduce((n, [, count]) => n + count, 0);

/** Synced, then a later second on the service: a rename there gives a new time. */
async function synced(): Promise<void> {
  await pair.engine.syncOnce();
  expect(localTree(pair.dir)).toEqual(remoteTree(sb));
  sb.advanceClock(5);
}

/** A full walk after the pass that sent the change: nothing comes down. */
async function walkBringsNothing(): Promise<void> {
  pair.engine.requestFullWalk();
  const stats = await requestsOf(sb, () => pair.engine.syncOnce());
  expect(stats['GET /folders/:id'] ?? 0, JSON.stringify(stats)).toBeGreaterThan(0);
  expect(downloads(stats), JSON.stringify(stats)).toBe(0);
  expect(localTree(pair.dir)).toEqual(remoteTree(sb));
}

describe("the service's time of an item renamed or moved here", () => {
  it('a file renamed here: the walk that follows downloads nothing', async () => {
    put('a.txt', 'some bytes\n');
    await synced();
    const id = pair.journal.items.atPath('a.txt')!.remoteId;
    const before = (await client.getFile(id)).updated_at;
    mv('a.txt', 'b.txt');
    await pair.engine.syncOnce();
    const after = (await client.getFile(id)).updated_at;
    expect(after).not.toBe(before);
    await walkBringsNothing();
    expect(pair.journal.items.atPath('b.txt')?.remoteUpdatedAt).toBe(after);
  });

  it('a folder moved here with files inside: the walk that follows downloads nothing', async () => {
    mkdirSync(disk('src'));
    mkdirSync(disk('dest'));
    mkdirSync(disk('src/docs'));
    put('src/docs/one.txt', 'one\n');
    put('src/docs/two.txt', 'two\n');
    await synced();
    mv('src/docs', 'dest/docs');
    const stats = await requestsOf(sb, () => pair.engine.syncOnce());
    expect(stats['PUT /folders/:id'], JSON.stringify(stats)).toBe(1);
    await walkBringsNothing();
    // The files inside keep their times on the service: their records stay true.
    for (const f of ['one.txt', 'two.txt']) {
      const j = pair.journal.items.atPath(`dest/docs/${f}`)!;
      expect(j.remoteUpdatedAt).toBe((await client.getFile(j.remoteId)).updated_at);
    }
  });

  it('a file moved here into another folder: the walk that follows downloads nothing', async () => {
    mkdirSync(disk('dest'));
    put('a.txt', 'some bytes\n');
    await synced();
    mv('a.txt', 'dest/a.txt');
    await pair.engine.syncOnce();
    await walkBringsNothing();
  });

  it("a file renamed here, then the feed's change beside it lists its folder: nothing comes down", async () => {
    put('a.txt', 'some bytes\n');
    mkdirSync(disk('f'));
    await synced();
    mv('a.txt', 'b.txt');
    await pair.engine.syncOnce();
    sb.advanceClock(5);
    // Someone renames the folder beside it: resolving that lists the folder both are in.
    await client.renameFolder(pair.journal.items.atPath('f')!.remoteId, 'g');
    const stats = await requestsOf(sb, () => pair.engine.syncOnce());
    expect(stats['GET /folders/:id'] ?? 0, JSON.stringify(stats)).toBeGreaterThan(0);
    expect(downloads(stats), JSON.stringify(stats)).toBe(0);
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
  });

  it("someone's version of the same size before the rename still comes down", async () => {
    put('a.txt', 'version 1\n');
    await synced();
    const j = pair.journal.items.atPath('a.txt')!;
    const root = (await client.rootFolder(sb.workspaceId)).id;
    await client.uploadFile(root, 'a.txt', () => Readable.from([Buffer.from('version 2\n')]));
    sb.advanceClock(5);
    mv('a.txt', 'b.txt');
    await pair.engine.syncOnce();
    pair.engine.requestFullWalk();
    await pair.engine.syncOnce();
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
    expect(readFileSync(disk('b.txt'), 'utf8')).toBe('version 2\n');
    expect(pair.journal.items.atPath('b.txt')?.remoteId).toBe(j.remoteId);
  });
});

// The engine in a child process (crash-child.ts) killed right after a rename's answer: the
// restarted engine settles the intent by looking the file up; its time then may be a later
// version's, which must still come down.

describe('a rename whose answer a crash lost', () => {
  async function renamedThenKilled(): Promise<number> {
    put('a.txt', 'version 1\n');
    await synced();
    const id = pair.journal.items.atPath('a.txt')!.remoteId;
    await pair.close();
    mv('a.txt', 'b.txt');
    const owner = sb.users.find((u) => u.role === 'Administrator')!;
    const { killed } = await runCrashChild({
      baseUrl: sb.baseUrl,
      token: owner.token,
      workspaceId: sb.workspaceId,
      dir: pair.dir,
      state: pair.state,
      crash: { step: 'answered', op: 'move', nth: 1 },
    });
    expect(killed).toBe(true);
    pair = await openPair(sb, client, dirs, { dir: pair.dir, state: pair.state });
    return id;
  }

  it('settled by a look, then a walk: nothing comes down', async () => {
    await renamedThenKilled();
    pair.engine.requestFullWalk();
    const stats = await requestsOf(sb, () => pair.engine.syncOnce());
    expect(downloads(stats), JSON.stringify(stats)).toBe(0);
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
  });

  it("someone's version of the same size after the rename still comes down", async () => {
    const id = await renamedThenKilled();
    sb.advanceClock(5);
    const root = (await client.rootFolder(sb.workspaceId)).id;
    await client.uploadFile(root, 'b.txt', () => Readable.from([Buffer.from('version 2\n')]));
    expect((await client.getFile(id)).filename).toBe('b.txt');
    pair.engine.requestFullWalk();
    await pair.engine.syncOnce();
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
    expect(readFileSync(disk('b.txt'), 'utf8')).toBe('version 2\n');
  });
});
