import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { FileAccountStore } from '../../src/main/accounts/accounts';
import { AppBackend } from '../../src/main/backend/backend';
import { startBridge, type RunningBridge } from '../../src/main/backend/bridge';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { makeBigFolder, type BigFolder } from './big-folder';
import {
  axeViolations,
  buildRenderer,
  launchBrowser,
  openWindow,
  screenshot,
  type Watched,
} from './harness';

// Browse on a folder of 20,000 entries: the listing is read by blocks where it is scrolled to and
// only the rows in view are in the page, while the table still tells its whole size. The sandbox
// runs in this process (the folder is made through its own operation functions, in seconds) and
// is reached over HTTP by a bridge of this process's, signed in as the demo owner.

const ENTRIES = 20_000;
/** The page at 1280×860 shows about 15 rows; the rest are the overscan. */
const FEW_ROWS = 120;

let sb: RunningSandbox;
let big: BigFolder;
let state: string;
let backend: AppBackend;
let bridge: RunningBridge;
let browser: Browser;
let win: Watched;
let page: Page;

const shown = (l: Locator, timeout?: number) => l.waitFor({ state: 'visible', timeout });
const goneFrom = (l: Locator) => l.waitFor({ state: 'detached' });
const nav = (name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name });
const contents = () => page.getByRole('table', { name: 'Folder contents' });
const scroller = () => page.locator('.entries-scroll');
/** The entries' rows in the page (not the header, not the spacers). */
const domRows = () => contents().locator('[role="row"][data-index]');
const folderButton = (name: string) =>
  contents().getByRole('button', { name: `Open folder ${name}`, exact: true });
/** The text of what has the focus (evaluated in the page: this file has no DOM types). */
const focusedText = async () =>
  String(await page.evaluate('document.activeElement?.textContent ?? ""'));

async function expectAccessible(what: string) {
  const violations = await axeViolations(page);
  expect(violations, `${what}: ${JSON.stringify(violations, null, 1)}`).toEqual([]);
}

/** Scrolls the listing to `top` px until `row` is on screen (its block read meanwhile). */
async function scrollUntil(top: number | 'end', row: Locator) {
  await expect
    .poll(async () => {
      await scroller().evaluate(
        (el, to) => el.scrollTo(0, to === 'end' ? el.scrollHeight : to),
        top,
      );
      return row.isVisible();
    })
    .toBe(true);
}

beforeAll(async () => {
  const staticDir = await buildRenderer();
  sb = await startSandbox({ seed: 'demo' });
  big = await makeBigFolder(sb, 'Big folder', { entries: ENTRIES, files: 1_000 });
  state = await mkdtemp(path.join(tmpdir(), 'ws-window-big-'));
  const owner = sb.users[0]!;
  backend = new AppBackend({
    stateDir: state,
    accounts: FileAccountStore.inStateDir(state),
    demo: { server: sb.baseUrl, email: owner.email, password: owner.password },
  });
  bridge = await startBridge({ backend, staticDir });
  const signedIn = await backend.call('accounts.tryDemo', {});
  if (!signedIn.ok) throw new Error(signedIn.error.message);
  browser = await launchBrowser();
  win = await openWindow(browser, bridge.url);
  page = win.page;
  page.setDefaultTimeout(20_000);
}, 240_000);

afterAll(async () => {
  await win?.context.close();
  await browser?.close();
  await bridge?.close();
  await backend?.close();
  await sb?.close();
  if (state) await rm(state, { recursive: true, force: true });
});

beforeEach(() => {
  onTestFailed(async () => {
    await screenshot(page, `failed-browse-big-${Date.now()}`).catch(() => {});
  });
});

