import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Statement } from 'better-sqlite3';
import type { WireWords } from '../../shared/i18n';
import type { ItemKind } from '../../shared/item-kind';
import { openDatabase, type Db } from './schema';
import { parseWords, wordsColumn } from './words';

export type ItemState = 'synced' | 'not-permitted';

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

/**
 * Where the remote feed stands. Every event of the workspace with a time at or after `startMs`
 * has been handled: by id (the journal's seen events) or, `unknown` of them, by a walk that made
 * reading them needless; those have times up to `unknownUntilMs`.
 */
export interface FeedWindow {
  /** Epoch ms, a whole second; null before the first look at the feed. */
  startMs: number | null;
  unknown: number;
  unknownUntilMs: number;
}

export interface Intent {
  id: number;
  op: string;
  payload: unknown;
  state: 'pending' | 'sent' | 'done' | 'failed';
  createdAt: number;
  attempts: number;
}

export interface StoredProblem {
  key: string;
  path: string;
  remoteId: number | null;
  reason: string;
  message: string;
  /** The message as data (schema part 9); absent for older rows and an error's own text. */
  words?: WireWords;
  at: number;
}

export interface PendingDownload {
  remoteId: number;
  tempName: string;
  remoteUpdatedAt: string | null;
  remoteSize: number;
}

/** Which sync pair a journal belongs to: one journal per (server, user, workspace, folder). */
export interface JournalKey {
  server: string;
  /** The account (email) when known; '' for a pasted token. */
  user: string;
  workspaceId: number;
  /** The local folder, absolute and resolved. */
  root: string;
}

/** Where the journal of a sync pair lives: in the state directory, never in the synced folder. */
export function journalFile(stateDir: string, key: JournalKey): string {
  const id = createHash('sha256')
    .update(JSON.stringify([key.server.replace(/\/+$/, ''), key.user, key.workspaceId, key.root]))
    .digest('hex')
    .slice(0, 24);
  return path.join(stateDir, 'journals', `${id}.db`);
}

