// Local changes the service refused (403, 422, a name it takes for another's): kept on disk,
// reported, and not sent again until the local facts they had change (or, at a walk, the role).

/** What a refused change looked like here when it was refused (identity, size, mtime). */
export type Facts = string;

/** A refusal of a change at a local path (a new folder, a move, an upload). */
export interface PathRefusal {
  kind: 'change';
  path: string;
  facts: Facts;
}

/**
 * Two names here that the service takes for one: the change at `path` waits while the synced
 * item `holderId` still holds the name.
 */
export interface ClashRefusal {
  kind: 'clash';
  path: string;
  facts: Facts;
  holderId: number;
}

/** A delete of a synced item the service refused. */
export interface DeleteRefusal {
  kind: 'delete';
  id: number;
  path: string;
}

export type Refusal = PathRefusal | ClashRefusal | DeleteRefusal;

/** The facts a refusal compares: a folder by identity, a file by identity, size and mtime. */
export const refusalFacts = (e: {
  kind: string;
  ino: number;
  size: number;
  mtimeMs: number;
}): Facts => (e.kind === 'folder' ? `folder:${e.ino}` : `${e.ino}:${e.size}:${e.mtimeMs}`);

/** The refusals that stand, kept by the loop across rounds (cleared at each walk). */
export class Refusals {
  private readonly atPath = new Map<string, PathRefusal | ClashRefusal>();
  private readonly deletes = new Map<number, DeleteRefusal>();

  add(r: Refusal): void {
    if (r.kind === 'delete') this.deletes.set(r.id, r);
    else this.atPath.set(r.path, r);
  }

  /** The refusal of a change at this path, if any. */
  of(path: string): PathRefusal | ClashRefusal | undefined {
    return this.atPath.get(path);
  }

  /** The refusal of this item's delete, if any. */
  ofDelete(id: number): DeleteRefusal | undefined {
    return this.deletes.get(id);
  }

  /** The local paths refusals are about. */
  paths(): Set<string> {
    return new Set([...this.atPath.keys(), ...[...this.deletes.values()].map((d) => d.path)]);
  }

  /** A change at this path reached the service, or is gone: its refusals are over. */
  clearPath(path: string): void {
    this.atPath.delete(path);
    for (const [id, d] of this.deletes) if (d.path === path) this.deletes.delete(id);
  }

  /** Forgets them all (at a walk: the role may have changed); returns the paths they held. */
  clear(): string[] {
    const paths = [...this.paths()];
    this.atPath.clear();
    this.deletes.clear();
    return paths;
  }
}
