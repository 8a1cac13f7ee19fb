import { lstatSync } from 'node:fs';
import type { Journal, JournalItem } from '../journal/journal';
import type { LocalRoot } from './local';
import { CACHE_DIR } from './plan';
import type { LocalEntry, LocalScan } from './scan';

/** What the user did on disk since the journal was written, as operations for the service. */
export type LocalOp =
  /** A new folder: create it on the service. */
  | { type: 'mkdir'; entry: LocalEntry }
  /** A new file (`item` null) or a changed one (a new version of `item`). */
  | { type: 'upload'; entry: LocalEntry; item: JournalItem | null }
  /** A synced item now lives at `entry.path`: one rename or move, whatever it holds. */
  | { type: 'move'; item: JournalItem; entry: LocalEntry }
  /** A synced item is gone from the disk (the topmost one of a removed tree). */
  | { type: 'delete'; item: JournalItem; count: number }
  /** Same item, same content, new local facts (a folder recreated, a file touched): journal only. */
  | { type: 'relink'; item: JournalItem; entry: LocalEntry };

export interface LocalPlan {
  /** New folders, parents first. */
  mkdirs: Extract<LocalOp, { type: 'mkdir' }>[];
  moves: Extract<LocalOp, { type: 'move' }>[];
  uploads: Extract<LocalOp, { type: 'upload' }>[];
  /** Removals seen twice (or in a complete scan): ready to go to the service. */
  deletes: Extract<LocalOp, { type: 'delete' }>[];
  /** Removals seen once by a partial scan: the other half of a move may not be reported yet. */
  unconfirmed: JournalItem[];
  relinks: Extract<LocalOp, { type: 'relink' }>[];
}

export interface LocalPlanOptions {
  rootId: number;
  ignores: (rel: string, isDir: boolean) => boolean;
  /** Items a previous partial scan already found missing. */
  missingBefore: ReadonlySet<number>;
}

const parentOf = (p: string) => {
  const i = p.lastIndexOf('/');
  return i < 0 ? '' : p.slice(0, i);
};
const idKey = (dev: number | null, ino: number | null) => `${dev}:${ino}`;

/**
 * Reconciles a scan of the disk with the journal. Each entry is matched to the synced item it
 * is, by identity first (device + inode: a move or rename, however deep, is one operation),
 * else by its place (an editor's save through a temporary file replaces the inode); what no
 * entry claims in a listed folder was removed.
 */
