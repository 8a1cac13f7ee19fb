import type { ActivityEvent, SyncPair } from '../../shared/app-api';
import type { Translator } from '../../shared/i18n';
import { mainLanguage } from './language';
import { sentenceOf } from './notify-batch';
import { isPaused, trayStatusLine } from './tray-state';

/** What a tray menu item does; the wiring carries it out. */
export type TrayCommand =
  | { kind: 'open-window' }
  | { kind: 'open-folder'; pairId: string }
  | { kind: 'open-event'; accountId: string; event: ActivityEvent }
  | { kind: 'pause-all' }
  | { kind: 'resume-all' }
  /** Retry now for these pairs (their last pass failed): each starts a pass at once. */
  | { kind: 'retry'; pairIds: string[] }
  | { kind: 'quit' };

export type TrayMenuItem =
  | { type: 'separator' }
  | { type: 'item'; label: string; enabled: boolean; command: TrayCommand | null }
  | { type: 'submenu'; label: string; items: TrayMenuItem[] };

export interface RecentEvent {
  accountId: string;
  event: ActivityEvent;
}

/** How many activity items the menu lists. */
export const TRAY_RECENT = 5;

type PairView = Pick<SyncPair, 'id' | 'paused' | 'workspaceName' | 'dir' | 'status'>;

/** A menu label: one line, short, and no `&` taken as an accelerator on Windows. */
function label(text: string, max = 60): string {
  const line = text.replace(/\s+/g, ' ').trim().replaceAll('&', '&&');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * The tray menu as data: the status line, the last few activity items, the folders, the
 * window, pause/resume and quit. Built anew on every change, so it is tested without Electron.
 */
export function trayMenu(
  pairs: readonly PairView[],
  recent: readonly RecentEvent[],
  tr: Translator = mainLanguage(),
): TrayMenuItem[] {
  const items: TrayMenuItem[] = [
    { type: 'item', label: label(trayStatusLine(pairs, tr)), enabled: false, command: null },
    { type: 'separator' },
  ];
  if (recent.length > 0) {
    for (const r of recent.slice(0, TRAY_RECENT)) {
      items.push({
        type: 'item',
        label: label(sentenceOf(r.event, tr)),
        enabled: true,
        command: { kind: 'open-event', accountId: r.accountId, event: r.event },
      });
    }
    items.push({ type: 'separator' });
  }
  const folder = (p: PairView): TrayMenuItem => ({
    type: 'item',
    label: pairs.length === 1 ? tr.t('tray.openFolder') : label(p.workspaceName),
    enabled: true,
    command: { kind: 'open-folder', pairId: p.id },
  });
  if (pairs.length === 1) items.push(folder(pairs[0]!));
  else if (pairs.length > 1)
    items.push({ type: 'submenu', label: tr.t('tray.openFolder'), items: pairs.map(folder) });
  items.push({
    type: 'item',
    label: tr.t('tray.openWindow'),
    enabled: true,
    command: { kind: 'open-window' },
  });
  // A failed pass waits out its backoff; the window's Retry now, from here too.
  const failed = pairs.filter(
    (p) => !isPaused(p) && (p.status.state === 'error' || p.status.state === 'offline'),
  );
  if (failed.length > 0)
    items.push({
      type: 'item',
      label: tr.t('tray.retryNow'),
      enabled: true,
      command: { kind: 'retry', pairIds: failed.map((p) => p.id) },
    });
  if (pairs.length > 0) {
    const allPaused = pairs.every(isPaused);
    items.push(
      allPaused
        ? {
            type: 'item',
            label: tr.t('tray.resume'),
            enabled: true,
            command: { kind: 'resume-all' },
          }
        : {
            type: 'item',
            label: tr.t('tray.pause'),
            enabled: true,
            command: { kind: 'pause-all' },
          },
    );
  }
  items.push(
    { type: 'separator' },
    { type: 'item', label: tr.t('tray.quit'), enabled: true, command: { kind: 'quit' } },
  );
  return items;
}
