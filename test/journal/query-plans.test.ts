import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { Journal, type JournalItem } from '../../src/main/journal/journal';
import { READ_ONLY_SQL } from '../../src/main/journal/read-only';
import { MIGRATIONS } from '../../src/main/journal/schema';
import { TempDirs } from '../sync/harness';
import { syncedRow } from './synced-row';

// The journal at a million items (issue 25): every statement the journal prepares is served by
// an index, so that no pass reads a whole table. The statements are taken from the journal itself
// (`statementSql()`) and from read-only.ts, so a statement added there is checked here without a
// list to keep. The journal holds 20,000 items and rows in every other table, as after a mirror.

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

/**
 * Statements that may read a whole table, each because it returns every row by design and is
 * not run in every pass. Keep this short: a new statement belongs here only with such a reason.
 */
const WHOLE_TABLE_ALLOWED: Record<string, string> = {
  // The reconcile after a complete walk (down/plan.ts): every item is wanted, streamed in
  // path_key order off the items_path index (no sort, nothing held); only after a full walk,
  // which listed every item from the service already.
  'items.all': 'every item, after a full walk only',
  // The status's list of items that could not be synced, in time order off problems_at (no
  // sort). It holds only items with a problem, but under a role that may not download that is
  // every file: loop/status.ts reads them all to show the first 200 (a LIMIT would read 200).
  'problems.all': 'every problem, for the status',
  // Read once as an engine starts (loop/root.ts: which cache parts may resume), one row per
  // interrupted download.
  'downloads.all': 'every interrupted download, at start',
  // A full walk's staged listing (walk_items, walk_folders: emptied at each walk's start and end)
  // is read whole once per walk, streamed, by the statements below: the walk listed every one of
  // those rows from the service already, so each is one linear read per walk, never per item or
  // per poll. walk.goneTop reads the journal once per walk in path order (items_path, no sort) to
  // find the topmost items the walk did not see.
  'walk.fileStats': 'per folder, the files a walk staged: archive choice, once per walk',
  'walk.twins': 'folders a walk staged with two children of one name, once per walk',
  'walk.folderTree': 'the folders a walk staged, in listing order, once per walk',
  'walk.goneTop': 'items a walk did not see, once per walk, in index order',
  'walk.work': 'what a walk found to do (status totals), once per walk',
  'walk.workOnline': 'the same where new files arrive as placeholders, once per walk',
  // Files on demand: the pins of a pair, a handful of paths chosen by a person, read whole once
  // per chunk planned (down/plan.ts).
  'onDemand.pins': 'the pins, a handful chosen by a person, per chunk planned',
  // Selective sync: the folders left out of a pair, a handful chosen by a person, read whole
  // before each pass (loop/selection.ts; an item looked up by its key for each).
  'selection.all': 'the folders not synced here, a handful',
  'selection.here': 'the folders not synced here still recorded, a handful',
  // Conflicts kept for the person and the problems they dismissed (schema part 7): rows a person
  // makes and clears one by one, read whole for the status. Checked here since the journal became
  // repositories (they were apart before); a conflict's copy has no index, so making a conflict
  // reads the list once (an index would need a migration).
  'problems.conflictsAll': 'the conflicts kept for the person, for the status',
  'problems.conflictDelCopy': 'the conflicts kept, once per conflict made',
  'problems.dismissed': 'the problems a person dismissed, for the status',
  // A pair's settings, a handful of keys, read whole by the links lookup.
  'readOnly.meta': 'the few settings of a pair',
  // Browse's search of the whole workspace (issue 42): a part of a name may start anywhere, so
  // no index serves it; run as a person types, never by a pass, and stopped at its LIMIT
  // (bench/search.bench.ts: p95 over 100,000 items). The count of folders left out, a handful.
  'readOnly.search': "Browse's search as a person types, bounded by its LIMIT",
  'readOnly.excludedCount': 'the folders not synced here, a handful',
};

let nextId = 1;
function item(localPath: string, kind: 'folder' | 'file', parent: number): JournalItem {
  return syncedRow(nextId++, localPath, kind, parent);
}

/** A journal of 20,000 items (2,000 folders of 9 files each), with rows in every table. */
function bigJournal(): Journal {
  const j = new Journal(path.join(dirs.make('plans-'), 'journal.db'));
  j.transaction(() => {
    for (let f = 0; f < 2_000; f++) {
      const folder = item(`Folder ${f}`, 'folder', 0);
      j.items.upsert(folder);
      for (let k = 0; k < 9; k++) {
        j.items.upsert(item(`Folder ${f}/file ${k}.txt`, 'file', folder.remoteId));
      }
    }
    for (let i = 0; i < 2_000; i++) {
      const id = j.outbox.add('upload', { i }, 1_000 + i);
      j.outbox.complete(id, null, 2_000 + i);
      j.feed.record([{ id: i, timeMs: 1_000 * i }], { startMs: 0, unknown: 0, unknownUntilMs: 0 });
      j.feed.noteOwnChange(i, 1_000 * i);
      j.problems.set({
        key: `p${i}`,
        path: `x${i}`,
        remoteId: i,
        reason: 'r',
        message: 'm',
        at: i,
      });
      j.downloads.put({ remoteId: i, tempName: `${i}.part`, remoteUpdatedAt: null, remoteSize: 1 });
      j.keptNames.keep({ dev: 1, ino: i }, `n${i}`, `n${i}`);
    }
  });
  return j;
}

