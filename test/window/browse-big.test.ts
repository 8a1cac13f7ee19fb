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
  buildRenderer,
  expectAccessible,
  launchBrowser,
  openWindow,
  screenshot,
  shots,
  shown,
  type Watched,
} from './harness';

// Browse on a folder of 20,000 entries: the listing is read by blocks where it is scrolled to and
// only the rows in view are in the page, while the table still tells its whole size. The sandbox
// runs in this process (the folder is made through its own operation functions, in seconds) and
// is reached over HTTP by a bridge of this process's, signed in as the demo owner.

const ENTRIES = 20_000;
/** The page at 1280×860 shows about 15 rows; the rest are the overscan. */
const FEW_ROWS = 120;
/** Rows a request reads (`BLOCK` of views/folder-blocks.ts, one service page). */
const BLOCK = 60;

let sb: RunningSandbox;
let big: BigFolder;
let state: string;
let backend: AppBackend;
let bridge: RunningBridge;
let browser: Browser;
let win: Watched;
let page: Page;

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

/** An object's field, from a WebSocket frame's JSON (whatever it holds). */
function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)[name]
    : undefined;
}

/**
 * The offsets of the folder blocks the page asked for and was answered, from its WebSocket's
 * frames from now on (a socket opened after this call: the page is loaded again meanwhile).
 */
function watchBlockReads(p: Page): () => number[] {
  const asked = new Map<unknown, unknown>();
  const answered = new Set<unknown>();
  const parse = (payload: string | Buffer): unknown => {
    try {
      return JSON.parse(String(payload)) as unknown;
    } catch {
      return null;
    }
  };
  p.on('websocket', (ws) => {
    ws.on('framesent', ({ payload }) => {
      const call = parse(payload);
      if (field(call, 'method') === 'folders.contents') {
        asked.set(field(call, 'id'), field(field(call, 'params'), 'offset'));
      }
    });
    ws.on('framereceived', ({ payload }) => answered.add(field(parse(payload), 'id')));
  });
  return () =>
    [...asked].flatMap(([id, offset]) =>
      answered.has(id) && typeof offset === 'number' ? [offset] : [],
    );
}

/**
 * The indexes of the rows in the page after each of `frames` frames, the list moved by `px`
 * before each (a scroll is drawn in the frame after it: its event comes before the next
 * animation frame's callbacks).
 */
