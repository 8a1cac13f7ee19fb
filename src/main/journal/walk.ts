import type { ItemKind } from '../../shared/item-kind';
import { fromItemRow, type ItemRow, type JournalItem } from './items';
import { Repository, transaction } from './repository';
import type { Db } from './schema';

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

/** Per folder, its files listed directly: how many, their bytes, how many differ from here. */
export type WalkFileStats = { folder: number; files: number; bytes: number; needed: number };

const SQL = {
  itemsClear: `DELETE FROM walk_items`,
  foldersClear: `DELETE FROM walk_folders`,
  folderAdd: `INSERT OR IGNORE INTO walk_folders (id) VALUES (?)`,
  listed: `UPDATE walk_folders SET seq = ? WHERE id = ?`,
  itemAdd: `INSERT OR REPLACE INTO walk_items (id, parent_id, kind, name, size, updated_at)
    VALUES (?, ?, ?, ?, ?, ?)`,
  itemDel: `DELETE FROM walk_items WHERE id = ?`,
  item: `SELECT * FROM walk_items WHERE id = ?`,
  children: `SELECT * FROM walk_items WHERE parent_id = ?`,
  childrenAfter: `SELECT * FROM walk_items WHERE parent_id = ? AND id > ? ORDER BY id LIMIT ?`,
  isListed: `SELECT 1 FROM walk_folders WHERE id = ? AND seq IS NOT NULL`,
  foldersAfter: `SELECT id, seq FROM walk_folders WHERE seq > ? ORDER BY seq LIMIT ?`,
  fileStats: `SELECT w.parent_id AS folder, count(*) AS files, sum(w.size) AS bytes,
      sum(CASE WHEN i.remote_id IS NULL OR i.kind != w.kind OR i.remote_size IS NOT w.size
        OR i.remote_updated_at IS NOT w.updated_at OR (i.state = 'not-permitted' AND ?)
        THEN 1 ELSE 0 END) AS needed
    FROM walk_items w LEFT JOIN items i ON i.remote_id = w.id
    WHERE w.kind = 'file' GROUP BY w.parent_id`,
  twins: `SELECT DISTINCT parent_id FROM walk_items GROUP BY parent_id, name
    HAVING count(*) > 1`,
  folderTree: `SELECT f.id AS id, w.parent_id AS parent, f.seq IS NOT NULL AS listed
    FROM walk_folders f LEFT JOIN walk_items w ON w.id = f.id
    ORDER BY f.seq IS NULL DESC, f.seq DESC`,
  goneTop: `SELECT i.* FROM items i WHERE i.remote_id != @root
      AND NOT EXISTS (SELECT 1 FROM walk_items w WHERE w.id = i.remote_id)
      AND (i.remote_parent_id = @root
        OR EXISTS (SELECT 1 FROM walk_items w WHERE w.id = i.remote_parent_id)
        OR NOT EXISTS (SELECT 1 FROM items p WHERE p.remote_id = i.remote_parent_id))
    ORDER BY i.path_key`,
  work: `SELECT count(*) AS items,
      coalesce(sum(CASE WHEN w.kind = 'file' AND i.state IS NOT 'online' THEN w.size ELSE 0 END), 0)
        AS bytes
    FROM walk_items w LEFT JOIN items i ON i.remote_id = w.id
    WHERE i.remote_id IS NULL OR i.kind != w.kind OR i.remote_parent_id != w.parent_id
      OR i.remote_name != w.name OR (w.kind = 'file' AND (i.remote_size IS NOT w.size
        OR i.remote_updated_at IS NOT w.updated_at))`,
  // A placeholder's file is no bytes to fetch (files on demand). Where new files arrive as
  // placeholders, only the new versions of files here are; a pinned one found new comes as work
  // beyond the plan.
  workOnline: `SELECT count(*) AS items,
      coalesce(sum(CASE WHEN w.kind = 'file' AND i.state = 'synced' THEN w.size ELSE 0 END), 0)
        AS bytes
    FROM walk_items w LEFT JOIN items i ON i.remote_id = w.id
    WHERE i.remote_id IS NULL OR i.kind != w.kind OR i.remote_parent_id != w.parent_id
      OR i.remote_name != w.name OR (w.kind = 'file' AND (i.remote_size IS NOT w.size
        OR i.remote_updated_at IS NOT w.updated_at))`,
};