export function planLocal(
  scan: LocalScan,
  journal: Journal,
  local: LocalRoot,
  opts: LocalPlanOptions,
): LocalPlan {
  const plan: LocalPlan = {
    mkdirs: [],
    moves: [],
    uploads: [],
    deletes: [],
    unconfirmed: [],
    relinks: [],
  };
  const claimed = new Set<number>();
  /** The synced item each scanned path turned out to be ('' is the root). */
  const itemAt = new Map<string, number>([['', opts.rootId]]);
  const seenIds = new Set<string>();
  for (const e of scan.entries.values()) seenIds.add(idKey(e.dev, e.ino));

  const kidsCache = new Map<number, Map<string, JournalItem>>();
  const kidsOf = (parentId: number): Map<string, JournalItem> => {
    let kids = kidsCache.get(parentId);
    if (!kids) {
      kids = new Map();
      for (const j of journal.children(parentId)) {
        if (!j.localPath.startsWith(CACHE_DIR + '/')) kids.set(journal.pathKey(j.localName), j);
      }
      kidsCache.set(parentId, kids);
    }
    return kids;
  };

  /** The item's inode is no longer at its recorded place (so it moved rather than was linked). */
  const vacated = (j: JournalItem): boolean => {
    const there = scan.entries.get(j.localPath);
    if (there) return there.ino !== j.ino || there.dev !== j.dev;
    if (scan.listed.has(parentOf(j.localPath))) return true;
    const st = lstatSync(local.abs(j.localPath), { throwIfNoEntry: false });
    return !st || st.ino !== j.ino || st.dev !== j.dev;
  };

  // A folder's mtime moves with its children: only its identity counts.
  const changed = (j: JournalItem, e: LocalEntry) =>
    j.ino !== e.ino ||
    j.dev !== e.dev ||
    (e.kind === 'file' && (j.size !== e.size || j.mtimeMs !== e.mtimeMs));

  /** The entry is the synced item `j`, in its recorded place. */
  const inPlace = (j: JournalItem, e: LocalEntry) => {
    claimed.add(j.remoteId);
    itemAt.set(e.path, j.remoteId);
    if (j.state !== 'synced' || !changed(j, e)) return;
    if (e.kind === 'folder') plan.relinks.push({ type: 'relink', item: j, entry: e });
    else if (!e.settling) plan.uploads.push({ type: 'upload', entry: e, item: j });
  };

  /** The synced folder at a path: as matched in this scan, else (not scanned) the journal's. */
  const folderAt = (p: string): number | undefined => {
    const known = itemAt.get(p);
    if (known !== undefined || scan.entries.has(p)) return known;
    const j = journal.atPath(p);
    const id = j && j.kind === 'folder' && j.state === 'synced' ? j.remoteId : undefined;
    if (id !== undefined) itemAt.set(p, id);
    return id;
  };

  for (const e of scan.entries.values()) {
    const parentId = folderAt(parentOf(e.path));
    const byName =
      parentId === undefined ? undefined : kidsOf(parentId).get(journal.pathKey(e.name));
    const atPlace =
      byName && byName.kind === e.kind && !claimed.has(byName.remoteId) ? byName : undefined;
    const sameId = journal
      .byInode(e.dev, e.ino)
      .find((j) => j.kind === e.kind && !claimed.has(j.remoteId) && j.state === 'synced');

    if (sameId && atPlace && sameId.remoteId === atPlace.remoteId) {
      inPlace(atPlace, e);
      continue;
    }
    // A file keeps its place over an inode found elsewhere (editors save through a temporary
    // file); a folder's identity wins. Neither keeps a place whose item was seen elsewhere.
    const movedAway =
      atPlace !== undefined &&
      atPlace.ino !== e.ino &&
      seenIds.has(idKey(atPlace.dev, atPlace.ino));
    const placeWins =
      atPlace !== undefined && !movedAway && (e.kind === 'file' || !sameId || !vacated(sameId));
    if (atPlace && placeWins) {
      inPlace(atPlace, e);
      continue;
    }
    if (sameId && (e.kind === 'folder' || sameId.size === e.size) && vacated(sameId)) {
      claimed.add(sameId.remoteId);
      itemAt.set(e.path, sameId.remoteId);
      plan.moves.push({ type: 'move', item: sameId, entry: e });
      if (e.kind === 'file' && changed(sameId, e) && !e.settling) {
        plan.uploads.push({ type: 'upload', entry: e, item: sameId });
      }
      continue;
    }
    if (e.kind === 'folder') plan.mkdirs.push({ type: 'mkdir', entry: e });
    else if (!e.settling) plan.uploads.push({ type: 'upload', entry: e, item: null });
  }

  // What a listed folder held and no entry claimed is gone; only the topmost of a tree is sent.
  const gone: JournalItem[] = [];
  for (const dir of scan.listed) {
    const id = folderAt(dir);
    if (id === undefined) continue;
    for (const j of kidsOf(id).values()) {
      if (claimed.has(j.remoteId) || j.state !== 'synced') continue;
      if (opts.ignores(j.localPath, j.kind === 'folder')) continue;
      gone.push(j);
    }
  }
  for (const j of gone) {
    if (!scan.complete && !opts.missingBefore.has(j.remoteId)) {
      plan.unconfirmed.push(j);
      continue;
    }
    const count = j.kind === 'folder' ? journal.descendants(j.localPath).length + 1 : 1;
    plan.deletes.push({ type: 'delete', item: j, count });
  }
  return plan;
}

/** Items the plan would delete on the service, counting what each deleted folder held. */
export const deletedCount = (plan: LocalPlan) => plan.deletes.reduce((n, d) => n + d.count, 0);

/** Whether the plan has anything to send or record. */
export const hasWork = (plan: LocalPlan) =>
  plan.mkdirs.length +
    plan.moves.length +
    plan.uploads.length +
    plan.deletes.length +
    plan.relinks.length >
  0;
