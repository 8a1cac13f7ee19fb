// Long because matching is one decision per entry: by identity, by place, equal bytes at a
// place (swaps and re-creations), a step aside left on the service, and a listing that could not
// look at everything all decide together which synced item an entry is, or that it is new.
import { closeSync, lstatSync } from 'node:fs';
import type { ChildFacts, Journal, JournalItem } from '../../journal/journal';
import type { LocalRoot } from '../local';
import { hashFdSync } from '../file-read';
import { PROVISIONAL_GLOB, isProvisional } from './provisional';
import { holdsAny, unplacedPaths } from '../unplaced';
import { CACHE_DIR, MOVING_DIR, parentOf } from '../paths';
import { scanLocal, type LocalEntry, type LocalScan, type ScanOptions } from '../detect-local/scan';

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
  /**
   * New files that nothing in the journal can be (no record at their place, none with their
   * identity): not kept, only the folders that hold them and how many; the sender lists those
   * folders again and uploads them folder by folder (up/fresh.ts), so that an upload of a whole
   * tree holds no object per file.
   */
  fresh: FreshFiles;
  moves: Extract<LocalOp, { type: 'move' }>[];
  uploads: Extract<LocalOp, { type: 'upload' }>[];
  /** Removals seen twice (or in a complete scan): ready to go to the service. */
  deletes: Extract<LocalOp, { type: 'delete' }>[];
  /** Removals seen once by a partial scan: the other half of a move may not be reported yet. */
  unconfirmed: JournalItem[];
  /**
   * Folders removed here whose subtree on the service holds items never placed here (sync/unplaced.ts):
   * not deleted there; their records are forgotten, so that the next walk brings them back.
   */
  kept: JournalItem[];
  relinks: Extract<LocalOp, { type: 'relink' }>[];
}

export interface FreshFiles {
  dirs: Set<string>;
  files: number;
  bytes: number;
}

export interface LocalPlanOptions {
  rootId: number;
  ignores: (rel: string, isDir: boolean) => boolean;
  /** Items a previous partial scan already found missing. */
  missingBefore: ReadonlySet<number>;
}

const idKey = (dev: number | null, ino: number | null) => `${dev}:${ino}`;

/** The per-entry things a reconciler holds at one time, for `peakHeld`. */
const sizeOf = (...held: { size: number }[]) => held.reduce((n, h) => n + h.size, 0);

/**
 * Reconciles what a scan finds on disk with the journal. Each entry is matched to the synced item
 * it is, by identity first (device + inode: a move or rename, however deep, is one operation),
 * else by its place (an editor's save through a temporary file replaces the inode); what no entry
 * claims in a listed folder was removed.
 *
 * It works while the scan runs, one folder's records at a time (one `children` query per folder):
 * an entry that is the item recorded at its place (the common case) is settled as it is seen, and
 * one that nothing in the journal can be (no record at its place, none with its identity: one
 * indexed lookup) is new at once; neither is kept. The rest (moved, replaced, still being written)
 * waits for `finish`, when every identity on disk is known. So what it holds is bounded by the
 * changes and by the scan's frontier (the folders found and not listed yet), not by the tree.
 */
