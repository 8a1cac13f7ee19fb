import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/main/api/client';
import type { RunningSandbox } from '../../src/service/sandbox';
import type { SyncStatus } from '../../src/shared/sync-status';
import {
  TempDirs,
  clientFor,
  localTree,
  openPair,
  range,
  requestsOf,
  remoteTree,
  tokenOf,
  type Pair,
} from './harness';
import { clientAs, closeBoth, pairWithSandbox } from './sandbox-pair';

// The remote feed under real traffic: bursts and bulk uploads made through the API by a
// colleague, so that events happen as in life, then idle polls whose requests are counted by
// the sandbox. Each case failed on 6980567, where every poll re-read the overlap window and
// more than 1,000 events meant a walk per pass.

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

let sb: RunningSandbox;
/** The colleague (Moritz, a Moderator) who makes the changes through the API. */
let colleague: ServiceClient;
/** Ann's sync pair, the client measured. */
let pair: Pair;
let root: number;

beforeEach(async () => {
  ({ sb, pair } = await pairWithSandbox(dirs, { sandbox: { seed: 'demo' } }));
  colleague = clientAs(sb, 'Moderator');
  await pair.engine.syncOnce();
  root = (await colleague.rootFolder(sb.workspaceId)).id;
});
afterEach(() => closeBoth(pair, sb));

