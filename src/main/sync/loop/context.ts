import type { Moves } from '../../api/moves';
import type { Journal } from '../../journal/journal';
import type { FeedMemory } from '../detect-remote/feed';
import type { LocalRoot } from '../local';
import type { VolumeProfile } from '../names';
import type { Logger } from '../ports';
import type { EngineOptions } from './options';
import type { PassState } from './state';
import type { StatusModel } from './status';
import { readWalkReason, storedWalkReason, type WalkReason } from '../walk-reason';

/** What both passes of the loop work with: one pair, its root and its shared state. */
export interface LoopContext {
  opts: EngineOptions;
  log: Logger;
  concurrency: number;
  overlapMs: number;
  /** A file changed less than this long ago is still being written. */
  writeQuietMs: number;
  now: () => number;
  status: StatusModel;
  state: PassState;
  local: LocalRoot;
  profile: VolumeProfile;
  rootId: number;
  moves: Moves;
  ignores: (rel: string, isDir: boolean) => boolean;
}

/**
 * Why the next remote pass must be a full walk, or null. Kept in the journal: events read but
 * not applied (the window has moved past them) are only known through it after a crash.
 */
export const walkDue = (journal: Journal): WalkReason | null => {
  const stored = journal.meta.get('walk_due');
  return stored === undefined ? null : readWalkReason(stored);
};

export const setWalkDue = (journal: Journal, reason: WalkReason | null): void =>
  journal.meta.set('walk_due', reason === null ? null : storedWalkReason(reason));

/** Makes a walk due for this reason, unless one already is (its reason stays). */
export const askWalk = (journal: Journal, reason: WalkReason): void => {
  if (walkDue(journal) === null) setWalkDue(journal, reason);
};

/** What the feed reader needs of the journal. */
export const feedMemory = (journal: Journal): FeedMemory => ({
  window: journal.feed.window(),
  hasSeen: (id) => journal.feed.hasSeen(id),
  seenSince: (ms) => journal.feed.seenSince(ms),
});
