import type { ItemKind } from '../../shared/item-kind';
import type { ProblemsRepo } from './problems';
import { Repository, transaction } from './repository';
import type { Db } from './schema';

/** 'online': kept on the service only, a placeholder here (docs/SYNC.md, Files on demand). */
export type ItemState = 'synced' | 'not-permitted' | 'online';

/** One synced item: the remote side and the local side as they were when both agreed. */
export interface JournalItem {
  remoteId: number;
  kind: ItemKind;
  remoteParentId: number;
  remoteName: string;
  /** Relative to the sync root, '/'-separated, in local (mapped) names. */
  localPath: string;
  localName: string;
  dev: number | null;
  ino: number | null;
  size: number | null;
  mtimeMs: number | null;
  /** sha256 of the local content (files). */
  hash: string | null;
  remoteSize: number | null;
  remoteUpdatedAt: string | null;
  state: ItemState;
}

/** What the local scan compares of an item: its identity and facts where it is recorded. */
export type ChildFacts = Pick<
  JournalItem,
  'remoteId' | 'kind' | 'localName' | 'dev' | 'ino' | 'size' | 'mtimeMs' | 'state'
>;

/** A row of `items` as SQLite gives it (walk.ts reads them too). */
export type ItemRow = {
  remote_id: number;
  kind: ItemKind;
  remote_parent_id: number;
  remote_name: string;
  local_path: string;
  local_name: string;
  path_key: string;
  dev: number | null;
  ino: number | null;
  size: number | null;
  mtime_ms: number | null;
  hash: string | null;
  remote_size: number | null;
  remote_updated_at: string | null;
  state: ItemState;
};

export function fromItemRow(r: ItemRow): JournalItem {
  return {
    remoteId: r.remote_id,
    kind: r.kind,
    remoteParentId: r.remote_parent_id,
    remoteName: r.remote_name,
    localPath: r.local_path,
    localName: r.local_name,
    dev: r.dev,
    ino: r.ino,
    size: r.size,
    mtimeMs: r.mtime_ms,
    hash: r.hash,
    remoteSize: r.remote_size,
    remoteUpdatedAt: r.remote_updated_at,
    state: r.state,
  };
}

const codePoints = (s: string) => Array.from(s).length;

/** For `folder/`: a bound above every path below the folder ('0' is the character after '/'). */
const subtreeEnd = (folderKeyWithSlash: string) => folderKeyWithSlash.slice(0, -1) + '0';

/** Rows of a subtree moved or removed by one statement, at most (see `eachTreeChunk`). */
export const TREE_CHUNK = 1024;

const SQL = {
  get: `SELECT * FROM items WHERE remote_id = ?`,
  byKey: `SELECT * FROM items WHERE path_key = ?`,
  children: `SELECT * FROM items WHERE remote_parent_id = ?`,
  // The local scan's one query per folder: only what matching an entry needs, as arrays.
  childFacts: `SELECT remote_id, kind, local_name, dev, ino, size, mtime_ms, state
    FROM items WHERE remote_parent_id = ? AND NOT (local_path > ? AND local_path < ?)`,
  byInode: `SELECT * FROM items WHERE ino = ? AND dev = ?`,
  upsert: `INSERT INTO items (remote_id, kind, remote_parent_id, remote_name, local_path,
      local_name, path_key, dev, ino, size, mtime_ms, hash, remote_size, remote_updated_at, state)
    VALUES (@remote_id, @kind, @remote_parent_id, @remote_name, @local_path, @local_name,
      @path_key, @dev, @ino, @size, @mtime_ms, @hash, @remote_size, @remote_updated_at, @state)
    ON CONFLICT (remote_id) DO UPDATE SET kind = excluded.kind,
      remote_parent_id = excluded.remote_parent_id, remote_name = excluded.remote_name,
      local_path = excluded.local_path, local_name = excluded.local_name,
      path_key = excluded.path_key, dev = excluded.dev, ino = excluded.ino,
      size = excluded.size, mtime_ms = excluded.mtime_ms, hash = excluded.hash,
      remote_size = excluded.remote_size, remote_updated_at = excluded.remote_updated_at,
      state = excluded.state`,
  remove: `DELETE FROM items WHERE remote_id = ?`,
  descendants: `SELECT * FROM items WHERE path_key > ? AND path_key < ? ORDER BY path_key`,
  removeDescendants: `DELETE FROM items WHERE path_key > ? AND path_key <= ?`,
  moveDescendants: `UPDATE items SET local_path = ? || substr(local_path, ?),
      path_key = ? || substr(path_key, ?) WHERE path_key > ? AND path_key <= ?`,
  // Pins (on-demand.ts) are local paths: the one of a moved item, and those below it, go with it.
  // ('0' follows '/': the range is the paths below, served by the table's key.)
  movePins: `UPDATE OR REPLACE pins SET path = ? || substr(path, ?)
      WHERE path = ? OR (path >= ? AND path < ?)`,
  // The key `offset` rows into a range (a chunk's last key): served by items_path.
  keyAfter: `SELECT path_key FROM items WHERE path_key > ? AND path_key < ?
      ORDER BY path_key LIMIT 1 OFFSET ?`,
  lastKeyBefore: `SELECT max(path_key) FROM items WHERE path_key > ? AND path_key < ?`,
  // Kept by triggers (schema part 5): a count(*) would read the whole table each pass.
  count: `SELECT items FROM item_counts WHERE id = 1`,
  countHere: `SELECT here FROM item_counts WHERE id = 1`,
  folderCount: `SELECT folders FROM item_counts WHERE id = 1`,
  all: `SELECT * FROM items ORDER BY path_key`,
  countHereBelow: `SELECT count(*) FROM items WHERE ino IS NOT NULL AND path_key > ?
    AND path_key < ?`,
  // Browse's badge of a folder (backend/on-device.ts): one range of items_path, counted in SQL.
  filesBelow: `SELECT count(*) AS files, coalesce(sum(state = 'online'), 0) AS online
    FROM items WHERE kind = 'file' AND path_key > ? AND path_key < ?`,
};

