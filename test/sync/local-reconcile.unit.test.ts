import { createHash } from 'node:crypto';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Journal, type JournalItem } from '../../src/main/journal/journal';
import { scanAndPlan, type LocalPlan } from '../../src/main/sync/up/reconcile';
import { LocalRoot } from '../../src/main/sync/local';
import { FRESH_CHUNK, freshUploads } from '../../src/main/sync/up/fresh';

// The local reconciler (disk scan + journal → operations for the service) on real temporary
// folders and an in-memory journal, case by case. The journal is written from the disk as it
// was synced (lstat of each entry), then the row's change is made, then the scan plans.

const ROOT = 1;

/** Changes to a folder, by '/'-separated relative paths. */
class Disk {
  constructor(readonly dir: string) {}
  abs(rel: string): string {
    return path.join(this.dir, ...rel.split('/'));
  }
  mkdir(rel: string): this {
    mkdirSync(this.abs(rel));
    return this;
  }
  write(rel: string, data: string): this {
    writeFileSync(this.abs(rel), data);
    return this;
  }
  /** Sets a file's time (a copy or restore that keeps it). */
  touch(rel: string, at: Date): this {
    utimesSync(this.abs(rel), at, at);
    return this;
  }
  mv(from: string, to: string): this {
    renameSync(this.abs(from), this.abs(to));
    return this;
  }
  rm(rel: string): this {
    rmSync(this.abs(rel), { recursive: true });
    return this;
  }
  /** An editor's save: the new content written aside, then renamed over the file. */
  saveViaTemp(rel: string, data: string): this {
    return this.write(`${rel}.tmp`, data).mv(`${rel}.tmp`, rel);
  }
}

interface Case {
  name: string;
  /** The synced tree: folders end with '/'; each is a journal row, ids from 2 in this order. */
  synced?: string[];
  /** The synced files' bytes (`synced <path>` by default). */
  content?: (rel: string) => string;
  /** The synced files' time, all the same (else whenever they were written). */
  time?: Date;
  /** What the user did since. */
  change?: (d: Disk) => void;
  /** After the change: the journal as the row needs it (an inode the volume gave again). */
  patch?: (journal: Journal, d: Disk) => void;
  /** Folders the scan lists ('' and all below by default), and whether it is complete. */
  dirs?: string[];
  complete?: boolean;
  /** Paths of synced items a previous partial scan found missing. */
  missingBefore?: string[];
  /** The journal compares names this way (a case-insensitive volume: lower case). */
  fold?: 'lower';
  /** Files changed less than this long ago are still being written. */
  writeQuietMs?: number;
  expect: {
    mkdirs?: string[];
    /** `from -> to`. */
    moves?: string[];
    /** The path, and ` (new version of <path>)` when it is one. */
    uploads?: string[];
    /** `path (count)`. */
    deletes?: string[];
    unconfirmed?: string[];
    relinks?: string[];
  };
}

/** Editors' temporary files and logs, as an ignore file would have them. */
const ignores = (rel: string) => rel.endsWith('.tmp') || rel.endsWith('.log');

