import type { SyncBacklog } from '../../../shared/sync-status';
import { englishOf, type Words } from '../../../shared/i18n';
import type { WalkReason } from '../walk-reason';

// What the remote pass says in the status, as words (English and German through i18n keys).

/** What the status says while the service's tree is walked, by why. */
export function walkMessage(reason: WalkReason): Words {
  switch (reason.kind) {
    case 'first-sync':
      return { key: 'engine.walkFirst' };
    case 'scheduled':
      return { key: 'engine.walkScheduled' };
    case 'catch-up':
      return { key: 'engine.walkCatchUp', params: { n: reason.changes } };
    default:
      return { key: 'engine.walkChanges' };
  }
}

/** Changes waiting on the service, as words and in English (the backlog's `reason`). */
export function backlogOf(
  changes: number,
  key: 'engine.backlogArriving' | 'engine.backlogWalk',
): SyncBacklog {
  const words: Words = { key, params: { n: changes } };
  return { changes, reason: englishOf(words), words };
}
