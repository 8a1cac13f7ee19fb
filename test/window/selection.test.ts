import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import {
  type BridgeClient,
  screenshot,
  shots,
  shown,
  type Sandbox,
  openSession,
  type Session,
} from './harness';

// Selective sync in the window: `cli ui --server` against the demo sandbox, one pair synced;
// the pair card's Choose folders dialog lists the workspace's folders, a folder unticked and
// saved leaves the sync folder (to the trash), and the service keeps it. Screenshots of the
// dialog, light and dark, 1280x800 and 800x600; axe clean.

let session: Session<'dir'>;
let sandbox: Sandbox;
let page: Page;
let api: BridgeClient;
let dir: string;

beforeAll(async () => {
  session = await openSession({
    dirs: { dir: 'ws-window-selection-' },
    timeout: 30_000,
    api: true,
  });
  ({ page } = session);
  sandbox = session.sandbox!;
  api = session.api!;
  dir = session.dirs.dir;
}, 180_000);

afterAll(() => session?.close());

describe.sequential('Choose folders, in Chromium', { timeout: 180_000 }, () => {
  it('unticks a folder: its local copy leaves, the service keeps it', async () => {
    onTestFailed(() => screenshot(page, 'failed-selection'));
    const owner = sandbox.users[0]!;
    const account = await api.call('accounts.signInWithToken', {
      server: sandbox.baseUrl,
      token: owner.token,
    });
    await api.call('pairs.add', { accountId: account.id, workspaceId: sandbox.workspaceId, dir });
    await page.reload();
    const card = page.getByRole('article');
    await shown(card.getByRole('status').filter({ hasText: 'Up to date' }), 120_000);
    expect(existsSync(path.join(dir, 'Design Assets', 'Icons 🎨'))).toBe(true);

    await card.getByRole('button', { name: 'Choose folders of Q3 Planning…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Folders of “Q3 Planning” to sync' });
    await shown(dialog);
    const design = dialog.getByRole('checkbox', { name: 'Design Assets' });
    await shown(design);
    expect(await design.isChecked()).toBe(true);
    // A folder's own folders, listed when asked.
    await dialog.getByRole('button', { name: 'Show the folders in Reports' }).click();
    await shown(dialog.getByRole('checkbox', { name: '2026' }));

    await design.uncheck();
    // Below an unticked folder: unticked too, and not to be changed on its own.
    await dialog.getByRole('button', { name: 'Show the folders in Design Assets' }).click();
    const icons = dialog.getByRole('checkbox', { name: 'Icons 🎨' });
    await shown(icons);
    expect(await icons.isChecked()).toBe(false);
    expect(await icons.isDisabled()).toBe(true);

    await shots(page, 'selection', {
      ready: design,
      what: (scheme) => `Choose folders (${scheme})`,
    });

    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    // The engine applies it before its next pass: the folder leaves (to the trash).
    await expect
      .poll(() => existsSync(path.join(dir, 'Design Assets')), { timeout: 60_000 })
      .toBe(false);
    expect(existsSync(path.join(dir, 'Reports'))).toBe(true);
    const selection = await api.call('pairs.selection', {
      pairId: (await api.call('pairs.list', {}))[0]!.id,
    });
    expect(selection.excluded.map((e) => e.path)).toEqual(['Design Assets']);
    // The service still has it.
    const { items: folders } = await api.call('selection.folders', {
      accountId: account.id,
      workspaceId: sandbox.workspaceId,
    });
    expect(folders.map((f) => f.name)).toContain('Design Assets');

    // Opened again: shown unticked.
    await card.getByRole('button', { name: 'Choose folders of Q3 Planning…' }).click();
    await shown(dialog.getByRole('checkbox', { name: 'Design Assets' }));
    expect(await dialog.getByRole('checkbox', { name: 'Design Assets' }).isChecked()).toBe(false);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    // The card with its new button, narrow and wide, light and dark.
    await shots(page, 'selection-card', {
      what: (scheme) => `the pair card (${scheme})`,
      restore: null,
    });
  });

  it('adds a pair with folders left out from the start: never downloaded', async () => {
    const [account] = await api.call('accounts.list', {});
    const { items: top } = await api.call('selection.folders', {
      accountId: account!.id,
      workspaceId: sandbox.workspaceId,
    });
    const reports = top.find((f) => f.name === 'Reports')!;
    const { items: inside } = await api.call('selection.folders', {
      accountId: account!.id,
      workspaceId: sandbox.workspaceId,
      folderId: reports.id,
    });
    const drafts = inside.find((f) => f.name === 'Drafts')!;
    expect(drafts.parentId).toBe(reports.id);
    const second = path.join(dir, '..', `${path.basename(dir)}-second`);
    try {
      const pair = await api.call('pairs.add', {
        accountId: account!.id,
        workspaceId: sandbox.workspaceId,
        dir: second,
        excluded: [{ id: drafts.id, path: 'Reports/Drafts', parentId: reports.id }],
      });
      await expect
        .poll(
          async () =>
            (await api.call('pairs.list', {})).find((p) => p.id === pair.id)!.status.state,
          {
            timeout: 60_000,
          },
        )
        .toBe('idle');
      expect(existsSync(path.join(second, 'Reports', '2026'))).toBe(true);
      expect(existsSync(path.join(second, 'Reports', 'Drafts'))).toBe(false);
      expect((await api.call('pairs.selection', { pairId: pair.id })).excluded).toEqual([
        { id: drafts.id, path: 'Reports/Drafts', parentId: reports.id },
      ]);
      await api.call('pairs.remove', { pairId: pair.id });
    } finally {
      await rm(second, { recursive: true, force: true });
    }
  });
});
