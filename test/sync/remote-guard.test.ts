import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/main/api/client';
import { SyncFatalError } from '../../src/main/sync/errors';
import { DEFAULT_DELETE_GUARD } from '../../src/main/sync/loop/options';
import { guardRemoteDeletes } from '../../src/main/sync/loop/remote-guard';
import { translator } from '../../src/shared/i18n';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { startStandIn } from './stand-in';
import {
  TempDirs,
  clientFor,
  localTree,
  openPair,
  remoteTree,
  settledUntil,
  statusUntil,
  tokenOf,
  type Pair,
} from './harness';

// The remote side's mass-delete guard (issue 24, row 11; issue 37): when the service lists
// (nearly) everything as deleted (a broken or hostile server listing an empty root) or many items
// across the tree (a mass deletion in many folders), nothing is moved to the trash until the
// person answers; then 'trash' moves them to the trash (never deletes) and 'keep' uploads them
// again. A colleague deleting one folder, however big, is ordinary work: applied and said.

const dirs = new TempDirs();

let sb: RunningSandbox;
let client: ServiceClient;
let pair: Pair;
let state: string;
let dir: string;
let closers: (() => Promise<void>)[];

beforeEach(async () => {
  sb = await startSandbox({ seed: 'empty' });
  client = clientFor(sb.baseUrl, tokenOf(sb.users.find((u) => u.role === 'Administrator')!));
  state = dirs.make('wsync-state-');
  dir = path.join(dirs.make(), 'Workspace');
  closers = [];
});
afterEach(async () => {
  for (const close of closers.reverse()) await close();
  await sb.close();
  dirs.cleanup();
});

/** Opens (or opens again, as a restart would) the pair on the same folder and journal. */
async function open(baseUrl = sb.baseUrl): Promise<Pair> {
  const p = await openPair(
    { baseUrl, workspaceId: sb.workspaceId },
    baseUrl === sb.baseUrl
      ? client
      : clientFor(baseUrl, tokenOf(sb.users.find((u) => u.role === 'Administrator')!)),
    dirs,
    { dir, state },
  );
  closers.push(() => p.close());
  return p;
}

const disk = (rel: string) => path.join(dir, rel);
const put = (rel: string, data: string) => {
  mkdirSync(path.dirname(disk(rel)), { recursive: true });
  writeFileSync(disk(rel), data);
};
/** Every file in the pair's trash (the state directory's), by name. */
const trashed = () => {
  const trash = path.join(state, 'trash');
  if (!existsSync(trash)) return [];
  return readdirSync(trash, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
};
const files = (tree: Map<string, string>) => [...tree].filter(([, v]) => v !== 'dir');

/** 30 files at the root and 4 in a folder: 34 synced files, 35 synced items. */
function seed(): void {
  for (let i = 0; i < 30; i++) put(`f${i}.txt`, `file ${i}`);
  for (let i = 0; i < 4; i++) put(`Team/t${i}.txt`, `team ${i}`);
}

/**
 * Spread over the tree: 10 files at the root, 10 in each of `A` and `B`, 4 in `Team`: 34 files,
 * 37 synced items.
 */
function seedSpread(): void {
  for (let i = 0; i < 10; i++) put(`f${i}.txt`, `file ${i}`);
  for (let i = 0; i < 10; i++) put(`A/a${i}.txt`, `a ${i}`);
  for (let i = 0; i < 10; i++) put(`B/b${i}.txt`, `b ${i}`);
  for (let i = 0; i < 4; i++) put(`Team/t${i}.txt`, `team ${i}`);
}
/** `n` files of the spread seed, taken from the root, `A` and `B` in turn: 3 places. */
const acrossTheTree = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => [`f${i / 3}.txt`, `A/a${(i - 1) / 3}.txt`, `B/b${(i - 2) / 3}.txt`][i % 3]!,
  );

const held = async (p: Pair) => {
  const err = await p.engine.syncOnce().catch((e: unknown) => e);
  expect(err).toBeInstanceOf(SyncFatalError);
  expect((err as SyncFatalError).kind).toBe('mass-delete');
  return err as SyncFatalError;
};