export class LocalReconciler {
  private readonly plan: LocalPlan = {
    mkdirs: [],
    fresh: { dirs: new Set(), files: 0, bytes: 0 },
    moves: [],
    uploads: [],
    deletes: [],
    unconfirmed: [],
    kept: [],
    relinks: [],
  };
  /**
   * Items claimed by an entry that waits for `finish`, or in a folder where one waits. Items
   * settled in place elsewhere are not remembered: they are found in their place again (lstat)
   * when an identity seen elsewhere points at them.
   */
  private readonly claimed = new Set<number>();
  /** Items claimed in the folder being listed; forgotten once it is listed. */
  private readonly claimedHere = new Set<number>();
  /** Whether an entry of the folder being listed waits for `finish`. */
  private waitingHere = false;
  /**
   * The synced folder each scanned folder path turned out to be ('' is the root): a folder in
   * its place only until it is listed (the journal says the same after), a moved one for good.
   */
  private readonly itemAt = new Map<string, number>();
  /** Folders seen but not matched yet: what is inside them waits for `finish` too. */
  private readonly pending = new Set<string>();
  /** New folders not listed yet: what is in them is new too, unless its identity is known. */
  private readonly freshDirs = new Set<string>();
  /** Unclaimed items of listed folders, when the folder's listing was done. */
  private readonly unclaimed = new Map<number, JournalItem>();
  /** Listed folders whose synced item is known only at the end. */
  private readonly listedLater: string[] = [];
  private kids: { parentId: number; byName: Map<string, ChildFacts> } | null = null;
  /** Entries the scan offered. */
  seen = 0;
  /** The most per-entry things held at once (a test's and a benchmark's seam). */
  peakHeld = 0;
  private kept = 0;

  constructor(
    private readonly journal: Journal,
    private readonly local: LocalRoot,
    private readonly opts: LocalPlanOptions,
  ) {
    this.itemAt.set('', opts.rootId);
  }

  /** For the scan's `onEntry`: true when the entry is settled (the item recorded there, or new). */
  readonly offer = (e: LocalEntry): boolean => {
    this.seen++;
    const settled = this.settle(e);
    if (!settled) {
      this.waitingHere = true;
      this.kept++;
    }
    return settled;
  };

  private settle(e: LocalEntry): boolean {
    if (e.settling) return false;
    const parent = parentOf(e.path);
    if (this.pending.has(parent)) {
      if (e.kind === 'folder') this.pending.add(e.path);
      return false;
    }
    const fresh = this.freshDirs.has(parent);
    const parentId = fresh ? undefined : this.folderAt(parent, undefined);
    const j = parentId === undefined ? undefined : this.kidsOf(parentId).get(this.key(e.name));
    if (
      j &&
      j.kind === e.kind &&
      j.state === 'synced' &&
      j.ino === e.ino &&
      j.dev === e.dev &&
      !renamedInPlace(j, e) &&
      !this.claimedHere.has(j.remoteId)
    ) {
      this.inPlace(j, e, this.claimedHere);
      return true;
    }
    if (
      !j &&
      (fresh || parentId !== undefined) &&
      this.journal.items.byInode(e.dev, e.ino).length === 0
    ) {
      // Nothing recorded here, nothing recorded with this identity: new, whatever else is seen.
      if (e.kind === 'folder') {
        this.plan.mkdirs.push({ type: 'mkdir', entry: e });
        this.freshDirs.add(e.path);
      } else {
        this.plan.fresh.dirs.add(parent);
        this.plan.fresh.files++;
        this.plan.fresh.bytes += e.size;
      }
      return true;
    }
    if (e.kind === 'folder') this.pending.add(e.path);
    return false;
  }

  /** For the scan's `onListed`. */
  readonly listed = (dir: string, whole = true): void => {
    this.peakHeld = Math.max(this.peakHeld, this.held());
    this.settleListed(dir, whole);
    // A claim matters at the end only beside an entry that waits for it.
    if (this.waitingHere) for (const id of this.claimedHere) this.claimed.add(id);
    this.waitingHere = false;
    this.claimedHere.clear();
  };

  /** `whole` false: an entry could not be looked at, so nothing of `dir` is judged gone. */
  private settleListed(dir: string, whole: boolean): void {
    if (this.pending.has(dir)) {
      if (!whole) return;
      this.listedLater.push(dir);
      return;
    }
    if (this.freshDirs.delete(dir)) return;
    const id = this.folderAt(dir, undefined);
    if (dir !== '' && !this.moved.has(dir)) this.itemAt.delete(dir);
    if (id === undefined || !whole) return;
    for (const j of this.kidsOf(id).values()) {
      if (this.claimedHere.has(j.remoteId) || this.claimed.has(j.remoteId)) continue;
      const item = this.journal.items.get(j.remoteId);
      if (item) this.unclaimed.set(j.remoteId, item);
    }
  }