const cases: Case[] = [
  {
    name: 'nothing changed: nothing to do',
    synced: ['Docs/', 'Docs/a.txt', 'b.txt'],
    expect: {},
  },
  {
    name: 'a new file: uploaded as new',
    synced: ['Docs/'],
    change: (d) => d.write('Docs/new.txt', 'new'),
    expect: { uploads: ['Docs/new.txt'] },
  },
  {
    name: 'a new folder with contents: folders parents first, then its files',
    change: (d) =>
      d
        .mkdir('N')
        .mkdir('N/sub')
        .write('N/a.txt', 'a')
        .mkdir('N/sub/deep')
        .write('N/sub/b.txt', 'b'),
    expect: { mkdirs: ['N', 'N/sub', 'N/sub/deep'], uploads: ['N/a.txt', 'N/sub/b.txt'] },
  },
  {
    name: 'an edited file: a new version of its item',
    synced: ['a.txt'],
    change: (d) => d.write('a.txt', 'edited, and longer'),
    expect: { uploads: ['a.txt (new version of a.txt)'] },
  },
  {
    name: 'a renamed file: one move',
    synced: ['a.txt'],
    change: (d) => d.mv('a.txt', 'b.txt'),
    expect: { moves: ['a.txt -> b.txt'] },
  },
  {
    name: 'a file moved to another folder: one move',
    synced: ['A/', 'A/x.txt', 'B/'],
    change: (d) => d.mv('A/x.txt', 'B/x.txt'),
    expect: { moves: ['A/x.txt -> B/x.txt'] },
  },
  {
    name: 'a folder moved deep into another: one move, what it holds settled with it',
    synced: ['A/', 'A/B/', 'A/B/c.txt', 'A/B/C/', 'A/B/C/d.txt', 'D/', 'D/E/'],
    change: (d) => d.mv('A/B', 'D/E/B'),
    expect: { moves: ['A/B -> D/E/B'] },
  },
  {
    name: 'a folder renamed and a file in it edited: the move, and the new version at its new place',
    synced: ['A/', 'A/x.txt'],
    change: (d) => d.mv('A', 'Z').write('Z/x.txt', 'edited, and longer'),
    expect: { moves: ['A -> Z'], uploads: ['Z/x.txt (new version of A/x.txt)'] },
  },
  {
    name: 'a file deleted, seen by a complete scan: deleted',
    synced: ['a.txt', 'b.txt'],
    change: (d) => d.rm('a.txt'),
    expect: { deletes: ['a.txt (1)'] },
  },
  {
    name: 'a file deleted, seen once by a partial scan: unconfirmed (the other half of a move may come)',
    synced: ['a.txt', 'b.txt'],
    change: (d) => d.rm('a.txt'),
    dirs: [''],
    complete: false,
    expect: { unconfirmed: ['a.txt'] },
  },
  {
    name: 'a file deleted, seen by a partial scan after a previous one found it missing: deleted',
    synced: ['a.txt', 'b.txt'],
    change: (d) => d.rm('a.txt'),
    dirs: [''],
    complete: false,
    missingBefore: ['a.txt'],
    expect: { deletes: ['a.txt (1)'] },
  },
  {
    name: 'a partial scan of one folder: what it did not list is not judged',
    synced: ['A/', 'A/x.txt', 'B/', 'B/y.txt'],
    change: (d) => d.rm('A/x.txt').rm('B/y.txt'),
    dirs: ['B'],
    complete: false,
    missingBefore: ['B/y.txt'],
    expect: { deletes: ['B/y.txt (1)'] },
  },
  {
    name: 'a folder deleted: one delete, counting what it held',
    synced: ['Docs/', 'Docs/a.txt', 'Docs/sub/', 'Docs/sub/b.txt', 'c.txt'],
    change: (d) => d.rm('Docs'),
    expect: { deletes: ['Docs (4)'] },
  },
  {
    name: "an editor's save through a temporary file (new inode, same place): a new version, not delete + new",
    synced: ['a.txt'],
    change: (d) => d.saveViaTemp('a.txt', 'saved, and longer'),
    expect: { uploads: ['a.txt (new version of a.txt)'] },
  },
  {
    name: 'a file deleted and its inode given to a new file: the new one is new, the old one deleted',
    synced: ['a.txt'],
    change: (d) => d.rm('a.txt').write('b.txt', 'another file, another size'),
    // ext4 hands a freed inode to the next file made; here the journal is told so.
    patch: (journal, d) => {
      const j = journal.items.atPath('a.txt')!;
      journal.items.upsert({ ...j, ino: lstatSync(d.abs('b.txt')).ino });
    },
    expect: { uploads: ['b.txt'], deletes: ['a.txt (1)'] },
  },
  {
    name: 'a case-only rename on a case-sensitive volume: a move',
    synced: ['notes.txt'],
    change: (d) => d.mv('notes.txt', 'Notes.txt'),
    expect: { moves: ['notes.txt -> Notes.txt'] },
  },
  {
    name: 'a case-only rename on a case-insensitive volume (journal folds case): a move',
    fold: 'lower',
    synced: ['Docs/', 'notes.txt'],
    change: (d) => d.mv('notes.txt', 'Notes.txt').mv('Docs', 'docs'),
    expect: { moves: ['Docs -> docs', 'notes.txt -> Notes.txt'] },
  },
  {
    name: 'ignored paths are never deleted (there and unreported, or gone)',
    synced: ['keep.log', 'Docs/', 'Docs/gone.log', 'a.txt'],
    change: (d) => d.rm('Docs/gone.log'),
    expect: {},
  },
  {
    name: 'files still being written are not uploaded yet (new or changed)',
    synced: ['a.txt'],
    writeQuietMs: 60_000,
    change: (d) => d.write('a.txt', 'being written').write('b.txt', 'being written'),
    expect: {},
  },
  {
    name: 'a folder deleted and made again (new inode): relinked, nothing sent',
    synced: ['Docs/'],
    // Made before the old one is removed: a new inode (a freed one may be handed out again).
    change: (d) => d.mv('Docs', 'old').mkdir('Docs').rm('old'),
    expect: { relinks: ['Docs'] },
  },
  {
    name: 'a folder made again, its file put back in it: relinked, the file settled as it was',
    synced: ['Docs/', 'Docs/a.txt'],
    change: (d) => d.mv('Docs', 'old').mkdir('Docs').mv('old/a.txt', 'Docs/a.txt').rm('old'),
    expect: { relinks: ['Docs'] },
  },
  {
    name: 'a file replaced by a folder of its name, and a folder by a file: both go, both come',
    synced: ['Notes.txt/', 'plan.md'],
    change: (d) => d.rm('Notes.txt').write('Notes.txt', 'mine').rm('plan.md').mkdir('plan.md'),
    expect: {
      mkdirs: ['plan.md'],
      uploads: ['Notes.txt'],
      deletes: ['Notes.txt (1)', 'plan.md (1)'],
    },
  },
  {
    name: 'two files swapped by name: two moves, no upload',
    synced: ['a.txt', 'b.txt'],
    change: (d) => d.mv('a.txt', 'x').mv('b.txt', 'a.txt').mv('x', 'b.txt'),
    expect: { moves: ['a.txt -> b.txt', 'b.txt -> a.txt'] },
  },
  // Swaps and rotations (issue 37). Equal bytes at the old names are the old items, whatever
  // their inodes say; the uploads below find the journal's hash and send nothing.
  ...swapCases(),
];