/** `EXPLAIN QUERY PLAN` of `sql` with every parameter bound to null: one line per step. */
function planOf(db: Database.Database, sql: string): string[] {
  const named = [...new Set(sql.match(/[@:$][A-Za-z_]\w*/g) ?? [])];
  const positional = (sql.match(/\?/g) ?? []).length;
  const stmt = db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
  const rows = (
    named.length > 0
      ? stmt.all(Object.fromEntries(named.map((n) => [n.slice(1), null])))
      : stmt.all(...Array<null>(positional).fill(null))
  ) as { detail: string }[];
  return rows.map((r) => r.detail);
}

/**
 * The steps that read a whole table: `SCAN t` (with or without an index), and on `items`, the
 * table that grows to a million rows, a search by one open-ended range (`ino IS NOT NULL` is
 * planned as `SEARCH items USING ... (ino>?)`: about every row).
 */
const fullScans = (plan: string[]) =>
  plan.filter((d) => /^SCAN /.test(d) || /^SEARCH items .*\(\w+[<>]=?\?\)$/.test(d));

describe('the journal at scale', () => {
  it('serves every statement from an index (no full scan outside a short allow-list)', () => {
    const j = bigJournal();
    try {
      const statements: Record<string, string> = { ...j.statementSql() };
      for (const [name, sql] of Object.entries(READ_ONLY_SQL)) statements[`readOnly.${name}`] = sql;
      // The journal's own statements are all there (a guard against an empty list passing).
      expect(Object.keys(statements).length).toBeGreaterThan(30);
      const offenders: string[] = [];
      for (const [name, sql] of Object.entries(statements)) {
        const scans = fullScans(planOf(j.db, sql));
        if (scans.length > 0 && !(name in WHOLE_TABLE_ALLOWED)) {
          offenders.push(`${name}: ${scans.join('; ')}`);
        }
      }
      expect(offenders).toEqual([]);
      // The allow-list names only statements that exist and still scan.
      for (const name of Object.keys(WHOLE_TABLE_ALLOWED)) {
        expect(statements[name], `${name} is not a statement any more`).toBeDefined();
      }
    } finally {
      j.close();
    }
  });

  it('keeps its counts of items, folders and items here through every change', () => {
    const j = bigJournal();
    try {
      const truth = () =>
        j.db
          .prepare(
            `SELECT count(*) AS items, count(CASE WHEN kind = 'folder' THEN 1 END) AS folders,
              count(ino) AS here FROM items`,
          )
          .get() as { items: number; folders: number; here: number };
      const counted = () => ({
        items: j.items.count(),
        folders: j.items.folderCount(),
        here: j.items.countHere(),
      });
      expect(counted()).toEqual({ items: 20_000, folders: 2_000, here: 20_000 });

      // An upsert that updates: no longer here (a not-permitted file), then a kind change.
      const f = j.items.atPath('Folder 3/file 4.txt')!;
      j.items.upsert({ ...f, ino: null, dev: null, state: 'not-permitted' });
      j.items.upsert({ ...f, ino: null, dev: null, size: 11 });
      const g = j.items.atPath('Folder 4/file 1.txt')!;
      j.items.upsert({ ...g, kind: 'folder' });
      // A folder moved, one removed with everything below it, one item removed, new ones.
      j.items.moveTree(j.items.atPath('Folder 5')!, { localPath: 'Moved', localName: 'Moved' });
      j.items.removeTree(j.items.atPath('Folder 6')!);
      j.items.removeTree(j.items.atPath('Folder 7/file 0.txt')!);
      j.items.upsert(item('New folder', 'folder', 0));
      j.items.upsert({ ...item('New folder/new.txt', 'file', 0), ino: null, dev: null });
      expect(counted()).toEqual(truth());
      expect(counted()).toEqual({ items: 19_991, folders: 2_001, here: 19_989 });
    } finally {
      j.close();
    }
  });

  it('counts what a journal of the previous schema held when it is opened', () => {
    const file = path.join(dirs.make('plans-old-'), 'journal.db');
    const db = new Database(file);
    for (const m of MIGRATIONS.slice(0, 4)) db.exec(m);
    db.pragma('user_version = 4');
    const insert = db.prepare(`INSERT INTO items (remote_id, kind, remote_parent_id, remote_name,
      local_path, local_name, path_key, ino) VALUES (?, ?, 0, ?, ?, ?, ?, ?)`);
    for (let i = 1; i <= 30; i++) {
      const name = `n${i}`;
      insert.run(i, i % 3 === 0 ? 'folder' : 'file', name, name, name, name, i % 5 ? i : null);
    }
    db.close();
    const j = new Journal(file);
    try {
      expect({
        items: j.items.count(),
        folders: j.items.folderCount(),
        here: j.items.countHere(),
      }).toEqual({
        items: 30,
        folders: 10,
        here: 24,
      });
    } finally {
      j.close();
    }
  });
});