describe.sequential('Browse: a folder of 20,000 entries', { timeout: 120_000 }, () => {
  it('shows its first rows with only the rows in view in the page, and the whole size told', async () => {
    await nav('Browse').click();
    await folderButton(big.name).click();
    await shown(folderButton(big.first));
    expect(await contents().getAttribute('aria-rowcount')).toBe(String(ENTRIES + 1));
    expect(await domRows().first().getAttribute('aria-rowindex')).toBe('2');
    const inPage = await domRows().count();
    expect(inPage).toBeGreaterThan(10);
    expect(inPage).toBeLessThan(FEW_ROWS);
    await expectAccessible('a big folder');
  });

  it('scrolls to the middle and to the end, reading the blocks there', async () => {
    // The middle: row 10,000 (0-based) is a folder, at 40 px a row.
    const middle = folderButton('Folder 10000');
    await scrollUntil(10_000 * 40, middle);
    const row = contents().locator('[data-index="10000"]');
    expect(await row.getAttribute('aria-rowindex')).toBe('10002');
    expect(await domRows().count()).toBeLessThan(FEW_ROWS);
    await screenshot(page, 'browse-big-middle');

    const last = contents().getByRole('button', { name: big.last, exact: true });
    await scrollUntil('end', last);
    expect(await domRows().last().getAttribute('aria-rowindex')).toBe(String(ENTRIES + 1));
    expect(await domRows().count()).toBeLessThan(FEW_ROWS);
    await expectAccessible('the end of a big folder');
  });

  it('keeps the row menu and the item panel on a row far down', async () => {
    const last = contents().getByRole('button', { name: big.last, exact: true });
    await last.focus();
    await page.keyboard.press('Shift+F10');
    const menu = page.getByRole('menu', { name: `Actions for ${big.last}` });
    await shown(menu);
    await expect.poll(focusedText).toBe('Copy share link');
    await page.keyboard.press('Escape');
    await goneFrom(menu);
    await expect.poll(focusedText).toBe(big.last);

    await contents().getByRole('row').filter({ hasText: big.last }).click({ button: 'right' });
    await shown(menu);
    await page.getByRole('menuitem', { name: 'Open details' }).click();
    await shown(page.getByRole('complementary').getByRole('heading', { name: big.last }));
    await page.getByRole('button', { name: 'Close details' }).click();
  });

  it('moves through the rows with Tab, and keeps the focused row while it is scrolled away', async () => {
    await scrollUntil(0, folderButton(big.first));
    await folderButton(big.first).focus();
    // A folder's row has two buttons (open, details): 60 presses reach row 30, past the rows
    // the page held when the focus started.
    for (let i = 0; i < 60; i++) await page.keyboard.press('Tab');
    await expect.poll(focusedText).toBe('Folder 00030');

    // Scrolled far away, the focused row stays in the page: focus is not lost, the menu key
    // still opens its menu, and Escape brings the focus back to it.
    await scrollUntil(15_000 * 40, folderButton('Folder 15000'));
    await expect.poll(focusedText).toBe('Folder 00030');
    expect(await domRows().count()).toBeLessThan(FEW_ROWS);
    await page.keyboard.press('Shift+F10');
    const menu = page.getByRole('menu', { name: 'Actions for Folder 00030' });
    await shown(menu);
    await page.keyboard.press('Escape');
    await goneFrom(menu);
    await expect.poll(focusedText).toBe('Folder 00030');
  });

  it('searches and sorts the big folder', async () => {
    await page.getByLabel('Search this folder').fill('file 0099');
    await shown(contents().getByRole('button', { name: 'File 00990.txt', exact: true }));
    await expect.poll(() => contents().getAttribute('aria-rowcount')).toBe('11');
    await page.getByLabel('Search this folder').fill('');
    await shown(folderButton(big.first));
    await page.getByLabel('Sort by').selectOption({ label: 'Last modified' });
    await shown(domRows().first());
    expect(await contents().getAttribute('aria-rowcount')).toBe(String(ENTRIES + 1));
    await page.getByLabel('Sort by').selectOption({ label: 'Name' });
    await shown(folderButton(big.first));
  });

  it('looks right at 1280×800 and 800×600, light and dark', async () => {
    for (const [width, height] of [
      [1280, 800],
      [800, 600],
    ] as const) {
      await page.setViewportSize({ width, height });
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await shown(folderButton(big.first));
        await screenshot(page, `browse-big-${width}x${height}-${scheme}`);
        await expectAccessible(`a big folder at ${width}×${height}, ${scheme}`);
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    expect(win.dialogs).toEqual([]);
    // No script error (React's duplicate keys among them), no CSP violation.
    expect(win.errors.filter((e) => !e.startsWith('Failed to load resource'))).toEqual([]);
  });
});
