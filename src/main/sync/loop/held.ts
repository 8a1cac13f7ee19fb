import type { SyncHeld } from '../../../shared/sync-status';
import { SyncFatalError } from '../errors';
import type { LocalDeleteHold } from './local-guard';
import type { RemoteDeleteHold } from './remote-guard';
import { englishOf, type Words } from '../../../shared/i18n';

/** Deletions a guard holds back: local ones (for the service), remote ones (for this disk). */
export interface HeldDeletes {
  local: LocalDeleteHold | null;
  remote: RemoteDeleteHold | null;
}

/** What the status says of held deletions: a short state message and the whole story. */
export interface HeldWords {
  summary: Words;
  /** The whole story in English (`story`'s), for logs and `--json`. */
  message: string;
  story: Words;
  held: SyncHeld;
}

/** The words for what waits for the person, local deletions first; null when nothing does. */
export function heldWords({ local, remote }: HeldDeletes): HeldWords | null {
  if (local) {
    const story: Words = {
      key: 'engine.heldLocalStory',
      params: { count: local.count, total: local.total },
    };
    return {
      held: { side: 'local', ...local },
      summary: { key: 'engine.heldLocal', params: { n: local.count } },
      message: englishOf(story),
      story,
    };
  }
  if (remote) {
    // A broken or hostile server listing an empty folder looks exactly like a colleague's
    // clean-up: the person decides, and either answer loses nothing.
    // Held by the budget over time: what the last hour already moved is said with these.
    const recent = remote.recent ?? 0;
    const params = { n: remote.count, total: remote.total, recent };
    const story: Words = {
      key: recent > 0 ? 'engine.heldRemoteRecentStory' : 'engine.heldRemoteStory',
      params,
    };
    return {
      held: { side: 'remote', count: remote.count, total: remote.total },
      summary: { key: recent > 0 ? 'engine.heldRemoteRecent' : 'engine.heldRemote', params },
      message: englishOf(story),
      story,
    };
  }
  return null;
}

/** The error a one-time sync ends with while deletions wait for the person. */
export function heldError(held: HeldDeletes): SyncFatalError | null {
  const words = heldWords(held);
  return words && new SyncFatalError('mass-delete', words.story);
}