function swapCases(): Case[] {
  const same = () => 'placeholder\n';
  const time = new Date('2001-01-02T00:00:00Z');
  const swap = (d: Disk) => d.mv('a.txt', 't').mv('b.txt', 'a.txt').mv('t', 'b.txt');
  /** The journal's inodes of a.txt and b.txt exchanged: what a re-creation into each other's
   * freed inodes looks like, deterministically. */
  const crosswise = (journal: Journal) => {
    const a = journal.items.atPath('a.txt')!;
    const b = journal.items.atPath('b.txt')!;
    journal.items.upsert({ ...a, ino: b.ino });
    journal.items.upsert({ ...b, ino: a.ino });
  };
  const inPlace = ['a.txt (new version of a.txt)', 'b.txt (new version of b.txt)'];
  return [
    {
      name: 'swap, same bytes and time: each name keeps its item (nothing moves)',
      synced: ['a.txt', 'b.txt'],
      content: same,
      time,
      change: swap,
      expect: { uploads: inPlace },
    },
    {
      name: 'swap, different bytes of the same size and time: two moves (the bytes tell)',
      synced: ['a.txt', 'b.txt'],
      time,
      change: swap,
      expect: { moves: ['a.txt -> b.txt', 'b.txt -> a.txt'] },
    },
    {
      name: 'rotation of three, same bytes and time: nothing moves',
      synced: ['a.txt', 'b.txt', 'c.txt'],
      content: same,
      time,
      change: (d) => d.mv('a.txt', 't').mv('c.txt', 'a.txt').mv('b.txt', 'c.txt').mv('t', 'b.txt'),
      expect: { uploads: [...inPlace, 'c.txt (new version of c.txt)'] },
    },
    {
      name: 'rotation of three, different bytes of the same size and time: three moves',
      synced: ['a.txt', 'b.txt', 'c.txt'],
      time,
      change: (d) => d.mv('a.txt', 't').mv('c.txt', 'a.txt').mv('b.txt', 'c.txt').mv('t', 'b.txt'),
      expect: { moves: ['a.txt -> b.txt', 'b.txt -> c.txt', 'c.txt -> a.txt'] },
    },
    {
      name: "re-created into each other's inodes, same bytes and time: nothing moves",
      synced: ['a.txt', 'b.txt'],
      content: same,
      time,
      patch: crosswise,
      expect: { uploads: inPlace },
    },
    {
      name: "re-created into each other's inodes, new bytes of the same size and time: new versions",
      synced: ['a.txt', 'b.txt'],
      time,
      change: (d) =>
        d
          .write('a.txt', 'edited a.txt')
          .touch('a.txt', time)
          .write('b.txt', 'edited b.txt')
          .touch('b.txt', time),
      patch: crosswise,
      expect: { uploads: inPlace },
    },
    {
      name: "re-created into each other's inodes with each other's bytes: two moves",
      synced: ['a.txt', 'b.txt'],
      time,
      change: (d) =>
        d
          .write('a.txt', 'synced b.txt')
          .touch('a.txt', time)
          .write('b.txt', 'synced a.txt')
          .touch('b.txt', time),
      patch: crosswise,
      expect: { moves: ['a.txt -> b.txt', 'b.txt -> a.txt'] },
    },
    // Issue 37, found by the soak: files of a colleague's bulk upload (one time, sizes that
    // differ) deleted and written anew crosswise, one into the other's freed inode, the other
    // into a new one. The file in the reused inode keeps its place; so must the other (its
    // place's identity is there, but that file is not moving): new versions, never a new file
    // and a delete of the item at its name.
    ...(['a.txt', 'b.txt'] as const).map((reused): Case => ({
      name: `re-created crosswise (sizes differ), ${reused} into the other's freed inode, the other into a new one: new versions, nothing deleted`,
      synced: ['a.txt', 'b.txt'],
      content: (rel) => (rel === 'a.txt' ? 'short\n' : 'a longer one\n'),
      time,
      change: (d) =>
        d
          .write('a.txt', 'a longer one\n')
          .touch('a.txt', time)
          .write('b.txt', 'short\n')
          .touch('b.txt', time),
      patch: (journal, d) => {
        const other = reused === 'a.txt' ? 'b.txt' : 'a.txt';
        const j = journal.items.atPath(other)!;
        const mine = journal.items.atPath(reused)!;
        journal.items.upsert({ ...j, ino: lstatSync(d.abs(reused)).ino });
        // An inode nothing on this disk has: the one the re-created file left.
        journal.items.upsert({ ...mine, ino: 2 ** 40 + 7 });
      },
      expect: { uploads: inPlace },
    })),
    {
      name: 'an item left aside on the service under a temporary name, in place here: renamed back',
      synced: ['a.txt', 'b.txt'],
      patch: (journal) => {
        const a = journal.items.atPath('a.txt')!;
        journal.items.upsert({ ...a, remoteName: 'a (moving 0a1b2c).txt' });
      },
      expect: { moves: ['a.txt -> a.txt'] },
    },
    {
      name: 'two folders swapped by name: two moves (a folder is its identity)',
      synced: ['A/', 'A/x.txt', 'B/', 'B/y.txt'],
      change: (d) => d.mv('A', 'T').mv('B', 'A').mv('T', 'B'),
      expect: { moves: ['A -> B', 'B -> A'] },
    },
  ];
}

