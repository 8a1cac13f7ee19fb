import type { Journal, JournalItem } from '../../journal/journal';
import type { Plan } from '../down/plan-types';
import { parentOf } from '../paths';
import { NO_RECENT, withRecent, type RecentDeletions } from './delete-budget';
import { remoteDeletesLookWrong, type DeleteGuard, type RemoteDeletions } from './options';

/** What the person answered to deletions on the service the guard held back. */
export type RemoteDeleteAnswer = 'trash' | 'keep';

/** Deletions on the service held back: how many synced items, of how many. */
export interface RemoteDeleteHold {
  count: number;
  total: number;
  /** Deleted on the service and moved to the trash here within the last hour, before these. */
  recent?: number;
  /**
   * What the rule saw when it tripped, the last hour's included (`count` is what is still held
   * here of it: a later pass may have moved or trashed some): which of its cases tripped.
   */
  seen: RemoteDeletions;
}

/** A folder deleted on the service that goes to the trash whole: said, not only done. */
export interface DeletedFolder {
  item: JournalItem;
  /** The items it takes along that this side holds, itself included. */
  count: number;
}

/** What the guard decided for one remote pass's trash, as data for the pass to carry out. */
export interface RemoteGuardResult<P extends Pick<Plan, 'trash'> = Plan> {
  /** The plan to execute: its trash emptied when the deletions are held or kept. */
  plan: P;
  /** Set when the deletions wait for the person. */
  held: RemoteDeleteHold | null;
  /** The topmost items held back (a later pass's hold is merged with them, never added to). */
  heldItems: JournalItem[];
  /** Items to forget (kept here, uploaded again as new): the answer was 'keep'. */
  keep: JournalItem[];
  /** The guard tripped and `answer` answered it. */
  answered: boolean;
  /** Big folders this pass moves to the trash, for a notice each once they are gone. */
  folders: DeletedFolder[];
  /** What this pass lets go to the trash, for the budget over time (delete-budget.ts). */
  applied: { count: number; topmost: number; places: string[] };
}

/**
 * The topmost of `items`, each once: an item below a folder of the list (or listed twice) goes
 * with that folder, and counting it again would say more than this side holds.
 */
export function topmostOnce(items: readonly JournalItem[]): JournalItem[] {
  const byId = new Map(items.map((j) => [j.remoteId, j]));
  const folders = new Set(
    [...byId.values()].filter((j) => j.kind === 'folder').map((j) => j.localPath),
  );
  const below = (p: string) => {
    for (let i = p.lastIndexOf('/'); i > 0; i = p.lastIndexOf('/', i - 1)) {
      if (folders.has(p.slice(0, i))) return true;
    }
    return false;
  };
  return [...byId.values()].filter((j) => !below(j.localPath));
}

/**
 * The items this side holds (a copy here) at or below each topmost item. Only what has a copy
 * here counts: a file the role never let down has nothing to lose.
 */
function heldHere(j: JournalItem, journal: Journal): number {
  return (
    (j.ino !== null ? 1 : 0) + (j.kind === 'folder' ? journal.items.countHereBelow(j.localPath) : 0)
  );
}

/** How many distinct items this side holds at or below `items` (a hold's count). */
export function countHeldHere(items: readonly JournalItem[], journal: Journal): number {
  return topmostOnce(items).reduce((n, j) => n + heldHere(j, journal), 0);
}

/**
 * The remote side's mass-delete guard, between plan and execute. A colleague deleting a folder is
 * ordinary work: it goes to the trash (never away) and is said. A pass moves nothing only when
 * its deletions look like a vanished workspace (the service lists nothing, or nearly nothing
 * beside several deletions, of what this side holds) or a mass deletion across the tree
 * (options.ts `remoteDeletesLookWrong`): then it waits for the person, unless `answer` says what
 * to do: 'trash' lets it go, 'keep' forgets the items so that the local pass uploads them again.
 */
export function guardRemoteDeletes<P extends Pick<Plan, 'trash'>>(
  plan: P,
  journal: Journal,
  guard: DeleteGuard,
  answer: RemoteDeleteAnswer | null,
  recent: RecentDeletions = NO_RECENT,
): RemoteGuardResult<P> {
  const pass: RemoteGuardResult<P> = {
    plan,
    held: null,
    heldItems: [],
    keep: [],
    answered: false,
    folders: [],
    applied: { count: 0, topmost: 0, places: [] },
  };
  if (plan.trash.length === 0) return pass;
  // The trash lists the topmost gone items: a folder takes everything below it along.
  const top = topmostOnce(plan.trash);
  const each = top.map((item) => ({ item, count: heldHere(item, journal) }));
  const count = each.reduce((n, e) => n + e.count, 0);
  const total = journal.items.countHere();
  const parents = new Set(top.map((j) => parentOf(j.localPath)));
  const shape = { count, total, topmost: top.length, places: parents.size };
  // The rule sees this pass with the deletions applied in the last hour: 9 per pass never
  // reaches the floor of 10 alone, and would empty the folder in a few passes.
  const seen = withRecent(shape, parents, recent);
  if (!remoteDeletesLookWrong(seen, guard)) {
    const folders = each.filter((e) => e.item.kind === 'folder' && e.count >= guard.minCount);
    const applied = { count, topmost: top.length, places: [...parents] };
    return { ...pass, folders, applied };
  }
  if (answer === 'trash') return { ...pass, answered: true };
  const held = { ...plan, trash: [] };
  if (answer === 'keep') return { ...pass, plan: held, keep: top, answered: true };
  const hold =
    recent.count > 0 ? { count, total, recent: recent.count, seen } : { count, total, seen };
  return { ...pass, plan: held, held: hold, heldItems: top };
}
