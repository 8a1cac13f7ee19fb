import {
  existsSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/main/api/client';
import { LocalRoot } from '../../src/main/sync/local';
import { freeUnused, lowSpaceMark, type DiskSpace } from '../../src/main/sync/loop/auto-free';
import { silentLogger } from '../../src/main/sync/ports';
import { FolderTrash } from '../../src/main/sync/trash';
import type { RunningSandbox } from '../../src/service/sandbox';
import { TempDirs, openPair, remoteTree, type Pair } from './harness';
import { closeBoth, pairWithSandbox } from './sandbox-pair';

// Files not opened for N days are freed when the disk is nearly full (docs/SYNC.md, Files on
// demand). The disk is a fake port whose free space is a fixed capacity less the bytes of the
// files in the sync folder (so freeing a file frees space, and only that); the clock is the
// engine's (60 days after the files came down); "last opened" is set with utimes.

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

const DAY = 24 * 60 * 60 * 1000;
const TOTAL = 1_000_000;
const MARK = lowSpaceMark(TOTAL); // 50,000 bytes
const SIZE = 10_000; // three blocks of 4 KiB each on disk

let sb: RunningSandbox;
let client: ServiceClient;
let pair: Pair;
let disk: FakeDisk;
const clock = Date.now() + 60 * DAY;
/** The engine's clock: `clock`, moved on by a test. */
let later = 0;
const now = () => clock + later;

/** Bytes the files below `dir` take on disk. */
function used(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) n += statSync(path.join(e.parentPath, e.name)).blocks * 512;
  }
  return n;
}

/**
 * A disk with room to spare until `fill(short)`: from then on `short` bytes fewer than the mark
 * are free, and each byte the folder's files give up is free again.
 */
class FakeDisk implements DiskSpace {
  private capacity: number | null = null;
  constructor(
    private readonly dir: string,
    readonly recordsAccess = () => true,
  ) {}
  fill(short: number): void {
    this.capacity = used(this.dir) + MARK - short;
  }
  space() {
    if (this.capacity === null) return { available: TOTAL / 2, total: TOTAL };
    return { available: this.capacity - used(this.dir), total: TOTAL };
  }
}

const OLD = ['Docs/old-1.txt', 'Docs/old-2.txt', 'Docs/old-3.txt', 'Docs/old-4.txt'];
const ALL = [...OLD, 'Docs/recent.txt', 'Keep/pinned.txt', 'Docs/changed.txt'];
const content = (rel: string) => `${rel} `.repeat(SIZE).slice(0, SIZE);

async function setUp(recordsAccess = true): Promise<void> {
  later = 0;
  const dir = path.join(dirs.make(), 'Workspace');
  disk = new FakeDisk(dir, () => recordsAccess);
  ({ sb, client, pair } = await pairWithSandbox(dirs, { pair: { dir, tuning: { now, disk } } }));
  const root = (await client.rootFolder(sb.workspaceId)).id;
  const folders: Record<string, number> = {};
  for (const name of ['Docs', 'Keep']) {
    folders[name] = (await client.createFolder(sb.workspaceId, root, name)).id;
  }
  for (const rel of ALL) {
    const [folder, name] = rel.split('/') as [string, string];
    await client.uploadFile(folders[folder]!, name, () =>
      Readable.from([Buffer.from(content(rel))]),
    );
  }
}

/** Last opened `days` before the engine's clock; the modification time is left as it is. */
function openedDaysAgo(rel: string, days: number): void {
  const at = path.join(pair.dir, rel);
  utimesSync(at, new Date(clock - days * DAY), statSync(at).mtime);
}

function setAccessTimes(): void {
  // All came down 60 days before the clock. Opened since: old-1 50 days ago .. old-4 35 days
  // ago; the pinned file and the one called changed longer ago still; recent yesterday.
  OLD.forEach((rel, i) => openedDaysAgo(rel, 50 - i * 5));
  openedDaysAgo('Keep/pinned.txt', 58);
  openedDaysAgo('Docs/changed.txt', 55);
  openedDaysAgo('Docs/recent.txt', 1);
}

const isFreed = (rel: string) =>
  !existsSync(path.join(pair.dir, rel)) &&
  existsSync(path.join(pair.dir, `${rel}.wsync`)) &&
  pair.journal.items.atPath(rel)?.state === 'online';
const isWhole = (rel: string) =>
  existsSync(path.join(pair.dir, rel)) &&
  readFileSync(path.join(pair.dir, rel), 'utf8') === content(rel) &&
  pair.journal.items.atPath(rel)?.state === 'synced';

afterEach(() => closeBoth(pair, sb));

