import { arrivesOnline, type Journal, type JournalItem } from '../../journal/journal';
import { placeholderOf, realNameOf } from '../placeholder';
import { CACHE_DIR, joinPath } from '../paths';
import { chooseArchives } from './choose-archives';
import type { Plan, PlanOptions, StructureOp, Placement } from './plan-types';
import { encodeName, foldName, mapChildren, type ChildName } from '../names';
import {
  asRemote,
  memorySource,
  type RemoteItem,
  type RemoteView,
  type ViewSource,
} from '../remote';

/**
 * Reconciles what the service shows (a full or partial view) with the journal and plans the
 * local operations that make the disk match. Pure with respect to the disk: the executor checks
 * the disk before each operation (the planner's view of it is the journal's).
 */
export function planChanges(view: RemoteView, journal: Journal, opts: PlanOptions): Plan {
  const gone = new Set(view.gone);
  if (view.complete) {
    // Excluded folders (selective sync) are not in a view: neither they nor what is below is gone.
    const notListed = new Set([...view.unlisted, ...journal.selection.ids()]);
    const unlistedPaths = unlistedPrefixes(notListed, journal);
    for (const j of journal.items.all()) {
      if (view.items.has(j.remoteId) || notListed.has(j.remoteId)) continue;
      if (unlistedPaths.some((p) => j.localPath.startsWith(p))) continue;
      gone.add(j.remoteId);
    }
  }
  const source = memorySource(view, gone);
  const planned = planItems(source, view.items.values(), journal, opts);
  const { structure, downloads, placeholders } = planned;
  const trash = topmostGone(gone, journal);
  if (!opts.mayDownload) {
    return { structure, trash, downloads: [], archives: [], refused: downloads, placeholders };
  }
  // Where placeholders may be, files come one by one: an archive holds a folder's every file.
  if (journal.onDemand.active()) {
    return { structure, trash, downloads, archives: [], refused: [], placeholders };
  }
  const { archives, singles } = chooseArchives(view, downloads);
  return { structure, trash, downloads: singles, archives, refused: [], placeholders };
}

/** The local paths below which nothing is judged gone (folders whose listing failed), with '/'. */
export function unlistedPrefixes(unlisted: Iterable<number>, journal: Journal): string[] {
  return [...unlisted]
    .map((id) => journal.items.get(id)?.localPath)
    .filter((p): p is string => p !== undefined)
    .map((p) => p + '/');
}

/**
 * The decision for some of the items the service shows (all of a partial view's, or a chunk of
 * a full walk's folders): structure (mkdir, move, record; parents before children within the
 * call) and downloads. Names are mapped per folder from the source's listing of it, so a chunk
 * decides exactly what the whole tree at once would for its items.
 */
export function planItems(
  source: ViewSource,
  items: Iterable<RemoteItem>,
  journal: Journal,
  opts: PlanOptions,
): { structure: StructureOp[]; downloads: Placement[]; placeholders: Placement[] } {
  const targets = new Targets(source, journal, opts);
  const structure: (StructureOp & { depth: number })[] = [];
  const downloads: Placement[] = [];
  const placeholders: Placement[] = [];
  const online = onlineChoice(journal, (p) =>
    targets.nameTaken(p.item.parentId, placeholderName(p)),
  );
  for (const item of items) {
    const target = targets.of(item.id);
    if (!target) continue;
    const placement = { item, path: target.path, name: target.name };
    const j = journal.items.get(item.id);
    if (!j || j.kind !== item.kind) {
      if (item.kind === 'folder')
        structure.push({ type: 'mkdir', ...placement, depth: target.depth });
      else (online(placement, j) ? placeholders : downloads).push(placement);
      continue;
    }
    const moved = j.localPath !== target.path;
    if (moved) structure.push({ type: 'move', ...placement, depth: target.depth });
    const contentChanged =
      item.kind === 'file' &&
      (j.remoteSize !== item.size ||
        j.remoteUpdatedAt !== item.updatedAt ||
        (j.state === 'not-permitted' && opts.retryNotPermitted));
    if (j.state === 'online' && j.remoteUpdatedAt === null) downloads.push(placement);
    else if (contentChanged) (online(placement, j) ? placeholders : downloads).push(placement);
    else if (!moved && (j.remoteName !== item.name || j.remoteParentId !== item.parentId)) {
      structure.push({ type: 'record', ...placement, depth: target.depth });
    }
  }
  structure.sort(
    (a, b) => a.depth - b.depth || (a.type === 'mkdir' ? 1 : 0) - (b.type === 'mkdir' ? 1 : 0),
  );
  return { structure: structure.map(({ depth: _d, ...op }) => op), downloads, placeholders };
}

interface Target {
  path: string;
  name: string;
  depth: number;
}

/**
 * Where each remote item goes here: its path and local name, its folder's children named
 * together (mapChildren), each folder once. Null for an item with no place (below a folder not
 * synced here, or not reachable from the root).
 */
class Targets {
  private readonly rootId: number;
  /** Folders not synced here (selective sync): they and everything below them get no place. */
  private readonly excluded: ReadonlySet<number>;
  private readonly reserved: Set<string>;
  private readonly namesByParent = new Map<number, Map<number, string>>();
  private readonly targets = new Map<number, Target | null>();
  private readonly takenByParent = new Map<number, Set<string>>();