/**
 * The synced tree (`items`): one row per item as both sides looked when they last agreed, found
 * by service id, by local path (folded the way the volume compares names) or by identity.
 */
export class ItemsRepo extends Repository {
  /**
   * `fold` maps a local path to the key under which the volume compares names; `problems` go
   * with a folder when it moves (see `moveTree`).
   */
  constructor(
    db: Db,
    private readonly fold: (p: string) => string,
    private readonly problems: ProblemsRepo,
  ) {
    super(db, SQL);
  }

  pathKey(localPath: string): string {
    return this.fold(localPath);
  }

  get(remoteId: number): JournalItem | undefined {
    const r = this.s.get!.get(remoteId) as ItemRow | undefined;
    return r && fromItemRow(r);
  }

  /** The item at a local path, compared the way the volume compares names. */
  atPath(localPath: string): JournalItem | undefined {
    const r = this.s.byKey!.get(this.fold(localPath)) as ItemRow | undefined;
    return r && fromItemRow(r);
  }

  /** The items whose service name matches a GLOB pattern (one scan of the table: rarely). */
  remoteNamedLike(glob: string): JournalItem[] {
    const sql = `SELECT * FROM items WHERE remote_name GLOB ?`;
    return (this.db.prepare(sql).all(glob) as ItemRow[]).map(fromItemRow);
  }

  /** The items last seen with this local identity (normally one). */
  byInode(dev: number, ino: number): JournalItem[] {
    return (this.s.byInode!.all(ino, dev) as ItemRow[]).map(fromItemRow);
  }

  children(remoteParentId: number): JournalItem[] {
    return (this.s.children!.all(remoteParentId) as ItemRow[]).map(fromItemRow);
  }

  /**
   * The local facts of a folder's items, cheaper than `children` (a scan asks once per folder
   * of a million-entry tree): those recorded below `asideUnder` (a folder elsewhere, where items
   * wait during a swap of names) are left out.
   */
  childFacts(remoteParentId: number, asideUnder: string): ChildFacts[] {
    const key = asideUnder + '/';
    const rows = this.s.childFacts!.raw().all(remoteParentId, key, subtreeEnd(key)) as [
      number,
      ItemKind,
      string,
      number | null,
      number | null,
      number | null,
      number | null,
      ItemState,
    ][];
    return rows.map(([remoteId, kind, localName, dev, ino, size, mtimeMs, state]) => ({
      remoteId,
      kind,
      localName,
      dev,
      ino,
      size,
      mtimeMs,
      state,
    }));
  }

  /** Every item below a folder's local path (not the folder itself), parents first. */
  descendants(localPath: string): JournalItem[] {
    const key = this.fold(localPath) + '/';
    return (this.s.descendants!.all(key, subtreeEnd(key)) as ItemRow[]).map(fromItemRow);
  }

