import type { Journal } from '../../journal/journal';
import { deletedCount, type LocalPlan } from '../up/reconcile';
import { tooManyDeletes, type DeleteGuard } from './options';

/** Deletions here held back from the service: how many synced items, of how many. */
export interface LocalDeleteHold {
  count: number;
  total: number;
}

/** What the guard decided for one local pass's deletes, as data for the pass to carry out. */
export interface LocalGuardResult<P extends Pick<LocalPlan, 'deletes'>> {
  /** The plan to send: its deletes left out when they are held. */
  plan: P;
  /** Set when the deletes wait for the person. */
  held: LocalDeleteHold | null;
}

/**
 * The local side's mass-delete guard, between plan and send: the twin of the remote side's
 * (remote-guard.ts `guardRemoteDeletes`), of the same shape. Too many deletes in one pass
 * (options.ts `tooManyDeletes`: a folder unmounted or emptied by mistake) wait for the person,
 * unless they `confirmed` deletes already. It decides only; the pass keeps the hold.
 */
export function guardLocalDeletes<P extends Pick<LocalPlan, 'deletes'>>(
  plan: P,
  journal: { readonly items: Pick<Journal['items'], 'count'> },
  guard: DeleteGuard,
  confirmed: boolean,
): LocalGuardResult<P> {
  const pass: LocalGuardResult<P> = { plan, held: null };
  const count = deletedCount(plan);
  if (count === 0 || confirmed) return pass;
  const total = Math.max(1, journal.items.count());
  if (!tooManyDeletes(count, total, guard)) return pass;
  return { plan: { ...plan, deletes: [] }, held: { count, total } };
}