describe('freeing files not opened lately when the disk is nearly full', () => {
  beforeEach(() => setUp());

  it('frees the oldest unopened files until above the mark; never a pinned or recent one', async () => {
    pair.journal.onDemand.setFreeUnusedDays(30);
    pair.journal.onDemand.pin('Keep');
    await pair.engine.syncOnce();
    const before = remoteTree(sb);
    setAccessTimes();
    disk.fill(25_000);

    const summary = await pair.engine.syncOnce();
    // 25,000 bytes short: a file frees 12,288 bytes, its placeholder takes 4,096, so four go,
    // the four opened longest ago (the pinned one is older still); the disk is then above.
    const freed = ['Docs/old-1.txt', 'Docs/old-2.txt', 'Docs/old-3.txt', 'Docs/changed.txt'];
    expect(ALL.filter(isFreed)).toEqual(freed);
    expect(ALL.filter(isWhole)).toEqual(['Docs/old-4.txt', 'Docs/recent.txt', 'Keep/pinned.txt']);
    expect(summary.freed).toBe(4);
    expect(disk.space().available).toBeGreaterThanOrEqual(MARK);
    expect(remoteTree(sb)).toEqual(before);
    // Released, not kept in a trash on the same disk (which would free nothing).
    expect(existsSync(path.join(pair.state, 'trash'))).toBe(false);

    // Above the mark now: the next round frees nothing more.
    expect((await pair.engine.syncOnce()).freed).toBeUndefined();
    expect(ALL.filter(isFreed)).toEqual(freed);
  });

  it('is off by default: a nearly full disk frees nothing until it is set, and off again', async () => {
    pair.journal.onDemand.pin('Keep');
    await pair.engine.syncOnce();
    setAccessTimes();
    disk.fill(25_000);
    expect((await pair.engine.syncOnce()).freed).toBeUndefined();
    expect(ALL.filter(isWhole)).toEqual(ALL);

    pair.journal.onDemand.setFreeUnusedDays(30);
    expect((await pair.engine.syncOnce()).freed).toBe(4);
    pair.journal.onDemand.setFreeUnusedDays(null);
    disk.fill(25_000);
    expect((await pair.engine.syncOnce()).freed).toBeUndefined();
    expect(ALL.filter(isFreed)).toHaveLength(4);
  });

  it('looks again only ten minutes later when nothing could be freed and the disk is still full', async () => {
    pair.journal.onDemand.setFreeUnusedDays(30);
    await pair.engine.syncOnce();
    for (const rel of ALL) openedDaysAgo(rel, 1);
    disk.fill(25_000);
    expect((await pair.engine.syncOnce()).freed).toBeUndefined();
    // Old now, but the engine does not walk every file again at each round meanwhile.
    setAccessTimes();
    expect((await pair.engine.syncOnce()).freed).toBeUndefined();
    later = 11 * 60_000;
    expect((await pair.engine.syncOnce()).freed).toBe(4);
  });

  it('never frees a file with changes not sent', async () => {
    pair.journal.onDemand.setFreeUnusedDays(30);
    await pair.engine.syncOnce();
    await pair.close();
    setAccessTimes();
    // Changed here after the last pass (not sent yet), and then left alone for 55 days.
    writeFileSync(path.join(pair.dir, 'Docs/changed.txt'), 'changed here, not sent');
    openedDaysAgo('Docs/changed.txt', 55);
    pair = await openPair(sb, client, dirs, { dir: pair.dir, state: pair.state });
    const local = new LocalRoot(pair.dir);
    disk.fill(25_000);
    const { freed } = await freeUnused({
      journal: pair.journal,
      local,
      trash: new FolderTrash(path.join(pair.state, 'trash')),
      log: silentLogger,
      now,
      disk,
    });
    expect(readFileSync(path.join(pair.dir, 'Docs/changed.txt'), 'utf8')).toBe(
      'changed here, not sent',
    );
    expect(pair.journal.items.atPath('Docs/changed.txt')?.state).toBe('synced');
    // Nothing is pinned here: the four opened longest ago besides the changed one.
    expect(freed).toBe(4);
    expect(ALL.filter(isFreed)).toEqual([
      'Docs/old-1.txt',
      'Docs/old-2.txt',
      'Docs/old-3.txt',
      'Keep/pinned.txt',
    ]);
  });
});

describe('on a mount that records no access times', () => {
  beforeEach(() => setUp(false));

  it('takes the time a file came down (kept in the journal) as its last opening', async () => {
    pair.journal.onDemand.setFreeUnusedDays(30);
    pair.journal.onDemand.pin('Keep');
    await pair.engine.syncOnce();
    // Access times that say "opened yesterday" count for nothing where the mount keeps none:
    // every file came down 60 days before the clock, and all six that may go are needed.
    setAccessTimes();
    disk.fill(45_000);
    expect((await pair.engine.syncOnce()).freed).toBe(6);
    expect(ALL.filter(isWhole)).toEqual(['Keep/pinned.txt']);
  });
});