  count(): number {
    return this.s.count!.pluck().get() as number;
  }

  /** Items with a copy here (not those the role kept from being downloaded). */
  countHere(): number {
    return this.s.countHere!.pluck().get() as number;
  }

  folderCount(): number {
    return this.s.folderCount!.pluck().get() as number;
  }

  /** Items with a copy here below a folder's local path (not the folder itself). */
  countHereBelow(localPath: string): number {
    const key = this.fold(localPath) + '/';
    return this.s.countHereBelow!.pluck().get(key, subtreeEnd(key)) as number;
  }

  /** The files below a folder's local path, and how many of them are online only. */
  filesBelow(localPath: string): { files: number; online: number } {
    const key = this.fold(localPath) + '/';
    return this.s.filesBelow!.get(key, subtreeEnd(key)) as { files: number; online: number };
  }

  *all(): IterableIterator<JournalItem> {
    for (const r of this.s.all!.iterate() as IterableIterator<ItemRow>) yield fromItemRow(r);
  }

  upsert(item: JournalItem): void {
    this.s.upsert!.run({
      remote_id: item.remoteId,
      kind: item.kind,
      remote_parent_id: item.remoteParentId,
      remote_name: item.remoteName,
      local_path: item.localPath,
      local_name: item.localName,
      path_key: this.fold(item.localPath),
      dev: item.dev,
      ino: item.ino,
      size: item.size,
      mtime_ms: item.mtimeMs,
      hash: item.hash,
      remote_size: item.remoteSize,
      remote_updated_at: item.remoteUpdatedAt,
      state: item.state,
    });
  }

  /**
   * The keys of a folder's subtree in chunks of at most `TREE_CHUNK` rows, in key order: each
   * call of `each` covers the keys after `from` up to `to`, both being keys of the range. One
   * statement over a whole subtree of a million rows kept the pages it changed in its statement
   * journal (in memory, schema.ts) until it ended: +50 MB for 200,000 rows moved.
   */
  private eachTreeChunk(key: string, each: (from: string, to: string) => void): void {
    const end = subtreeEnd(key);
    for (let from = key; ;) {
      const to = this.s.keyAfter!.pluck().get(from, end, TREE_CHUNK - 1) as string | undefined;
      if (to === undefined) {
        const last = this.s.lastKeyBefore!.pluck().get(from, end) as string | null;
        if (last !== null) each(from, last);
        return;
      }
      each(from, to);
      // The rows changed in this chunk left the range or (a change of case only) stay at or
      // before `to`: the next chunk starts after it either way.
      from = to;
    }
  }

  /** Forgets an item and, for a folder, everything below it. */
  removeTree(item: Pick<JournalItem, 'remoteId' | 'localPath' | 'kind'>): void {
    transaction(this.db, () => {
      if (item.kind === 'folder') {
        this.eachTreeChunk(this.fold(item.localPath) + '/', (from, to) =>
          this.s.removeDescendants!.run(from, to),
        );
      }
      this.s.remove!.run(item.remoteId);
    });
  }

  /**
   * Records that a folder now lives at `to`: its row (given, updated) and every path below it,
   * the problems recorded below it and the pins, in one transaction.
   */
  moveTree(item: JournalItem, to: { localPath: string; localName: string }): void {
    transaction(this.db, () => {
      const oldKey = this.fold(item.localPath) + '/';
      const newPath = to.localPath + '/';
      const newKey = this.fold(to.localPath) + '/';
      // Rows below are updated before the folder's own row so that no two share a key.
      if (item.kind === 'folder') {
        // SQLite's substr counts code points, not UTF-16 units.
        const pathFrom = codePoints(item.localPath) + 2;
        const keyFrom = codePoints(oldKey) + 1;
        this.eachTreeChunk(oldKey, (from, to) =>
          this.s.moveDescendants!.run(newPath, pathFrom, newKey, keyFrom, from, to),
        );
      }
      this.upsert({ ...item, localPath: to.localPath, localName: to.localName });
      if (item.kind === 'folder') this.problems.moveBelow(item.localPath, to.localPath);
      const from = codePoints(item.localPath);
      const below = item.localPath + '/';
      this.s.movePins!.run(to.localPath, from + 1, item.localPath, below, item.localPath + '0');
    });
  }
}