async function rowsWhileScrolling(px: number, frames: number): Promise<number[][]> {
  return scroller().evaluate(
    (el, [by, count]) =>
      new Promise<number[][]>((resolve) => {
        // The page's own (this file is type-checked for Node, without the DOM's types).
        const { requestAnimationFrame } = globalThis as unknown as {
          requestAnimationFrame: (callback: () => void) => number;
        };
        const seen: number[][] = [];
        const step = () => {
          seen.push(
            [...el.querySelectorAll('[role="row"][data-index]')].map((r) =>
              Number(r.getAttribute('data-index')),
            ),
          );
          if (seen.length > count) return resolve(seen);
          el.scrollTop += by;
          requestAnimationFrame(step);
        };
        requestAnimationFrame(step);
      }),
    [px, frames] as const,
  );
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
    await expectAccessible(page, 'a big folder');
  });

  it('reads the next block ahead of the rows in view, so rows scrolled to come with their entries', async () => {
    const reads = watchBlockReads(page);
    await page.reload();
    await nav('Browse').click();
    await folderButton(big.name).click();
    await shown(folderButton(big.first));
    // Nothing scrolled yet: the rows past the first block are asked for once those in view show.
    await expect
      .poll(() => reads().filter((offset) => offset === BLOCK).length, { timeout: 20_000 })
      .toBe(1);
    // Scrolled to them at once, they show their entries in the first frame they are drawn in,
    // not a placeholder waiting for a request.
    const [, after] = await rowsWhileScrolling((BLOCK + 5) * 40, 1);
    expect(after).toContain(BLOCK + 5);
    const waiting = await contents().locator('.placeholder[data-index]').count();
    expect(waiting).toBe(0);
    await scrollUntil(0, folderButton(big.first));
  });

  it('scrolled a row a frame, keeps the same rows in the page for ten rows at a time', async () => {
    await scrollUntil(0, folderButton(big.first));
    const seen = await rowsWhileScrolling(40, 30);
    // Rows are laid out by whole steps of ten: over 30 rows each end of the laid-out rows moves
    // three or four times, so the rows in the page change a few times, not on every frame.
    const changes = seen.filter((rows, i) => i > 0 && rows.join() !== seen[i - 1]!.join()).length;
    expect(changes).toBeGreaterThan(0);
    expect(changes).toBeLessThanOrEqual(8);
    for (const rows of seen) {
      expect(rows[0]! % 10).toBe(0);
      expect((rows.at(-1)! + 1) % 10).toBe(0);
      expect(rows.length).toBeLessThan(FEW_ROWS);
    }
    await scrollUntil(0, folderButton(big.first));
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
    await expectAccessible(page, 'the end of a big folder');
  });

  it('keeps the row menu and the item panel on a row far down', async () => {
    const last = contents().getByRole('button', { name: big.last, exact: true });
    await last.focus();
    await page.keyboard.press('Shift+F10');
    const menu = page.getByRole('menu', { name: `Actions for ${big.last}` });
    await shown(menu);
    await expect.poll(focusedText).toBe('Open');
    await page.keyboard.press('Escape');
    await goneFrom(menu);
    await expect.poll(focusedText).toBe(big.last);

    await contents().getByRole('row').filter({ hasText: big.last }).click({ button: 'right' });
    await shown(menu);
    await page.getByRole('menuitem', { name: 'Open details' }).click();
    await shown(page.getByRole('complementary').getByRole('heading', { name: big.last }));
    await page.getByRole('button', { name: 'Close details' }).click();
  });

  it('moves through the rows with arrows, and keeps the focused row while it is scrolled away', async () => {
    await scrollUntil(0, folderButton(big.first));
    await folderButton(big.first).focus();
    // The list is one Tab stop (issue 39): 30 presses of the down arrow reach row 30, past the
    // rows the page held when the focus started.
    for (let i = 0; i < 30; i++) await page.keyboard.press('ArrowDown');
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
    // The whole workspace, through the service folder by folder (the big folder in pages).
    const found = page.locator('.search-results');
    await page.getByLabel('Search this workspace').fill('file 0099');
    // Its thousands of folders are more than a search through the service looks at: it says so.
    await shown(found.getByText('Stopped at 1,000 folders', { exact: false }));
    await shown(found.getByRole('button', { name: /^File 00990\.txt in / }));
    expect(await found.getByRole('listitem').count()).toBe(10);
    // Stop: a search of a thousand folders is under way when the button is there; it ends where
    // it is and says what was not looked at.
    await page.getByLabel('Search this workspace').fill('no such name');
    await found.getByRole('button', { name: 'Stop' }).click();
    await shown(found.getByText('Stopped after', { exact: false }));
    await found.getByRole('button', { name: 'Stop' }).waitFor({ state: 'detached' });
    await page.getByLabel('Search this workspace').fill('');
    await shown(folderButton(big.first));
    await page.getByLabel('Sort by').selectOption({ label: 'Last modified' });
    await shown(domRows().first());
    expect(await contents().getAttribute('aria-rowcount')).toBe(String(ENTRIES + 1));
    await page.getByLabel('Sort by').selectOption({ label: 'Name' });
    await shown(folderButton(big.first));
  });

  it('looks right at 1280×800 and 800×600, light and dark', async () => {
    await shots(page, 'browse-big', {
      ready: folderButton(big.first),
      sizesFirst: true,
      file: (scheme, { width, height }) => `browse-big-${width}x${height}-${scheme}`,
      axe: 'shot',
      what: (scheme, { width, height }) => `a big folder at ${width}×${height}, ${scheme}`,
      restore: null,
    });
    expect(win.dialogs).toEqual([]);
    // No script error (React's duplicate keys among them), no CSP violation.
    expect(win.errors.filter((e) => !e.startsWith('Failed to load resource'))).toEqual([]);
  });
});