const sha = (data: string) => createHash('sha256').update(data).digest('hex');

const made: string[] = [];
const journals: Journal[] = [];
afterEach(() => {
  for (const j of journals.splice(0)) j.close();
});
afterAll(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}, 120_000);

/** The synced tree on disk and in the journal, as the engine would have recorded it. */
function syncedState(c: Case): { disk: Disk; journal: Journal; ids: Map<string, number> } {
  const base = mkdtempSync(path.join(tmpdir(), 'wsync-unit-'));
  made.push(base);
  const disk = new Disk(path.join(base, 'Workspace'));
  mkdirSync(disk.dir);
  const journal = new Journal(':memory:', {
    fold: c.fold === 'lower' ? (p) => p.toLowerCase() : undefined,
  });
  journals.push(journal);
  const ids = new Map<string, number>([['', ROOT]]);
  const entries = (c.synced ?? []).map((p) => ({
    rel: p.replace(/\/$/, ''),
    folder: p.endsWith('/'),
  }));
  const content = (rel: string) => c.content?.(rel) ?? `synced ${rel}`;
  for (const { rel, folder } of entries) {
    if (folder) disk.mkdir(rel);
    else disk.write(rel, content(rel));
    if (!folder && c.time) disk.touch(rel, c.time);
  }
  entries.forEach(({ rel, folder }, i) => {
    const id = i + 2;
    ids.set(rel, id);
    const st = lstatSync(disk.abs(rel));
    const name = rel.slice(rel.lastIndexOf('/') + 1);
    const parent = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
    const row: JournalItem = {
      remoteId: id,
      kind: folder ? 'folder' : 'file',
      remoteParentId: ids.get(parent)!,
      remoteName: name,
      localPath: rel,
      localName: name,
      dev: st.dev,
      ino: st.ino,
      size: folder ? 0 : st.size,
      mtimeMs: st.mtimeMs,
      hash: folder ? null : sha(content(rel)),
      remoteSize: folder ? null : st.size,
      remoteUpdatedAt: '2026-01-01T10:00:00Z',
      state: 'synced',
    };
    journal.items.upsert(row);
  });
  return { disk, journal, ids };
}

