import { describe, expect, it } from 'vitest';
import type { JournalItem } from '../../src/main/journal/journal';
import type { LocalEntry, LocalScan } from '../../src/main/sync/detect-local/scan';
import { holdReplaced, planUp, type UpPlan } from '../../src/main/sync/up/plan';
import { isProvisional, provisionalName } from '../../src/main/sync/up/provisional';
import type { LocalPlan } from '../../src/main/sync/up/reconcile';

// The move plan (up/plan.ts): the reconciler's operations turned into the sender's jobs, before
// anything is sent. Pure: journal rows and scan entries are plain data here.

const ROOT = 1;
let ino = 100;

const entry = (path: string, kind: 'file' | 'folder' = 'file'): LocalEntry => ({
  path,
  name: path.slice(path.lastIndexOf('/') + 1),
  kind,
  dev: 1,
  ino: ino++,
  size: kind === 'file' ? 3 : 0,
  mtimeMs: 1,
  stillWriting: false,
});

const item = (id: number, path: string, parentId: number, kind: 'file' | 'folder' = 'file') =>
  ({
    remoteId: id,
    kind,
    remoteParentId: parentId,
    remoteName: path.slice(path.lastIndexOf('/') + 1),
    remoteSize: kind === 'file' ? 3 : null,
    remoteUpdatedAt: 't',
    localPath: path,
    localName: path.slice(path.lastIndexOf('/') + 1),
    dev: 1,
    ino: ino++,
    size: kind === 'file' ? 3 : null,
    mtimeMs: 1,
    hash: null,
    state: 'synced',
  }) as JournalItem;

const emptyPlan = (): LocalPlan => ({
  mkdirs: [],
  fresh: { dirs: new Set(), files: 0, bytes: 0 },
  moves: [],
  uploads: [],
  deletes: [],
  unconfirmed: [],
  kept: [],
  relinks: [],
});

const scanOf = (entries: LocalEntry[]): LocalScan => ({
  complete: true,
  listed: 0,
  entries: new Map(entries.map((e) => [e.path, e])),
  unreadable: new Set(),
  writeQuietAt: null,
  badNames: [],
});

/** What a plan does, by paths: the shape a person reads. */
const summary = (up: UpPlan) => ({
  mkdirs: up.mkdirs.map((o) => o.entry.path),
  moves: up.moves.map((o) => `${o.item.localPath} -> ${o.entry.path}`),
  asides: up.asides.map((o) => o.item.localPath),
  uploads: up.uploads.map((o) => `${o.entry.path}${o.item ? ' (new version)' : ''}`),
  retires: up.retires.map((o) => `${o.item.localPath} -> ${o.path} [${o.parts.join(', ')}]`),
  replaced: up.replaced.map((o) => o.item.localPath),
  deletes: up.deletes.map((o) => o.item.localPath),
});

// The journal: Docs (folder 10) holding a.txt (11) and Sub (12) holding b.txt (13); Photos (20).
const docs = item(10, 'Docs', ROOT, 'folder');
const a = item(11, 'Docs/a.txt', 10);
const photos = item(20, 'Photos', ROOT, 'folder');
const notes = item(30, 'notes.txt', ROOT);
const folders = new Map([
  ['Docs', docs],
  ['Photos', photos],
]);

interface Row {
  name: string;
  moves: boolean | null;
  plan: () => { plan: LocalPlan; entries: LocalEntry[] };
  expect: ReturnType<typeof summary>;
}

const none = {
  mkdirs: [],
  moves: [],
  asides: [] as string[],
  uploads: [],
  retires: [],
  replaced: [],
  deletes: [],
};

/** Moves by `from -> to` paths, of items of the root (ids from 50), in this order. */
function movesOf(...pairs: string[]): LocalPlan {
  const plan = emptyPlan();
  pairs.forEach((pair, i) => {
    const [from, to] = pair.split(' -> ') as [string, string];
    const kind = from.includes('.') ? 'file' : 'folder';
    plan.moves.push({ type: 'move', item: item(50 + i, from, ROOT, kind), entry: entry(to, kind) });
  });
  return plan;
}

