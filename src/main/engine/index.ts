/**
 * The engine's one front door: everything its hosts (the CLI, the window's backend, the engine
 * host, the app's wiring and the rooms they use) may name from src/main/sync. Hosts import the
 * engine only from here (eslint/layers.js: no host layer may reach a sync layer), so what the
 * engine shows the world is this list, and its insides can move without touching a host.
 */

// Opening a pair's engine, and what it is.
export { isFirstSync, openSync, PAIR_META, type OpenSync } from '../sync/loop/open';
export type { SyncEngine } from '../sync/loop/engine';
export { countUploads } from '../sync/loop/first-sync';
export { rootFolderId } from '../sync/loop/root';

// The person's choice of folders, made while no engine runs (a running one is told by message).
export { changeSelection, openPairJournal } from '../sync/loop/selection';

// Files on demand: what a path is (online only, here, pinned), read from a pair's journal.
export {
  onDemandStateOf,
  type OnDemandOp,
  type OnDemandState,
} from '../sync/loop/on-demand-actions';
export {
  leftBehind,
  notHereWords,
  onDemandDone,
  type OnDemandOutcome,
} from '../sync/loop/on-demand-done';

// Its errors.
export { AttentionError, SyncFatalError, SyncPassError } from '../sync/errors';
export { Confined, SwapError } from '../sync/confined';

// A sync folder's place: checks made before an engine opens on it.
export {
  findExisting,
  FOLDER_CHECK_MS,
  lookAtSyncFolder,
  refusePlace,
  withinDeadline,
} from '../sync/folder-check';

// The engine's vocabulary that hosts show or store.
export { defaultProfile, fitName, foldName, type VolumeProfile } from '../sync/names';
export { findInFolder, listFolder, type RemoteItem } from '../sync/remote';
export type { TrashRecord } from '../sync/trash';
export { CACHE_DIR } from '../sync/paths';
export { patternProblem } from '../sync/detect-local/ignore';
