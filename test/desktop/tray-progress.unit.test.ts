import { describe, expect, it } from 'vitest';
import type { SyncPair, SyncPairStatus } from '../../src/shared/app-api';
import { AppTray } from '../../src/main/platform/tray';
import { trayMenu } from '../../src/main/platform/tray-menu';
import { trayStateOf, trayStatusLine } from '../../src/main/platform/tray-state';
import { fake } from './fake-electron';

// The tray as app.ts drives it on each pair-status push (refreshTray), on the Electron fake:
// while a pair syncs, its tooltip and the menu's first line say the progress, the speed and the
// time left, in the words the CLI and the window use.

const syncing = (patch: Partial<SyncPairStatus>): SyncPair => ({
  id: 'p1',
  accountId: 'a',
  workspaceId: 1,
  workspaceName: 'Q3 Planning',
  dir: '/home/ann/Q3',
  paused: false,
  status: {
    state: 'syncing',
    message: 'Syncing 2,000 items',
    items: { done: 0, total: 0 },
    bytes: { done: 0, total: 0 },
    current: null,
    problems: [],
    conflicts: [],
    lastSyncAt: null,
    ...patch,
  },
});

describe('the tray while a pair syncs', () => {
  it('says how far, how fast and how long still, in its tooltip and its menu', () => {
    const tray = new AppTray({
      iconDir: '/icons',
      platform: 'linux',
      run: () => {},
      onClick: () => {},
    });
    const fakeTray = fake.trays.at(-1)!;
    const refresh = (pairs: SyncPair[]) =>
      tray.update(trayStateOf(pairs), trayMenu(pairs, []), trayStatusLine(pairs));

    // The first second: no speed yet.
    refresh([syncing({ items: { done: 21, total: 2_021 }, bytes: { done: 0, total: 4_100_000 } })]);
    expect(fakeTray.tooltip).toBe('Workspace Sync: Syncing 21 of 2,021 items');
    expect(fakeTray.image.file).toBe('/icons/syncing.png');

    refresh([
      syncing({
        items: { done: 1_234, total: 2_021 },
        bytes: { done: 4_100_000, total: 4_100_000 },
        rate: { bytesPerSecond: 3_100_000, secondsLeft: 20 },
        current: { op: 'archive', path: '', side: 'down', files: 2_000 },
      }),
    ]);
    expect(fakeTray.tooltip).toBe(
      'Workspace Sync: Syncing 1,234 of 2,021 items — 3.1 MB/s, about 20 s left',
    );
    expect(fakeTray.menu?.items[0]?.label).toBe(
      'Syncing 1,234 of 2,021 items — 3.1 MB/s, about 20 s left',
    );
    tray.destroy();
  });
});