/** Runs `work` at `width` at a time: hundreds of changes within about a second. */
async function parallel<T>(items: T[], width: number, work: (item: T) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

const upload = (client: ServiceClient, folder: number, name: string, text: string) =>
  client.uploadFile(folder, name, () => Readable.from([Buffer.from(text)]));

const total = (stats: Record<string, number>) => Object.values(stats).reduce((a, b) => a + b, 0);
/** Every request but content transfers, which any client needs alike. */
const metadata = (stats: Record<string, number>) =>
  total(stats) - (stats['GET /download/:id'] ?? 0) - (stats['GET /folders/:id/archive'] ?? 0);

async function expectIdlePolls(n: number) {
  for (let i = 0; i < n; i++) {
    expect(await requestsOf(sb, () => pair.engine.syncOnce()), `idle poll ${i + 1}`).toEqual({
      'GET /activity': 1,
    });
  }
}

describe('the remote feed under real traffic', () => {
  it('after a burst of 300 changes in a second, every idle poll is one request', async () => {
    await parallel(range(300), 32, (i) => colleague.createFolder(sb.workspaceId, root, `b${i}`));
    const burst = await requestsOf(sb, () => pair.engine.syncOnce());
    const tree = localTree(pair.dir);
    expect(range(300).every((i) => tree.get(`b${i}`) === 'dir')).toBe(true);
    // Read once (10 pages of 30), placed by one listing of the root.
    expect(burst['GET /activity']).toBeLessThanOrEqual(12);
    expect(burst['GET /folders/:id'] ?? 0).toBeLessThanOrEqual(8);
    await expectIdlePolls(3);
  });

  it('a burst of 1,500 is handled once, at most one walk; local work within one pass', async () => {
    await parallel(range(1500), 48, (i) => colleague.createFolder(sb.workspaceId, root, `f${i}`));
    writeFileSync(path.join(pair.dir, 'mine.txt'), 'written during the storm');
    const seen: SyncStatus[] = [];
    const record = (s: SyncStatus) => seen.push(s);
    pair.engine.on('status', record);
    const burst = await requestsOf(sb, () => pair.engine.syncOnce());
    pair.engine.off('status', record);
    expect(remoteTree(sb).get('mine.txt')).toBeDefined();
    expect(localTree(pair.dir).size).toBe(remoteTree(sb).size);
    // At most a read of the burst (50 pages) or one walk (a listing a folder): never a walk
    // per pass, as when more than 1,000 events reset the feed to its head.
    expect(burst['GET /activity']).toBeLessThanOrEqual(1500 / 30 + 3);
    expect(burst['GET /folders/:id']).toBeLessThan(1500 + 100);
    // The local file was sent within one remote pass: not queued behind walk after walk.
    const sending = seen.findIndex((s) => s.message === 'Sending changes to the service');
    expect(sending).toBeGreaterThanOrEqual(0);
    const remoteBefore = seen
      .slice(0, sending)
      .filter((s) => /changes? from the service|Catching up/.test(s.message));
    expect(new Set(remoteBefore.map((s) => s.message)).size).toBeLessThanOrEqual(1);
    await expectIdlePolls(3);
  });

  it('changes under one folder are resolved by listing it once, not one read each', async () => {
    // A tree where a walk costs more than a hundred listings.
    await parallel(range(120), 16, (i) => colleague.createFolder(sb.workspaceId, root, `d${i}`));
    const folder = await colleague.createFolder(sb.workspaceId, root, 'Batch');
    await parallel(range(40), 8, (i) => upload(colleague, folder.id, `old-${i}.txt`, 'v1'));
    await pair.engine.syncOnce();
    // Some time later (changes within the second of a burst a walk covered by count need a
    // look at the whole window: sync-feed.test.ts), new versions of 40 synced files, and 40
    // new files, in the one folder.
    sb.advanceClock(10);
    await parallel(range(40), 16, (i) => upload(colleague, folder.id, `old-${i}.txt`, 'v2!'));
    await parallel(range(40), 16, (i) => upload(colleague, folder.id, `new-${i}.txt`, 'n'));
    const stats = await requestsOf(sb, () => pair.engine.syncOnce());
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
    expect(stats['GET /files/:id'] ?? 0, JSON.stringify(stats)).toBeLessThanOrEqual(1);
    expect(stats['GET /folders/:id'] ?? 0, JSON.stringify(stats)).toBeLessThanOrEqual(3);
    await expectIdlePolls(2);
  });

  it("this client's own changes, read back from the feed, cost no request", async () => {
    for (const f of ['a', 'b', 'c']) {
      mkdirSync(path.join(pair.dir, f));
      for (const i of range(20)) writeFileSync(path.join(pair.dir, f, `${i}.txt`), `${f}${i}`);
    }
    const stats = await requestsOf(sb, () => pair.engine.syncOnce());
    expect(stats['POST /folders/:id/files']).toBe(60);
    // 63 events of its own read back: three pages, and nothing looked up.
    expect(stats['GET /activity']).toBeLessThanOrEqual(4);
    expect(stats['GET /files/:id'] ?? 0).toBe(0);
    await expectIdlePolls(2);
  });

  it("a colleague's bulk upload converges in no more requests than a fresh walk", async () => {
    const folders = await Promise.all(
      range(30).map((i) => colleague.createFolder(sb.workspaceId, root, `Bulk ${i}`)),
    );
    await parallel(
      folders.flatMap((f) => range(10).map((i) => ({ f, i }))),
      16,
      ({ f, i }) => upload(colleague, f.id, `file ${i}.txt`, `${f.id}/${i}`),
    );
    const converge = await requestsOf(sb, () => pair.engine.syncOnce());
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
    const fresh = await openPair(sb, clientFor(sb.baseUrl, tokenOf(sb.users[0]!)), dirs);
    try {
      const walk = await requestsOf(sb, () => fresh.engine.syncOnce());
      expect(metadata(converge)).toBeLessThanOrEqual(metadata(walk));
    } finally {
      await fresh.close();
    }
    await expectIdlePolls(2);
  });

  it('a bulk seen under a role that may not download: all of its problems clear, not 200', async () => {
    const kenji = sb.users.find((u) => u.role === 'Collaborator')!;
    const viewer = await openPair(sb, clientFor(sb.baseUrl, tokenOf(kenji)), dirs);
    try {
      await viewer.engine.syncOnce();
      let rolemap: number | undefined;
      for await (const r of colleague.listRolemaps(sb.workspaceId)) {
        if (r.user_id === kenji.id || r.user?.id === kenji.id) rolemap = r.id;
      }
      await colleague.changeRole(rolemap!, 'Viewer');
      viewer.engine.requestFullWalk();
      const folder = await colleague.createFolder(sb.workspaceId, root, 'Seen, not downloaded');
      await parallel(range(210), 16, (i) => upload(colleague, folder.id, `${i}.txt`, `${i}`));
      await viewer.engine.syncOnce();
      // More than the status lists (200): the journal keeps them all.
      expect(viewer.journal.problems.all().length).toBeGreaterThan(200);
      expect(viewer.engine.status().problems.length).toBe(200);
      // The files go away on the service: each of their problems is over, not just 200.
      await colleague.deleteFolder(folder.id);
      await viewer.engine.syncOnce();
      expect(viewer.journal.problems.all()).toEqual([]);
      expect(viewer.engine.status().problems).toEqual([]);
      await colleague.changeRole(rolemap!, 'Collaborator');
      viewer.engine.requestFullWalk();
      await viewer.engine.syncOnce();
      expect(localTree(viewer.dir)).toEqual(remoteTree(sb));
    } finally {
      await viewer.close();
    }
  });

  it('a burst still arriving is a visible state, and is applied once it ends', async () => {
    const run = new AbortController();
    // A long poll interval, so that the whole burst is there at the next poll (poked below).
    pair.engine.setPollInterval(60_000);
    const first = new Promise<void>((resolve) => pair.engine.once('settled', () => resolve()));
    const running = pair.engine.run(run.signal);
    try {
      await first;
      await parallel(range(100), 32, (i) => colleague.createFolder(sb.workspaceId, root, `w${i}`));
      const waiting = new Promise<SyncStatus>((resolve) =>
        pair.engine.on('status', (s) => s.backlog && resolve(s)),
      );
      const done = new Promise<void>((resolve) =>
        pair.engine.on('settled', () => {
          if (range(100).every((i) => localTree(pair.dir).get(`w${i}`) === 'dir')) resolve();
        }),
      );
      pair.engine.setPollInterval(20);
      const held = await waiting;
      expect(held.state).toBe('syncing');
      expect(held.backlog!.changes).toBe(100);
      expect(held.message).toMatch(/^100 changes on the service, still arriving/);
      await done;
      expect(pair.engine.status().backlog).toBeNull();
      expect(pair.engine.status().message).toBe('Up to date');
    } finally {
      run.abort();
      await running;
    }
  });
});
