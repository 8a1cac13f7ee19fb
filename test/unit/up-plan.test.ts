import { describe, expect, it } from 'vitest';
import type { JournalItem } from '../../src/main/journal/journal';
import type { LocalEntry, LocalScan } from '../../src/main/sync/detect-local/scan';
import { holdReplaced, planUp, type UpPlan } from '../../src/main/sync/up/plan';
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
  settling: false,
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
  relinks: [],
});

const scanOf = (entries: LocalEntry[]): LocalScan => ({
  complete: true,
  listed: 0,
  entries: new Map(entries.map((e) => [e.path, e])),
  unreadable: new Set(),
  settlesAt: null,
  badNames: [],
});

/** What a plan does, by paths: the shape a person reads. */
const summary = (up: UpPlan) => ({
  mkdirs: up.mkdirs.map((o) => o.entry.path),
  moves: up.moves.map((o) => `${o.item.localPath} -> ${o.entry.path}`),
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

const none = { mkdirs: [], moves: [], uploads: [], retires: [], replaced: [], deletes: [] };

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
});
