import type { Words } from './i18n';

/**
 * The sync engine's status, as plain serializable data: the engine may run in another process
 * (the app hosts it in a utility process), and the CLI, the tray and the window all read it.
 */

export type SyncState =
  | 'starting'
  | 'scanning'
  | 'syncing'
  | 'idle'
  | 'paused'
  | 'offline'
  | 'error'
  | 'needs-attention'
  /**
   * The workspace itself is gone for this user (deleted, or no longer shared): no passes run,
   * the local files stay as they are, a slow check sees whether it comes back.
   */
  | 'gone';

export type ProblemReason =
  /** The user's role does not allow it (a 403): recorded on the item, the rest goes on. */
  | 'not-permitted'
  /** The name cannot be used here even after mapping, or the server refused it. */
  | 'name'
  /** The downloaded bytes did not match what the server announced. */
  | 'verification'
  /** A local file or folder was in the way and was kept (renamed), or could not be touched. */
  | 'local'
  | 'error';

/** An item that could not be synced, and why. */
export interface SyncProblem {
  /** Local path relative to the sync root, '/'-separated ('' when unknown). */
  path: string;
  remoteId: number | null;
  reason: ProblemReason;
  message: string;
  /** The message as data, when the engine wrote it (an error's own text has none). */
  words?: Words;
  /** Epoch ms. */
  at: number;
  /** The journal's key of the problem (`item:ID` or `path:P`): what Retry and Dismiss name. */
  key?: string;
  /** Dismissed by the person, for this message: listed, but not asking for attention. */
  dismissed?: boolean;
}

export interface SyncError {
  /** e.g. 'network', 'signed-out', 'root-changed', 'disk-full', 'protocol', 'internal'. */
  kind: string;
  message: string;
  /** The message as data, when the engine wrote it (an error's own text has none). */
  words?: Words;
  at: number;
}

export interface SyncOperation {
  /**
   * Down (here): 'mkdir', 'move', 'trash', 'download', 'placeholder', 'archive' (a folder's files in one zip);
   * up (on the service): 'create folder', 'rename', 'move', 'upload', 'delete'.
   */
  op: string;
  /** The item's local path; for 'archive', the folder's ('' for the sync folder itself). */
  path: string;
  /** Which way: 'down' changes this computer, 'up' the service (absent from older engines). */
  side?: 'down' | 'up';
  /** For 'archive': how many files it brings. */
  files?: number;
}

/** How fast the pass goes, over the last few seconds (see docs/SYNC.md, Progress). */
export interface SyncRate {
  bytesPerSecond: number;
  /** Null while there is too little to tell (the first second, nothing moving). */
  secondsLeft: number | null;
}

/** Deletions a guard holds back until the person answers (see docs/SYNC.md, Safety nets). */
export interface SyncHeld {
  /** 'local': removed here, not yet deleted on the service; 'remote': the other way. */
  side: 'local' | 'remote';
  count: number;
  total: number;
}

export interface SyncStatus {
  state: SyncState;
  /** Work of the current pass; both 0 when idle. `done` never exceeds `total`. */
  items: { done: number; total: number };
  bytes: { done: number; total: number };
  /** Speed and time left of the current pass; absent when idle (and from older engines). */
  rate?: SyncRate | null;
  current: SyncOperation | null;
  lastError: SyncError | null;
  problems: SyncProblem[];
  /**
   * Epoch ms of the end of the last pass that succeeded and left nothing to do; a failed attempt
   * never moves it (the failure is `lastError`, at its own time).
   */
  lastSyncAt: number | null;
  /** A short human sentence for the state, e.g. "Offline: trying again in 8 s", in English. */
  message: string;
  /** The same sentence as data, for each reader to say in its own language (src/shared/i18n). */
  words?: Words;
  /** Deletions waiting for the person's answer (state `needs-attention`), if any. */
  held?: SyncHeld | null;
  /**
   * Conflicts and what was done about them, oldest first: those that left a copy (`copy`) until
   * settled, and the latest 50 notes.
   */
  conflicts: SyncConflict[];
  /** How the engine works around a limit of this machine or server, each said once. */
  notices: SyncNotice[];
  /**
   * Changes on the service seen but not applied yet, and why they wait (a burst still arriving,
   * or one walk of the tree about to cover them); null when the engine keeps up.
   */
  backlog: SyncBacklog | null;
}

export interface SyncBacklog {
  /** How many changes the service counts. */
  changes: number;
  /** A sentence for people, e.g. "1,500 changes on the service, still arriving: …". */
  reason: string;
  words?: Words;
}

/** A change made on both sides (or a name taken on the other side), and how it was settled. */
export interface SyncConflict {
  path: string;
  /** What was done, e.g. "Changed here and on the service: both kept; yours is ...". */
  message: string;
  /** The same as data, for each reader's language (absent: only the English is known). */
  words?: Words;
  at: number;
  /**
   * A conflict that left a copy (the local version kept beside the original at `path`): kept in
   * the journal under `id` until the person settles it or the copy or the original is gone.
   * Absent for a note that needs nothing more (folders merged, a move put back).
   */
  id?: number;
  copy?: string;
}

/** E.g. "The system ran out of file watchers...: watching by polling. Raise the limit: ...". */
export interface SyncNotice {
  message: string;
  words?: Words;
  at: number;
}

export function initialStatus(): SyncStatus {
  return {
    state: 'starting',
    items: { done: 0, total: 0 },
    bytes: { done: 0, total: 0 },
    current: null,
    lastError: null,
    problems: [],
    lastSyncAt: null,
    message: 'Starting',
    conflicts: [],
    notices: [],
    backlog: null,
  };
}

/** What one pass did, for the CLI's summary and the activity feed. */
export interface SyncSummary {
  foldersCreated: number;
  filesDownloaded: number;
  bytesDownloaded: number;
  moved: number;
  trashed: number;
  conflicts: number;
  problems: number;
  /** Local changes sent to the service. */
  remoteFoldersCreated: number;
  uploaded: number;
  bytesUploaded: number;
  remoteMoved: number;
  remoteDeleted: number;
  /** Files freed (online only now) to make room on a nearly full disk. */
  freed?: number;
  requests?: number;
}

export function emptySummary(): SyncSummary {
  return {
    foldersCreated: 0,
    filesDownloaded: 0,
    bytesDownloaded: 0,
    moved: 0,
    trashed: 0,
    conflicts: 0,
    problems: 0,
    remoteFoldersCreated: 0,
    uploaded: 0,
    bytesUploaded: 0,
    remoteMoved: 0,
    remoteDeleted: 0,
  };
}