/**
 * The walk's staging tables (`walk_items`, `walk_folders`, see the schema): what a full walk
 * listed, kept on disk, and what it says when compared with the synced tree.
 */
export class WalkRepo extends Repository {
  constructor(db: Db) {
    super(db, SQL);
  }

  /** Empties the staging tables and enters the root, not listed yet. */
  reset(rootId?: number): void {
    transaction(this.db, () => {
      this.s.itemsClear!.run();
      this.s.foldersClear!.run();
      if (rootId !== undefined) this.s.folderAdd!.run(rootId);
    });
  }

  /**
   * Records a folder's complete listing as the `seq`-th; says which folder child was met
   * already (listed in two places, or inside itself: a loop), else null.
   */
  listed(folderId: number, seq: number, children: readonly RemoteItem[]): RemoteItem | null {
    return transaction(this.db, () => {
      for (const c of children) {
        if (c.kind === 'folder' && this.s.folderAdd!.run(c.id).changes === 0) return c;
        this.s.itemAdd!.run(c.id, c.parentId, c.kind, c.name, c.size, c.updatedAt);
      }
      this.s.listed!.run(seq, folderId);
      return null;
    });
  }

  /** A folder found deleted while the walk ran: gone, with everything below it. */
  drop(id: number): void {
    this.s.itemDel!.run(id);
  }

  item(id: number): RemoteItem | undefined {
    const r = this.s.item!.get(id) as WalkDbRow | undefined;
    return r && fromWalkRow(r);
  }

  children(parentId: number): RemoteItem[] {
    return (this.s.children!.all(parentId) as WalkDbRow[]).map(fromWalkRow);
  }

  isListed(id: number): boolean {
    return this.s.isListed!.get(id) !== undefined;
  }

  /** A page of a folder's staged children, by id: a folder of 20,000 files is planned in parts. */
  childrenAfter(parentId: number, afterId: number, limit: number): RemoteItem[] {
    return (this.s.childrenAfter!.all(parentId, afterId, limit) as WalkDbRow[]).map(fromWalkRow);
  }

  /** Up to `limit` listed folders after the `afterSeq`-th, in the order they were listed. */
  foldersAfter(afterSeq: number, limit: number): { id: number; seq: number }[] {
    return this.s.foldersAfter!.all(afterSeq, limit) as { id: number; seq: number }[];
  }

  /** Per folder, its files listed directly: how many, their bytes, how many differ from here. */
  fileStats(retryNotPermitted: boolean): WalkFileStats[] {
    return this.s.fileStats!.all(retryNotPermitted ? 1 : 0) as WalkFileStats[];
  }

  /** Folders listing two children of one name. */
  twins(): number[] {
    return this.s.twins!.pluck().all() as number[];
  }

  /** Every folder met, children before parents (those never listed first). */
  folderTree(): { id: number; parent: number | null; listed: number }[] {
    return this.s.folderTree!.all() as { id: number; parent: number | null; listed: number }[];
  }

  /**
   * Synced items the walk did not list, topmost only (one whose parent is gone too goes with
   * it), by path; the caller leaves out what is below a folder left unlisted.
   */
  *goneTop(rootId: number): IterableIterator<JournalItem> {
    for (const r of this.s.goneTop!.iterate({ root: rootId }) as IterableIterator<ItemRow>) {
      yield fromItemRow(r);
    }
  }

  /** Listed items new or changed since the journal saw them, and the bytes of those files. */
  /** What the walk found to do; `online`: new files arrive as placeholders (no bytes). */
  work(online = false): { items: number; bytes: number } {
    return this.s[online ? 'workOnline' : 'work']!.get() as { items: number; bytes: number };
  }
}