describe('the service lists an empty root', () => {
  it('nothing is trashed until confirmed; then the files go to the trash, not away', async () => {
    const rootId = (await client.rootFolder(sb.workspaceId)).id;
    let lying = false;
    const standIn = await startStandIn(sb.baseUrl, {
      json(url, json) {
        // The root's listing, as a broken server would send it: no entries at all.
        const page = json as { items?: unknown[]; total_entries?: number } | undefined;
        if (!lying || !page?.items || url !== `/folders/${rootId}`) return json;
        return { ...page, items: [], total_entries: 0 };
      },
    });
    closers.push(() => standIn.close());
    seed();
    pair = await open(standIn.baseUrl);
    await pair.engine.syncOnce();
    expect(files(remoteTree(sb))).toHaveLength(34);
    const before = localTree(dir);

    lying = true;
    pair.engine.requestFullWalk();
    const err = await held(pair);
    expect(err.message).toMatch(/The service lists 35 of 35 synced items as deleted/);
    expect(err.message).toMatch(/--confirm-remote-deletes/);
    expect(err.message).toMatch(/--keep-local-copies/);
    expect(localTree(dir)).toEqual(before);
    expect(trashed()).toEqual([]);
    const status = pair.engine.status();
    expect(status.state).toBe('needs-attention');
    // A one-time sync ends with the whole story (the continuous mode's short one is below).
    expect(status.message).toBe(err.message);
    expect(status.lastError?.kind).toBe('mass-delete');
    // In German, for a German reader of the error and of the status alike.
    const german = translator('de').say(err.words!);
    expect(german).toMatch(
      /^Der Dienst führt 35 von 35 synchronisierten Elementen als gelöscht; hier wurde nichts in den Papierkorb verschoben\. .*--confirm-remote-deletes.*--keep-local-copies/,
    );
    expect(translator('de').say(status.words!)).toBe(german);
    expect(translator('de').say(status.lastError!.words!)).toBe(german);

    // A restart asks again (the walk that found them is over): still nothing trashed.
    await pair.close();
    pair = await open(standIn.baseUrl);
    await held(pair);
    expect(localTree(dir)).toEqual(before);
    expect(trashed()).toEqual([]);

    pair.engine.answerRemoteDeletes('trash');
    await pair.engine.syncOnce();
    expect(localTree(dir)).toEqual(new Map());
    expect(trashed().sort()).toEqual(
      [...before.keys()]
        .filter((k) => k !== 'Team')
        .map((k) => path.basename(k))
        .sort(),
    );
    expect(pair.engine.status().state).toBe('idle');
    // The sandbox itself was never touched.
    expect(files(remoteTree(sb))).toHaveLength(34);
  });
});

describe('a mass deletion across the tree', () => {
  const deleteOnService = async (names: string[]) => {
    for (const n of names) await client.deleteFile(pair.journal.items.atPath(n)!.remoteId);
  };

  it('waits for an answer; keeping them uploads them again', async () => {
    seedSpread();
    pair = await open();
    await pair.engine.syncOnce();
    const before = localTree(dir);
    await deleteOnService(acrossTheTree(20));
    // Read from the event feed, not a walk.
    const err = await held(pair);
    expect(err.message).toMatch(/The service lists 20 of 37 synced items as deleted/);
    expect(localTree(dir)).toEqual(before);
    expect(trashed()).toEqual([]);
    expect(files(remoteTree(sb))).toHaveLength(14);

    pair.engine.answerRemoteDeletes('keep');
    await pair.engine.syncOnce();
    expect(localTree(dir)).toEqual(before);
    expect(remoteTree(sb)).toEqual(before);
    expect(trashed()).toEqual([]);
    expect(readFileSync(disk('A/a3.txt'), 'utf8')).toBe('a 3');
    // And it is settled: the next pass asks nothing.
    await pair.engine.syncOnce();
    expect(pair.engine.status().state).toBe('idle');
  });

  it('in continuous mode the status says why; confirming moves them to the trash', async () => {
    seedSpread();
    pair = await open();
    await pair.engine.syncOnce();
    const before = localTree(dir);
    await deleteOnService(acrossTheTree(25));
    const stop = new AbortController();
    const running = pair.engine.run(stop.signal);
    try {
      await statusUntil(pair.engine, 'needs-attention');
      expect(pair.engine.status().message).toBe(
        'The service lists 25 of 37 synced items as deleted: confirm to move them to the trash here, or keep them',
      );
      // The figures the rule saw say which of its cases tripped: 25 topmost in 3 folders.
      expect(pair.engine.heldRemoteDeletes()).toEqual({
        count: 25,
        total: 37,
        seen: { count: 25, total: 37, topmost: 25, places: 3 },
      });
      expect(localTree(dir)).toEqual(before);
      expect(trashed()).toEqual([]);
      const done = settledUntil(pair.engine, (s) => s.trashed > 0);
      pair.engine.answerRemoteDeletes('trash');
      await done;
    } finally {
      stop.abort();
      await running;
    }
    expect(trashed()).toHaveLength(25);
    expect(localTree(dir)).toEqual(remoteTree(sb));
    expect(pair.engine.heldRemoteDeletes()).toBeNull();
  });

  it('a deleted folder counts with everything in it', async () => {
    seedSpread();
    for (let i = 0; i < 12; i++) put(`A/Big/b${i}.txt`, `big ${i}`);
    pair = await open();
    await pair.engine.syncOnce();
    // Big (13 items) inside A, and files at the root and in B: 3 places, 27 of 50.
    await client.deleteFolder(pair.journal.items.atPath('A/Big')!.remoteId);
    await deleteOnService(acrossTheTree(21).filter((p) => !p.startsWith('A/')));
    const err = await held(pair);
    expect(err.message).toMatch(/The service lists 27 of 50 synced items as deleted/);
    expect(existsSync(disk('A/Big/b11.txt'))).toBe(true);
  });

  it('a small deletion goes through without asking, to the trash', async () => {
    seed();
    pair = await open();
    await pair.engine.syncOnce();
    await deleteOnService(['f1.txt', 'f2.txt', 'f3.txt']);
    await pair.engine.syncOnce();
    expect(existsSync(disk('f1.txt'))).toBe(false);
    expect(existsSync(disk('f4.txt'))).toBe(true);
    expect(trashed().sort()).toEqual(['f1.txt', 'f2.txt', 'f3.txt']);
    expect(pair.engine.status().state).toBe('idle');
  });
});