/** The plan, with its new files listed again as the sender does (up/fresh.ts). */
async function run(c: Case): Promise<LocalPlan> {
  const { disk, journal, ids } = syncedState(c);
  c.change?.(disk);
  c.patch?.(journal, disk);
  const local = new LocalRoot(disk.dir);
  const { plan } = await scanAndPlan(local, journal, c.dirs ?? [''], c.complete ?? true, {
    rootId: ROOT,
    ignores,
    missingBefore: new Set((c.missingBefore ?? []).map((p) => ids.get(p)!)),
    descend: () => c.dirs === undefined,
    writeQuietMs: c.writeQuietMs ?? 0,
  });
  let fresh = 0;
  for await (const chunk of freshUploads(local, journal, plan.fresh.dirs, {
    ignores,
    writeQuietMs: c.writeQuietMs ?? 0,
  })) {
    plan.uploads.push(...chunk);
    fresh += chunk.length;
  }
  expect(fresh).toBe(plan.fresh.files);
  return plan;
}

const sorted = (list: string[]) => [...list].sort();

describe('scanAndPlan (LocalReconciler)', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const plan = await run(c);
    expect({
      // In the plan's order: parents before children.
      mkdirs: plan.mkdirs.map((op) => op.entry.path),
      moves: sorted(plan.moves.map((op) => `${op.item.localPath} -> ${op.entry.path}`)),
      uploads: sorted(
        plan.uploads.map(
          (op) => op.entry.path + (op.item ? ` (new version of ${op.item.localPath})` : ''),
        ),
      ),
      deletes: sorted(plan.deletes.map((op) => `${op.item.localPath} (${op.count})`)),
      unconfirmed: sorted(plan.unconfirmed.map((j) => j.localPath)),
      relinks: sorted(plan.relinks.map((op) => op.entry.path)),
    }).toEqual({
      mkdirs: c.expect.mkdirs ?? [],
      moves: sorted(c.expect.moves ?? []),
      uploads: sorted(c.expect.uploads ?? []),
      deletes: sorted(c.expect.deletes ?? []),
      unconfirmed: sorted(c.expect.unconfirmed ?? []),
      relinks: sorted(c.expect.relinks ?? []),
    });
  });
});

