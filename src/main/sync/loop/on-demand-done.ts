import type { Words } from '../../../shared/i18n';
import { PLACEHOLDER_SUFFIX } from '../../../shared/placeholder';
import type { SyncState } from '../../../shared/sync-status';
import type { Journal } from '../../journal/journal';
import type { SyncEngine } from './engine';
import { onDemandStateOf, type OnDemandOp } from './on-demand-actions';

// A person's files-on-demand action on a running engine, answered once it is done: the one wait
// of every way in (the pair's door, Browse, the app's --open). Say only what is true: a download
// is "done" once its files are here, not once it was asked for.

/** What became of it; a refusal (unsent changes, a name in the way) rejects instead. */
export type OnDemandOutcome =
  | { kind: 'done' }
  /** Asked, and it waits: the pair is paused, offline or failing (`state`), so no round runs now. */
  | { kind: 'stopped'; state: SyncState }
  /**
   * The round that should have brought it ended without it: its problem says why, or it is
   * `gone` (deleted or moved there meanwhile).
   */
  | { kind: 'not-here'; path: string; gone: boolean }
  /** Still at it after `limitMs` (a large download): it goes on in the background. */
  | { kind: 'slow' };

/** The states in which no round runs until something changes. */
const STOPPED: ReadonlySet<SyncState> = new Set(['paused', 'offline', 'error', 'gone']);

/** How long a download may take before the asker is told it goes on in the background. */
const LIMIT_MS = 10 * 60_000;

export async function onDemandDone(
  engine: SyncEngine,
  journal: Journal,
  op: OnDemandOp,
  paths: readonly string[],
  limitMs = LIMIT_MS,
): Promise<OnDemandOutcome> {
  const { applied, round } = engine.filesOnDemandRound(op, paths);
  await applied;
  // Freeing is done once applied; an unpin changes only what comes later.
  if (op === 'free' || op === 'unpin') return { kind: 'done' };
  let timer: NodeJS.Timeout | undefined;
  let onStatus: ((s: { state: SyncState }) => void) | undefined;
  try {
    const ended = await Promise.race([
      round.then(
        () => 'round' as const,
        () => 'failed' as const,
      ),
      new Promise<SyncState>((resolve) => {
        onStatus = (s) => {
          if (STOPPED.has(s.state)) resolve(s.state);
        };
        engine.on('status', onStatus);
        onStatus(engine.status());
      }),
      new Promise<'slow'>((resolve) => {
        timer = setTimeout(() => resolve('slow'), limitMs);
      }),
    ]);
    const left = leftBehind(journal, paths);
    if (left === undefined) return { kind: 'done' };
    if (ended === 'slow') return { kind: 'slow' };
    if (ended === 'round') return { kind: 'not-here', ...left };
    return { kind: 'stopped', state: ended === 'failed' ? engine.status().state : ended };
  } finally {
    clearTimeout(timer);
    if (onStatus) engine.off('status', onStatus);
  }
}

/** The first of `paths` whose files are not all here after a download: online still, or gone. */
export function leftBehind(
  journal: Journal,
  paths: readonly string[],
): { path: string; gone: boolean } | undefined {
  for (const rel of paths) {
    const st = onDemandStateOf(journal, rel);
    // Said by the file's name: a placeholder's path names its file.
    const path = rel.endsWith(PLACEHOLDER_SUFFIX) ? rel.slice(0, -PLACEHOLDER_SUFFIX.length) : rel;
    if (st === undefined || st.online > 0) return { path, gone: st === undefined };
  }
  return undefined;
}

/** The words of a download that did not happen. */
export const notHereWords = (left: { path: string; gone: boolean }): Words =>
  left.gone
    ? { key: 'engine.onDemand.gone', params: { path: left.path } }
    : { key: 'engine.door.notHere', params: { path: left.path } };
