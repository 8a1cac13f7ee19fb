import type { ServiceClient } from '../../api/client';
import { ApiError, ProtocolError } from '../../api/errors';
import type { Journal, JournalItem } from '../../journal/journal';
import type { EventRef } from './feed';
import { emptyView, fromFile, listFolder, type Listing, type RemoteView } from '../remote';
import type { WalkReason } from '../walk-reason';

export interface Resolution {
  view: RemoteView;
  /** Why the events could not be resolved (then a full walk is the answer), or null. */
  walk: WalkReason | null;
  requests: number;
}

/** What the events say of one item: the newest time, and whether the newest removed it. */
interface Target {
  kind: 'folder' | 'file';
  id: number;
  timeMs: number;
  removed: boolean;
}

/**
 * The items the events name that need a look. An event that is one of this client's own changes
 * read back (journal.feed.takeOwnChange) needs none; `take` uses those up. A removal of an item
 * never synced needs none either.
 */
function targetsOf(journal: Journal, refs: readonly EventRef[], take: boolean): Target[] {
  const targets = new Map<string, Target>();
  for (const ref of refs) {
    if (!ref.removed && journal.feed.takeOwnChange(ref.id, ref.timeMs, take)) continue;
    const key = `${ref.kind}:${ref.id}`;
    const t = targets.get(key);
    if (!t || ref.timeMs >= t.timeMs) {
      targets.set(key, { kind: ref.kind, id: ref.id, timeMs: ref.timeMs, removed: ref.removed });
    }
  }
  return [...targets.values()].filter((t) => !t.removed || journal.items.get(t.id) !== undefined);
}

/**
 * New files come in groups (a folder uploaded): one read and one listing of their folder find a
 * group, so a new file costs a fraction of a request, about. Where a walk is cheaper still (a
 * bulk upload into a small tree) the walk wins all the same.
 */
const NEW_FILE_COST = 0.25;
/** New folders are mostly found in a listing of their parent (the root first) made anyway. */
const NEW_FOLDER_COST = 0.5;
/** Below this many looks a walk is not weighed: counting the journal for it costs more. */
const CHEAP = 64;

/**
 * What resolving these events would cost in requests, about: one listing per folder that holds
 * known items, a fraction of one per new item; and how many new folders they make, each one
 * more listing for a walk too.
 */
export function resolveCost(
  journal: Journal,
  refs: readonly EventRef[],
): { requests: number; newFolders: number } {
  const parents = new Set<number>();
  let newFiles = 0;
  let newFolders = 0;
  for (const t of targetsOf(journal, refs, false)) {
    const known = journal.items.get(t.id);
    if (known) parents.add(known.remoteParentId);
    else if (t.kind === 'folder') newFolders++;
    else newFiles++;
  }
  return {
    requests: parents.size + newFolders * NEW_FOLDER_COST + newFiles * NEW_FILE_COST,
    newFolders,
  };
}

/**
 * Turns events into a partial view of the remote tree by re-reading only what they name. Known
 * items are found by listing the folders that held them, each folder once for all its changes;
 * a new file is read once, and its folder listed when more new files may be there; a new folder
 * is placed through the ancestry its children carry, or found in a folder listed anyway (the
 * root is listed as a last look). What stays unplaced asks for a full walk, as does a
 * resolution costing more than `maxRequests`.
 */
export async function resolveEvents(
  client: ServiceClient,
  journal: Journal,
  rootId: number,
  refs: readonly EventRef[],
  opts: ResolveOptions,
): Promise<Resolution> {
  return new Resolver(client, journal, rootId, refs, opts).run();
}

interface ResolveOptions {
  concurrency: number;
  /** What a walk would cost: asked only once the looks add up (it counts the journal). */
  maxRequests: () => number;
}

/** One resolution of events: its looks so far, each folder listed once, and its steps. */
class Resolver {
  private readonly view: RemoteView;
  private requests = 0;
  private budget: number | undefined;
  private walk: WalkReason | null = null;
  private readonly listings = new Map<number, Promise<Listing | null>>();
  private readonly targets: Target[];
  private readonly removed: Set<number>;
  /** Known items that left a listed folder, to look up (moved, or removed unannounced). */
  private readonly lookups: { kind: 'folder' | 'file'; id: number }[] = [];
  /** New files not read yet: while more may follow, a listing of their folder may pay. */
  private pendingNewFiles = 0;
  /** New folders no chain placed: found below if a folder listed anyway holds them. */
  private readonly unplaced: number[] = [];

