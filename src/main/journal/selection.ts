import { Repository, transaction } from './repository';
import type { Db } from './schema';

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

/**
 * Selective sync: the folders not synced here (`excluded`, schema part 8; loop/selection.ts
 * applies them). A handful of rows per pair, chosen by a person.
 */
export class SelectionRepo extends Repository {
  constructor(db: Db) {
    super(db, {
      all: `SELECT * FROM excluded ORDER BY id`,
      here: `SELECT * FROM excluded e
        WHERE EXISTS (SELECT 1 FROM items i WHERE i.remote_id = e.id)`,
      add: `INSERT INTO excluded (id, parent_id, name) VALUES (?, ?, ?)
        ON CONFLICT (id) DO UPDATE SET parent_id = coalesce(excluded.parent_id, parent_id),
          name = coalesce(excluded.name, name)`,
      del: `DELETE FROM excluded WHERE id = ?`,
      place: `UPDATE excluded SET parent_id = ?, name = ? WHERE id = ?
        AND (parent_id IS NOT ? OR name IS NOT ?)`,
      path: `UPDATE excluded SET local_path = ? WHERE id = ?`,
    });
  }

  all(): ExcludedFolder[] {
    return (this.s.all!.all() as ExcludedRow[]).map(fromExcludedRow);
  }

  ids(): Set<number> {
    return new Set(this.all().map((e) => e.id));
  }

  /** Excluded folders whose subtree is still recorded here: left out, not applied yet. */
  here(): ExcludedFolder[] {
    return (this.s.here!.all() as ExcludedRow[]).map(fromExcludedRow);
  }

  /** Changes the selection: folders left out (with their place when known), folders back in. */
  set(
    add: readonly { id: number; parentId?: number; name?: string }[],
    remove: readonly number[] = [],
  ): void {
    transaction(this.db, () => {
      for (const e of add) this.s.add!.run(e.id, e.parentId ?? null, e.name ?? null);
      for (const id of remove) this.s.del!.run(id);
    });
  }

  /** An excluded folder seen on the service (listed in its parent): its place there now. */
  notePlace(id: number, parentId: number, name: string): void {
    this.s.place!.run(parentId, name, id, parentId, name);
  }

  /** Where the local copy of an excluded folder was when it was left out. */
  setPath(id: number, localPath: string): void {
    this.s.path!.run(localPath, id);
  }
}