const rows: Row[] = [
  {
    name: 'moves the server makes stay moves',
    moves: true,
    plan: () => {
      const plan = emptyPlan();
      plan.moves.push({ type: 'move', item: notes, entry: entry('Photos/notes.txt') });
      return { plan, entries: [] };
    },
    expect: { ...none, moves: ['notes.txt -> Photos/notes.txt'] },
  },
  {
    name: 'support not known yet: a move is tried as a move',
    moves: null,
    plan: () => {
      const plan = emptyPlan();
      plan.moves.push({ type: 'move', item: notes, entry: entry('Photos/notes.txt') });
      return { plan, entries: [] };
    },
    expect: { ...none, moves: ['notes.txt -> Photos/notes.txt'] },
  },
  {
    name: 'no moves: a rename in place is still a rename',
    moves: false,
    plan: () => {
      const plan = emptyPlan();
      plan.moves.push({ type: 'move', item: notes, entry: entry('Notes.txt') });
      return { plan, entries: [] };
    },
    expect: { ...none, moves: ['notes.txt -> Notes.txt'] },
  },
  {
    name: 'no moves: a file moved into another folder is copied, then its old place retired',
    moves: false,
    plan: () => {
      const plan = emptyPlan();
      plan.moves.push({ type: 'move', item: notes, entry: entry('Photos/notes.txt') });
      return { plan, entries: [] };
    },
    expect: {
      ...none,
      uploads: ['Photos/notes.txt'],
      retires: ['notes.txt -> Photos/notes.txt [Photos/notes.txt]'],
    },
  },
  {
    name: 'no moves: a folder moved with its contents is one copy, a rename or edit inside is part of it',
    moves: false,
    plan: () => {
      const plan = emptyPlan();
      const moved = entry('Photos/Docs', 'folder');
      const inside = [
        entry('Photos/Docs/A.txt'),
        entry('Photos/Docs/Sub', 'folder'),
        entry('Photos/Docs/Sub/b.txt'),
        entry('Photos/Docs/new.txt'),
      ];
      plan.moves.push({ type: 'move', item: docs, entry: moved });
      plan.moves.push({ type: 'move', item: a, entry: inside[0]! });
      plan.uploads.push({ type: 'upload', entry: inside[3]!, item: null });
      plan.uploads.push({
        type: 'upload',
        entry: inside[2]!,
        item: item(13, 'Docs/Sub/b.txt', 12),
      });
      return { plan, entries: [moved, ...inside] };
    },
    expect: {
      ...none,
      mkdirs: ['Photos/Docs', 'Photos/Docs/Sub'],
      uploads: ['Photos/Docs/A.txt', 'Photos/Docs/new.txt', 'Photos/Docs/Sub/b.txt'],
      retires: [
        'Docs -> Photos/Docs [Photos/Docs, Photos/Docs/A.txt, Photos/Docs/Sub, Photos/Docs/new.txt, Photos/Docs/Sub/b.txt]',
      ],
    },
  },
  {
    name: 'a folder replaced by a file of its name: its delete goes first',
    moves: true,
    plan: () => {
      const plan = emptyPlan();
      plan.uploads.push({ type: 'upload', entry: entry('Photos'), item: null });
      plan.deletes.push({ type: 'delete', item: photos, count: 1 });
      plan.deletes.push({ type: 'delete', item: notes, count: 1 });
      return { plan, entries: [] };
    },
    expect: { ...none, uploads: ['Photos'], replaced: ['Photos'], deletes: ['notes.txt'] },
  },
  // Swaps and rotations (issue 37): a cycle of renames has one item step aside first; every
  // move goes after the move of the item that holds its new name.
  ...[
    {
      name: 'a swap of two files: one steps aside, the other takes its name, then it takes its own',
      pairs: ['a.txt -> b.txt', 'b.txt -> a.txt'],
      moves: ['b.txt -> a.txt', 'a.txt -> b.txt'],
      asides: ['a.txt'],
    },
    {
      name: 'a rotation of three files: one steps aside, the chain goes from its free end',
      pairs: ['a.txt -> b.txt', 'b.txt -> c.txt', 'c.txt -> a.txt'],
      moves: ['c.txt -> a.txt', 'b.txt -> c.txt', 'a.txt -> b.txt'],
      asides: ['a.txt'],
    },
    {
      name: 'a swap of two folders: the same',
      pairs: ['A -> B', 'B -> A'],
      moves: ['B -> A', 'A -> B'],
      asides: ['A'],
    },
    {
      name: 'a swap whose names differ only in case from the ones taken: the service compares so',
      pairs: ['a.txt -> B.txt', 'b.txt -> A.txt'],
      moves: ['b.txt -> A.txt', 'a.txt -> B.txt'],
      asides: ['a.txt'],
    },
    {
      name: 'a chain without a cycle: no step aside, the free end first',
      pairs: ['a.txt -> b.txt', 'b.txt -> c.txt', 'x.txt -> y.txt'],
      moves: ['b.txt -> c.txt', 'a.txt -> b.txt', 'x.txt -> y.txt'],
      asides: [],
    },
    {
      name: 'two swaps: one step aside each',
      pairs: ['a.txt -> b.txt', 'b.txt -> a.txt', 'c.txt -> d.txt', 'd.txt -> c.txt'],
      moves: ['b.txt -> a.txt', 'a.txt -> b.txt', 'd.txt -> c.txt', 'c.txt -> d.txt'],
      asides: ['a.txt', 'c.txt'],
    },
  ].map((r): Row => ({
    name: r.name,
    moves: true,
    plan: () => ({ plan: movesOf(...r.pairs), entries: [] }),
    expect: { ...none, moves: r.moves, asides: r.asides },
  })),
  {
    name: 'a rotation over an existing name: the delete of the item whose name a move takes goes first',
    moves: true,
    plan: () => {
      // mv current.log old.log; mv new.log current.log: current.log's bytes are a new version of
      // old.log, the item that was current.log is gone, new.log takes its name.
      const plan = movesOf('new.log -> current.log');
      plan.uploads.push({
        type: 'upload',
        entry: entry('old.log'),
        item: item(60, 'old.log', ROOT),
      });
      plan.deletes.push({ type: 'delete', item: item(61, 'Current.log', ROOT), count: 1 });
      return { plan, entries: [] };
    },
    expect: {
      ...none,
      moves: ['new.log -> current.log'],
      uploads: ['old.log (new version)'],
      replaced: ['Current.log'],
    },
  },
  {
    name: 'a swap resumed after a crash: the item already aside on the service is the one aside',
    moves: true,
    plan: () => {
      const plan = movesOf('a.txt -> b.txt', 'b.txt -> a.txt');
      plan.moves[1]!.item.remoteName = 'b (moving 0a1b2c).txt';
      return { plan, entries: [] };
    },
    expect: { ...none, moves: ['a.txt -> b.txt', 'b.txt -> a.txt'], asides: ['b.txt'] },
  },
];

