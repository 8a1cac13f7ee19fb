import type { Language } from '../../../shared/i18n';
import type { ServiceClient } from '../../api/client';
import type { Journal } from '../../journal/journal';
import type { VolumeProfile } from '../names';
import type { DiskSpace, Logger, Trash } from '../ports';
import type { IntentPayload, OutboxStep } from '../up/outbox';

/** A file must be left alone (quiet) this long before it is uploaded: else it is still being written. */
export const DEFAULT_WRITE_QUIET_MS = 300;

export interface EngineOptions {
  client: ServiceClient;
  workspaceId: number;
  /** The local folder, absolute. */
  root: string;
  journal: Journal;
  trash: Trash;
  log?: Logger;
  /** How often the remote event feed is polled in continuous mode; default 5 s. */
  pollIntervalMs?: number;
  /** The safety net: a full re-walk this often; default 10 minutes. */
  fullWalkIntervalMs?: number;
  /** Requests in flight at once; default 8. */
  concurrency?: number;
  /** Events are re-read from this long before the cursor (late arrivals); default 5 s. */
  overlapMs?: number;
  /** The name rules of the local volume; probed on the sync folder by default. */
  profile?: VolumeProfile;
  /** A file changed less than this long ago is still being written (DEFAULT_WRITE_QUIET_MS). */
  writeQuietMs?: number;
  /** When one pass would delete too much (either side), it waits for a confirmation. */
  deleteGuard?: DeleteGuard;
  /** Lets this run's passes delete on the service past the guard (the CLI's --confirm-deletes). */
  confirmDeletes?: boolean;
  /**
   * What this run does when a pass would move too much to the trash because the service lists
   * it deleted: 'trash' (the CLI's --confirm-remote-deletes) or 'keep' (--keep-local-copies).
   */
  remoteDeletes?: 'trash' | 'keep';
  /** Watch the disk in `run` (default true); without it, each round scans the whole folder. */
  watch?: boolean;
  /** Crash tests stop the process between an intent, its request and its record. */
  outboxStep?: (step: OutboxStep, op: IntentPayload['op']) => void;
  /**
   * The first wait after a failed round (continuous mode), doubled per failure up to a minute;
   * default 1 s. Tests set it long to see that Retry now, not the wait, starts the next round.
   */
  retryBaseMs?: number;
  /** The clock of the walk schedule; the soak moves it to make the safety-net walk due. */
  now?: () => number;
  /** The words of the conflict copies it makes (`setLanguage` changes it); default English. */
  language?: Language;
  /** The sync folder's disk (free space, access times) for freeing unused files; the system's. */
  disk?: DiskSpace;
}

/**
 * A local pass trips the guard when it would delete on the service more than `maxCount` items,
 * or more than `maxShare` of the synced items once at least `minCount` are involved. The remote
 * side's guard (`remoteDeletesLookWrong`) uses the same figures, by the shape of the deletions.
 */
export interface DeleteGuard {
  maxShare: number;
  maxCount: number;
  minCount: number;
  /** Remote side: what is left is "nearly nothing" at or below this share (default 0.1). */
  nearlyNothing?: number;
  /**
   * Remote side: `minCount` topmost deletions in this many folders are "across the tree", and
   * this many topmost deletions leaving nearly nothing look like an empty root (3).
   */
  minPlaces?: number;
}

export const DEFAULT_DELETE_GUARD: DeleteGuard = { maxShare: 0.5, maxCount: 1000, minCount: 10 };

/** Whether `n` deletions of `total` synced items are too many to make without asking. */
export function tooManyDeletes(n: number, total: number, guard: DeleteGuard): boolean {
  return n > guard.maxCount || (n >= guard.minCount && n / Math.max(1, total) > guard.maxShare);
}

/** One remote pass's deletions, in distinct items this side holds. */
export interface RemoteDeletions {
  /** Items held here (a copy on disk) the deletions take, each once. */
  count: number;
  /** Items held here in all. */
  total: number;
  /** The topmost deleted items (a folder with everything below it is one). */
  topmost: number;
  /** The folders those are in. */
  places: number;
}

/**
 * Whether deletions on the service look like something other than a person's work, and so wait
 * for the person. A colleague deleting one folder, whatever it holds, is one decision, applied
 * (Dropbox applies deletions and says so); the pass asks only when the workspace looks vanished
 * (nothing left of what this side holds, as Nextcloud asks only when every file would go; or
 * nearly nothing left after three or more deletions: a server listing an empty root) or when many
 * topmost deletions in many folders take a large share (a mass deletion across the tree).
 */
export function remoteDeletesLookWrong(d: RemoteDeletions, guard: DeleteGuard): boolean {
  if (d.count < guard.minCount) return false;
  const left = d.total - d.count;
  if (left <= 0) return true;
  // Nearly nothing left: a server listing an empty root takes every top-level item, so several;
  // a colleague deleting a big folder and one file beside it is still a person's clean-up.
  const several = guard.minPlaces ?? 3;
  if (d.topmost >= several && left <= d.total * (guard.nearlyNothing ?? 0.1)) return true;
  // Many: a folder deleted beside a file or two elsewhere is still a person's clean-up.
  return (
    d.topmost >= guard.minCount &&
    d.places >= (guard.minPlaces ?? 3) &&
    d.count / Math.max(1, d.total) > guard.maxShare
  );
}
