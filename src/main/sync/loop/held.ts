import type { SyncHeld } from '../../../shared/sync-status';
import { SyncFatalError } from '../errors';
import type { RemoteDeleteHold } from './remote-guard';
import type { Words } from '../../../shared/i18n';
import { count } from './status';

/** Deletions a guard holds back: local ones (for the service), remote ones (for this disk). */
export interface HeldDeletes {
  local: { count: number; total: number } | null;
  remote: RemoteDeleteHold | null;
}

/** What the status says of held deletions: a short state message and the whole story. */
export interface HeldWords {
  summary: Words;
  message: string;
  held: SyncHeld;
}

/** The words for what waits for the person, local deletions first; null when nothing does. */
export function heldWords({ local, remote }: HeldDeletes): HeldWords | null {
  if (local) {
    return {
      held: { side: 'local', ...local },
      summary: { key: 'engine.heldLocal', params: { n: local.count } },
      message: `${local.count} of ${local.total} synced items were removed from the sync folder; nothing was deleted on the service. If you meant it, run again with --confirm-deletes (or confirm in the app); if not, put the files back (or check that the folder is mounted).`,
    };
  }
  if (remote) {
    // A broken or hostile server listing an empty folder looks exactly like a colleague's
    // clean-up: the person decides, and either answer loses nothing.
    const of = `${remote.count.toLocaleString('en-US')} of ${count(remote.total, 'synced item')}`;
    return {
      held: { side: 'remote', count: remote.count, total: remote.total },
      summary: {
        key: 'engine.heldRemote',
        params: { n: remote.count, total: remote.total },
      },
      message: `The service lists ${of} as deleted; nothing was moved to the trash here. If that is right, run again with --confirm-remote-deletes (they go to the trash, not away); to keep them and upload them again, run with --keep-local-copies. Check first that the server and workspace are the right ones.`,
    };
  }
  return null;
}

/** The error a one-time sync ends with while deletions wait for the person. */
export function heldError(held: HeldDeletes): SyncFatalError | null {
  const words = heldWords(held);
  return words && new SyncFatalError('mass-delete', words.message);
}
