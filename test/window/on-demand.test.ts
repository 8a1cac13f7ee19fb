import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import type { ServiceClient } from '../../src/main/api/client';
import { clientFor } from '../sync/harness';
import {
  type BridgeClient,
  expectAccessible,
  screenshot,
  shots,
  shown,
  type Sandbox,
  openSession,
  type Session,
} from './harness';

// Issue 41, item 3 in the window: Browse shows where each item is on this device (a badge of its
// own shape per state, its words for screen readers), its menu and its panel download, keep and
// free it, each saying what happened once it is done; the pair's card sets how new files arrive.
// A pair syncs the test's own sandbox into a folder of the test's; every state is waited for.

let session: Session<'dir'>;
let sandbox: Sandbox;
let page: Page;
let api: BridgeClient;
let client: ServiceClient;
let dir: string;
let rootId: number;

const row = (name: string) => page.getByRole('row').filter({ hasText: name });
const badge = (name: string) => row(name).locator('.on-device');
const status = () => page.locator('p.menu-status');
const menuOf = (name: string) => page.getByRole('menu', { name: `Actions for ${name}` });
const isFocused = (el: unknown) =>
  (el as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement === el;

/** The badge's state (its class) and its words (for screen readers, and on hover). */
async function badgeOf(name: string): Promise<{ state: string; words: string }> {
  const b = badge(name);
  return {
    state: ((await b.getAttribute('class')) ?? '').replace('on-device is-', ''),
    words: (await b.textContent()) ?? '',
  };
}

beforeAll(async () => {
  session = await openSession({
    dirs: { dir: 'ws-window-on-demand-' },
    timeout: 30_000,
    api: true,
    // A new file on the service arrives within a poll.
    pollSeconds: 5,
    prepare: async (sb) => {
      client = clientFor(sb!.baseUrl, { accessToken: sb!.users[0]!.token });
      rootId = (await client.rootFolder(sb!.workspaceId)).id;
      // The demo's workspace has its own files: ours sort first.
      await client.uploadFile(rootId, '0 Report.txt', () => [Buffer.from('the report')]);
      const photos = await client.createFolder(sb!.workspaceId, rootId, '0 Photos');
      await client.uploadFile(photos.id, 'a.txt', () => [Buffer.from('text of a')]);
      await client.uploadFile(photos.id, 'b.txt', () => [Buffer.from('text of b')]);
    },
  });
  ({ page } = session);
  sandbox = session.sandbox!;
  api = session.api!;
  dir = session.dirs.dir;
  const owner = sandbox.users[0]!;
  const account = await api.call('accounts.signInWithToken', {
    server: sandbox.baseUrl,
    token: owner.token,
  });
  await api.call('pairs.add', { accountId: account.id, workspaceId: sandbox.workspaceId, dir });
  await page.reload();
  await shown(
    page.getByRole('article').getByRole('status').filter({ hasText: 'Up to date' }),
    120_000,
  );
}, 240_000);

afterAll(() => session?.close());

describe.sequential('files on demand in Browse, in Chromium', { timeout: 240_000 }, () => {
  it('badges each item, frees and downloads from the menu, by mouse and keys', async () => {
    onTestFailed(() => screenshot(page, 'failed-on-demand-menu'));
    await page.getByRole('button', { name: 'Browse', exact: true }).click();
    await shown(badge('0 Report.txt'));
    // Synced here in full (issue 42's word for it in a row; the panel says where it is).
    expect(await badgeOf('0 Report.txt')).toEqual({ state: 'full', words: 'Synced' });
    expect(await badgeOf('0 Photos')).toEqual({ state: 'full', words: 'Synced' });

    // The menu: Download now has nothing to do (disabled, still reachable), Free up space can.
    await row('0 Report.txt').click({ button: 'right' });
    const menu = menuOf('0 Report.txt');
    await shown(menu);
    const download = menu.getByRole('menuitem', { name: 'Download now' });
    const keep = menu.getByRole('menuitemcheckbox', { name: 'Always keep on this device' });
    const free = menu.getByRole('menuitem', { name: 'Free up space' });
    expect(await download.getAttribute('aria-disabled')).toBe('true');
    expect(await keep.getAttribute('aria-checked')).toBe('false');
    expect(await free.getAttribute('aria-disabled')).toBeNull();
    await expectAccessible(page, 'the item menu with files on demand');
    await free.click();
    await shown(
      status().filter({
        hasText: 'Freed up space: 0 Report.txt is online only now. Download now brings it back.',
      }),
    );
    expect(existsSync(path.join(dir, '0 Report.txt.wsync'))).toBe(true);
    expect(existsSync(path.join(dir, '0 Report.txt'))).toBe(false);
    await expect
      .poll(() => badgeOf('0 Report.txt'))
      .toEqual({
        state: 'online',
        words: 'Online only',
      });
    expect(await badgeOf('0 Photos')).toMatchObject({ state: 'full' });

    // By keys: the menu key on the row, End and up to Download now, Enter.
    await row('0 Report.txt').locator('.name').focus();
    await page.keyboard.press('Shift+F10');
    await shown(menu);
    await page.keyboard.press('End');
    await expect.poll(() => free.evaluate(isFocused)).toBe(true);
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => keep.evaluate(isFocused)).toBe(true);
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => download.evaluate(isFocused)).toBe(true);
    expect(await download.getAttribute('aria-disabled')).toBeNull();
    expect(await free.getAttribute('aria-disabled')).toBe('true');
    await page.keyboard.press('Enter');
    await shown(status().filter({ hasText: '0 Report.txt is on this device now.' }));
    expect(readFileSync(path.join(dir, '0 Report.txt'), 'utf8')).toBe('the report');
    expect(existsSync(path.join(dir, '0 Report.txt.wsync'))).toBe(false);
    await expect.poll(() => badgeOf('0 Report.txt')).toMatchObject({ state: 'full' });

    // A file with changes not sent yet (the pair paused, so they stay unsent) is not freed: said.
    const pairId = (await api.call('pairs.list', {}))[0]!.id;
    await api.call('pairs.pause', { pairId });
    writeFileSync(path.join(dir, '0 Report.txt'), 'changed here');
    await row('0 Report.txt').click({ button: 'right' });
    await menu.getByRole('menuitem', { name: 'Free up space' }).click();
    await shown(
      page.getByRole('alert').filter({
        hasText:
          'Not done: Not freed: 0 Report.txt has changes that are not on the service yet. Let it sync, then free it.',
      }),
    );
    expect(readFileSync(path.join(dir, '0 Report.txt'), 'utf8')).toBe('changed here');
    expect(existsSync(path.join(dir, '0 Report.txt.wsync'))).toBe(false);
    await api.call('pairs.resume', { pairId });
    await page.keyboard.press('Escape');
  });

  it('keeps a folder always here from its menu; its panel shows the state and unkeeps, frees', async () => {
    onTestFailed(() => screenshot(page, 'failed-on-demand-panel'));
    await row('0 Photos').click({ button: 'right' });
    await menuOf('0 Photos')
      .getByRole('menuitemcheckbox', { name: 'Always keep on this device' })
      .click();
    await shown(status().filter({ hasText: '0 Photos is always kept on this device now.' }));
    await expect
      .poll(() => badgeOf('0 Photos'))
      .toEqual({
        state: 'pinned',
        words: 'Always kept on this device',
      });
    await row('0 Photos').click({ button: 'right' });
    const menu = menuOf('0 Photos');
    expect(
      await menu
        .getByRole('menuitemcheckbox', { name: 'Always keep' })
        .getAttribute('aria-checked'),
    ).toBe('true');
    expect(
      await menu.getByRole('menuitem', { name: 'Free up space' }).getAttribute('aria-disabled'),
    ).toBe('true');
    await page.keyboard.press('Escape');

    // The panel: the state in words and the same actions.
    await row('0 Photos')
      .getByRole('button', { name: /Details/ })
      .click();
    const panel = page.getByRole('complementary');
    const section = panel.getByRole('region', { name: 'On this device' });
    await shown(section);
    await shown(section.getByText('Always kept on this device'));
    const kept = section.getByRole('checkbox', { name: 'Always keep on this device' });
    expect(await kept.isChecked()).toBe(true);
    expect(await section.getByRole('button', { name: 'Free up space' }).isDisabled()).toBe(true);
    await shown(section.getByText('Turn off “Always keep on this device” to free up its space.'));
    await shots(page, 'on-demand-panel', {
      ready: section,
      restore: { width: 1280, height: 800 },
    });

    await kept.uncheck();
    await shown(section.getByText(/0 Photos is no longer always kept/));
    await shown(section.getByText('On this device', { exact: true }).last());
    await section.getByRole('button', { name: 'Free up space' }).click();
    await shown(section.getByText(/Freed up space: 0 Photos is online only now/));
    await shown(section.getByText('Online only', { exact: true }));
    expect(existsSync(path.join(dir, '0 Photos', 'a.txt.wsync'))).toBe(true);
    expect(existsSync(path.join(dir, '0 Photos', 'a.txt'))).toBe(false);
    await expect.poll(() => badgeOf('0 Photos')).toMatchObject({ state: 'online' });
    await shots(page, 'on-demand-browse', {
      ready: badge('0 Photos'),
      restore: { width: 1280, height: 800 },
    });
    // Back to the list, for the menu's screenshots.
    await panel.getByRole('button', { name: 'Close details' }).click();
    await shots(page, 'on-demand-menu', {
      ready: async () => {
        await row('0 Report.txt').click({ button: 'right' });
        await shown(menuOf('0 Report.txt'));
      },
      after: () => page.keyboard.press('Escape'),
      restore: { width: 1280, height: 800 },
    });
  });

  it('sets how new files arrive on the pair’s card: new ones online only, those here stay', async () => {
    onTestFailed(() => screenshot(page, 'failed-on-demand-setting'));
    await page.getByRole('button', { name: 'Status', exact: true }).click();
    const setting = page.getByRole('combobox', { name: /New files from the service/ });
    await shown(setting);
    expect(await setting.inputValue()).toBe('full');
    await shown(page.getByText(/Applies to files that arrive from now on/));
    await setting.selectOption('online');
    await expect.poll(async () => (await api.call('pairs.list', {}))[0]?.onDemand).toBe('online');
    await shots(page, 'on-demand-setting', {
      ready: setting,
      restore: { width: 1280, height: 800 },
    });
    await client.uploadFile(rootId, '0 New.txt', () => [Buffer.from('new there')]);
    await expect
      .poll(() => existsSync(path.join(dir, '0 New.txt.wsync')), { timeout: 60_000 })
      .toBe(true);
    expect(existsSync(path.join(dir, '0 New.txt'))).toBe(false);
    expect(readFileSync(path.join(dir, '0 Report.txt'), 'utf8')).toBe('changed here');
    await page.reload();
    await shown(setting);
    expect(await setting.inputValue()).toBe('online');
    await page.getByRole('button', { name: 'Browse', exact: true }).click();
    await expect
      .poll(() => badgeOf('0 New.txt'), { timeout: 30_000 })
      .toMatchObject({
        state: 'online',
      });
  });

  it('says it all in German', async () => {
    onTestFailed(() => screenshot(page, 'failed-on-demand-german'));
    await api.call('settings.update', { language: 'de' });
    await page.reload();
    await page.getByRole('button', { name: 'Durchsuchen', exact: true }).click();
    await expect.poll(() => badgeOf('0 Photos')).toEqual({ state: 'online', words: 'Nur online' });
    expect(await badgeOf('0 Report.txt')).toEqual({ state: 'full', words: 'Synchronisiert' });
    await shots(page, 'on-demand-menu-de', {
      ready: async () => {
        await row('0 Photos').click({ button: 'right' });
        await shown(page.getByRole('menuitem', { name: 'Jetzt herunterladen' }));
      },
      after: () => page.keyboard.press('Escape'),
      restore: { width: 1280, height: 800 },
    });
    await row('0 Photos').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Jetzt herunterladen' }).click();
    await shown(status().filter({ hasText: '0 Photos ist jetzt auf diesem Gerät.' }));
    await api.call('settings.update', { language: 'en' });
  });
});
