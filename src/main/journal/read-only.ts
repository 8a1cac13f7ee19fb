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