describe('scanAndPlan holds what changed, not the tree', () => {
  // 200 folders of 99 files: 20,000 entries. What the reconciler holds at any time (entries kept,
  // operations, records, paths) stays below a bound set by one folder and the scan's frontier.
  const FOLDERS = 200;
  const FILES = 99;
  const BOUND = 1_000;

  /** The tree on disk once for both cases (writing 20,000 files is the slow part). */
  let dir = '';
  beforeAll(() => {
    const base = mkdtempSync(path.join(tmpdir(), 'wsync-unit-big-'));
    made.push(base);
    dir = path.join(base, 'Workspace');
    mkdirSync(dir);
    for (let f = 0; f < FOLDERS; f++) {
      mkdirSync(path.join(dir, `Folder ${f}`));
      for (let i = 0; i < FILES; i++) {
        const rel = `Folder ${f}/file ${i}.txt`;
        writeFileSync(path.join(dir, rel), rel);
      }
    }
  }, 120_000);

  /** The tree, and a journal that has it all as synced (else an empty one). */
  function bigTree(synced: boolean): { local: LocalRoot; journal: Journal } {
    const journal = new Journal(':memory:');
    journals.push(journal);
    let id = ROOT + 1;
    const record = (rel: string, parentId: number, folder: boolean): number => {
      const st = lstatSync(path.join(dir, rel));
      const name = path.basename(rel);
      journal.items.upsert({
        remoteId: id,
        kind: folder ? 'folder' : 'file',
        remoteParentId: parentId,
        remoteName: name,
        localPath: rel,
        localName: name,
        dev: st.dev,
        ino: st.ino,
        size: folder ? 0 : st.size,
        mtimeMs: st.mtimeMs,
        hash: null,
        remoteSize: folder ? null : st.size,
        remoteUpdatedAt: '2026-01-01T10:00:00Z',
        state: 'synced',
      });
      return id++;
    };
    if (synced) {
      journal.transaction(() => {
        for (let f = 0; f < FOLDERS; f++) {
          const folderId = record(`Folder ${f}`, ROOT, true);
          for (let i = 0; i < FILES; i++) record(`Folder ${f}/file ${i}.txt`, folderId, false);
        }
      });
    }
    return { local: new LocalRoot(dir), journal };
  }

  const opts = {
    rootId: ROOT,
    ignores,
    missingBefore: new Set<number>(),
    descend: () => true,
    writeQuietMs: 0,
  };

  it('a startup scan of 20,000 unchanged entries', async () => {
    const { local, journal } = bigTree(true);
    const { plan, seen, peakHeld } = await scanAndPlan(local, journal, [''], true, opts);
    expect(seen).toBe(FOLDERS * (FILES + 1));
    expect(plan.uploads.length + plan.mkdirs.length + plan.deletes.length).toBe(0);
    expect(peakHeld).toBeLessThan(BOUND);
  }, 60_000);

  it('an up of 20,000 new entries: new files are counted by folder, not kept', async () => {
    const { local, journal } = bigTree(false);
    const { plan, seen, peakHeld } = await scanAndPlan(local, journal, [''], true, opts);
    expect(seen).toBe(FOLDERS * (FILES + 1));
    expect(plan.mkdirs.length).toBe(FOLDERS);
    expect(plan.fresh.files).toBe(FOLDERS * FILES);
    expect(peakHeld).toBeLessThan(BOUND);
    // Listed again when sent, a chunk at a time: every new file, once.
    let files = 0;
    for await (const chunk of freshUploads(local, journal, plan.fresh.dirs, opts)) {
      expect(chunk.length).toBeLessThanOrEqual(FRESH_CHUNK);
      files += chunk.length;
    }
    expect(files).toBe(FOLDERS * FILES);
  }, 60_000);
});
