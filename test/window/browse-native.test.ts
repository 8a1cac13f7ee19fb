import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { encode } from 'fast-png';
import type { Locator, Page } from 'playwright-core';
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
  type Watched,
  openSession,
  type Session,
} from './harness';

// Browse as a file manager (issue 28, items 1 and 7): `cli ui --server` against a sandbox of the
// test's own, a pair syncing its workspace into a folder of the test's. The system's opener is a
// script of the test's (first on the bridge's PATH) that writes down what it was asked to open,
// so Open and Show in folder are checked on what reached the OS. Offline is the sandbox stopped.
// Each state is waited for, never a duration.

let session: Session<'bin' | 'dir'>;
let sandbox: Sandbox;
let win: Watched;
let page: Page;
let api: BridgeClient;
let client: ServiceClient;
let dir: string;
let openLog: string;

const gone = (l: Locator, timeout?: number) => l.waitFor({ state: 'detached', timeout });

/** What the opener was asked to open so far, one path a line. */
function opened(): string[] {
  return existsSync(openLog) ? readFileSync(openLog, 'utf8').split('\n').filter(Boolean) : [];
}

/** Waits until the opener was asked for `what` (it runs detached: its line comes a moment later). */
async function openedWith(what: string) {
  await expect.poll(opened, { timeout: 30_000 }).toContain(what);
}

/** A picture the sandbox measures (so the service has a thumbnail of it): a 48x48 gradient. */
function picture(): Buffer {
  const size = 48;
  const data = new Uint8Array(size * size * 3);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const i = (y * size + x) * 3;
      data[i] = 40 + x * 4;
      data[i + 1] = 120 + y * 2;
      data[i + 2] = 200;
    }
  return Buffer.from(encode({ width: size, height: size, data, channels: 3, depth: 8 }));
}

