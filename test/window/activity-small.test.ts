import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BridgeClient,
  expectAccessible,
  openSession,
  screenshotOnFailure,
  shots,
  shown,
  type Session,
} from './harness';

// Issue 39, item 5: Activity in a small window and in German, in Debian's Chromium over
// `cli ui --sandbox`. At 800x600 the filters are folded and the feed shows at least 8 whole
// lines; a line cut by the width reads whole on hover (its title) and on keyboard focus (the
// focused row grows to show it); the date filters are typed as the window's language writes a
// date, whatever the browser's locale. Real key presses; each state is waited for.

let session: Session;
let page: Page;
let api: BridgeClient;

const SMALL = { width: 800, height: 600 };
const LONG =
  'A comment long enough that no window of 800 pixels shows it on one line: the numbers for the third quarter, the forecast and the travel budget are all in the folder now.';

/** Rows of the feed whose whole box is inside the feed's box and the window. */
const wholeRows = () =>
  page.evaluate<number>(`(() => {
    const feed = document.querySelector('.feed').getBoundingClientRect();
    const bottom = Math.min(feed.bottom, window.innerHeight);
    return [...document.querySelectorAll('.feed-row')].filter((li) => {
      const r = li.getBoundingClientRect();
      return r.top >= feed.top - 0.5 && r.bottom <= bottom + 0.5;
    }).length;
  })()`);

/** The index of the first row whose line is cut by the row's width, -1 when none is. */
const firstCut = () =>
  page.evaluate<number>(`(() => {
    const li = [...document.querySelectorAll('.feed-row')].find((li) => {
      const line = li.querySelector('.event-line');
      return line && line.scrollWidth > line.clientWidth;
    });
    return li ? Number(li.dataset.index) : -1;
  })()`);

const focused = () =>
  page.evaluate<{ index: string | null; inFeed: boolean; lineWhole: boolean; height: number }>(
    `(() => {
    const el = document.activeElement;
    const li = el && el.closest('.feed-row');
    const line = li && li.querySelector('.event-line');
    return {
      index: li && el === li ? li.dataset.index : null,
      inFeed: !!(el && el.closest('.feed')),
      lineWhole: !!line && line.scrollWidth <= line.clientWidth,
      height: li ? li.getBoundingClientRect().height : 0,
    };
  })()`,
  );

async function openActivity(label: string, menu: string) {
  await page.getByRole('button', { name: menu }).click();
  await page
    .getByRole('navigation', { name: /Main|Haupt/ })
    .getByRole('button', { name: label, exact: true })
    .click();
}

beforeAll(async () => {
  session = await openSession({ server: 'sandbox', timeout: 30_000, api: true });
  page = session.page;
  api = session.api!;
}, 180_000);

afterAll(() => session?.close());

describe.sequential('Activity in a small window, in Chromium', { timeout: 180_000 }, () => {
  screenshotOnFailure(() => page, 'activity-small');

  it('folds the filters and shows 8 lines or more at 800x600', async () => {
    const [account] = await api.call('accounts.list', {});
    const [workspace] = (await api.call('workspaces.list', { accountId: account!.id })).items;
    await api.call('comments.add', {
      accountId: account!.id,
      kind: 'folder',
      itemId: workspace!.rootFolderId,
      body: LONG,
    });
    await shown(page.getByRole('heading', { name: 'Sync status' }));
    await page.setViewportSize(SMALL);
    await openActivity('Activity', 'Show the menu');
    await shown(page.locator('.feed-row').first());
    const toggle = page.getByRole('button', { name: 'Filters', exact: true });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByRole('form', { name: 'Filters' }).count()).toBe(0);
    expect(await wholeRows()).toBeGreaterThanOrEqual(8);
    expect(await page.evaluate<number>('window.scrollY')).toBe(0);

    // Unfolded, the filters are all there; folded again, the feed has its lines back.
    await toggle.click();
    await shown(page.getByLabel('From'));
    await toggle.click();
    expect(await wholeRows()).toBeGreaterThanOrEqual(8);
  });

  it('shows a cut line whole on hover and on keyboard focus; the feed is one Tab stop', async () => {
    const cut = await firstCut();
    expect(cut).toBeGreaterThanOrEqual(0);
    const row = page.locator(`.feed-row[data-index="${cut}"]`);
    await row.hover();
    const text = await row.locator('.event-line').textContent();
    expect(await row.getAttribute('title')).toBe(text);

    // From the Filters button, Tab reaches the feed once and Tab leaves it again.
    await page.getByRole('button', { name: 'Filters', exact: true }).focus();
    for (let i = 0; i < 4 && (await focused()).index === null; i++)
      await page.keyboard.press('Tab');
    expect((await focused()).index).toBe('0');
    while (Number((await focused()).index) < cut) await page.keyboard.press('ArrowDown');
    const at = await focused();
    expect(at).toMatchObject({ index: String(cut), lineWhole: true });
    expect(at.height).toBeGreaterThan(40);
    await shots(page, 'activity-small', {
      ready: async () => {
        await page.keyboard.press('Home');
        while (Number((await focused()).index) < cut) await page.keyboard.press('ArrowDown');
      },
      restore: SMALL,
    });
    await page.keyboard.press('Tab');
    expect((await focused()).inFeed).toBe(false);
    await page.keyboard.press('Shift+Tab');
    expect((await focused()).index).toBe(String(cut));
    // Right reaches the row's buttons, Left comes back to the row.
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate<string>('document.activeElement.tagName')).toBe('BUTTON');
    await page.keyboard.press('ArrowLeft');
    expect((await focused()).index).toBe(String(cut));
  });

  it('takes dates as the window’s language writes them: German on an English browser', async () => {
    await api.call('settings.update', { language: 'de' });
    await shown(page.getByRole('heading', { name: 'Aktivität' }));
    // The days and times the feed showed in English are written anew in German.
    const weekday = /^(Montag|Dienstag|Mittwoch|Donnerstag|Freitag|Samstag|Sonntag), /;
    await shown(page.locator('.feed-day-title').filter({ hasText: weekday }).first());
    expect(await page.locator('.feed').innerText()).not.toMatch(/ (AM|PM)\b/);
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    const from = page.getByLabel('Von', { exact: true });
    expect(await from.getAttribute('placeholder')).toBe('TT.MM.JJJJ');
    await from.fill('1.3.2026');
    await page.keyboard.press('Tab');
    expect(await from.inputValue()).toBe('01.03.2026');
    // Another filter is another list: its Tab stop is its first row, not the row focused before.
    await shown(page.locator('.feed-row[data-index="0"][tabindex="0"]'));
    expect(await page.getByRole('alert').count()).toBe(0);
    const to = page.getByLabel('Bis', { exact: true });
    await to.fill('13/31/2026');
    await to.press('Enter');
    await shown(page.getByRole('alert').filter({ hasText: 'Kein Datum: bitte als TT.MM.JJJJ' }));
    await to.fill('');
    await to.press('Enter');
    expect(await page.getByRole('alert').count()).toBe(0);
    await expectAccessible(page, 'German date fields');
    await shots(page, 'activity-small-de', { ready: from, restore: SMALL });
    // Folded again in the small window, the set filter is said beside the button.
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await shown(page.getByText('1 Filter gesetzt'));
    expect(await wholeRows()).toBeGreaterThanOrEqual(8);
    await api.call('settings.update', { language: 'en' });
  });
});
