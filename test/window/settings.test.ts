import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import {
  type BridgeClient,
  expectAccessible,
  screenshot,
  shown,
  type Bridge,
  type Watched,
  openSession,
  type Session,
  screenshotOnFailure,
} from './harness';
import { startTestProxy } from '../api/test-proxy';

// The Settings view and Browse's context menu, against `cli ui --sandbox` (signed in as the demo
// owner, the demo workspace synced). What the window did is read back through the same typed API
// the window uses, over a WebSocket of the test's own to the bridge.

let session: Session;
let bridge: Bridge;
let win: Watched;
let page: Page;
let api: BridgeClient;

const goneFrom = (l: Locator) => l.waitFor({ state: 'detached' });
const nav = (name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name });
const contents = () => page.getByRole('table', { name: 'Folder contents' });
const settingsView = () => page.getByRole('region', { name: 'Settings' });
/** The text of what has the focus (evaluated in the page: this file has no DOM types). */
const focusedText = async () =>
  String(await page.evaluate('document.activeElement?.textContent ?? ""'));

beforeAll(async () => {
  session = await openSession({ server: 'sandbox', timeout: 20_000, api: true });
  ({ bridge, win, page } = session);
  api = session.api!;
}, 180_000);

afterAll(() => session?.close());

describe.sequential('settings and the context menu, in Chromium', { timeout: 120_000 }, () => {
  screenshotOnFailure(() => page, 'settings');

  it('opens signed in and mirrors the demo until it is up to date', async () => {
    await shown(page.getByText('Signed in as Ann Lee', { exact: false }));
    await shown(page.getByRole('status').filter({ hasText: 'Up to date' }), 90_000);
  });

  it('shows the settings, without Start at login in the web window, accessibly', async () => {
    await nav('Settings').click();
    await shown(page.getByRole('heading', { name: 'Settings', level: 1 }));
    const notify = page.getByLabel('Notify me when others change things');
    await shown(notify);
    expect(await notify.isChecked()).toBe(true);
    expect(
      await page.getByLabel('Check the service for changes every (seconds)').inputValue(),
    ).toBe('30');
    // The form is shown once app.info has answered: no desktop, no Start at login.
    expect(await page.getByText('Start Workspace Sync when I log in').count()).toBe(0);
    expect((await api.call('app.info', {})).desktop).toBe(false);
    await shown(settingsView().getByText('Q3 Planning', { exact: true }));
    await screenshot(page, 'settings');
    await expectAccessible(page, 'settings');
  });

  it('saves each setting as it is changed, and a fresh page load shows them', async () => {
    const seconds = page.getByLabel('Check the service for changes every (seconds)');
    const patterns = page.getByLabel('Files and folders never synced, one pattern per line');

    await page.getByLabel('Notify me when others change things').uncheck();
    await expect.poll(async () => (await api.call('settings.get', {})).notifications).toBe(false);
    await shown(page.getByRole('status').filter({ hasText: 'Saved' }));

    // Out of range: said at the field, nothing sent.
    await seconds.fill('2');
    await seconds.press('Tab');
    const alert = page.getByRole('alert').filter({ hasText: 'from 5 to 3600' });
    await shown(alert);
    expect(await seconds.getAttribute('aria-invalid')).toBe('true');
    expect((await api.call('settings.get', {})).pollIntervalSeconds).toBe(30);
    await seconds.fill('120');
    await goneFrom(alert);
    await seconds.press('Enter');
    await expect
      .poll(async () => (await api.call('settings.get', {})).pollIntervalSeconds)
      .toBe(120);

    // A pattern the backend refuses: its words in the view, the text kept to be fixed.
    await patterns.fill('*.log\n!\n');
    await page.getByRole('button', { name: 'Save patterns' }).click();
    const refused = page.getByRole('alert').filter({ hasText: 'Not saved' });
    await shown(refused);
    expect(await refused.textContent()).toContain('The pattern “!” matches nothing');
    expect(await patterns.inputValue()).toBe('*.log\n!\n');
    await patterns.fill('*.log\n\nbuild/\n');
    await patterns.press('Tab'); // leaving the field saves it
    await expect
      .poll(async () => (await api.call('settings.get', {})).ignorePatterns)
      .toEqual(['*.log', 'build/']);
    await goneFrom(refused);

    const onDisk = JSON.parse(await readFile(path.join(bridge.stateDir, 'settings.json'), 'utf8'));
    expect(onDisk).toMatchObject({
      notifications: false,
      pollIntervalSeconds: 120,
      ignorePatterns: ['*.log', 'build/'],
    });

    await page.reload();
    await nav('Settings').click();
    await shown(page.getByLabel('Notify me when others change things'));
    expect(await page.getByLabel('Notify me when others change things').isChecked()).toBe(false);
    expect(await seconds.inputValue()).toBe('120');
    expect(await patterns.inputValue()).toBe('*.log\nbuild/');
    expect(await page.getByText('Start Workspace Sync when I log in').count()).toBe(0);
  });

  it('saves the upload and download limits, says a bad one at its field, shows them after a reload', async () => {
    const up = page.getByLabel('Upload limit (KB/s)');
    const down = page.getByLabel('Download limit (KB/s)');
    const limits = async () => {
      const s = await api.call('settings.get', {});
      return [s.uploadLimitKBps, s.downloadLimitKBps];
    };
    expect([await up.inputValue(), await down.inputValue()]).toEqual(['0', '0']);

    // Not a whole number of KB/s: said at the field, nothing sent.
    await up.fill('-5');
    await up.press('Tab');
    const alert = page.getByRole('alert').filter({ hasText: 'whole number of KB/s' });
    await shown(alert);
    expect(await up.getAttribute('aria-invalid')).toBe('true');
    expect(await limits()).toEqual([0, 0]);
    await screenshot(page, 'settings-limit-invalid');
    await expectAccessible(page, 'settings with a bad limit');
    await up.fill('250');
    await goneFrom(alert);
    await up.press('Enter');
    await expect.poll(limits).toEqual([250, 0]);
    await down.fill('1000');
    await down.press('Tab'); // leaving the field saves it
    await expect.poll(limits).toEqual([250, 1000]);
    await shown(page.getByRole('status').filter({ hasText: 'Saved' }));

    const onDisk = JSON.parse(await readFile(path.join(bridge.stateDir, 'settings.json'), 'utf8'));
    expect(onDisk).toMatchObject({ uploadLimitKBps: 250, downloadLimitKBps: 1000 });
    await page.reload();
    await nav('Settings').click();
    await shown(up);
    expect([await up.inputValue(), await down.inputValue()]).toEqual(['250', '1000']);
    await screenshot(page, 'settings-limits');
    await expectAccessible(page, 'settings with limits');

    // No limits for the tests after this one.
    await up.fill('0');
    await up.press('Tab');
    await expect.poll(limits).toEqual([0, 1000]);
    await down.fill('0');
    await down.press('Tab');
    await expect.poll(limits).toEqual([0, 0]);
  });

  it('takes a proxy: a bad URL said at the field, a good one saved and used at once', async () => {
    const proxy = await startTestProxy();
    try {
      const field = page.getByLabel('Proxy', { exact: true });
      await shown(field);
      expect(await field.inputValue()).toBe('');
      expect(await field.getAttribute('aria-describedby')).toBeTruthy();
      await shown(
        page.getByText('Empty: the system’s HTTPS_PROXY, HTTP_PROXY and NO_PROXY.', {
          exact: false,
        }),
      );

      // Not a URL: said at the field, nothing sent.
      await field.fill('proxy.example.com:3128');
      await field.press('Tab');
      const alert = page
        .getByRole('alert')
        .filter({ hasText: 'Write the proxy as a URL starting with http://' });
      await shown(alert);
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      expect((await api.call('settings.get', {})).proxy).toBe('');
      await screenshot(page, 'settings-proxy-invalid');
      await expectAccessible(page, 'settings with a bad proxy');

      // A proxy on this computer (the sandbox is on it too): the backend's next request goes
      // through it, without a restart.
      await field.fill(proxy.url);
      await goneFrom(alert);
      await field.press('Enter');
      await expect.poll(async () => (await api.call('settings.get', {})).proxy).toBe(proxy.url);
      await shown(page.getByRole('status').filter({ hasText: 'Saved' }));
      await api.call('workspaces.list', { accountId: await annId() });
      expect(proxy.seen.some((r) => /^GET http:\/\/127\.0\.0\.1:\d+\/workspaces/.test(r))).toBe(
        true,
      );
      await screenshot(page, 'settings-proxy');
      await expectAccessible(page, 'settings with a proxy');

      await page.reload();
      await nav('Settings').click();
      await shown(field);
      await expect.poll(() => field.inputValue()).toBe(proxy.url);

      // Cleared: the environment's (none here), from the next request on.
      await field.fill('');
      await field.press('Tab');
      await expect.poll(async () => (await api.call('settings.get', {})).proxy).toBe('');
      const through = proxy.seen.length;
      await api.call('workspaces.list', { accountId: await annId() });
      expect(proxy.seen.length).toBe(through);
    } finally {
      await proxy.close();
    }
  });

  it('pauses a synced folder from Settings: Status says Paused; resumes it again', async () => {
    await settingsView().getByRole('button', { name: 'Pause sync of Q3 Planning' }).click();
    await shown(settingsView().getByRole('button', { name: 'Resume sync of Q3 Planning' }));
    expect((await api.call('pairs.list', {}))[0]?.paused).toBe(true);
    await nav('Status').click();
    await shown(page.getByRole('status').filter({ hasText: 'Paused' }));
    await shown(page.getByRole('button', { name: 'Resume sync' }));

    await nav('Settings').click();
    await settingsView().getByRole('button', { name: 'Resume sync of Q3 Planning' }).click();
    await shown(settingsView().getByRole('button', { name: 'Pause sync of Q3 Planning' }));
    expect((await api.call('pairs.list', {}))[0]?.paused).toBe(false);
  });

  it('right-click on an item: a menu with focus in it, accessible, closed by Escape', async () => {
    await nav('Browse').click();
    const readme = contents().getByRole('button', { name: 'README.txt' });
    await shown(readme);
    await contents().getByRole('row').filter({ hasText: 'README.txt' }).click({ button: 'right' });
    const menu = page.getByRole('menu', { name: 'Actions for README.txt' });
    await shown(menu);
    await expect.poll(focusedText).toBe('Open');
    await screenshot(page, 'browse-context-menu');
    await expectAccessible(page, 'context menu');
    await page.keyboard.press('ArrowDown');
    await expect.poll(focusedText).toBe('Show in folder');
    await page.keyboard.press('End');
    // Last: the files-on-demand items (the file is synced here; on-demand.test.ts).
    await expect.poll(focusedText).toBe('Free up space');
    await page.keyboard.press('ArrowDown'); // wraps around
    await expect.poll(focusedText).toBe('Open');
    await page.keyboard.press('Escape');
    await goneFrom(menu);
    await expect.poll(focusedText).toBe('README.txt');

    // A click elsewhere closes it too.
    await contents().getByRole('row').filter({ hasText: 'README.txt' }).click({ button: 'right' });
    await shown(menu);
    await page.getByRole('heading', { name: 'Browse', level: 1 }).click();
    await goneFrom(menu);
  });

  it('"Copy share link" puts the item\'s link on the clipboard and says so', async () => {
    const root = (await api.call('workspaces.list', { accountId: await annId() })).items.find(
      (w) => w.name === 'Q3 Planning',
    )!.rootFolderId;
    const listing = await api.call('folders.contents', {
      accountId: await annId(),
      folderId: root,
    });
    const file = listing.items.find((e) => e.name === 'README.txt')!;
    const link = await api.call('links.get', {
      accountId: await annId(),
      kind: 'file',
      itemId: file.id,
    });

    await contents().getByRole('row').filter({ hasText: 'README.txt' }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Copy share link' }).click();
    await shown(page.getByRole('status').filter({ hasText: 'Link copied' }));
    await goneFrom(page.getByRole('menu'));
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(link.url);
  });

  it('with the keyboard: Shift+F10 or the Menu key on a row, then Open details', async () => {
    const reports = contents().getByRole('button', { name: 'Open folder Reports' });
    await reports.focus();
    await page.keyboard.press('Shift+F10');
    const menu = page.getByRole('menu', { name: 'Actions for Reports' });
    await shown(menu);
    await expect.poll(focusedText).toBe('Open');
    await page.keyboard.press('Escape');
    await goneFrom(menu);
    await expect.poll(focusedText).toBe('Reports');

    await page.keyboard.press('ContextMenu');
    await shown(menu);
    await page.keyboard.press('End');
    await expect.poll(focusedText).toBe('Free up space');
    // Up past Always keep on this device, Download now, and Delete…, Move to… and Rename…
    // (issue 42).
    for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowUp');
    await expect.poll(focusedText).toBe('Open details');
    await page.keyboard.press('Enter');
    await goneFrom(menu);
    await shown(page.getByRole('complementary').getByRole('heading', { name: 'Reports' }));
    expect(win.dialogs).toEqual([]);
    // No script error, no CSP violation (the page's favicon is a 404 of no interest).
    expect(win.errors.filter((e) => !e.startsWith('Failed to load resource'))).toEqual([]);
  });
});

let ann: string | null = null;
async function annId(): Promise<string> {
  ann ??= (await api.call('accounts.list', {}))[0]!.id;
  return ann;
}
