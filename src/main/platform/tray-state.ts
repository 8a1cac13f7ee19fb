import type { SyncPair } from '../../shared/app-api';
import type { Translator } from '../../shared/i18n';
import { progressWords } from '../../shared/progress-words';
import { mainLanguage } from './language';
import type { SyncRate } from '../../shared/sync-status';

/** The tray's states: one icon each (assets/tray). */
export const TRAY_STATES = ['idle', 'syncing', 'paused', 'offline', 'error', 'attention'] as const;
export type TrayState = (typeof TRAY_STATES)[number];

type PairView = Pick<SyncPair, 'paused' | 'workspaceName' | 'status'>;

/** Conflicts waiting for the person's choice (a note of one already chosen asks nothing). */
const unchosen = (p: PairView) => p.status.conflicts.filter((c) => c.copy !== undefined).length;

/** Paused by the person, or already reported paused by its engine (before the list says so). */
export const isPaused = (p: Pick<SyncPair, 'paused' | 'status'>) =>
  p.paused || p.status.state === 'paused';

/**
 * One state for all pairs: the most urgent wins, because the tray has one icon. A failure the
 * person must act on outranks being offline (which heals by itself), which outranks work in
 * progress; paused only when every pair is.
 */
export function trayStateOf(pairs: readonly PairView[]): TrayState {
  const states = pairs.map((p) => (isPaused(p) ? 'paused' : p.status.state));
  if (states.includes('error')) return 'error';
  // A workspace gone (deleted, no longer shared) waits for the person: Stop syncing.
  if (
    states.includes('needs-attention') ||
    states.includes('gone') ||
    pairs.some((p) => unchosen(p) > 0)
  )
    return 'attention';
  if (states.includes('offline')) return 'offline';
  if (states.some((s) => s === 'starting' || s === 'scanning' || s === 'syncing')) return 'syncing';
  if (states.length > 0 && states.every((s) => s === 'paused')) return 'paused';
  return 'idle';
}

/** The tray's status line (and tooltip). */
export function trayStatusLine(
  pairs: readonly PairView[],
  tr: Translator = mainLanguage(),
): string {
  if (pairs.length === 0) return tr.t('tray.noPairs');
  /** A pair's own sentence: its engine's words in this language, else its text. */
  const said = (p: PairView) =>
    tr.t('tray.pairWords', {
      workspace: p.workspaceName,
      words: p.status.words ? tr.say(p.status.words) : p.status.message,
    });
  const state = trayStateOf(pairs);
  const one = pairs.length === 1 ? pairs[0] : undefined;
  switch (state) {
    case 'error':
    case 'attention': {
      const failing = (p: PairView) =>
        state === 'error'
          ? p.status.state === 'error'
          : p.status.state === 'needs-attention' || p.status.state === 'gone';
      const bad =
        pairs.find(failing) ?? pairs.find((p) => state === 'attention' && unchosen(p) > 0);
      const conflicts = pairs.reduce((n, p) => n + unchosen(p), 0);
      // The pair's own words when its state is the failure (not a pass's step while a conflict
      // waits: "Waiting for 2 files…" beside the attention icon).
      const failed = bad && failing(bad);
      if (failed && bad.status.message) return said(bad);
      return tr.t('tray.conflicts', { n: conflicts });
    }
    case 'offline':
      return tr.t('tray.offline');
    case 'syncing': {
      const busy = pairs.filter((p) => p.status.items.total > 0);
      if (busy.length > 0)
        return tr.t('tray.syncing', { progress: progressWords(sumProgress(busy), tr) });
      // Changes on the service left for later on purpose (a burst still arriving): say why.
      const waiting = pairs.find((p) => p.status.backlog);
      return waiting ? said(waiting) : tr.t('tray.syncingPlain');
    }
    case 'paused':
      return one
        ? tr.t('tray.pausedOne', { workspace: one.workspaceName })
        : tr.t('tray.pausedAll');
    case 'idle':
      return tr.t('tray.upToDate');
  }
}

/**
 * Several pairs at work, as one: their items added, their speeds added, and the time left of the
 * one that ends last (unknown while any busy pair cannot tell yet).
 */
function sumProgress(busy: readonly PairView[]): {
  items: { done: number; total: number };
  rate: SyncRate | null;
} {
  const items = { done: 0, total: 0 };
  let bytesPerSecond = 0;
  let secondsLeft: number | null = 0;
  let known = true;
  for (const { status } of busy) {
    items.done += status.items.done;
    items.total += status.items.total;
    if (!status.rate) {
      known = false;
      continue;
    }
    bytesPerSecond += status.rate.bytesPerSecond;
    if (status.rate.secondsLeft === null) secondsLeft = null;
    else if (secondsLeft !== null) secondsLeft = Math.max(secondsLeft, status.rate.secondsLeft);
  }
  if (!known && bytesPerSecond === 0) return { items, rate: null };
  return { items, rate: { bytesPerSecond, secondsLeft: known ? secondsLeft : null } };
}

/** The icon file of a state, as each OS wants it (assets/tray; Electron picks `@2x` itself). */
export function trayIconFile(state: TrayState, platform: NodeJS.Platform): string {
  if (platform === 'darwin') return `${state}Template.png`;
  if (platform === 'win32') return `${state}.ico`;
  return `${state}.png`;
}
