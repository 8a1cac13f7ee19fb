import type { Journal, JournalItem } from '../../journal/journal';
import type { Plan } from '../down/plan-types';
import { tooManyDeletes, type DeleteGuard } from './options';

/** What the person answered to deletions on the service the guard held back. */
export type RemoteDeleteAnswer = 'trash' | 'keep';

/** Deletions on the service held back: how many synced items, of how many. */
export interface RemoteDeleteHold {
  count: number;
  total: number;
}

/** What the guard decided for one remote pass's trash, as data for the pass to carry out. */
export interface RemoteGuardResult<P extends Pick<Plan, 'trash'> = Plan> {
  /** The plan to execute: its trash emptied when the deletions are held or kept. */
  plan: P;
  /** Set when the deletions wait for the person. */
  held: RemoteDeleteHold | null;
  /** Items to forget (kept here, uploaded again as new): the answer was 'keep'. */
  keep: JournalItem[];
  /** The guard tripped and `answer` settled it. */
  answered: boolean;
}

/**
 * The remote side's mass-delete guard, between plan and execute: a pass whose trash would take
 * too many synced items (a server listing an empty root, a colleague deleting most of the
 * workspace) moves nothing. It waits for the person, unless `answer` says what to do: 'trash'
 * lets it go, 'keep' forgets the items so that the local pass uploads them again. Below the
 * thresholds the plan passes unchanged.
 */
export function guardRemoteDeletes<P extends Pick<Plan, 'trash'>>(
  plan: P,
  journal: Journal,
  guard: DeleteGuard,
  answer: RemoteDeleteAnswer | null,
): RemoteGuardResult<P> {
  const pass: RemoteGuardResult<P> = { plan, held: null, keep: [], answered: false };
  if (plan.trash.length === 0) return pass;
  // The trash lists the topmost gone items: a folder takes everything below it along. Only
  // what has a copy here counts: a file the role never let down has nothing to lose.
  const here = (j: JournalItem) => (j.ino !== null ? 1 : 0);
  const count = plan.trash.reduce(
    (n, j) => n + here(j) + (j.kind === 'folder' ? journal.countHereBelow(j.localPath) : 0),
    0,
  );
  const total = journal.countHere();
  if (!tooManyDeletes(count, total, guard)) return pass;
  if (answer === 'trash') return { ...pass, answered: true };
  const held = { ...plan, trash: [] };
  if (answer === 'keep') return { plan: held, held: null, keep: plan.trash, answered: true };
  return { plan: held, held: { count, total }, keep: [], answered: false };
}