/** Whether the element has the focus (a string: the test's types have no DOM). */
const isFocused = (el: unknown) =>
  (el as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement === el;

/** Pictures in a folder of their own: more than a window's rows. */
const PICTURES = 45;

const row = (name: string) => page.getByRole('row').filter({ hasText: name });
const browseTable = () => page.getByRole('table', { name: 'Folder contents' });
const here = () => page.getByRole('navigation', { name: 'Folder path' }).locator('[aria-current]');

/** This file's tests run at 1280×800: the screenshots go back to it. */
const shoot = (name: string, ready: Locator) =>
  shots(page, name, { ready, restore: { width: 1280, height: 800 } });

beforeAll(async () => {
  session = await openSession({
    dirs: { bin: 'ws-window-bin-', dir: 'ws-window-browse-' },
    timeout: 30_000,
    api: true,
    prepare: (sandbox, dirs) => {
      client = clientFor(sandbox!.baseUrl, { accessToken: sandbox!.users[0]!.token });
      openLog = path.join(dirs.bin, 'opened.log');
      // The opener the backend starts on Linux (xdg-open): it notes its argument and ends.
      writeFileSync(
        path.join(dirs.bin, 'xdg-open'),
        `#!/bin/sh\nprintf '%s\\n' "$1" >> ${JSON.stringify(openLog)}\n`,
      );
      chmodSync(path.join(dirs.bin, 'xdg-open'), 0o755);
      return { PATH: `${dirs.bin}:${process.env.PATH ?? ''}` };
    },
  });
  ({ win, page } = session);
  sandbox = session.sandbox!;
  api = session.api!;
  dir = session.dirs.dir;
}, 180_000);

afterAll(() => session?.close());

describe.sequential('Browse like a file manager, in Chromium', { timeout: 240_000 }, () => {
  it('opens with a double-click, moves with the keyboard, and shows what an item is', async () => {
    onTestFailed(() => screenshot(page, 'failed-browse-native'));
    const owner = sandbox.users[0]!;
    const root = await client.rootFolder(sandbox.workspaceId);
    const reports = await client.createFolder(sandbox.workspaceId, root.id, 'Reports 2026');
    await client.uploadFile(reports.id, 'Budget.pdf', () => [Buffer.from('%PDF-1.4 a budget')]);
    await client.uploadFile(reports.id, 'Notes.txt', () => [Buffer.from('notes')]);
    await client.uploadFile(root.id, 'Harbour.png', () => [picture()]);
    const pictures = await client.createFolder(sandbox.workspaceId, root.id, 'Pictures');
    for (let i = 0; i < PICTURES; i++)
      await client.uploadFile(pictures.id, `Photo ${String(i).padStart(2, '0')}.png`, () => [
        picture(),
      ]);
    const outer = await client.createFolder(sandbox.workspaceId, root.id, 'AAA Outer');
    await client.createFolder(sandbox.workspaceId, outer.id, 'AAA Inner');
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
    expect(existsSync(path.join(dir, 'Reports 2026', 'Budget.pdf'))).toBe(true);

    await page.getByRole('button', { name: 'Browse', exact: true }).click();
    await shown(row('Reports 2026'));
    // The service's thumbnail of the picture, as a data URL through the backend.
    const thumb = row('Harbour.png').locator('img.thumbnail');
    await shown(thumb);
    expect(await thumb.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    // Icons by type: an SVG per row (lucide), the folder's its own.
    await shown(row('Reports 2026').locator('svg.type-icon.is-folder'));

    // A double-click on a folder's name opens that folder only: its first click opened it, and
    // the second click and the double-click land on the rows it shows (read before: at once).
    await row('AAA Outer').locator('.name').click();
    await shown(row('AAA Inner'));
    await page.keyboard.press('Backspace');
    await row('AAA Outer').locator('.name').dblclick();
    await shown(row('AAA Inner'));
    await shown(here().filter({ hasText: 'AAA Outer' }));
    await page.keyboard.press('Backspace');
    await shown(row('Harbour.png'));

    // Double-click a folder: into it.
    await row('Reports 2026').locator('[role="cell"]').nth(2).dblclick();
    await shown(here().filter({ hasText: 'Reports 2026' }));
    await shown(row('Budget.pdf'));
    await shown(row('Budget.pdf').locator('svg.type-icon.is-pdf'));
    // Backspace: up again; the list's first row takes arrows.
    await page.keyboard.press('Backspace');
    await shown(row('Harbour.png'));
    const first = browseTable().locator('[data-index="0"] .name');
    await first.focus();
    const firstName = await first.textContent();
    await page.keyboard.press('ArrowDown');
    const second = browseTable().locator('[data-index="1"] .name');
    await expect.poll(() => second.evaluate(isFocused)).toBe(true);
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => first.evaluate(isFocused)).toBe(true);
    expect(firstName).toBeTruthy();
    // Enter on the folder's row opens it; Alt+Up goes back.
    await row('Reports 2026').locator('.name').focus();
    await page.keyboard.press('Enter');
    await shown(here().filter({ hasText: 'Reports 2026' }));
    await page.keyboard.press('Alt+ArrowUp');
    await shown(row('Harbour.png'));
    // / searches (the whole workspace: the items found instead of the folder's rows).
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('/');
    await expect.poll(() => page.locator('#browse-search').evaluate(isFocused)).toBe(true);
    await page.keyboard.type('harb');
    await shown(page.locator('.search-results').getByRole('button', { name: /^Harbour\.png in / }));
    await gone(row('Reports 2026'));
    await page.locator('#browse-search').fill('');
    await shown(row('Reports 2026'));

    // Double-click a synced file: its app, found through the pair's journal.
    await row('Reports 2026').locator('.name').click();
    await shown(row('Budget.pdf'));
    await row('Budget.pdf').locator('[role="cell"]').nth(1).dblclick();
    await openedWith(path.join(dir, 'Reports 2026', 'Budget.pdf'));
    await shown(page.getByText('Opened Budget.pdf.'));

    // The context menu: Open, Show in folder, Open in browser, and the earlier two.
    await row('Notes.txt').click({ button: 'right' });
    const menu = page.getByRole('menu', { name: 'Actions for Notes.txt' });
    await shown(menu);
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual([
      'Open',
      'Show in folder',
      'Open in browser',
      'Copy share link',
      'Open details',
      // File operations on the service (issue 42, file-ops.test.ts).
      'Rename…',
      'Move to…',
      'Delete…',
      // Files on demand (on-demand.test.ts): the file is synced here.
      'Download now',
      'Free up space',
    ]);
    await shown(browseTable());
    await expectAccessible(page, 'the item menu');
    await menu.getByRole('menuitem', { name: 'Show in folder' }).click();
    await openedWith(path.join(dir, 'Reports 2026'));
    // Open in browser: the share page, once the link is on (the service has no other page).
    await page.keyboard.press('Backspace');
    await row('Reports 2026').click({ button: 'right' });
    const folderMenu = page.getByRole('menu', { name: 'Actions for Reports 2026' });
    await folderMenu.getByRole('menuitem', { name: 'Open in browser' }).click();
    await shown(page.getByRole('alert').filter({ hasText: 'Its share link is turned off' }));
    const link = await api.call('links.update', {
      accountId: account.id,
      kind: 'folder',
      itemId: reports.id,
      tokenAccessible: true,
    });
    const popup = win.context.waitForEvent('page');
    await row('Reports 2026').click({ button: 'right' });
    await folderMenu.getByRole('menuitem', { name: 'Open in browser' }).click();
    expect((await popup).url()).toBe(link.url);
    await shown(page.getByText('Opened the page of Reports 2026 in your browser.'));
    await row('Reports 2026').locator('.name').click();

    // The item panel: what the file is.
    await row('Budget.pdf').locator('.name').click();
    const panel = page.getByRole('complementary', { name: 'Budget.pdf' });
    await shown(panel);
    const facts = panel.locator('dl.facts');
    await shown(facts.getByText('PDF document'));
    await shown(facts.getByText('17 bytes'));
    await shown(facts.getByText(owner.name));
    await shootPanel(panel);
    // Escape closes it.
    await panel.getByRole('button', { name: 'Close details' }).focus();
    await page.keyboard.press('Escape');
    await gone(panel);

    // The workspace's top: a folder, a picture's thumbnail, the demo's files by type.
    await page.keyboard.press('Backspace');
    await shown(thumb);
    await row('Harbour.png').locator('.name').focus();
    await shoot('browse', thumb);
    await row('Reports 2026').locator('[role="cell"]').nth(2).dblclick();
    await shown(row('Budget.pdf'));
    expect(win.dialogs).toEqual([]);
    expect(win.errors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
  });

  it('at 800x600 the sidebar is behind a menu button and the panel lies over the list', async () => {
    onTestFailed(() => screenshot(page, 'failed-browse-narrow'));
    await page.setViewportSize({ width: 800, height: 600 });
    const sidebar = page.getByRole('navigation', { name: 'Main' });
    await sidebar.waitFor({ state: 'hidden' });
    const menuButton = page.getByRole('button', { name: 'Show the menu' });
    await menuButton.click();
    await shown(sidebar);
    expect(
      await page.getByRole('button', { name: 'Hide the menu' }).getAttribute('aria-expanded'),
    ).toBe('true');
    await screenshot(page, 'browse-menu-open-light-800x600');
    await expectAccessible(page, 'the open menu');
    await page.keyboard.press('Escape');
    await sidebar.waitFor({ state: 'hidden' });
    // The panel over the list: the Size and Modified columns stay in view beside it.
    await row('Budget.pdf').locator('.name').click();
    const panel = page.getByRole('complementary', { name: 'Budget.pdf' });
    await shown(panel);
    const sizeHeader = page.getByRole('columnheader', { name: 'Size' });
    const modifiedHeader = page.getByRole('columnheader', { name: 'Modified' });
    const box = (await panel.boundingBox())!;
    for (const header of [sizeHeader, modifiedHeader]) {
      const h = (await header.boundingBox())!;
      expect(h.x + h.width).toBeLessThanOrEqual(800);
      // Not under the panel: the panel is below the header and the rows above it.
      expect(h.y + h.height).toBeLessThanOrEqual(box.y);
    }
    await panel.getByRole('button', { name: 'Close details' }).click();
    await gone(panel);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('asks for the thumbnails of the rows in view only', async () => {
    onTestFailed(() => screenshot(page, 'failed-browse-thumbnails'));
    // The window's calls, counted as they leave on the bridge's socket (a new one: reloaded).
    const asked = new Set<number>();
    page.on('websocket', (ws) =>
      ws.on('framesent', ({ payload }) => {
        const call = JSON.parse(String(payload)) as {
          method?: string;
          params?: { fileId?: number };
        };
        if (call.method === 'files.thumbnail' && call.params?.fileId) asked.add(call.params.fileId);
      }),
    );
    await page.reload();
    await page.getByRole('button', { name: 'Browse', exact: true }).click();
    await shown(row('Harbour.png').locator('img.thumbnail'));
    asked.clear();
    await row('Pictures').locator('.name').click();
    const first = row('Photo 00.png').locator('img.thumbnail');
    await shown(first);
    const inView = await browseTable()
      .locator('[data-index]')
      .evaluateAll((rows) => {
        const box = (
          rows[0] as {
            closest(s: string): { getBoundingClientRect(): { top: number; bottom: number } };
          }
        )
          .closest('.entries-scroll')
          .getBoundingClientRect();
        return rows.filter((r) => {
          const b = (
            r as { getBoundingClientRect(): { top: number; bottom: number } }
          ).getBoundingClientRect();
          return b.bottom > box.top && b.top < box.bottom;
        }).length;
      });
    const laidOut = await browseTable().locator('[data-index]').count();
    expect(laidOut).toBeGreaterThan(inView);
    await expect.poll(() => asked.size).toBe(inView);
    // Scrolled to the end: the last ones are asked for and shown, not those passed over.
    await browseTable().locator('[data-index="0"] .name').focus();
    await page.keyboard.press('End');
    await shown(row(`Photo ${PICTURES - 1}.png`).locator('img.thumbnail'));
    expect(asked.size).toBeLessThan(PICTURES);
    await page.keyboard.press('Backspace');
    await shown(row('Harbour.png'));
    // A delete asked for here says what becomes of the copy on this computer (issue 42).
    await row('Harbour.png').click({ button: 'right' });
    await page
      .getByRole('menu', { name: 'Actions for Harbour.png' })
      .getByRole('menuitem', { name: 'Delete…' })
      .click();
    const ask = page.getByRole('dialog', { name: 'Delete Harbour.png?' });
    await shown(ask.getByText(/moves its copies to its own Trash at the next sync/));
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await gone(ask);
  });

  it('offline, browses the synced tree from the journal, marked as such', async () => {
    onTestFailed(() => screenshot(page, 'failed-browse-offline'));
    await sandbox.close();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.reload();
    await page.getByRole('button', { name: 'Browse', exact: true }).click();
    const mark = page
      .getByRole('status')
      .filter({ hasText: 'Offline: the service is not available' });
    await shown(mark, 60_000);
    await shown(row('Harbour.png'));
    await row('Reports 2026').locator('[role="cell"]').nth(2).dblclick();
    await shown(here().filter({ hasText: 'Reports 2026' }));
    await shown(row('Budget.pdf'));
    // File operations go to the service: offered disabled, saying why (issue 42).
    const offlineOnly = 'Not available offline: Browse shows the synced copy.';
    for (const name of ['Upload files', 'New folder']) {
      const button = page.getByRole('button', { name });
      expect(await button.getAttribute('aria-disabled')).toBe('true');
      expect(await button.getAttribute('title')).toBe(offlineOnly);
    }
    expect(await row('Budget.pdf').getByRole('checkbox').count()).toBe(0);
    // Still opens with its app: the journal knows where it is.
    await row('Notes.txt').locator('.name').focus();
    await page.keyboard.press('Enter');
    await openedWith(path.join(dir, 'Reports 2026', 'Notes.txt'));
    // No service: no share page, no link, no details in the menu.
    await row('Notes.txt').click({ button: 'right' });
    const menu = page.getByRole('menu', { name: 'Actions for Notes.txt' });
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual([
      'Open',
      'Show in folder',
      'Download now',
      'Free up space',
    ]);
    await page.keyboard.press('Escape');
    await gone(menu);
    await shoot('browse-offline', mark);

    // Retry now (issue 39) asks the service again and starts the pair's pass at once, its wait
    // started over: the engine's line says the first wait (1 s) again after a longer one.
    const line = async () => (await api.call('pairs.list', {}))[0]!.status.message;
    await expect.poll(line, { timeout: 60_000 }).toMatch(/trying again in ([3-9]|\d\d+) s/);
    await mark.getByRole('button', { name: 'Retry now' }).click();
    await expect.poll(line, { timeout: 30_000 }).toMatch(/trying again in 1 s/);
  });
});

async function shootPanel(panel: Locator) {
  await shoot('browse-panel', panel);
}
