import { afterEach, describe, expect, it } from 'vitest';
import { Journal, type JournalItem } from '../../src/main/journal/journal';
import { defaultProfile, foldName, type VolumeProfile } from '../../src/main/sync/names';
import { planChanges } from '../../src/main/sync/down/plan';
import type { Plan, PlanOptions } from '../../src/main/sync/down/plan-types';
import type { RemoteItem, RemoteView } from '../../src/main/sync/remote';

// planChanges (remote view + journal → local plan) on an in-memory journal, case by case.

const ROOT = 1;
const T1 = '2026-01-01T10:00:00Z';
const T2 = '2026-01-01T10:00:05Z';

const POSIX = defaultProfile('linux');
/** A Windows volume: case-insensitive, Windows' name rules. */
const WIN32 = defaultProfile('win32');
/** A default macOS volume: case- and normalization-insensitive. */
const MAC = defaultProfile('darwin');

/** A remote item: `[id, kind, parentId, name]`, optionally with size and time. */
type R = [
  id: number,
  kind: 'folder' | 'file',
  parentId: number,
  name: string,
  size?: number,
  at?: string,
];
/** A journal row: a remote item as it was synced, then its local path (its local name last). */
type J =
  | [id: number, kind: 'folder' | 'file', parentId: number, name: string, localPath: string]
  | [
      id: number,
      kind: 'folder' | 'file',
      parentId: number,
      name: string,
      size: number,
      at: string,
      localPath: string,
    ]
  | { item: R; localPath: string; state?: JournalItem['state'] };

const remote = ([id, kind, parentId, name, size = 10, at = T1]: R): RemoteItem => ({
  id,
  kind,
  parentId,
  name,
  size: kind === 'file' ? size : 0,
  updatedAt: at,
});

function row(j: J): JournalItem {
  const { item, localPath, state } = Array.isArray(j)
    ? { item: j.slice(0, -1) as R, localPath: j.at(-1) as string, state: undefined }
    : j;
  const r = remote(item);
  return {
    remoteId: r.id,
    kind: r.kind,
    remoteParentId: r.parentId,
    remoteName: r.name,
    localPath,
    localName: localPath.slice(localPath.lastIndexOf('/') + 1),
    dev: null,
    ino: null,
    size: r.kind === 'file' ? r.size : 0,
    mtimeMs: null,
    hash: null,
    remoteSize: r.kind === 'file' ? r.size : null,
    remoteUpdatedAt: r.updatedAt,
    state: state ?? 'synced',
  };
}

interface Case {
  name: string;
  journal?: J[];
  view: {
    complete?: boolean;
    items?: R[];
    /** The root is listed unless the row says otherwise. */
    listed?: number[];
    gone?: number[];
    unlisted?: number[];
  };
  profile?: VolumeProfile;
  mayDownload?: boolean;
  retryNotPermitted?: boolean;
  /** Items known deleted here (PlanOptions.deletedHere). */
  deletedHere?: number[];
  /** Folders not synced here (selective sync, the journal's `excluded`). */
  excluded?: number[];
  expect: {
    /** `mkdir path`, `move path` (to where it goes), `record path`: in the plan's order. */
    structure?: string[];
    /** The rest by path, sorted. */
    trash?: string[];
    downloads?: string[];
    /** Per archive: `folder id: n files`. */
    archives?: string[];
    refused?: string[];
  };
}

/** The options as PlanOptions takes them. */
function planOptions(o: {
  profile: VolumeProfile;
  mayDownload: boolean;
  retryNotPermitted: boolean;
  deletedHere: ReadonlySet<number>;
}): PlanOptions {
  return o;
}