describe('the move plan', () => {
  for (const row of rows) {
    it(row.name, () => {
      const { plan, entries } = row.plan();
      const up = planUp(plan, scanOf(entries), {
        movesSupported: row.moves,
        rootId: ROOT,
        folderAt: (p) => folders.get(p),
      });
      const got = summary(up);
      // Order within a kind is the sender's business (waves, a pool): compared as sets.
      for (const key of ['mkdirs', 'uploads'] as const) got[key].sort();
      expect(got).toEqual({
        ...row.expect,
        mkdirs: [...row.expect.mkdirs].sort(),
        uploads: [...row.expect.uploads].sort(),
      });
    });
  }

  it('holds a replacement back with the delete it waits for when the service moved on', () => {
    const plan = emptyPlan();
    plan.uploads.push({ type: 'upload', entry: entry('Photos'), item: null });
    plan.uploads.push({ type: 'upload', entry: entry('other.txt'), item: null });
    plan.deletes.push({ type: 'delete', item: photos, count: 1 });
    const up = holdReplaced(
      planUp(plan, scanOf([]), {
        movesSupported: true,
        rootId: ROOT,
        folderAt: (p) => folders.get(p),
      }),
    );
    expect(summary(up)).toEqual({ ...none, uploads: ['other.txt'], deletes: ['Photos'] });
  });

  it('holds back a move into a replaced name, and the moves that wait for it', () => {
    const plan = movesOf('b.txt -> a.txt', 'c.txt -> b.txt', 'x.txt -> y.txt');
    plan.deletes.push({ type: 'delete', item: item(70, 'a.txt', ROOT), count: 1 });
    const up = holdReplaced(
      planUp(plan, scanOf([]), {
        movesSupported: true,
        rootId: ROOT,
        folderAt: (p) => folders.get(p),
      }),
    );
    expect(summary(up)).toEqual({ ...none, moves: ['x.txt -> y.txt'], deletes: ['a.txt'] });
  });
});

describe('temporary names', () => {
  it('are recognisable, and within the limit however long the name', () => {
    for (const [name, kind] of [
      ['a.txt', 'file'],
      ['Docs', 'folder'],
      ['x'.repeat(251) + '.txt', 'file'],
      ['é'.repeat(255), 'folder'],
      ['😀'.repeat(127) + '.md', 'file'],
      ['.' + 'e'.repeat(254), 'file'],
    ] as const) {
      const temp = provisionalName(name, kind);
      expect(isProvisional(temp), temp).toBe(true);
      expect(temp.length).toBeLessThanOrEqual(255);
      // Whole characters: no half of a surrogate pair left at the cut.
      expect(Buffer.from(temp, 'utf8').toString('utf8')).toBe(temp);
      expect(provisionalName(name, kind)).not.toBe(temp);
    }
    expect(provisionalName('a.txt', 'file')).toMatch(/^a \(moving [0-9a-f]{6}\)\.txt$/);
    expect(isProvisional('a (moving).txt')).toBe(false);
    expect(isProvisional('notes (moving 123abc) draft.txt')).toBe(false);
  });
});