  /** Folders matched to an item recorded elsewhere: the journal does not know them there yet. */
  private readonly moved = new Set<string>();

  /** Per-entry things held now: entries kept for `finish`, operations, records, paths. */
  held(): number {
    const { plan } = this;
    return (
      this.kept +
      sizeOf(this.claimed, this.claimedHere, this.itemAt, this.pending, this.freshDirs) +
      sizeOf(this.unclaimed, this.moved, plan.fresh.dirs) +
      plan.mkdirs.length +
      plan.uploads.length +
      plan.relinks.length +
      this.listedLater.length +
      (this.kids?.byName.size ?? 0)
    );
  }

  /** The plan, once the scan is done: `scan.entries` holds what `offer` did not settle. */
  finish(scan: LocalScan): LocalPlan {
    const { journal, plan, claimed, itemAt } = this;
    this.kids = null;
    const kidsCache = new Map<number, Map<string, JournalItem>>();
    const kidsOf = (parentId: number) => {
      let kids = kidsCache.get(parentId);
      if (!kids) kidsCache.set(parentId, (kids = this.childrenOf(parentId)));
      return kids;
    };
    // The identities of the entries that waited: only they can be a synced item seen elsewhere
    // (an entry settled or new was nothing but what is recorded at its own place).
    const seenIds = new Map<string, LocalEntry>();
    for (const e of scan.entries.values()) seenIds.set(idKey(e.dev, e.ino), e);
    /** The entry that waited with the item's identity (a file's with its size and time too). */
    const seenAs = (j: JournalItem): LocalEntry | undefined => {
      const seen = seenIds.get(idKey(j.dev, j.ino));
      if (!seen || seen.kind !== j.kind) return undefined;
      const same = j.kind === 'folder' || (seen.size === j.size && seen.mtimeMs === j.mtimeMs);
      return same ? seen : undefined;
    };
    /**
     * The item's inode is no longer at its recorded place (so it moved rather than was linked).
     * An entry settled there is not remembered: the disk is asked (only for items whose identity
     * an entry that waited has).
     */
    const vacated = (j: JournalItem): boolean => {
      const there = scan.entries.get(j.localPath);
      if (there) return there.ino !== j.ino || there.dev !== j.dev;
      const st = lstatSync(this.local.abs(j.localPath), { throwIfNoEntry: false });
      return !st || st.ino !== j.ino || st.dev !== j.dev;
    };
    const placeOf = (e: LocalEntry): JournalItem | undefined => {
      const parentId = this.folderAt(parentOf(e.path), scan);
      const byName = parentId === undefined ? undefined : kidsOf(parentId).get(this.key(e.name));
      return byName && byName.kind === e.kind && !claimed.has(byName.remoteId) ? byName : undefined;
    };
    const identityOf = (e: LocalEntry): JournalItem | undefined =>
      journal.items
        .byInode(e.dev, e.ino)
        .find((j) => j.kind === e.kind && !claimed.has(j.remoteId) && j.state === 'synced');
    /**
     * The synced item the entry is by its identity, moved here: a rename keeps a file's size and
     * mtime; a freed inode reused by a new file does not.
     */
    const movedFrom = (e: LocalEntry, sameId = identityOf(e)): JournalItem | undefined => {
      const sameFile =
        e.kind === 'folder' || (sameId?.size === e.size && sameId.mtimeMs === e.mtimeMs);
      return sameId && sameFile && vacated(sameId) ? sameId : undefined;
    };
    /** Entries that stay the item recorded at their place (true), or give it up: as decided. */
    const keeps = new Map<LocalEntry, boolean>();
    /**
     * Whether a waiting file stays the synced file recorded at its place, looked ahead of its
     * turn. It gives its place up when that item's identity is seen at another entry that does
     * not stay its own place's item, or when it is itself another item moved (`mv current.log
     * old.log; mv new.log current.log`). So the chain of "my place's identity is over there" is
     * followed to its end: to a file whose place's identity is nowhere (or whose bytes are the
     * same), which stays, and so does each before it that is no other item moved (`rm a b`, a
     * written anew into b's freed inode with b's bytes, b into a new one: each keeps its name,
     * nothing deleted); or to an entry with no place of its own, or round (a swap, a rotation):
     * they move.
     */
    const keepsPlace = (start: LocalEntry): boolean => {
      const chain: LocalEntry[] = [];
      const onChain = new Set<LocalEntry>();
      let e: LocalEntry | undefined = start;
      let kept = keeps.get(e);
      while (kept === undefined && e !== undefined) {
        if (onChain.has(e) || e.kind !== 'file') {
          kept = false;
          break;
        }
        const j = placeOf(e);
        if (!j || j.state !== 'synced') kept = false;
        else if ((j.ino === e.ino && j.dev === e.dev) || this.samePlaceBytes(j, e)) kept = true;
        else {
          const next = seenAs(j);
          if (!next) kept = true;
          else {
            chain.push(e);
            onChain.add(e);
            if (movedFrom(e)) kept = false;
            else kept = keeps.get((e = next));
          }
        }
      }
      for (const c of chain) keeps.set(c, kept ?? false);
      return kept ?? false;
    };
    const moveTo = (j: JournalItem, e: LocalEntry) => {
      keeps.set(e, false);
      claimed.add(j.remoteId);
      if (e.kind === 'folder') {
        itemAt.set(e.path, j.remoteId);
        this.moved.add(e.path);
      }
      plan.moves.push({ type: 'move', item: j, entry: e });
    };
    const stays = (j: JournalItem, e: LocalEntry) => {
      keeps.set(e, true);
      this.inPlace(j, e, claimed);
    };

    for (const e of scan.entries.values()) {
      const atPlace = placeOf(e);
      const sameId = identityOf(e);

      // Equal bytes at a synced file's place are that file, whatever its inode says: two
      // identical files swapped, or deleted and written again into each other's freed inodes,
      // are not moves (a move onto a name its holder is leaving would cross on the service).
      if (atPlace && this.samePlaceBytes(atPlace, e)) {
        stays(atPlace, e);
        continue;
      }
      if (sameId && atPlace && sameId.remoteId === atPlace.remoteId) {
        if (renamedInPlace(atPlace, e)) moveTo(atPlace, e);
        else stays(atPlace, e);
        continue;
      }
      // A file keeps its place over an inode found elsewhere (editors save through a temporary
      // file); a folder's identity wins. Neither keeps a place whose item was seen elsewhere,
      // unless the file seen with it stays its own place's item and this one is no other item
      // moved: then nothing else claims the item here (a new file and a delete would take its
      // id, its history, and a delete a Creator may not make).
      const seenThere = atPlace && atPlace.ino !== e.ino ? seenAs(atPlace) : undefined;
      const moved = movedFrom(e, sameId);
      const movedAway =
        seenThere !== undefined &&
        (e.kind === 'folder' || moved !== undefined || !keepsPlace(seenThere));
      const placeWins =
        atPlace !== undefined && !movedAway && (e.kind === 'file' || !sameId || !vacated(sameId));
      if (atPlace && placeWins) {
        stays(atPlace, e);
        continue;
      }
      if (moved) {
        moveTo(moved, e);
        continue;
      }
      keeps.set(e, false);
      if (e.kind === 'folder') plan.mkdirs.push({ type: 'mkdir', entry: e });
      else if (!e.settling) plan.uploads.push({ type: 'upload', entry: e, item: null });
    }

    if (scan.complete) this.backFromAside();

    // What a listed folder held and no entry claimed is gone; only the topmost of a tree is sent.
    const gone = [...this.unclaimed.values()];
    for (const dir of this.listedLater) {
      const id = this.folderAt(dir, scan);
      if (id !== undefined) gone.push(...kidsOf(id).values());
    }
    // A record the remote pass set aside (another item took its name there) with nothing of it
    // on disk: it was deleted here, or moved (matched above by its identity).
    const setAside = journal.items
      .descendants(MOVING_DIR)
      .filter((j) => parentOf(j.localPath) === MOVING_DIR && !this.local.stat(j.localPath));
    gone.push(...setAside);
    // Asked of the journal once, and only when a removal is found.
    let unplaced: string[] | undefined;
    for (const j of gone) {
      if (claimed.has(j.remoteId) || j.state !== 'synced') continue;
      if (!setAside.includes(j) && this.opts.ignores(j.localPath, j.kind === 'folder')) continue;
      if (!scan.complete && !this.opts.missingBefore.has(j.remoteId)) {
        plan.unconfirmed.push(j);
        continue;
      }
      if (j.kind === 'folder') {
        unplaced ??= unplacedPaths(journal);
        if (holdsAny(j.localPath, unplaced)) {
          plan.kept.push(j);
          continue;
        }
      }
      const count = j.kind === 'folder' ? journal.items.descendants(j.localPath).length + 1 : 1;
      plan.deletes.push({ type: 'delete', item: j, count });
    }
    return plan;
  }