  constructor(
    private readonly source: ViewSource,
    private readonly journal: Journal,
    private readonly opts: PlanOptions,
  ) {
    this.rootId = source.rootId;
    this.excluded = journal.selection.ids();
    this.reserved = new Set([foldName(CACHE_DIR, opts.profile)]);
  }

  of(id: number, guard = 0): Target | null {
    if (id === this.rootId) return { path: '', name: '', depth: 0 };
    if (this.excluded.has(id)) return null;
    const cached = this.targets.get(id);
    if (cached !== undefined) return cached;
    const item = this.current(id);
    let result: Target | null = null;
    if (item && guard < 4096) {
      const parent = this.of(item.parentId, guard + 1);
      const name = parent && this.namesOf(item.parentId).get(id);
      if (parent && name) {
        result = { path: joinPath(parent.path, name), name, depth: parent.depth + 1 };
      }
    }
    this.targets.set(id, result);
    return result;
  }

  /** Whether a sibling of `parentId`'s children is named `name` here (a placeholder's name). */
  nameTaken(parentId: number, name: string): boolean {
    let taken = this.takenByParent.get(parentId);
    if (!taken)
      this.takenByParent.set(parentId, (taken = new Set(this.namesOf(parentId).values())));
    return taken.has(name);
  }

  /** The item as it is now: the view's, else the journal's (unchanged, as far as we know). */
  private current(id: number): RemoteItem | undefined {
    const seen = this.source.item(id);
    if (seen) return seen;
    if (this.source.gone(id)) return undefined;
    const j = this.journal.items.get(id);
    return j && asRemote(j);
  }

  private namesOf(parentId: number): Map<number, string> {
    const { source, journal, opts } = this;
    const { profile } = opts;
    let names = this.namesByParent.get(parentId);
    if (names) return names;
    const kids = new Map<number, RemoteItem>();
    for (const item of source.childrenOf(parentId)) kids.set(item.id, item);
    if (!source.listed(parentId)) {
      for (const j of journal.items.children(parentId)) {
        const now = this.current(j.remoteId);
        if (now && now.parentId === parentId && !kids.has(j.remoteId)) kids.set(j.remoteId, now);
      }
    }
    const children: ChildName[] = [...kids.values()].map((item) => {
      const j = journal.items.get(item.id);
      return {
        id: item.id,
        name: item.name,
        kind: item.kind,
        ...(j &&
        j.remoteName === item.name &&
        j.kind === item.kind &&
        !opts.deletedHere?.has(j.remoteId)
          ? { keep: j.localName, pinned: encodeName(item.name, profile) !== j.localName }
          : {}),
      };
    });
    names = mapChildren(children, profile, parentId === this.rootId ? this.reserved : undefined);
    this.namesByParent.set(parentId, names);
    return names;
  }
}

/** A folder's trash takes what is still below it (a child that moved out has moved by then),
 * so only the topmost gone items are planned. */
function topmostGone(gone: ReadonlySet<number>, journal: Journal): JournalItem[] {
  const goneItems = [...gone]
    .map((id) => journal.items.get(id))
    .filter((j): j is JournalItem => j !== undefined);
  const goneFolders = new Set(goneItems.filter((j) => j.kind === 'folder').map((j) => j.localPath));
  const underGoneFolder = (p: string) => {
    for (let i = p.lastIndexOf('/'); i > 0; i = p.lastIndexOf('/', i - 1)) {
      if (goneFolders.has(p.slice(0, i))) return true;
    }
    return false;
  };
  return goneItems.filter((j) => !underGoneFolder(j.localPath));
}

/**
 * A plan's work for the progress: every folder, move and trashed item, and every file whichever
 * way it comes (alone, in an archive, or recorded as not permitted); the bytes of those fetched.
 */
export function planWork(plan: Plan): { items: number; bytes: number } {
  let items = plan.structure.length + plan.trash.length + plan.downloads.length;
  items += plan.refused.length + (plan.placeholders?.length ?? 0);
  let bytes = 0;
  for (const d of plan.downloads) bytes += d.item.size;
  for (const job of plan.archives) {
    items += job.files.size;
    for (const p of job.files.values()) bytes += p.item.size;
  }
  return { items, bytes };
}

/**
 * Whether a file to be downloaded comes as a placeholder instead (docs/SYNC.md, Files on
 * demand): one kept online only stays so; a new one as the pair's setting and the pins say. A
 * file whose own name ends in the suffix always comes in full (its placeholder's name would
 * read as a placeholder of another).
 */
function onlineChoice(
  journal: Journal,
  clashes: (p: Placement) => boolean,
): (p: Placement, j: JournalItem | undefined) => boolean {
  const mode = journal.onDemand.mode();
  const pins = journal.onDemand.pins();
  return (p, j) => {
    if (realNameOf(p.name) !== undefined || !arrivesOnline('online', pins, p.path)) return false;
    // A sibling there has the placeholder's name: the file comes in full.
    if (clashes(p)) return false;
    if (j?.kind === 'file' && j.state === 'online') return true;
    return j === undefined && mode === 'online';
  };
}

const placeholderName = (p: Placement): string => placeholderOf(p.name);
