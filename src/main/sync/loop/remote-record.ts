import type { SyncSummary } from '../../../shared/sync-status';
import type { ExecutionResult } from '../down/execute';
import type { Plan } from '../down/plan-types';
import { isItemError } from '../local-error';
import { parentOf } from '../paths';
import { walkDue, type LoopContext } from './context';
import type { RemoteDeleteAnswer, RemoteGuardResult } from './remote-guard';
import type { RemoteHolds } from './remote-hold';

/**
 * The remote pass's last stage, record: after a walk or a feed pass is applied, its counts, the
 * guard's hold, items missing here, and problems that vanished. Apart from detection so that
 * both kinds of pass record the same way.
 */
export function recordRemotePass(
  ctx: LoopContext,
  holds: RemoteHolds,
  summary: SyncSummary,
  result: ExecutionResult,
  guarded: RemoteGuardResult<Pick<Plan, 'trash'>>,
  full: boolean,
  answer: RemoteDeleteAnswer | null,
  seen: (id: number, path: string) => boolean,
): void {
  const { opts, state, status } = ctx;
  const { journal } = opts;
  status.addCounts(summary, result);
  holds.record(guarded, full, answer);
  sayDeletedFolders(ctx, guarded);
  if (full) {
    for (const id of state.missingHere.keys()) {
      if (!result.waiting.has(id)) state.missingHere.delete(id);
    }
  }
  for (const id of result.waiting) {
    if (!state.missingHere.has(id)) state.missingHere.set(id, state.localPasses);
  }
  state.markDirty(result.rescan);
  // An item gone from the service takes its problem along; while a walk is due (a refused
  // delete waits for it to come back), the journal does not know everything yet.
  if (full || walkDue(journal) === null) {
    // An excluded folder's problem (a copy kept here: loop/selection.ts) is not the walk's.
    const excluded = journal.selection.ids();
    status.clearVanishedProblems(
      (id, path) => journal.items.get(id) !== undefined || seen(id, path) || excluded.has(id),
    );
  }
}

/** Whether the folder an item not placed was to go into is still here (journal or disk). */
export function placeHere(ctx: LoopContext, rel: string): boolean {
  const dir = parentOf(rel);
  if (dir === '' || ctx.opts.journal.items.atPath(dir) !== undefined) return true;
  try {
    return ctx.local.stat(dir) !== undefined;
  } catch (err) {
    // Not to be looked at here: kept (the next walk decides).
    if (isItemError(err)) return true;
    throw err;
  }
}

/**
 * A big folder deleted on the service and now in the trash here is said (the CLI's note, the
 * window's notices), with where to get it back: one decision, not a silent disappearance. A
 * folder that kept local work stays here and is not said to be gone.
 */
function sayDeletedFolders(
  ctx: LoopContext,
  guarded: RemoteGuardResult<Pick<Plan, 'trash'>>,
): void {
  const { journal } = ctx.opts;
  for (const { item, count } of guarded.folders) {
    if (journal.items.get(item.remoteId) !== undefined || ctx.local.stat(item.localPath)) continue;
    ctx.status.notice({
      key: 'engine.remoteFolderTrashed',
      params: { path: item.localPath, n: count },
    });
  }
}