  constructor(
    private readonly client: ServiceClient,
    private readonly journal: Journal,
    private readonly rootId: number,
    refs: readonly EventRef[],
    private readonly opts: ResolveOptions,
  ) {
    this.view = emptyView(rootId, false);
    // One transaction for every own change used up: after a bulk upload the feed reads back
    // tens of thousands of them, and a commit each kept the pass busy for minutes.
    this.targets = journal.transaction(() => targetsOf(journal, refs, true));
    this.removed = new Set(this.targets.filter((t) => t.removed).map((t) => t.id));
  }

  async run(): Promise<Resolution> {
    const { journal, view } = this;
    const known = this.targets.filter((t) => journal.items.get(t.id));
    const newFiles = this.targets.filter((t) => !journal.items.get(t.id) && t.kind === 'file');
    const newFolders = this.targets.filter((t) => !journal.items.get(t.id) && t.kind === 'folder');
    this.pendingNewFiles = newFiles.length;
    await this.knownItems(known);
    await this.newFiles(newFiles);
    await this.newFolders(newFolders);
    await this.leftTheirFolders();
    await this.lastLook();
    // An item seen in a listing is not gone, whatever an earlier look said.
    for (const id of view.items.keys()) view.gone.delete(id);
    return { view, walk: this.walk, requests: this.requests };
  }

  /** 1. Known items: the folders that held them, each listed once. */
  private async knownItems(known: Target[]): Promise<void> {
    const { journal, view } = this;
    const parents = new Set(
      known.map((t) => (journal.items.get(t.id) as JournalItem).remoteParentId),
    );
    await this.each([...parents], async (id) => void (await this.list(id)));
    // A known folder not where it was (moved), or a known item gone from its folder: looked up.
    for (const t of known) {
      if (
        t.kind === 'folder' &&
        t.id !== this.rootId &&
        !view.items.has(t.id) &&
        !view.gone.has(t.id)
      ) {
        this.lookups.push({ kind: 'folder', id: t.id });
      }
    }
  }

  /** 2. New files, unless a listing already showed them. */
  private async newFiles(newFiles: Target[]): Promise<void> {
    await this.each(newFiles, async (t) => {
      this.pendingNewFiles--;
      if (!this.view.items.has(t.id)) await this.readFile(t.id, this.pendingNewFiles > 0);
    });
  }

  /**
   * 3. New folders, unless a listing already showed them. Many new ones are most often made
   * side by side at the top: one listing of the root may show them all.
   */
  private async newFolders(newFolders: Target[]): Promise<void> {
    const { journal, rootId, view } = this;
    const rootPages = Math.ceil(journal.items.children(rootId).length / 60);
    const newUnseen = newFolders.filter((t) => !view.items.has(t.id)).length;
    if (this.walk === null && newUnseen > 1 && rootPages < newUnseen) await this.list(rootId);
    await this.each(newFolders, async (t) => {
      if (!view.items.has(t.id)) await this.lookFolder(t.id);
    });
  }

  /** 4. What left its folder: where is it now? */
  private async leftTheirFolders(): Promise<void> {
    const { view } = this;
    const looked = new Set<string>();
    while (this.lookups.length > 0 && this.walk === null) {
      const batch = this.lookups.splice(0).filter((l) => {
        const key = `${l.kind}:${l.id}`;
        if (looked.has(key) || view.items.has(l.id) || view.gone.has(l.id)) return false;
        looked.add(key);
        return true;
      });
      await this.each(batch, (l) =>
        l.kind === 'file' ? this.readFile(l.id, false) : this.lookFolder(l.id),
      );
    }
  }

  /** 5. New folders nothing placed: the root is the last place worth a look. */
  private async lastLook(): Promise<void> {
    const { view } = this;
    if (this.walk === null && this.unplaced.some((id) => !view.items.has(id))) {
      await this.list(this.rootId);
    }
    const lost = this.unplaced.find((id) => !view.items.has(id));
    if (this.walk === null && lost !== undefined) {
      this.walk = { kind: 'unplaced', item: 'folder', id: lost };
    }
  }

