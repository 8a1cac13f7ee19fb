import { existsSync } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import path from 'node:path';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import {
  expectAccessible,
  screenshot,
  shown,
  type Watched,
  openSession,
  type Session,
  screenshotOnFailure,
} from './harness';

// Three things the window does beyond the main story, against `cli ui --sandbox` (signed in as
// the demo owner, the demo workspace synced into a folder of the bridge's): the activity
// feed's person filter, a folder downloaded as a zip, and a sync pair removed.

let session: Session<'zip'>;
let win: Watched;
let page: Page;
let zipDir: string;

const goneFrom = (l: Locator) => l.waitFor({ state: 'detached' });
const nav = (name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name });
const contents = () => page.getByRole('table', { name: 'Folder contents' });
const panel = () => page.getByRole('complementary');

/** The names of the files a zip holds, read with yauzl. */
function zipEntries(file: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      const names: string[] = [];
      zip.on('entry', (e: yauzl.Entry) => {
        names.push(e.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

beforeAll(async () => {
  session = await openSession({
    server: 'sandbox',
    dirs: { zip: 'ws-window-zip-' },
    timeout: 20_000,
  });
  ({ win, page } = session);
  zipDir = session.dirs.zip;
}, 180_000);

afterAll(() => session?.close());

describe.sequential(
  'gaps of the window, in Chromium, over cli ui --sandbox',
  { timeout: 120_000 },
  () => {
    screenshotOnFailure(() => page, 'gaps');

    it('opens signed in and mirrors the demo until it is up to date', async () => {
      await shown(page.getByText('Signed in as Ann Lee', { exact: false }));
      await shown(page.getByRole('status').filter({ hasText: 'Up to date' }), 90_000);
    });

    it('filters the activity feed by person', async () => {
      await nav('Activity').click();
      const feed = page.getByRole('region', { name: 'Activity feed' });
      await shown(feed.locator('.feed-row').first());
      const person = page.getByLabel('Person', { exact: true });
      // The people seen in the loaded events are offered, after "Anyone".
      await expect
        .poll(() => person.locator('option').allTextContents())
        .toEqual(expect.arrayContaining(['Anyone', 'Ann Lee', 'Kenji Sato']));
      await person.selectOption({ label: 'Kenji Sato' });
      await expect
        .poll(async () => {
          const subjects = await feed.locator('.event-line strong').allTextContents();
          return subjects.length > 0 && subjects.every((s) => s === 'Kenji Sato');
        })
        .toBe(true);
      // The person chosen stays on the list, and anyone else can still be chosen.
      expect(await person.locator('option').allTextContents()).toContain('Ann Lee');
      await person.selectOption({ label: 'Anyone' });
      await expect
        .poll(async () => new Set(await feed.locator('.event-line strong').allTextContents()).size)
        .toBeGreaterThan(1);
    });

    it('downloads a folder as a zip into a folder on this computer', async () => {
      await nav('Browse').click();
      await contents().getByRole('button', { name: 'Details of Reports' }).click();
      await shown(panel().getByRole('heading', { name: 'Reports' }));
      const section = panel().getByRole('region', { name: 'Download as zip' });
      await section.getByLabel('Where to save the zip on this computer').fill(zipDir);
      await section.getByRole('button', { name: 'Download as zip' }).click();
      const saved = path.join(zipDir, 'Reports.zip');
      await shown(section.getByRole('status').filter({ hasText: `Saved to ${saved}` }));
      expect(await readdir(zipDir)).toEqual(['Reports.zip']);
      const head = Buffer.alloc(4);
      const fd = await open(saved);
      await fd.read(head, 0, 4, 0);
      await fd.close();
      expect(head).toEqual(Buffer.from('PK\x03\x04', 'latin1'));
      const names = await zipEntries(saved);
      expect(names.some((n) => n.endsWith('Q3 summary.md'))).toBe(true);
      expect(names.some((n) => n.endsWith('2026/revenue.csv'))).toBe(true);

      // A relative path is refused with a message, nothing written.
      await section.getByLabel('Where to save the zip on this computer').fill('Downloads');
      await section.getByRole('button', { name: 'Download as zip' }).click();
      await shown(section.getByRole('alert').filter({ hasText: 'full path' }));
      expect(await readdir(zipDir)).toEqual(['Reports.zip']);
      await screenshot(page, 'item-panel-zip');
      await expectAccessible(page, 'item panel, zip refused');
    });

    it('stops syncing behind a confirmation, and the files stay on this computer', async () => {
      await nav('Status').click();
      const syncedTo = page.getByText(/^Synced to /);
      await shown(syncedTo);
      const dir = ((await syncedTo.textContent()) ?? '').replace(/^Synced to /, '');
      expect(path.isAbsolute(dir)).toBe(true);
      expect(existsSync(path.join(dir, 'Reports', 'Q3 summary.md'))).toBe(true);

      const stop = page.getByRole('button', { name: 'Stop syncing Q3 Planning…' });
      const dialog = page.getByRole('dialog', { name: 'Stop syncing “Q3 Planning”?' });
      // Escape backs out, and the pair stays.
      await stop.click();
      await shown(dialog);
      await shown(dialog.getByText(dir, { exact: false }));
      await shown(dialog.getByText('The files stay on this computer', { exact: false }));
      await screenshot(page, 'stop-syncing');
      await expectAccessible(page, 'stop syncing dialog');
      await page.keyboard.press('Escape');
      await goneFrom(dialog);
      await shown(syncedTo);

      await stop.click();
      await dialog.getByRole('button', { name: 'Stop syncing', exact: true }).click();
      await goneFrom(dialog);
      await shown(page.getByRole('heading', { name: 'Choose what to sync' }));
      await shown(page.getByText('No folder is being synced yet.'));
      // Nothing deleted on this computer.
      expect(existsSync(path.join(dir, 'Reports', 'Q3 summary.md'))).toBe(true);
      expect(existsSync(path.join(dir, 'Reports', '2026', 'revenue.csv'))).toBe(true);
      expect(await readdir(dir)).toContain('README.txt');
      expect(win.dialogs).toEqual([]);
      expect(win.errors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
    });
  },
);
