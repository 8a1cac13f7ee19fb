import type { SyncPair } from '../../shared/app-api';

/** The tray's states: one icon each (assets/tray). */
export const TRAY_STATES = ['idle', 'syncing', 'paused', 'offline', 'error', 'attention'] as const;
export type TrayState = (typeof TRAY_STATES)[number];

type PairView = Pick<SyncPair, 'paused' | 'workspaceName' | 'status'>;

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
  if (states.includes('needs-attention') || pairs.some((p) => p.status.conflicts.length > 0))
    return 'attention';
  if (states.includes('offline')) return 'offline';
  if (states.some((s) => s === 'starting' || s === 'scanning' || s === 'syncing')) return 'syncing';
  if (states.length > 0 && states.every((s) => s === 'paused')) return 'paused';
  return 'idle';
}

/** The tray's status line (and tooltip). */
export function trayStatusLine(pairs: readonly PairView[]): string {
  if (pairs.length === 0) return 'No folder is syncing';
  const state = trayStateOf(pairs);
  const one = pairs.length === 1 ? pairs[0] : undefined;
  switch (state) {
    case 'error':
    case 'attention': {
      const bad = pairs.find(
        (p) =>
          p.status.state === (state === 'error' ? 'error' : 'needs-attention') ||
          (state === 'attention' && p.status.conflicts.length > 0),
      );
      const conflicts = pairs.reduce((n, p) => n + p.status.conflicts.length, 0);
      if (bad && bad.status.state !== 'idle' && bad.status.message)
        return `${bad.workspaceName}: ${bad.status.message}`;
      return conflicts === 1 ? '1 conflict to look at' : `${conflicts} conflicts to look at`;
    }
    case 'offline':
      return 'Offline: will sync when the service is back';
    case 'syncing': {
      const done = pairs.reduce((n, p) => n + p.status.items.done, 0);
      const total = pairs.reduce((n, p) => n + p.status.items.total, 0);
      if (total > 0) return `Syncing ${done} of ${total} items`;
      // Changes on the service left for later on purpose (a burst still arriving): say why.
      const waiting = pairs.find((p) => p.status.backlog);
      return waiting ? `${waiting.workspaceName}: ${waiting.status.message}` : 'Syncing…';
    }
    case 'paused':
      return one ? `${one.workspaceName}: paused` : 'All folders paused';
    case 'idle':
      return 'Up to date';
  }
}

/** The icon file of a state, as each OS wants it (assets/tray; Electron picks `@2x` itself). */
export function trayIconFile(state: TrayState, platform: NodeJS.Platform): string {
  if (platform === 'darwin') return `${state}Template.png`;
  if (platform === 'win32') return `${state}.ico`;
  return `${state}.png`;
}
