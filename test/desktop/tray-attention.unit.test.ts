import { describe, expect, it } from 'vitest';
import type { SyncPair } from '../../src/shared/app-api';
import type { Words } from '../../src/shared/i18n';
import { initialStatus, type SyncStatus } from '../../src/shared/sync-status';
import { pairStatusOf } from '../../src/main/backend/map';
import { AppTray } from '../../src/main/platform/tray';
import { trayMenu } from '../../src/main/platform/tray-menu';
import { trayStateOf, trayStatusLine } from '../../src/main/platform/tray-state';
import { fake } from './fake-electron';

// The tray as app.ts drives it on each pair-status push, on the Electron fake, from an engine's
// status mapped as the backend pushes it: a pair up to date with a conflict to settle or a
// problem not dismissed shows the attention icon and says what, until it is settled.

const pairOf = (patch: Partial<SyncStatus>): SyncPair => ({
  id: 'p1',
  accountId: 'a',
  workspaceId: 1,
  workspaceName: 'Q3 Planning',
  dir: '/home/ann/Q3',
  paused: false,
  status: pairStatusOf({ ...initialStatus(), state: 'idle', message: 'Up to date', ...patch }),
});

const conflict = {
  id: 7,
  path: 'plan.txt',
  copy: 'plan (conflict 2026-11-27 101500 vm).txt',
  message: 'Changed here and on the service: both kept',
  at: 1,
};
const problem = {
  path: 'bad.txt',
  remoteId: null,
  reason: 'name' as const,
  message: 'This name cannot be synced',
  at: 2,
  key: 'path:bad.txt',
};

describe('the tray while something needs the person', () => {
  it('shows attention for a conflict or an undismissed problem, and up to date once settled', () => {
    const tray = new AppTray({
      iconDir: '/icons',
      platform: 'linux',
      run: () => {},
      onClick: () => {},
    });
    const fakeTray = fake.trays.at(-1)!;
    const refresh = (pairs: SyncPair[]) =>
      tray.update(trayStateOf(pairs), trayMenu(pairs, []), trayStatusLine(pairs));

    refresh([pairOf({ conflicts: [conflict] })]);
    expect(fakeTray.image.file).toBe('/icons/attention.png');
    expect(fakeTray.tooltip).toBe('Workspace Sync: Q3 Planning: 1 conflict to look at');

    refresh([pairOf({ conflicts: [conflict], problems: [problem] })]);
    expect(fakeTray.tooltip).toBe(
      'Workspace Sync: Q3 Planning: 1 conflict and 1 problem to look at',
    );

    // Settled: the conflict is a note without a copy now, the problem dismissed.
    refresh([
      pairOf({
        conflicts: [{ path: 'D', message: 'merged', at: 3 }],
        problems: [{ ...problem, dismissed: true }],
      }),
    ]);
    expect(fakeTray.image.file).toBe('/icons/idle.png');
    expect(fakeTray.tooltip).toBe('Workspace Sync: Up to date');
    tray.destroy();
  });
});

describe('the tray when a workspace is gone, a pass failed or the service signed out (issue 37)', () => {
  it('says so, never up to date', () => {
    const tray = new AppTray({
      iconDir: '/icons',
      platform: 'linux',
      run: () => {},
      onClick: () => {},
    });
    const fakeTray = fake.trays.at(-1)!;
    const refresh = (pairs: SyncPair[]) =>
      tray.update(trayStateOf(pairs), trayMenu(pairs, []), trayStatusLine(pairs));
    const error = (kind: string, message: string, words?: Words) => ({
      kind,
      message,
      at: 5,
      ...(words ? { words } : {}),
    });

    const goneWords: Words = { key: 'engine.workspaceGone', params: { id: '1' } };
    refresh([
      pairOf({
        state: 'gone',
        message:
          'Workspace 1 was deleted or is no longer shared with you: syncing stopped, and the files here stay as they are.',
        words: goneWords,
        lastError: error('workspace-gone', 'gone', goneWords),
      }),
    ]);
    expect(fakeTray.image.file).toBe('/icons/attention.png');
    expect(fakeTray.tooltip).toBe(
      'Workspace Sync: Q3 Planning: Workspace 1 was deleted or is no longer shared with you: syncing stopped, and the files here stay as they are.',
    );

    // A failed pass: the error icon, its line, and Retry now in the menu.
    const offline = pairOf({
      state: 'offline',
      message: 'Offline: the service is not available; trying again in 8 s',
      words: { key: 'engine.retryOffline', params: { seconds: 8 } },
      lastError: error('offline', 'The service had a problem (HTTP 503)'),
    });
    refresh([offline]);
    expect(trayMenu([offline], [])).toContainEqual({
      type: 'item',
      label: 'Retry now',
      enabled: true,
      command: { kind: 'retry', pairIds: ['p1'] },
    });
    expect(
      trayMenu([pairOf({})], []).some((i) => i.type === 'item' && i.label === 'Retry now'),
    ).toBe(false);

    const outWords: Words = { key: 'engine.signedOut' };
    refresh([
      pairOf({
        state: 'needs-attention',
        message: 'You are signed out: sign in again to continue syncing.',
        words: outWords,
        lastError: error('signed-out', 'You are signed out', outWords),
      }),
    ]);
    expect(fakeTray.image.file).toBe('/icons/attention.png');
    expect(fakeTray.tooltip).toBe(
      'Workspace Sync: Q3 Planning: You are signed out: sign in again to continue syncing.',
    );
    tray.destroy();
  });
});