  /** Lists a folder once; null when it is gone. Items that left it are looked up. */
  private list(folderId: number): Promise<Listing | null> {
    let p = this.listings.get(folderId);
    if (!p) {
      p = this.listOnce(folderId);
      this.listings.set(folderId, p);
    }
    return p;
  }

  private async listOnce(folderId: number): Promise<Listing | null> {
    const { journal, rootId, view } = this;
    this.requests++;
    let listing: Listing;
    try {
      listing = await listFolder(this.client, folderId);
    } catch (err) {
      if (err instanceof ApiError && err.kind === 'not-found' && folderId !== rootId) {
        return null;
      }
      throw err;
    }
    view.listed.add(folderId);
    const present = new Set<number>();
    for (const child of listing.children) {
      // The root or the folder itself inside it: a loop the plan's paths would follow.
      if (child.kind === 'folder' && (child.id === rootId || child.id === folderId)) {
        throw new ProtocolError(
          'GET /folders/:id',
          '',
          `lists the folder "${child.name}" (id ${child.id}) inside folder ${folderId}, a loop in the tree`,
        );
      }
      view.items.set(child.id, child);
      present.add(child.id);
    }
    for (const child of journal.items.children(folderId)) {
      if (present.has(child.remoteId)) continue;
      // Announced as removed and no longer here: gone, with no request to confirm it.
      if (this.removed.has(child.remoteId)) view.gone.add(child.remoteId);
      else this.lookups.push({ kind: child.kind, id: child.remoteId });
    }
    return listing;
  }

  private async contains(folderId: number, id: number): Promise<boolean> {
    return (await this.list(folderId))?.children.some((c) => c.id === id) ?? false;
  }

  /** Places every folder of `chain` (root first) under its parent, listing where needed. */
  private async placeChain(chain: readonly number[]): Promise<boolean> {
    if (chain[0] !== this.rootId) return false;
    for (let i = 1; i < chain.length; i++) {
      const id = chain[i]!;
      const parent = chain[i - 1]!;
      const seen = this.view.items.get(id);
      if (seen ? seen.parentId === parent : this.journal.items.get(id)?.remoteParentId === parent) {
        continue;
      }
      if (!(await this.contains(parent, id))) return false;
    }
    return true;
  }

  private async readFile(id: number, siblingsMayFollow: boolean): Promise<void> {
    const { view } = this;
    this.requests++;
    let file;
    try {
      file = await this.client.getFile(id);
    } catch (err) {
      if (err instanceof ApiError && err.kind === 'not-found') {
        view.gone.add(id);
        return;
      }
      throw err;
    }
    const item = fromFile(file);
    view.items.set(id, item);
    if (!(await this.placeChain(file.ancestor_ids ?? []))) {
      this.walk ??= { kind: 'unplaced', item: 'file', id };
      return;
    }
    // New files come in groups (an upload of a folder): one listing finds the rest, unless
    // the folder is large and they are few.
    const known = this.journal.items.children(item.parentId).length;
    if (siblingsMayFollow && Math.ceil(known / 60) < this.pendingNewFiles) {
      await this.list(item.parentId);
    }
  }

  private async lookFolder(id: number): Promise<void> {
    const listing = await this.list(id);
    if (listing === null) {
      this.view.gone.add(id);
      return;
    }
    if (listing.chain && (await this.placeChain(listing.chain))) return;
    // Empty, or its ancestry not told: found below if a folder listed anyway holds it.
    this.unplaced.push(id);
  }

  /** Runs `work` for each of `items`, `concurrency` at a time, until a walk is the answer. */
  private async each<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
    const { concurrency } = this.opts;
    for (let i = 0; i < items.length && this.walk === null; i += concurrency) {
      await Promise.all(items.slice(i, i + concurrency).map(work));
      if (this.requests > CHEAP && this.requests > (this.budget ??= this.opts.maxRequests())) {
        this.walk = { kind: 'too-many-lookups' };
      }
    }
  }
}