describe('a colleague deletes one folder (issue 37)', () => {
  it('applied, to the trash, and said, however many items it held', async () => {
    // 101 files in Docs and its subfolder, 103 items, beside one file: all but 1 of 104.
    for (let i = 0; i < 60; i++) put(`Docs/d${i}.txt`, `doc ${i}`);
    for (let i = 0; i < 41; i++) put(`Docs/Sub/s${i}.txt`, `sub ${i}`);
    put('keep.txt', 'kept');
    pair = await open();
    await pair.engine.syncOnce();
    await client.deleteFolder(pair.journal.items.atPath('Docs')!.remoteId);
    const summary = await pair.engine.syncOnce();
    expect(summary.trashed).toBe(1);
    expect(existsSync(disk('Docs'))).toBe(false);
    expect([...localTree(dir).keys()]).toEqual(['keep.txt']);
    expect(trashed()).toHaveLength(101);
    const status = pair.engine.status();
    expect(status.state).toBe('idle');
    expect(status.held).toBeNull();
    const notice = status.notices.find((n) => n.words?.key === 'engine.remoteFolderTrashed');
    expect(notice?.message).toBe(
      'Docs was deleted on the service (103 items): moved to the trash on this computer, where it can be restored',
    );
    expect(translator('de').say(notice!.words!)).toBe(
      'Docs wurde auf dem Dienst gelöscht (103 Elemente): auf diesem Computer in den Papierkorb verschoben, aus dem es wiederhergestellt werden kann',
    );
  });

  it('is held when it was everything: counted once, by the walk and the feed alike', async () => {
    for (let i = 0; i < 30; i++) put(`Docs/d${i}.txt`, `doc ${i}`);
    pair = await open();
    await pair.engine.syncOnce();
    await client.deleteFolder(pair.journal.items.atPath('Docs')!.remoteId);
    // A walk finds it first; the feed's event of the same deletion comes after.
    pair.engine.requestFullWalk();
    const err = await held(pair);
    expect(err.message).toMatch(/The service lists 31 of 31 synced items as deleted/);
    // New files at the root: the feed lists the root again, where Docs is still missing.
    const root = (await client.rootFolder(sb.workspaceId)).id;
    for (let i = 0; i < 3; i++) {
      await client.uploadFile(
        root,
        `new${i}.txt`,
        () => Readable.from([Buffer.from(`new ${i}`)]),
        5,
      );
    }
    await held(pair);
    const hold = pair.engine.heldRemoteDeletes()!;
    expect(hold.count).toBe(31);
    expect(hold.count).toBeLessThanOrEqual(hold.total);
    expect(existsSync(disk('Docs/d29.txt'))).toBe(true);
  });

  it('counts each item once: a folder listed with its own children, or twice', async () => {
    for (let i = 0; i < 12; i++) put(`Big/b${i}.txt`, `big ${i}`);
    put('x.txt', 'x');
    pair = await open();
    await pair.engine.syncOnce();
    const big = pair.journal.items.atPath('Big')!;
    const kids = Array.from({ length: 12 }, (_, i) => pair.journal.items.atPath(`Big/b${i}.txt`)!);
    const x = pair.journal.items.atPath('x.txt')!;
    const guard = (trash: typeof kids) =>
      guardRemoteDeletes({ trash }, pair.journal, DEFAULT_DELETE_GUARD, null);
    expect(guard([big, ...kids, x, big]).held).toMatchObject({ count: 14, total: 14 });
    const one = guard([...kids.slice(0, 3), big]);
    expect(one.held).toBeNull();
    expect(one.folders.map((f) => [f.item.localPath, f.count])).toEqual([['Big', 13]]);
  });
});