type Row = {
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

function fromRow(r: Row): JournalItem {
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

/**
 * An item as the service shows it now: the engine's view of the remote side (sync/remote.ts),
 * and the row a full walk stages as listed (one type for both: a walk's row is that view).
 */
export interface RemoteItem {
  id: number;
  kind: ItemKind;
  parentId: number;
  /** The name as the service spells it (the local name may differ: see sync/names.ts). */
  name: string;
  /** Bytes for a file; a folder's size is not used. */
  size: number;
  /** As sent; a file's content changed when this or `size` changed (the id stays). */
  updatedAt: string;
}

type WalkDbRow = {
  id: number;
  parent_id: number;
  kind: ItemKind;
  name: string;
  size: number;
  updated_at: string;
};

const fromWalkRow = (r: WalkDbRow): RemoteItem => ({
  id: r.id,
  kind: r.kind,
  parentId: r.parent_id,
  name: r.name,
  size: r.size,
  updatedAt: r.updated_at,
});

const codePoints = (s: string) => Array.from(s).length;

/** For `folder/`: a bound above every path below the folder ('0' is the character after '/'). */
const subtreeEnd = (folderKeyWithSlash: string) => folderKeyWithSlash.slice(0, -1) + '0';

/** Rows of a subtree moved or removed by one statement, at most (see `eachTreeChunk`). */
export const TREE_CHUNK = 1024;

/**
 * The sync journal: one SQLite file per sync pair holding the synced tree, the outbox of
 * intents, the remote cursor, problems and downloads in progress. All of the engine's SQL is
 * here.
 */
export class Journal {
  readonly db: Db;
  private readonly fold: (p: string) => string;
  private readonly s: Record<string, Statement<unknown[]>>;

  /**
   * `fold` maps a local path to the key under which the volume compares names (lower case on a
   * case-insensitive volume, NFC where normalization does not count); identity by default.
   */
  constructor(file: string, opts: { fold?: (p: string) => string } = {}) {
    if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
    this.db = openDatabase(file);
    this.fold = opts.fold ?? ((p) => p);
    const p = (sql: string) => this.db.prepare<unknown[]>(sql);
    this.s = {
      get: p(`SELECT * FROM items WHERE remote_id = ?`),
      byKey: p(`SELECT * FROM items WHERE path_key = ?`),
      children: p(`SELECT * FROM items WHERE remote_parent_id = ?`),
      // The local scan's one query per folder: only what matching an entry needs, as arrays.
      childFacts: p(`SELECT remote_id, kind, local_name, dev, ino, size, mtime_ms, state
        FROM items WHERE remote_parent_id = ? AND NOT (local_path > ? AND local_path < ?)`),
      byInode: p(`SELECT * FROM items WHERE ino = ? AND dev = ?`),
      upsert: p(`INSERT INTO items (remote_id, kind, remote_parent_id, remote_name, local_path,
          local_name, path_key, dev, ino, size, mtime_ms, hash, remote_size, remote_updated_at, state)
        VALUES (@remote_id, @kind, @remote_parent_id, @remote_name, @local_path, @local_name,
          @path_key, @dev, @ino, @size, @mtime_ms, @hash, @remote_size, @remote_updated_at, @state)
        ON CONFLICT (remote_id) DO UPDATE SET kind = excluded.kind,
          remote_parent_id = excluded.remote_parent_id, remote_name = excluded.remote_name,
          local_path = excluded.local_path, local_name = excluded.local_name,
          path_key = excluded.path_key, dev = excluded.dev, ino = excluded.ino,
          size = excluded.size, mtime_ms = excluded.mtime_ms, hash = excluded.hash,
          remote_size = excluded.remote_size, remote_updated_at = excluded.remote_updated_at,
          state = excluded.state`),
      remove: p(`DELETE FROM items WHERE remote_id = ?`),
      descendants: p(`SELECT * FROM items WHERE path_key > ? AND path_key < ? ORDER BY path_key`),
      removeDescendants: p(`DELETE FROM items WHERE path_key > ? AND path_key <= ?`),
      moveDescendants: p(`UPDATE items SET local_path = ? || substr(local_path, ?),
          path_key = ? || substr(path_key, ?) WHERE path_key > ? AND path_key <= ?`),
      // The key `offset` rows into a range (a chunk's last key): served by items_path.
      keyAfter: p(`SELECT path_key FROM items WHERE path_key > ? AND path_key < ?
          ORDER BY path_key LIMIT 1 OFFSET ?`),
      lastKeyBefore: p(`SELECT max(path_key) FROM items WHERE path_key > ? AND path_key < ?`),
      // Kept by triggers (schema part 5): a count(*) would read the whole table each pass.
      count: p(`SELECT items FROM item_counts WHERE id = 1`),
      countHere: p(`SELECT here FROM item_counts WHERE id = 1`),
      folderCount: p(`SELECT folders FROM item_counts WHERE id = 1`),
      all: p(`SELECT * FROM items ORDER BY path_key`),
      metaGet: p(`SELECT value FROM meta WHERE key = ?`),
      metaSet: p(`INSERT INTO meta (key, value) VALUES (?, ?)
        ON CONFLICT (key) DO UPDATE SET value = excluded.value`),
      metaDel: p(`DELETE FROM meta WHERE key = ?`),
      seenCount: p(`SELECT count(*) FROM seen_events WHERE time_ms >= ?`),
      seenHas: p(`SELECT 1 FROM seen_events WHERE id = ?`),
      ownAdd: p(`INSERT INTO own_changes (item_id, time_ms) VALUES (?, ?)`),
      ownFind: p(`SELECT rowid FROM own_changes WHERE item_id = ? AND time_ms BETWEEN ? AND ?
        ORDER BY time_ms LIMIT 1`),
      ownDel: p(`DELETE FROM own_changes WHERE rowid = ?`),
      ownPrune: p(`DELETE FROM own_changes WHERE time_ms < ?`),
      seenAdd: p(`INSERT OR IGNORE INTO seen_events (id, time_ms) VALUES (?, ?)`),
      seenPrune: p(`DELETE FROM seen_events WHERE time_ms < ?`),
      intentAdd: p(`INSERT INTO outbox (op, payload, created_at) VALUES (?, ?, ?)`),
      intentSent: p(`UPDATE outbox SET state = 'sent', sent_at = ?, attempts = attempts + 1
        WHERE id = ?`),
      intentDone: p(`UPDATE outbox SET state = ?, done_at = ?, result = ? WHERE id = ?`),
      intentsOpen: p(`SELECT * FROM outbox WHERE state IN ('pending', 'sent') ORDER BY id`),
      problemSet: p(`INSERT INTO problems (key, path, remote_id, reason, message, at, words)
        VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET path = excluded.path,
        remote_id = excluded.remote_id, reason = excluded.reason, message = excluded.message,
        at = excluded.at, words = excluded.words`),
      problemDel: p(`DELETE FROM problems WHERE key = ?`),
      problemsAll: p(`SELECT * FROM problems ORDER BY at`),
      downloadGet: p(`SELECT * FROM downloads WHERE remote_id = ?`),
      downloadPut: p(`INSERT OR REPLACE INTO downloads
        (remote_id, temp_name, remote_updated_at, remote_size) VALUES (?, ?, ?, ?)`),
      downloadDel: p(`DELETE FROM downloads WHERE remote_id = ?`),
      downloadsAll: p(`SELECT * FROM downloads`),
      keptNamePut: p(`INSERT OR REPLACE INTO kept_names (dev, ino, local_name, remote_name)
        VALUES (?, ?, ?, ?)`),
      keptNameGet: p(
        `SELECT remote_name FROM kept_names WHERE dev = ? AND ino = ? AND local_name = ?`,
      ),
      keptNameDel: p(`DELETE FROM kept_names WHERE dev = ? AND ino = ?`),
      walkItemsClear: p(`DELETE FROM walk_items`),
      walkFoldersClear: p(`DELETE FROM walk_folders`),
      walkFolderAdd: p(`INSERT OR IGNORE INTO walk_folders (id) VALUES (?)`),
      walkListed: p(`UPDATE walk_folders SET seq = ? WHERE id = ?`),
      walkItemAdd:
        p(`INSERT OR REPLACE INTO walk_items (id, parent_id, kind, name, size, updated_at)
        VALUES (?, ?, ?, ?, ?, ?)`),
      walkItemDel: p(`DELETE FROM walk_items WHERE id = ?`),
      walkItem: p(`SELECT * FROM walk_items WHERE id = ?`),
      walkChildren: p(`SELECT * FROM walk_items WHERE parent_id = ?`),
      walkChildrenAfter: p(
        `SELECT * FROM walk_items WHERE parent_id = ? AND id > ? ORDER BY id LIMIT ?`,
      ),
      walkIsListed: p(`SELECT 1 FROM walk_folders WHERE id = ? AND seq IS NOT NULL`),
      walkFoldersAfter: p(`SELECT id, seq FROM walk_folders WHERE seq > ? ORDER BY seq LIMIT ?`),
      walkFileStats: p(`SELECT w.parent_id AS folder, count(*) AS files, sum(w.size) AS bytes,
          sum(CASE WHEN i.remote_id IS NULL OR i.kind != w.kind OR i.remote_size IS NOT w.size
            OR i.remote_updated_at IS NOT w.updated_at OR (i.state = 'not-permitted' AND ?)
            THEN 1 ELSE 0 END) AS needed
        FROM walk_items w LEFT JOIN items i ON i.remote_id = w.id
        WHERE w.kind = 'file' GROUP BY w.parent_id`),
      walkTwins: p(`SELECT DISTINCT parent_id FROM walk_items GROUP BY parent_id, name
        HAVING count(*) > 1`),
      walkFolderTree: p(`SELECT f.id AS id, w.parent_id AS parent, f.seq IS NOT NULL AS listed
        FROM walk_folders f LEFT JOIN walk_items w ON w.id = f.id
        ORDER BY f.seq IS NULL DESC, f.seq DESC`),
      walkGoneTop: p(`SELECT i.* FROM items i WHERE i.remote_id != @root
          AND NOT EXISTS (SELECT 1 FROM walk_items w WHERE w.id = i.remote_id)
          AND (i.remote_parent_id = @root
            OR EXISTS (SELECT 1 FROM walk_items w WHERE w.id = i.remote_parent_id)
            OR NOT EXISTS (SELECT 1 FROM items p WHERE p.remote_id = i.remote_parent_id))
        ORDER BY i.path_key`),
      walkWork: p(`SELECT count(*) AS items,
          coalesce(sum(CASE WHEN w.kind = 'file' THEN w.size ELSE 0 END), 0) AS bytes
        FROM walk_items w LEFT JOIN items i ON i.remote_id = w.id
        WHERE i.remote_id IS NULL OR i.kind != w.kind OR i.remote_parent_id != w.parent_id
          OR i.remote_name != w.name OR (w.kind = 'file' AND (i.remote_size IS NOT w.size
            OR i.remote_updated_at IS NOT w.updated_at))`),
      countHereBelow: p(`SELECT count(*) FROM items WHERE ino IS NOT NULL AND path_key > ?
        AND path_key < ?`),
      // Selective sync (schema part 8): a handful of rows per pair.
      excludedAll: p(`SELECT * FROM excluded ORDER BY id`),
      excludedHere: p(`SELECT * FROM excluded e
        WHERE EXISTS (SELECT 1 FROM items i WHERE i.remote_id = e.id)`),
      excludedAdd: p(`INSERT INTO excluded (id, parent_id, name) VALUES (?, ?, ?)
        ON CONFLICT (id) DO UPDATE SET parent_id = coalesce(excluded.parent_id, parent_id),
          name = coalesce(excluded.name, name)`),
      excludedDel: p(`DELETE FROM excluded WHERE id = ?`),
      excludedPlace: p(`UPDATE excluded SET parent_id = ?, name = ? WHERE id = ?
        AND (parent_id IS NOT ? OR name IS NOT ?)`),
      excludedPath: p(`UPDATE excluded SET local_path = ? WHERE id = ?`),
    };
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /**
   * The SQL of every statement the journal prepared, by name: the query-plan test runs
   * `EXPLAIN QUERY PLAN` on each, so a statement added here is checked without a list to keep.
   */
  statementSql(): Record<string, string> {
    return Object.fromEntries(Object.entries(this.s).map(([name, st]) => [name, st.source]));
  }

  /**
   * Runs async work with its journal writes grouped into transactions committed every
   * `everyMs` (and at the end, whatever happens): one commit per row would cost tens of
   * microseconds each on a large mirror. A crash loses at most the last group, which only
   * means the next run looks at those items again (and adopts what is already on disk).
   */
  async batch<T>(work: () => Promise<T>, everyMs = 200): Promise<T> {
    if (this.db.inTransaction) return work();
    this.db.exec('BEGIN');
    const timer = setInterval(() => {
      if (!this.db.inTransaction) return;
      this.db.exec('COMMIT');
      this.db.exec('BEGIN');
    }, everyMs);
    try {
      return await work();
    } finally {
      clearInterval(timer);
      if (this.db.inTransaction) this.db.exec('COMMIT');
    }
  }

  /** Runs `fn` in one transaction (nested calls join the outer one). */
  transaction<T>(fn: () => T): T {
    return this.db.inTransaction ? fn() : this.db.transaction(fn)();
  }

  pathKey(localPath: string): string {
    return this.fold(localPath);
  }

  // Items

  get(remoteId: number): JournalItem | undefined {
    const r = this.s.get!.get(remoteId) as Row | undefined;
    return r && fromRow(r);
  }

  /** The item at a local path, compared the way the volume compares names. */
  atPath(localPath: string): JournalItem | undefined {
    const r = this.s.byKey!.get(this.fold(localPath)) as Row | undefined;
    return r && fromRow(r);
  }

  /** The items whose service name matches a GLOB pattern (one scan of the table: rarely). */
  remoteNamedLike(glob: string): JournalItem[] {
    return (this.db.prepare(`SELECT * FROM items WHERE remote_name GLOB ?`).all(glob) as Row[]).map(
      fromRow,
    );
  }

  /** The items last seen with this local identity (normally one). */
  byInode(dev: number, ino: number): JournalItem[] {
    return (this.s.byInode!.all(ino, dev) as Row[]).map(fromRow);
  }

  children(remoteParentId: number): JournalItem[] {
    return (this.s.children!.all(remoteParentId) as Row[]).map(fromRow);
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
    return (this.s.descendants!.all(key, subtreeEnd(key)) as Row[]).map(fromRow);
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

  *all(): IterableIterator<JournalItem> {
    for (const r of this.s.all!.iterate() as IterableIterator<Row>) yield fromRow(r);
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
    this.transaction(() => {
      if (item.kind === 'folder') {
        this.eachTreeChunk(this.fold(item.localPath) + '/', (from, to) =>
          this.s.removeDescendants!.run(from, to),
        );
      }
      this.s.remove!.run(item.remoteId);
    });
  }

  /** Records that a folder now lives at `to`: its row (given, updated) and every path below it. */
  moveTree(item: JournalItem, to: { localPath: string; localName: string }): void {
    this.transaction(() => {
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
      if (item.kind === 'folder') this.moveProblems(item.localPath, to.localPath);
    });
  }

  /**
   * Problems below a folder that moved go with it (seed 717422688: the chain's bottom, never
   * placed here, kept its old path when its top folder was renamed in case, and so no problem
   * named it where it is). A problem keyed by its path (status.ts `problemKey`) is keyed anew.
   */
  private moveProblems(from: string, to: string): void {
    const prefix = this.fold(from) + '/';
    const moved = (p: string) => (this.fold(p).startsWith(prefix) ? to + p.slice(from.length) : p);
    for (const p of this.problems()) {
      const path = moved(p.path);
      if (path === p.path) continue;
      const params = p.words?.params;
      const words = params && {
        ...p.words!,
        params: Object.fromEntries(
          Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? moved(v) : v]),
        ),
      };
      const key = p.key === `path:${p.path}` ? `path:${path}` : p.key;
      if (key !== p.key) this.clearProblem(p.key);
      this.setProblem({ ...p, key, path, ...(words ? { words } : {}) });
    }
  }

  /** Items with a copy here below a folder's local path (not the folder itself). */
  countHereBelow(localPath: string): number {
    const key = this.fold(localPath) + '/';
    return this.s.countHereBelow!.pluck().get(key, subtreeEnd(key)) as number;
  }

  // The walk's staging tables (see the schema): what a full walk listed, kept on disk.

  /** Empties the staging tables and enters the root, not listed yet. */
  walkReset(rootId?: number): void {
    this.transaction(() => {
      this.s.walkItemsClear!.run();
      this.s.walkFoldersClear!.run();
      if (rootId !== undefined) this.s.walkFolderAdd!.run(rootId);
    });
  }

  /**
   * Records a folder's complete listing as the `seq`-th; says which folder child was met
   * already (listed in two places, or inside itself: a loop), else null.
   */
  walkListed(folderId: number, seq: number, children: readonly RemoteItem[]): RemoteItem | null {
    return this.transaction(() => {
      for (const c of children) {
        if (c.kind === 'folder' && this.s.walkFolderAdd!.run(c.id).changes === 0) return c;
        this.s.walkItemAdd!.run(c.id, c.parentId, c.kind, c.name, c.size, c.updatedAt);
      }
      this.s.walkListed!.run(seq, folderId);
      return null;
    });
  }

  /** A folder found deleted while the walk ran: gone, with everything below it. */
  walkDrop(id: number): void {
    this.s.walkItemDel!.run(id);
  }

  walkItem(id: number): RemoteItem | undefined {
    const r = this.s.walkItem!.get(id) as WalkDbRow | undefined;
    return r && fromWalkRow(r);
  }

  walkChildren(parentId: number): RemoteItem[] {
    return (this.s.walkChildren!.all(parentId) as WalkDbRow[]).map(fromWalkRow);
  }

  walkIsListed(id: number): boolean {
    return this.s.walkIsListed!.get(id) !== undefined;
  }

  /** Up to `limit` listed folders after the `afterSeq`-th, in the order they were listed. */
  /** A page of a folder's staged children, by id: a folder of 20,000 files is planned in parts. */
  walkChildrenAfter(parentId: number, afterId: number, limit: number): RemoteItem[] {
    return (this.s.walkChildrenAfter!.all(parentId, afterId, limit) as WalkDbRow[]).map(
      fromWalkRow,
    );
  }

  walkFoldersAfter(afterSeq: number, limit: number): { id: number; seq: number }[] {
    return this.s.walkFoldersAfter!.all(afterSeq, limit) as { id: number; seq: number }[];
  }

  /** Per folder, its files listed directly: how many, their bytes, how many differ from here. */
  walkFileStats(
    retryNotPermitted: boolean,
  ): { folder: number; files: number; bytes: number; needed: number }[] {
    return this.s.walkFileStats!.all(retryNotPermitted ? 1 : 0) as {
      folder: number;
      files: number;
      bytes: number;
      needed: number;
    }[];
  }

  /** Folders listing two children of one name. */
  walkTwins(): number[] {
    return this.s.walkTwins!.pluck().all() as number[];
  }

  /** Every folder met, children before parents (those never listed first). */
  walkFolderTree(): { id: number; parent: number | null; listed: number }[] {
    return this.s.walkFolderTree!.all() as { id: number; parent: number | null; listed: number }[];
  }

  /**
   * Synced items the walk did not list, topmost only (one whose parent is gone too goes with
   * it), by path; the caller leaves out what is below a folder left unlisted.
   */
  *walkGoneTop(rootId: number): IterableIterator<JournalItem> {
    for (const r of this.s.walkGoneTop!.iterate({ root: rootId }) as IterableIterator<Row>) {
      yield fromRow(r);
    }
  }

  /** Listed items new or changed since the journal saw them, and the bytes of those files. */
  walkWork(): { items: number; bytes: number } {
    return this.s.walkWork!.get() as { items: number; bytes: number };
  }

  // Meta

  getMeta(key: string): string | undefined {
    return this.s.metaGet!.pluck().get(key) as string | undefined;
  }

  setMeta(key: string, value: string | number | null): void {
    if (value === null) this.s.metaDel!.run(key);
    else this.s.metaSet!.run(key, String(value));
  }

  // The remote feed's window: events are read from `startMs` on, and those already handled are
  // known by id (seen_events) or, after a walk that made reading them needless, only by count.

  feedWindow(): FeedWindow {
    const start = this.getMeta('feed_start_ms');
    const unknown = Number(this.getMeta('feed_unknown') ?? 0);
    const unknownUntilMs = Number(this.getMeta('feed_unknown_until_ms') ?? 0);
    if (start !== undefined) return { startMs: Number(start), unknown, unknownUntilMs };
    // A journal of an earlier version kept the newest event's time; its ids cover 5 s before it.
    const legacy = this.getMeta('cursor_ms');
    if (legacy === undefined) return { startMs: null, unknown: 0, unknownUntilMs: 0 };
    return {
      startMs: Math.floor((Number(legacy) - 5_000) / 1000) * 1000,
      unknown: 0,
      unknownUntilMs: 0,
    };
  }

  /** How many events handled by id have a time at or after `ms`. */
  seenSince(ms: number): number {
    return this.s.seenCount!.pluck().get(ms) as number;
  }

  hasSeen(eventId: number): boolean {
    return this.s.seenHas!.get(eventId) !== undefined;
  }

  /**
   * A change this client made on the service, at the time the service gave it: its event, read
   * back from the feed, is then known for ours (`takeOwnChange`) and costs no request.
   */
  noteOwnChange(itemId: number, timeMs: number): void {
    if (Number.isFinite(timeMs)) this.s.ownAdd!.run(itemId, timeMs);
  }

  /**
   * Whether an event of `itemId` at `timeMs` is one of this client's own changes; with `take`,
   * that change is used up (one event each: someone else's change in the same second is then
   * still seen). The event's time may lag the item's by a moment: `slackMs` either way.
   */
  takeOwnChange(itemId: number, timeMs: number, take: boolean, slackMs = 2_000): boolean {
    const row = this.s.ownFind!.get(itemId, timeMs - slackMs, timeMs + slackMs) as
      { rowid: number } | undefined;
    if (row && take) this.s.ownDel!.run(row.rowid);
    return row !== undefined;
  }

  /** Records events as handled and the window that follows, at once; drops ids before it. */
  recordFeed(events: readonly { id: number; timeMs: number }[], next: FeedWindow): void {
    this.transaction(() => {
      for (const e of events) this.s.seenAdd!.run(e.id, e.timeMs);
      this.setMeta('feed_start_ms', next.startMs);
      this.setMeta('feed_unknown', next.unknown || null);
      this.setMeta('feed_unknown_until_ms', next.unknown ? next.unknownUntilMs : null);
      this.setMeta('cursor_ms', null);
      if (next.startMs === null) this.db.exec(`DELETE FROM seen_events`);
      else this.s.seenPrune!.run(next.startMs);
      // An own change whose event never came in time is not kept to hide someone else's.
      if (next.startMs) this.s.ownPrune!.run(next.startMs - 60_000);
    });
  }

  // Outbox

  /**
   * Records an intent and commits at once, even inside a `batch`: the intent must be on disk
   * before its request leaves, or a crash could leave a change on the service that nothing here
   * knows about.
   */
  addIntent(op: string, payload: unknown, now = Date.now()): number {
    const id = Number(this.s.intentAdd!.run(op, JSON.stringify(payload), now).lastInsertRowid);
    this.commitNow();
    return id;
  }

  /** Commits what a `batch` has written so far and goes on in a new transaction. */
  commitNow(): void {
    if (!this.db.inTransaction) return;
    this.db.exec('COMMIT');
    this.db.exec('BEGIN');
  }

  markSent(id: number, now = Date.now()): void {
    this.s.intentSent!.run(now, id);
  }

  completeIntent(id: number, result: unknown, now = Date.now()): void {
    this.s.intentDone!.run('done', now, JSON.stringify(result ?? null), id);
  }

  failIntent(id: number, reason: string, now = Date.now()): void {
    this.s.intentDone!.run('failed', now, JSON.stringify({ error: reason }), id);
  }

  openIntents(): Intent[] {
    return (
      this.s.intentsOpen!.all() as {
        id: number;
        op: string;
        payload: string;
        state: Intent['state'];
        created_at: number;
        attempts: number;
      }[]
    ).map((r) => ({
      id: r.id,
      op: r.op,
      payload: JSON.parse(r.payload) as unknown,
      state: r.state,
      createdAt: r.created_at,
      attempts: r.attempts,
    }));
  }

  // Problems

  setProblem(p: StoredProblem): void {
    const words = wordsColumn(p.words);
    this.s.problemSet!.run(p.key, p.path, p.remoteId, p.reason, p.message, p.at, words);
  }

  /** Says whether there was one. */
  clearProblem(key: string): boolean {
    return this.s.problemDel!.run(key).changes > 0;
  }

  problems(): StoredProblem[] {
    return (
      this.s.problemsAll!.all() as {
        key: string;
        path: string;
        remote_id: number | null;
        reason: string;
        message: string;
        at: number;
        words: string | null;
      }[]
    ).map((r) => {
      const words = parseWords(r.words);
      return {
        key: r.key,
        path: r.path,
        remoteId: r.remote_id,
        reason: r.reason,
        message: r.message,
        ...(words ? { words } : {}),
        at: r.at,
      };
    });
  }

  // Downloads in progress

  // Service names of items kept as local work (see the schema)

  keepName(id: { dev: number; ino: number }, localName: string, remoteName: string): void {
    this.s.keptNamePut!.run(id.dev, id.ino, localName, remoteName);
  }

  keptName(id: { dev: number; ino: number }, localName: string): string | undefined {
    const r = this.s.keptNameGet!.get(id.dev, id.ino, localName) as
      { remote_name: string } | undefined;
    return r?.remote_name;
  }

  forgetName(id: { dev: number; ino: number }): void {
    this.s.keptNameDel!.run(id.dev, id.ino);
  }

  pendingDownload(remoteId: number): PendingDownload | undefined {
    const r = this.s.downloadGet!.get(remoteId) as
      | {
          remote_id: number;
          temp_name: string;
          remote_updated_at: string | null;
          remote_size: number;
        }
      | undefined;
    return (
      r && {
        remoteId: r.remote_id,
        tempName: r.temp_name,
        remoteUpdatedAt: r.remote_updated_at,
        remoteSize: r.remote_size,
      }
    );
  }

  putDownload(d: PendingDownload): void {
    this.s.downloadPut!.run(d.remoteId, d.tempName, d.remoteUpdatedAt, d.remoteSize);
  }

  removeDownload(remoteId: number): void {
    this.s.downloadDel!.run(remoteId);
  }

  pendingDownloads(): PendingDownload[] {
    return (
      this.s.downloadsAll!.all() as {
        remote_id: number;
        temp_name: string;
        remote_updated_at: string | null;
        remote_size: number;
      }[]
    ).map((r) => ({
      remoteId: r.remote_id,
      tempName: r.temp_name,
      remoteUpdatedAt: r.remote_updated_at,
      remoteSize: r.remote_size,
    }));
  }

  // Selective sync: the folders not synced here (schema part 7; loop/selection.ts applies them)

  excluded(): ExcludedFolder[] {
    return (this.s.excludedAll!.all() as ExcludedRow[]).map(fromExcludedRow);
  }

  excludedIds(): Set<number> {
    return new Set(this.excluded().map((e) => e.id));
  }

  /** Excluded folders whose subtree is still recorded here: left out, not applied yet. */
  excludedHere(): ExcludedFolder[] {
    return (this.s.excludedHere!.all() as ExcludedRow[]).map(fromExcludedRow);
  }

  /** Changes the selection: folders left out (with their place when known), folders back in. */
  setExcluded(
    add: readonly { id: number; parentId?: number; name?: string }[],
    remove: readonly number[] = [],
  ): void {
    this.transaction(() => {
      for (const e of add) this.s.excludedAdd!.run(e.id, e.parentId ?? null, e.name ?? null);
      for (const id of remove) this.s.excludedDel!.run(id);
    });
  }

  /** An excluded folder seen on the service (listed in its parent): its place there now. */
  noteExcludedPlace(id: number, parentId: number, name: string): void {
    this.s.excludedPlace!.run(parentId, name, id, parentId, name);
  }

  /** Where the local copy of an excluded folder was when it was left out. */
  setExcludedPath(id: number, localPath: string): void {
    this.s.excludedPath!.run(localPath, id);
  }
}

/** A folder not synced on this computer (the selection is per pair, so in its journal). */
export interface ExcludedFolder {
  id: number;
  /** Its place on the service as last seen; null until seen. */
  parentId: number | null;
  name: string | null;
  /** Where its copy was here when it was left out, if it was here. */
  localPath: string | null;
}

type ExcludedRow = {
  id: number;
  parent_id: number | null;
  name: string | null;
  local_path: string | null;
};

const fromExcludedRow = (r: ExcludedRow): ExcludedFolder => ({
  id: r.id,
  parentId: r.parent_id,
  name: r.name,
  localPath: r.local_path,
});