const cases: Case[] = [
  {
    name: 'a new folder with a file: the folder is made, the file downloaded',
    view: {
      items: [
        [2, 'folder', ROOT, 'Docs'],
        [3, 'file', 2, 'a.txt'],
      ],
      listed: [ROOT, 2],
    },
    expect: { structure: ['mkdir Docs'], downloads: ['Docs/a.txt'] },
  },
  {
    name: 'a folder renamed there: one move, nothing below it planned',
    journal: [
      [2, 'folder', ROOT, 'Docs', 'Docs'],
      [3, 'file', 2, 'a.txt', 'Docs/a.txt'],
    ],
    view: { items: [[2, 'folder', ROOT, 'Reports']] },
    expect: { structure: ['move Reports'] },
  },
  {
    name: 'a file moved there into another folder: a move, no download',
    journal: [
      [2, 'folder', ROOT, 'Docs', 'Docs'],
      [3, 'folder', ROOT, 'Photos', 'Photos'],
      [4, 'file', 2, 'a.txt', 'Docs/a.txt'],
    ],
    view: { items: [[4, 'file', 3, 'a.txt']], listed: [] },
    expect: { structure: ['move Photos/a.txt'] },
  },
  {
    name: 'a file moved and renamed there, and its new version: a move and a download',
    journal: [
      [2, 'folder', ROOT, 'Docs', 'Docs'],
      [4, 'file', ROOT, 'a.txt', 'a.txt'],
    ],
    view: { items: [[4, 'file', 2, 'b.txt', 20, T2]], listed: [] },
    expect: { structure: ['move Docs/b.txt'], downloads: ['Docs/b.txt'] },
  },
  {
    name: 'deleted there: only the topmost of a deleted tree goes to the trash',
    journal: [
      [2, 'folder', ROOT, 'Docs', 'Docs'],
      [3, 'folder', 2, 'sub', 'Docs/sub'],
      [4, 'file', 3, 'a.txt', 'Docs/sub/a.txt'],
      [5, 'file', ROOT, 'b.txt', 'b.txt'],
      [6, 'file', ROOT, 'c.txt', 'c.txt'],
    ],
    view: { gone: [4, 3, 2, 5], listed: [] },
    expect: { trash: ['Docs', 'b.txt'] },
  },
  {
    name: 'a complete view: what it does not list is gone, but not below a folder it could not list',
    journal: [
      [2, 'folder', ROOT, 'Docs', 'Docs'],
      [3, 'file', 2, 'a.txt', 'Docs/a.txt'],
      [4, 'folder', ROOT, 'Locked', 'Locked'],
      [5, 'file', 4, 'b.txt', 'Locked/b.txt'],
      [6, 'folder', 4, 'deep', 'Locked/deep'],
      [7, 'file', ROOT, 'c.txt', 'c.txt'],
      [8, 'folder', ROOT, 'Old', 'Old'],
      [9, 'file', 8, 'd.txt', 'Old/d.txt'],
    ],
    view: {
      complete: true,
      items: [
        [2, 'folder', ROOT, 'Docs'],
        [4, 'folder', ROOT, 'Locked'],
      ],
      listed: [ROOT, 2],
      unlisted: [4],
    },
    expect: { trash: ['Docs/a.txt', 'Old', 'c.txt'] },
  },
  {
    name: 'a new version there (size or time): a download in place, nothing moves',
    journal: [
      [2, 'file', ROOT, 'a.txt', 10, T1, 'a.txt'],
      [3, 'file', ROOT, 'b.txt', 10, T1, 'b.txt'],
      [4, 'file', ROOT, 'c.txt', 10, T1, 'c.txt'],
    ],
    view: {
      items: [
        [2, 'file', ROOT, 'a.txt', 12, T1],
        [3, 'file', ROOT, 'b.txt', 10, T2],
        [4, 'file', ROOT, 'c.txt', 10, T1],
      ],
    },
    expect: { downloads: ['a.txt', 'b.txt'] },
  },
  {
    name: 'renamed there to the name it already has here: the journal only (record)',
    // `notes.txt` here is a recorded mapping of the service's `Notes.txt`; the service now says
    // `notes.txt` too.
    journal: [[2, 'file', ROOT, 'Notes.txt', 'notes.txt']],
    view: { items: [[2, 'file', ROOT, 'notes.txt']] },
    expect: { structure: ['record notes.txt'] },
  },
  {
    name: 'a case-insensitive Windows volume: names one on the volume are numbered, reserved ones mapped',
    profile: WIN32,
    journal: [[5, 'file', ROOT, 'Notes.txt', 'Notes.txt']],
    view: {
      items: [
        [2, 'file', ROOT, 'Docs'],
        [3, 'file', ROOT, 'docs'],
        [4, 'file', ROOT, 'a:b'],
        [5, 'file', ROOT, 'Notes.txt'],
        // A lower id than the synced file's: the synced one keeps its name all the same.
        [1_000, 'file', ROOT, 'notes.txt'],
        [6, 'file', ROOT, 'CON.txt'],
        [7, 'folder', ROOT, 'trail.'],
        [8, 'folder', ROOT, '.Workspace-Sync-Cache'],
      ],
    },
    expect: {
      structure: ['mkdir trail．', 'mkdir .Workspace-Sync-Cache (2)'],
      downloads: ['COＮ.txt', 'Docs', 'a：b', 'docs (2)', 'notes (2).txt'],
    },
  },
  {
    name: 'a macOS volume: the same name in both Unicode forms is numbered',
    profile: MAC,
    view: {
      items: [
        [2, 'file', ROOT, 'Caf\u00e9'],
        [3, 'file', ROOT, 'Cafe\u0301'],
      ],
    },
    expect: { downloads: ['Caf\u00e9', 'Cafe\u0301 (2)'] },
  },
  {
    name: 'a case-sensitive volume: the same names are not numbered',
    view: {
      items: [
        [2, 'file', ROOT, 'Docs'],
        [3, 'file', ROOT, 'docs'],
        [4, 'file', ROOT, 'a:b'],
      ],
    },
    expect: { downloads: ['Docs', 'a:b', 'docs'] },
  },
  {
    name: 'a synced file keeps its name beside a new folder of that name',
    journal: [[3, 'file', ROOT, 'plan.md', 'plan.md']],
    view: {
      items: [
        [2, 'folder', ROOT, 'plan.md'],
        [3, 'file', ROOT, 'plan.md'],
      ],
    },
    expect: { structure: ['mkdir plan.md (2)'] },
  },
  {
    name: 'deleted here: the synced file keeps no name of its own, the new folder takes it',
    journal: [[3, 'file', ROOT, 'plan.md', 'plan.md']],
    deletedHere: [3],
    view: {
      items: [
        [2, 'folder', ROOT, 'plan.md'],
        [3, 'file', ROOT, 'plan.md'],
      ],
    },
    expect: { structure: ['move plan (2).md', 'mkdir plan.md'] },
  },
  {
    name: 'a role without download: new files are refused, folders still made',
    mayDownload: false,
    journal: [[4, 'file', ROOT, 'old.txt', 'old.txt']],
    view: {
      items: [
        [2, 'folder', ROOT, 'Docs'],
        [3, 'file', 2, 'a.txt'],
        [4, 'file', ROOT, 'old.txt', 99, T2],
      ],
      listed: [ROOT, 2],
    },
    expect: { structure: ['mkdir Docs'], refused: ['Docs/a.txt', 'old.txt'] },
  },
  {
    name: 'a download the role refused before, unchanged: not asked again between walks',
    journal: [{ item: [2, 'file', ROOT, 'a.txt'], localPath: 'a.txt', state: 'not-permitted' }],
    view: { items: [[2, 'file', ROOT, 'a.txt']] },
    expect: {},
  },
  {
    name: 'a download the role refused before, unchanged: asked again at a walk (retryNotPermitted)',
    retryNotPermitted: true,
    journal: [{ item: [2, 'file', ROOT, 'a.txt'], localPath: 'a.txt', state: 'not-permitted' }],
    view: { items: [[2, 'file', ROOT, 'a.txt']] },
    expect: { downloads: ['a.txt'] },
  },
  {
    name: 'a folder replaced there by a file of its name (new id): the folder goes, the file comes',
    journal: [[2, 'folder', ROOT, 'Docs', 'Docs']],
    view: { items: [[3, 'file', ROOT, 'Docs']], gone: [2] },
    expect: { trash: ['Docs'], downloads: ['Docs'] },
  },
  {
    name: 'parents before children; a move before a mkdir at the same depth',
    journal: [
      [5, 'folder', ROOT, 'Old', 'Old'],
      [6, 'folder', 5, 'x', 'Old/x'],
    ],
    view: {
      // Children first in the view: the order comes from the planner.
      items: [
        [4, 'folder', 3, 'C'],
        [3, 'folder', 2, 'B'],
        [6, 'folder', 2, 'x'],
        [2, 'folder', ROOT, 'A'],
        [5, 'folder', ROOT, 'New'],
      ],
      listed: [ROOT, 2, 3, 4],
    },
    expect: { structure: ['move New', 'mkdir A', 'move A/x', 'mkdir A/B', 'mkdir A/B/C'] },
  },
  {
    name: 'a partial view: the journal fills in the siblings a new item must not take the name of',
    profile: WIN32,
    journal: [[2, 'file', ROOT, 'Notes.txt', 'Notes.txt']],
    view: { items: [[3, 'file', ROOT, 'notes.txt']], listed: [] },
    expect: { downloads: ['notes (2).txt'] },
  },
  {
    name: 'a complete view of many small new files in one folder: one archive',
    view: {
      complete: true,
      items: [
        [2, 'folder', ROOT, 'Photos'],
        ...Array.from({ length: 20 }, (_, i): R => [10 + i, 'file', 2, `p${i}.jpg`, 1000]),
        // Too big for the root's subtree to go as one archive.
        [3, 'file', ROOT, 'big.iso', 300 * 1024 * 1024],
      ],
      listed: [ROOT, 2],
    },
    expect: { structure: ['mkdir Photos'], archives: ['2: 20 files'], downloads: ['big.iso'] },
  },
  {
    name: 'an excluded folder there, renamed, with new files: nothing of it is placed here',
    excluded: [2],
    view: {
      items: [
        [2, 'folder', ROOT, 'Pictures'],
        [3, 'folder', 2, 'sub'],
        [4, 'file', 3, 'a.jpg'],
        [5, 'file', 2, 'b.jpg'],
        [6, 'file', ROOT, 'c.txt'],
      ],
      listed: [ROOT, 2, 3],
    },
    expect: { downloads: ['c.txt'] },
  },
  {
    name: 'a complete view without an excluded folder still recorded here: it is not gone',
    excluded: [2],
    journal: [
      [2, 'folder', ROOT, 'Photos', 'Photos'],
      [3, 'file', 2, 'p.jpg', 'Photos/p.jpg'],
      [4, 'file', ROOT, 'c.txt', 'c.txt'],
    ],
    view: { complete: true, items: [[4, 'file', ROOT, 'c.txt']], listed: [ROOT] },
    expect: {},
  },
];

