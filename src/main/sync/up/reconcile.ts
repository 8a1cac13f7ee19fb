// The local pass's reconciler: what a scan finds on disk against the journal, as the scan runs.
// What it cannot match as it goes waits for the end (match-waiting.ts matches those); what a
// listed folder held and nothing claimed is gone. The plan it makes is local-plan.ts's.
import { lstatSync } from 'node:fs';
import type { ChildFacts, Journal, JournalItem } from '../../journal/journal';
import type { LocalRoot } from '../local';
import { PROVISIONAL_GLOB, isProvisional } from './provisional';
import { matchPlaceholderMoves, ScannedPlaceholders } from './placeholder-moves';
import { holdsAny, holdsExcluded, unplacedPaths } from '../unplaced';
import { CACHE_DIR, MOVING_DIR, parentOf } from '../paths';
import { scanLocal, type LocalEntry, type LocalScan, type ScanOptions } from '../detect-local/scan';
import { emptyPlan, type LocalPlan, type LocalPlanOptions } from './local-plan';
import { renamedInPlace, WaitingMatcher } from './match-waiting';

export {
  deletedCount,
  hasWork,
  type FreshFiles,
  type LocalOp,
  type LocalPlan,
  type LocalPlanOptions,
} from './local-plan';

const NO_KIDS: ReadonlyMap<string, ChildFacts> = new Map();

/** The per-entry things a reconciler holds at one time, for `peakHeld`. */
const sizeOf = (...held: { size: number }[]) => held.reduce((n, h) => n + h.size, 0);

/**
 * Reconciles what a scan finds on disk with the journal. Each entry is matched to the synced item
 * it is, by identity first (device + inode: a move or rename, however deep, is one operation),
 * else by its place (an editor's save through a temporary file replaces the inode); what no entry
 * claims in a listed folder was removed.
 *
 * It works while the scan runs, one folder's records at a time (one `children` query per folder):
 * an entry that is the item recorded at its place (the common case) is matched as it is seen, and
 * one that nothing in the journal can be (no record at its place, none with its identity: one
 * indexed lookup) is new at once; neither is kept. The rest (moved, replaced, still being written)
 * waits for `finish`, when every identity on disk is known. So what it holds is bounded by the
 * changes and by the scan's frontier (the folders found and not listed yet), not by the tree.
 */
export class LocalReconciler {
  private readonly plan: LocalPlan = emptyPlan();
  /**
   * Items claimed by an entry that waits for `finish`, or in a folder where one waits. Items
   * matched in place elsewhere are not remembered: they are found in their place again (lstat)
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
  /** Placeholders met (files on demand): their items claimed, the unknown ones kept. */
  private readonly placeholders: ScannedPlaceholders;
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
    this.placeholders = new ScannedPlaceholders(journal, this.plan, (name) => this.key(name));
  }

  /** For the scan's `onEntry`: true when the entry is matched (the item recorded there, or new). */
  readonly offer = (e: LocalEntry): boolean => {
    this.seen++;
    const matched = this.match(e);
    if (!matched) {
      this.waitingHere = true;
      this.kept++;
    }
    return matched;
  };

  private match(e: LocalEntry): boolean {
    if (e.stillWriting) return false;
    const parent = parentOf(e.path);
    if (this.pending.has(parent)) {
      if (e.kind === 'folder') this.pending.add(e.path);
      return false;
    }
    const fresh = this.freshDirs.has(parent);
    const parentId = fresh ? undefined : this.folderAt(parent, undefined);
    // A placeholder (files on demand) is its item's, or told at the end (placeholder-moves.ts).
    const kids = parentId === undefined ? NO_KIDS : this.kidsOf(parentId);
    if ((fresh || parentId !== undefined) && this.placeholders.offer(e, kids, this.claimedHere)) {
      return true;
    }
    const j = parentId === undefined ? undefined : this.kidsOf(parentId).get(this.key(e.name));
    if (j?.state === 'online' && this.placeholders.arrived(e, j, this.claimedHere)) return true;
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
    this.matchListed(dir, whole);
    // A claim matters at the end only beside an entry that waits for it.
    if (this.waitingHere) for (const id of this.claimedHere) this.claimed.add(id);
    this.waitingHere = false;
    this.claimedHere.clear();
  };

  /** `whole` false: an entry could not be looked at, so nothing of `dir` is judged gone. */
  private matchListed(dir: string, whole: boolean): void {
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

  /** The plan, once the scan is done: `scan.entries` holds what `offer` did not match. */
  finish(scan: LocalScan): LocalPlan {
    this.kids = null;
    const kidsCache = new Map<number, Map<string, JournalItem>>();
    const kidsOf = (parentId: number) => {
      let kids = kidsCache.get(parentId);
      if (!kids) kidsCache.set(parentId, (kids = this.childrenOf(parentId)));
      return kids;
    };
    new WaitingMatcher(
      this.journal,
      this.local,
      this.plan,
      this.claimed,
      {
        folderAt: (p) => this.folderAt(p, scan),
        kidsOf,
        key: (name) => this.key(name),
        inPlace: (j, e) => this.inPlace(j, e, this.claimed),
        movedFolder: (path, remoteId) => {
          this.itemAt.set(path, remoteId);
          this.moved.add(path);
        },
        placeholder: (e) => {
          // Under no synced folder (a new one), no record can be at its place.
          const id = this.folderAt(parentOf(e.path), scan);
          const kids = id === undefined ? NO_KIDS : kidsOf(id);
          return this.placeholders.offer(e, kids, this.claimed);
        },
      },
      scan,
    ).matchAll();
    if (scan.complete) this.backFromAside();
    this.removals(scan, kidsOf);
    return this.plan;
  }

  /**
   * What a listed folder held and no entry claimed is gone; only the topmost of a tree is sent.
   * A partial scan only notes a removal seen once (the other half of a move may come later).
   */
  private removals(scan: LocalScan, kidsOf: (parentId: number) => Map<string, JournalItem>): void {
    const { journal, plan, claimed } = this;
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
    const online = gone.filter((j) => j.state === 'online' && !claimed.has(j.remoteId));
    const { local, opts } = this;
    const { strays } = this.placeholders;
    const moved = matchPlaceholderMoves(journal, local, plan, strays, online, opts.missingBefore);
    // Asked of the journal once, and only when a removal is found.
    let unplaced: string[] | undefined;
    for (const j of gone) {
      if (claimed.has(j.remoteId) || moved.has(j.remoteId)) continue;
      if (j.state !== 'synced' && j.state !== 'online') continue;
      if (!setAside.includes(j) && this.opts.ignores(j.localPath, j.kind === 'folder')) continue;
      if (!scan.complete && !this.opts.missingBefore.has(j.remoteId)) {
        plan.unconfirmed.push(j);
        continue;
      }
      if (j.kind === 'folder') {
        unplaced ??= unplacedPaths(journal);
        if (holdsAny(j.localPath, unplaced) || holdsExcluded(journal, j.remoteId)) {
          plan.kept.push(j);
          continue;
        }
      }
      const count = j.kind === 'folder' ? journal.items.descendants(j.localPath).length + 1 : 1;
      plan.deletes.push({ type: 'delete', item: j, count });
    }
  }

  /**
   * Items left aside on the service under a temporary name (a swap cut short: a crash, then a
   * pass that matched them in place here) take their own name again: a rename where they are.
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
        stillWriting: false,
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
    else if (!e.stillWriting) this.plan.uploads.push({ type: 'upload', entry: e, item });
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
