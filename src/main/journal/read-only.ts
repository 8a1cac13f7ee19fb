import Database from 'better-sqlite3';
import { MIGRATIONS } from './schema';

/** One row of a journal's `items` table, as a read-only lookup sees it. */
export interface JournalItemRow {
  remoteId: number;
  kind: 'file' | 'folder';
  remoteName: string;
  dev: number | null;
  ino: number | null;
  state: string;
}

/** The SQL of the read-only lookups, by name (test/journal/query-plans.test.ts checks each). */
export const READ_ONLY_SQL = {
  meta: `SELECT key, value FROM meta`,
  item: `SELECT remote_id, kind, remote_name, dev, ino, state FROM items WHERE path_key = ?`,
  // Browse from the synced tree (offline, and opening a synced item by its service id).
  byId: `SELECT remote_id, kind, remote_parent_id, remote_name, local_path, size, remote_size,
    remote_updated_at, mtime_ms, state FROM items WHERE remote_id = ?`,
  children: `SELECT remote_id, kind, remote_parent_id, remote_name, local_path, size, remote_size,
    remote_updated_at, mtime_ms, state FROM items WHERE remote_parent_id = ?`,
  // Browse's search of the whole workspace, as the person types: a part of a name anywhere in
  // the tree cannot use an index (the part may start anywhere), so this reads the table, up to
  // `limit` matches (a short query stops early). One LIKE on the name column, nothing joined:
  // 100,000 items in a few milliseconds (bench/search.bench.ts).
  search: `SELECT remote_id, kind, remote_parent_id, remote_name, local_path, size, remote_size,
    remote_updated_at, mtime_ms, state FROM items WHERE remote_name LIKE ? ESCAPE '\\' LIMIT ?`,
  // The folders left out here (selective sync): their contents are not in the journal.
  excludedCount: `SELECT count(*) AS n FROM excluded`,
} as const;

/**
 * Opens a journal for reading only, beside an engine that may be writing it in another process
 * (WAL: readers never block the writer; a checkpoint may hold us a moment, hence the timeout).
 * A journal written by a newer version (a schema past ours) is refused.
 */
function openReadOnly<T>(file: string, read: (db: Database.Database) => T): T {
  const db = new Database(file, { readonly: true, fileMustExist: true, timeout: 5000 });
  try {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > MIGRATIONS.length)
      throw new Error(`written by a newer version of Workspace Sync (schema ${version})`);
    return read(db);
  } finally {
    db.close();
  }
}

/** A journal's `meta` table (key → value), read without opening it for writing. */
export function readJournalMeta(file: string): Map<string, string> {
  return openReadOnly(
    file,
    (db) =>
      new Map(
        (db.prepare(READ_ONLY_SQL.meta).all() as { key: string; value: string }[]).map((r) => [
          r.key,
          r.value,
        ]),
      ),
  );
}

/** The item recorded under `pathKey` (a folded path, see sync/names.ts), or null. */
export function readJournalItem(file: string, pathKey: string): JournalItemRow | null {
  return openReadOnly(file, (db) => {
    const row = db.prepare(READ_ONLY_SQL.item).get(pathKey) as
      | {
          remote_id: number;
          kind: 'file' | 'folder';
          remote_name: string;
          dev: number | null;
          ino: number | null;
          state: string;
        }
      | undefined;
    return row
      ? {
          remoteId: row.remote_id,
          kind: row.kind,
          remoteName: row.remote_name,
          dev: row.dev,
          ino: row.ino,
          state: row.state,
        }
      : null;
  });
}

/** An item of the synced tree as Browse shows it from the journal (no service at hand). */
export interface SyncedItemRow {
  remoteId: number;
  kind: 'file' | 'folder';
  parentId: number;
  name: string;
  /** Relative to the sync root, '/'-separated. */
  localPath: string;
  /** Bytes as last synced (the service's size, else the size on disk). */
  size: number | null;
  /** The service's time when known, else the file's time on disk (epoch ms as an ISO string). */
  updatedAt: string | null;
  /** 'synced', or 'not-permitted' (known remotely, not on disk). */
  state: string;
}

interface SyncedRaw {
  remote_id: number;
  kind: 'file' | 'folder';
  remote_parent_id: number;
  remote_name: string;
  local_path: string;
  size: number | null;
  remote_size: number | null;
  remote_updated_at: string | null;
  mtime_ms: number | null;
  state: string;
}

function syncedOf(r: SyncedRaw): SyncedItemRow {
  return {
    remoteId: r.remote_id,
    kind: r.kind,
    parentId: r.remote_parent_id,
    name: r.remote_name,
    localPath: r.local_path,
    size: r.kind === 'folder' ? null : (r.remote_size ?? r.size),
    updatedAt:
      r.remote_updated_at ?? (r.mtime_ms === null ? null : new Date(r.mtime_ms).toISOString()),
    state: r.state,
  };
}

/** The synced item with this service id, or null. */
export function readSyncedItem(file: string, remoteId: number): SyncedItemRow | null {
  return openReadOnly(file, (db) => {
    const row = db.prepare(READ_ONLY_SQL.byId).get(remoteId) as SyncedRaw | undefined;
    return row ? syncedOf(row) : null;
  });
}

/** The synced items directly in the folder with this service id (unordered). */
export function readSyncedChildren(file: string, folderId: number): SyncedItemRow[] {
  return openReadOnly(file, (db) =>
    (db.prepare(READ_ONLY_SQL.children).all(folderId) as SyncedRaw[]).map(syncedOf),
  );
}

/** A LIKE pattern matching `part` anywhere, its own `%`, `_` and `\\` taken literally. */
export const containsPattern = (part: string) => `%${part.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Items of the whole synced tree whose name holds `part` (ASCII letters in any case: SQLite's
 * LIKE), at most `limit`, in no order (the caller orders the few it shows); and how many folders
 * are left out here, whose contents the journal does not hold.
 */
export function readSyncedMatches(
  file: string,
  part: string,
  limit: number,
): { rows: SyncedItemRow[]; excluded: number } {
  return openReadOnly(file, (db) => ({
    rows: (db.prepare(READ_ONLY_SQL.search).all(containsPattern(part), limit) as SyncedRaw[]).map(
      syncedOf,
    ),
    excluded: (db.prepare(READ_ONLY_SQL.excludedCount).get() as { n: number }).n,
  }));
}