  /**
   * A file at the place of synced file `j` under another inode, with `j`'s size and time, and
   * nothing known that says it holds other bytes: the synced file whose inode it has, if that
   * one has the same size and time too and a different recorded hash, tells only by a read of
   * the entry (once, for such a pair only). An unreadable entry is taken for `j` (its upload
   * compares the bytes again, and sends a new version if they differ).
   */
  private samePlaceBytes(j: JournalItem, e: LocalEntry): boolean {
    if (e.kind !== 'file' || j.state !== 'synced') return false;
    if (j.ino === e.ino && j.dev === e.dev) return false;
    if (j.size !== e.size || j.mtimeMs !== e.mtimeMs) return false;
    const other = this.journal.items
      .byInode(e.dev, e.ino)
      .find(
        (o) =>
          o.remoteId !== j.remoteId &&
          o.kind === 'file' &&
          o.state === 'synced' &&
          o.size === e.size &&
          o.mtimeMs === e.mtimeMs,
      );
    if (!other?.hash || !j.hash || other.hash === j.hash) return true;
    const hash = this.hashOf(e);
    return hash === null || hash !== other.hash;
  }

  /** The sha256 of a file the scan saw, if it is still that file and readable; else null. */
  private hashOf(e: LocalEntry): string | null {
    let fd: number | undefined;
    try {
      fd = this.local.confined.openFile(e.path, e);
      return hashFdSync(fd, e.size);
    } catch {
      return null;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  /**
   * Items left aside on the service under a temporary name (a swap cut short: a crash, then a
   * pass that settled them in place here) take their own name again: a rename where they are.
   * Looked for in a complete scan (the one after a restart), one query.
   */
  private backFromAside(): void {
    const { journal, plan } = this;
    const moving = new Set(plan.moves.map((m) => m.item.remoteId));
    for (const j of journal.items.remoteNamedLike(PROVISIONAL_GLOB)) {
      if (j.state !== 'synced' || moving.has(j.remoteId) || !isProvisional(j.remoteName)) continue;
      if (isProvisional(j.localName) || parentOf(j.localPath) === MOVING_DIR) continue;
      const st = lstatSync(this.local.abs(j.localPath), { throwIfNoEntry: false });
      if (!st || st.ino !== j.ino || st.dev !== j.dev) continue;
      const kind = st.isDirectory() ? 'folder' : 'file';
      if (kind !== j.kind) continue;
      const entry: LocalEntry = {
        path: j.localPath,
        name: j.localName,
        kind,
        dev: st.dev,
        ino: st.ino,
        size: kind === 'file' ? st.size : 0,
        mtimeMs: st.mtimeMs,
        settling: false,
      };
      plan.moves.push({ type: 'move', item: j, entry });
    }
  }

  private key(name: string): string {
    return this.journal.items.pathKey(name);
  }

  private childrenOf(parentId: number): Map<string, JournalItem> {
    const kids = new Map<string, JournalItem>();
    for (const j of this.journal.items.children(parentId)) {
      if (!j.localPath.startsWith(CACHE_DIR + '/')) kids.set(this.key(j.localName), j);
    }
    return kids;
  }

  /**
   * The facts of the children of the folder being listed: one folder's worth at a time, in one
   * light query (the whole records only of what changed).
   */
  private kidsOf(parentId: number): Map<string, ChildFacts> {
    if (this.kids?.parentId !== parentId) {
      const byName = new Map<string, ChildFacts>();
      for (const j of this.journal.items.childFacts(parentId, CACHE_DIR)) {
        byName.set(this.key(j.localName), j);
      }
      this.kids = { parentId, byName };
    }
    return this.kids.byName;
  }

  /** The entry is the synced item `j`, in its recorded place. */
  private inPlace(j: ChildFacts | JournalItem, e: LocalEntry, claims: Set<number>): void {
    claims.add(j.remoteId);
    if (e.kind === 'folder') this.itemAt.set(e.path, j.remoteId);
    if (j.state !== 'synced' || !changed(j, e)) return;
    const item = 'remoteName' in j ? j : this.journal.items.get(j.remoteId);
    if (!item) return;
    if (e.kind === 'folder') this.plan.relinks.push({ type: 'relink', item, entry: e });
    else if (!e.settling) this.plan.uploads.push({ type: 'upload', entry: e, item });
  }

  /**
   * The synced folder at a path: as matched, else (not seen by the scan: above or beside what
   * was listed) the journal's. A folder seen but not matched is a new one.
   */
  private folderAt(p: string, scan: LocalScan | undefined): number | undefined {
    const known = this.itemAt.get(p);
    if (known !== undefined || this.pending.has(p) || scan?.entries.has(p)) return known;
    if (this.freshDirs.has(p)) return undefined;
    const j = this.journal.items.atPath(p);
    const id = j && j.kind === 'folder' && j.state === 'synced' ? j.remoteId : undefined;
    if (id !== undefined) this.itemAt.set(p, id);
    return id;
  }
}

/**
 * The same entry under a name that differs from the recorded one only in ways the volume ignores
 * (a case-only rename on a case-insensitive volume): a rename to send. Normalization alone is not
 * one (macOS may hand back either form).
 */
const renamedInPlace = (j: Pick<JournalItem, 'localName'>, e: LocalEntry): boolean =>
  j.localName !== e.name && j.localName.normalize('NFC') !== e.name.normalize('NFC');

// A folder's mtime moves with its children: only its identity counts.
const changed = (j: ChildFacts, e: LocalEntry) =>
  j.ino !== e.ino ||
  j.dev !== e.dev ||
  (e.kind === 'file' && (j.size !== e.size || j.mtimeMs !== e.mtimeMs));

/** Scans the given folders of the sync root and reconciles them with the journal as it goes. */
export async function scanAndPlan(
  local: LocalRoot,
  journal: Journal,
  dirs: Iterable<string>,
  complete: boolean,
  opts: LocalPlanOptions & Omit<ScanOptions, 'onEntry' | 'onListed'>,
): Promise<{ scan: LocalScan; plan: LocalPlan; seen: number; peakHeld: number }> {
  const reconciler = new LocalReconciler(journal, local, opts);
  const scan = await scanLocal(local, dirs, complete, {
    ...opts,
    onEntry: reconciler.offer,
    onListed: reconciler.listed,
  });
  const plan = reconciler.finish(scan);
  return { scan, plan, seen: reconciler.seen, peakHeld: reconciler.peakHeld };
}

/** Items the plan would delete on the service, counting what each deleted folder held. */
export const deletedCount = (plan: Pick<LocalPlan, 'deletes'>) =>
  plan.deletes.reduce((n, d) => n + d.count, 0);

/** Whether the plan has anything to send or record. */
export const hasWork = (plan: LocalPlan) =>
  plan.mkdirs.length +
    plan.fresh.files +
    plan.moves.length +
    plan.uploads.length +
    plan.deletes.length +
    plan.kept.length +
    plan.relinks.length >
  0;
