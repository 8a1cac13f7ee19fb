import { rmSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/main/api/client';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { startStandIn } from './stand-in';
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

// The event feed against servers that differ from the sandbox in what the contract leaves
// open: events that become visible late, times that all fall in one second, no count on the
// list. A stand-in in front of the real sandbox rewrites its answers to /activity/.

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

interface Page {
  total_entries?: number;
  next_offset?: number | null;
  items: { event: { id: number; updated_at: string } }[];
}

let sb: RunningSandbox;
let colleague: ServiceClient;
let root: number;
let standIn: { baseUrl: string; close(): Promise<void> };
let pair: Pair;
/** Event ids the stand-in does not show yet. */
const hidden = new Set<number>();
let rewrite: (page: Page) => void = () => {};

beforeEach(async () => {
  sb = await startSandbox({ seed: 'demo' });
  colleague = clientFor(sb.baseUrl, tokenOf(sb.users.find((u) => u.role === 'Moderator')!));
  root = (await colleague.rootFolder(sb.workspaceId)).id;
  hidden.clear();
  rewrite = () => {};
  standIn = await startStandIn(sb.baseUrl, {
    json(path, json) {
      if (path !== '/activity/' || !json || typeof json !== 'object') return json;
      const page = json as Page;
      const before = page.items.length;
      page.items = page.items.filter((i) => !hidden.has(i.event.id));
      if (page.total_entries !== undefined) page.total_entries -= before - page.items.length;
      rewrite(page);
      return page;
    },
  });
  const ann = sb.users.find((u) => u.role === 'Administrator')!;
  pair = await openPair(
    { baseUrl: standIn.baseUrl, workspaceId: sb.workspaceId },
    clientFor(standIn.baseUrl, tokenOf(ann)),
    dirs,
  );
  await pair.engine.syncOnce();
});
afterEach(async () => {
  await pair.close();
  await standIn.close();
  await sb.close();
});

const upload = (folder: number, name: string, text: string) =>
  colleague.uploadFile(folder, name, () => Readable.from([Buffer.from(text)]));

/** The newest event's id, as the colleague sees the feed. */
async function newestEvent(): Promise<number> {
  const page = await colleague.eventsPage({ workspaces: [sb.workspaceId] });
  return page.events[0]!.id;
}

describe('the event feed, on servers that differ', () => {
  it('an event visible late, behind a page of newer ones, is found by the count', async () => {
    const late = await colleague.createFolder(sb.workspaceId, root, 'Late');
    await upload(root, 'v.txt', 'v0');
    await pair.engine.syncOnce();
    await upload(late.id, 'late.txt', 'made first, shown last');
    hidden.add(await newestEvent());
    // 40 newer events: new versions of a synced file elsewhere.
    for (const i of range(40)) await upload(root, 'v.txt', `v${i + 1}`);
    await pair.engine.syncOnce();
    expect(localTree(pair.dir).has('Late/late.txt')).toBe(false);
    hidden.clear();
    const stats = await requestsOf(sb, () => pair.engine.syncOnce());
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
    // Page 1 holds 30 newer events: the count says one more is new, found on page 2.
    expect(stats['GET /activity']).toBeLessThanOrEqual(4);
    expect(await requestsOf(sb, () => pair.engine.syncOnce())).toEqual({ 'GET /activity': 1 });
  });

  it('times that all fall in one second: walks covered by count, later changes still found', async () => {
    const second = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    rewrite = (page) => {
      for (const i of page.items) i.event.updated_at = second;
    };
    // A bulk upload of new files into a small tree: a walk, the rest of the window counted.
    const folders = await Promise.all(
      range(5).map((i) => colleague.createFolder(sb.workspaceId, root, `Bulk ${i}`)),
    );
    for (const f of folders) for (const i of range(20)) await upload(f.id, `${i}.txt`, `${i}`);
    await pair.engine.syncOnce();
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
    // In "the same second": a rename of one of the first files, and a new file.
    const first = (await colleague.folderContents(folders[0]!.id).next()).value;
    if (!first || first.kind !== 'file') throw new Error('expected a file');
    await colleague.renameFile(first.file.id, 'renamed.txt');
    await upload(folders[4]!.id, 'new.txt', 'new');
    await pair.engine.syncOnce();
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
    expect(await requestsOf(sb, () => pair.engine.syncOnce())).toEqual({ 'GET /activity': 1 });
  });

  it('a count one higher than what the list shows never holds back deletes', async () => {
    await upload(root, 'doomed.txt', 'to be deleted here');
    await pair.engine.syncOnce();
    rewrite = (page) => {
      if (page.total_entries !== undefined) page.total_entries += 1;
    };
    rmSync(path.join(pair.dir, 'doomed.txt'));
    await pair.engine.syncOnce();
    expect(remoteTree(sb).has('doomed.txt')).toBe(false);
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
  });

  it('an event whose time cannot be read costs one walk, not one a poll', async () => {
    const odd = new Set<number>();
    rewrite = (page) => {
      for (const i of page.items) if (odd.has(i.event.id)) i.event.updated_at = 'soon';
    };
    await upload(root, 'odd.txt', 'its event has no time');
    odd.add(await newestEvent());
    const first = await requestsOf(sb, () => pair.engine.syncOnce());
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
    expect(first['GET /workspaces/:id']).toBe(1); // the walk reads the role
    expect(await requestsOf(sb, () => pair.engine.syncOnce())).toEqual({ 'GET /activity': 1 });
  });

  it('a list without a count: the window is read each poll, and nothing is missed', async () => {
    rewrite = (page) => {
      delete page.total_entries;
    };
    await Promise.all(range(45).map((i) => colleague.createFolder(sb.workspaceId, root, `c${i}`)));
    await pair.engine.syncOnce();
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
    await upload(root, 'after.txt', 'after');
    await pair.engine.syncOnce();
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
    // Without a count an idle poll reads the window (two pages here), no more.
    const idle = await requestsOf(sb, () => pair.engine.syncOnce());
    expect(Object.keys(idle)).toEqual(['GET /activity']);
    expect(idle['GET /activity']).toBeLessThanOrEqual(3);
  });
});
