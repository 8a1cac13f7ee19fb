import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/main/api/client';
import { SyncFatalError } from '../../src/main/sync/errors';
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

// The remote side's mass-delete guard (issue 24, row 11): when the service lists most synced
// items as deleted (a broken or hostile server listing an empty root, a colleague deleting most
// of the workspace), nothing is moved to the trash until the person answers; then 'trash' moves
// them to the trash (never deletes) and 'keep' uploads them again.

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
    pair.engine.requestFullWalk('test');
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

describe('a colleague deletes most of the workspace', () => {
  const deleteOnService = async (names: string[]) => {
    for (const n of names) await client.deleteFile(pair.journal.atPath(n)!.remoteId);
  };

  it('waits for an answer; keeping them uploads them again', async () => {
    seed();
    pair = await open();
    await pair.engine.syncOnce();
    const before = localTree(dir);
    const gone = Array.from({ length: 20 }, (_, i) => `f${i}.txt`);
    await deleteOnService(gone);
    // Read from the event feed, not a walk.
    const err = await held(pair);
    expect(err.message).toMatch(/The service lists 20 of 35 synced items as deleted/);
    expect(localTree(dir)).toEqual(before);
    expect(trashed()).toEqual([]);
    expect(files(remoteTree(sb))).toHaveLength(14);

    pair.engine.answerRemoteDeletes('keep');
    await pair.engine.syncOnce();
    expect(localTree(dir)).toEqual(before);
    expect(remoteTree(sb)).toEqual(before);
    expect(trashed()).toEqual([]);
    expect(readFileSync(disk('f3.txt'), 'utf8')).toBe('file 3');
    // And it is settled: the next pass asks nothing.
    await pair.engine.syncOnce();
    expect(pair.engine.status().state).toBe('idle');
  });

  it('in continuous mode the status says why; confirming moves them to the trash', async () => {
    seed();
    pair = await open();
    await pair.engine.syncOnce();
    const before = localTree(dir);
    await deleteOnService(Array.from({ length: 25 }, (_, i) => `f${i}.txt`));
    const stop = new AbortController();
    const running = pair.engine.run(stop.signal);
    try {
      await statusUntil(pair.engine, 'needs-attention');
      expect(pair.engine.status().message).toBe(
        'The service lists 25 of 35 synced items as deleted: confirm to move them to the trash here, or keep them',
      );
      expect(pair.engine.heldRemoteDeletes()).toEqual({ count: 25, total: 35 });
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
    for (let i = 0; i < 12; i++) put(`Big/b${i}.txt`, `big ${i}`);
    for (let i = 0; i < 8; i++) put(`s${i}.txt`, `small ${i}`);
    pair = await open();
    await pair.engine.syncOnce();
    await client.deleteFolder(pair.journal.atPath('Big')!.remoteId);
    const err = await held(pair);
    expect(err.message).toMatch(/The service lists 13 of 21 synced items as deleted/);
    expect(existsSync(disk('Big/b11.txt'))).toBe(true);
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