const open: Journal[] = [];
afterEach(() => {
  for (const j of open.splice(0)) j.close();
});

function run(c: Case): Plan {
  const profile = c.profile ?? POSIX;
  const journal = new Journal(':memory:', { fold: (p) => foldName(p, profile) });
  open.push(journal);
  for (const j of c.journal ?? []) journal.items.upsert(row(j));
  journal.selection.set((c.excluded ?? []).map((id) => ({ id })));
  const view: RemoteView = {
    rootId: ROOT,
    complete: c.view.complete ?? false,
    items: new Map((c.view.items ?? []).map((r) => [r[0], remote(r)])),
    listed: new Set(c.view.listed ?? [ROOT]),
    gone: new Set(c.view.gone ?? []),
    unlisted: new Set(c.view.unlisted ?? []),
  };
  return planChanges(
    view,
    journal,
    planOptions({
      profile,
      mayDownload: c.mayDownload ?? true,
      retryNotPermitted: c.retryNotPermitted ?? false,
      deletedHere: new Set(c.deletedHere ?? []),
    }),
  );
}

const sorted = (paths: string[]) => [...paths].sort();

describe('planChanges', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const plan = run(c);
    expect({
      structure: plan.structure.map((op) => `${op.type} ${op.path}`),
      trash: sorted(plan.trash.map((j) => j.localPath)),
      downloads: sorted(plan.downloads.map((p) => p.path)),
      archives: plan.archives.map((a) => `${a.folderId}: ${a.files.size} files`),
      refused: sorted(plan.refused.map((p) => p.path)),
    }).toEqual({
      structure: c.expect.structure ?? [],
      trash: sorted(c.expect.trash ?? []),
      downloads: sorted(c.expect.downloads ?? []),
      archives: c.expect.archives ?? [],
      refused: sorted(c.expect.refused ?? []),
    });
  });

  it('a placement carries the item as the view shows it, and its local name', () => {
    const plan = run({
      name: 'placement',
      profile: WIN32,
      view: { items: [[2, 'file', ROOT, 'q?.txt', 42, T2]] },
      expect: {},
    });
    expect(plan.downloads).toEqual([
      { item: remote([2, 'file', ROOT, 'q?.txt', 42, T2]), path: 'q？.txt', name: 'q？.txt' },
    ]);
  });
});
