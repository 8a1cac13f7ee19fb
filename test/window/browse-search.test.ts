import { existsSync } from 'node:fs';
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

// Issue 42, items 2 and 3 in Chromium: Browse's search of the whole workspace (a synced one from
// its pair's journal, one not synced here through the service folder by folder), an item found
// opened in its folder and selected; the columns sorted by their headers, the order kept per
// workspace across a reload; every row of the synced workspace with its state badge (a folder
// left out unlike the others); a file named in Activity opened in its folder. English and
// German, light and dark, 1280×800 and 800×600, axe clean. Real sandbox, real pair, real journal.

let session: Session<'dir'>;
let sandbox: Sandbox;
let page: Page;
let api: BridgeClient;
let client: ServiceClient;
let dir: string;
let rootId: number;
let otherName: string;
let notes: number;
let deep: number;
let leftOut: number;

// By role alone: their names are said in the window's language.
const contents = () => page.getByRole('table');
const row = (name: string) => contents().getByRole('row').filter({ hasText: name });
const results = () => page.locator('.search-results').getByRole('list');
const search = () => page.getByRole('searchbox');
const header = (name: string) => page.getByRole('columnheader', { name });
const crumbs = () => page.getByRole('navigation', { name: 'Folder path' });
const badgeWords = async (name: string) =>
  ((await row(name).locator('.on-device').textContent()) ?? '').trim();

beforeAll(async () => {
  session = await openSession({
    dirs: { dir: 'ws-window-browse-search-' },
    timeout: 30_000,
    api: true,
    prepare: async (sb) => {
      client = clientFor(sb!.baseUrl, { accessToken: sb!.users[0]!.token });
      rootId = (await client.rootFolder(sb!.workspaceId)).id;
      // The demo's workspace has its own: ours sort first. 60 notes two folders down.
      notes = (await client.createFolder(sb!.workspaceId, rootId, '0 Notes')).id;
      deep = (await client.createFolder(sb!.workspaceId, notes, 'Deep')).id;
      for (let i = 0; i < 60; i++)
        await client.uploadFile(deep, `note ${i}.txt`, () => [Buffer.from(`note ${i}`)]);
      leftOut = (await client.createFolder(sb!.workspaceId, rootId, '0 Left out')).id;
      // A workspace not synced here: searched through the service.
      const other = await client.createWorkspace({ name: 'Elsewhere' });
      otherName = other.name;
      const top = (await client.rootFolder(other.id)).id;
      const plans = await client.createFolder(other.id, top, 'Plans');
      const inner = await client.createFolder(other.id, plans.id, 'Inner');
      await client.uploadFile(inner.id, 'plan B.txt', () => [Buffer.from('b')]);
      await client.uploadFile(top, 'plan A.txt', () => [Buffer.from('a')]);
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
  const pair = await api.call('pairs.add', {
    accountId: account.id,
    workspaceId: sandbox.workspaceId,
    dir,
  });
  await page.reload();
  await shown(
    page.getByRole('article').getByRole('status').filter({ hasText: 'Up to date' }),
    120_000,
  );
  await api.call('pairs.setSelection', {
    pairId: pair.id,
    excluded: [{ id: leftOut, path: '0 Left out', parentId: null }],
  });
}, 300_000);

afterAll(() => session?.close());

describe.sequential(
  "Browse's search, columns and badges, in Chromium",
  { timeout: 240_000 },
  () => {
    it('badges every row of the synced workspace; a folder left out looks unlike the others', async () => {
      onTestFailed(() => screenshot(page, 'failed-browse-badges'));
      // Applied before the next pass: the folder leaves (to the trash).
      await expect
        .poll(() => existsSync(path.join(dir, '0 Left out')), { timeout: 60_000 })
        .toBe(false);
      await page.getByRole('button', { name: 'Browse', exact: true }).click();
      await shown(row('0 Notes'));
      await expect
        .poll(() => badgeWords('0 Left out'))
        .toBe('Left out: not synced on this computer');
      expect(await badgeWords('0 Notes')).toBe('Synced');
      expect(await row('0 Left out').getAttribute('class')).toContain('is-excluded');
      expect(await row('0 Notes').getAttribute('class')).not.toContain('is-excluded');
      // Inside a synced folder: its files too.
      await row('0 Notes').getByRole('button', { name: 'Open folder 0 Notes' }).click();
      await row('Deep').getByRole('button', { name: 'Open folder Deep' }).click();
      await shown(row('note 0.txt'));
      expect(await badgeWords('note 0.txt')).toBe('Synced');
      await crumbs().getByRole('button', { name: 'Q3 Planning' }).click();
      await shown(row('0 Left out'));
      await expectAccessible(page, 'Browse with badges');
    });

    it('sorts by a header, folders first, the order kept for the workspace after a reload', async () => {
      onTestFailed(() => screenshot(page, 'failed-browse-sort'));
      expect(await header('Name').getAttribute('aria-sort')).toBe('ascending');
      await header('Name').getByRole('button').click();
      await expect.poll(() => header('Name').getAttribute('aria-sort')).toBe('descending');
      // Folders first, the other way round: the last folder by name comes first.
      const first = contents().getByRole('row').nth(1).locator('.name');
      await expect.poll(async () => first.getAttribute('aria-label')).toMatch(/^Open folder /);
      // Ours (named 0 …) come first A to Z: not first the other way round.
      expect(await first.textContent()).not.toMatch(/^0 /);
      await header('Size').getByRole('button').click();
      await expect.poll(() => header('Size').getAttribute('aria-sort')).toBe('descending');
      expect(await header('Name').getAttribute('aria-sort')).toBeNull();
      await header('Size').getByRole('button').click();
      await expect.poll(() => header('Size').getAttribute('aria-sort')).toBe('ascending');
      // Kept in the settings for this workspace: there again after a reload.
      await expect
        .poll(async () => (await api.call('settings.get', {})).browseSorts)
        .toEqual({ [String(sandbox.workspaceId)]: { sort: 'size', reversed: true } });
      await page.reload();
      await page.getByRole('button', { name: 'Browse', exact: true }).click();
      await shown(row('0 Notes'));
      expect(await header('Size').getAttribute('aria-sort')).toBe('ascending');
      // The files by size, smallest first, after every folder.
      const names = await contents().locator('.name').allTextContents();
      const firstFile = names.findIndex((n) => /\./.test(n));
      expect(names.slice(0, firstFile)).toContain('0 Notes');
      await header('Name').getByRole('button').click();
      await expect.poll(() => header('Name').getAttribute('aria-sort')).toBe('ascending');
    });

    it('searches the whole synced workspace from the top and opens an item in its folder', async () => {
      onTestFailed(() => screenshot(page, 'failed-browse-search'));
      await search().fill('note 4');
      await shown(results());
      const hits = results().getByRole('button');
      // note 4 and note 40 to 49, each with its folder.
      await expect.poll(() => hits.count()).toBe(11);
      expect(await hits.first().textContent()).toBe('note 4.txt in 0 Notes/Deep');
      await shown(
        page.getByText('11 items found. Searched what is synced to this computer.', {
          exact: false,
        }),
      );
      await shown(
        page.getByText('1 folder is left out on this computer and not searched.', { exact: false }),
      );
      await shots(page, 'browse-search', { ready: hits.first() });
      // Down moves between the items found; Enter opens the one focused, in its folder, selected.
      await hits.first().focus();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await shown(crumbs().getByText('Deep', { exact: true }));
      expect(await search().inputValue()).toBe('');
      await shown(page.getByRole('complementary', { name: 'note 40.txt' }));
      await expect.poll(() => row('note 40.txt').getAttribute('class')).toContain('selected');
      // Each size lays the list out anew: the row selected is brought into view for the look.
      await shots(page, 'browse-found', {
        ready: () => row('note 40.txt').scrollIntoViewIfNeeded(),
      });
    });

    it('searches a workspace not synced here through the service, folder by folder', async () => {
      onTestFailed(() => screenshot(page, 'failed-browse-search-service'));
      await page.locator('#browse-workspace').selectOption({ label: otherName });
      await search().fill('plan');
      await shown(page.getByText('Looked at every folder (3 folders).', { exact: false }));
      const hits = results().getByRole('button');
      expect(await hits.allTextContents()).toEqual([
        // In the order found: a folder's own folders first, as the service lists them.
        'Plans in Elsewhere',
        'plan A.txt in Elsewhere',
        'plan B.txt in Plans/Inner',
      ]);
      await expectAccessible(page, 'a search through the service');
      await hits.nth(2).click();
      await shown(crumbs().getByText('Inner', { exact: true }));
      await shown(page.getByRole('complementary', { name: 'plan B.txt' }));
    });

    it('opens a file named in Activity in its folder, selected', async () => {
      onTestFailed(() => screenshot(page, 'failed-activity-open'));
      await page.getByRole('button', { name: 'Activity', exact: true }).click();
      // The demo's summary, in its Reports folder (the event names the file, not its folder).
      const open = page.getByRole('button', { name: 'Open file Q3 summary.md' }).first();
      await shown(open);
      await open.click();
      await shown(crumbs().getByText('Reports', { exact: true }));
      await shown(page.getByRole('complementary', { name: 'Q3 summary.md' }));
      await expect.poll(() => row('Q3 summary.md').getAttribute('class')).toContain('selected');
    });

    it('says it all in German', async () => {
      onTestFailed(() => screenshot(page, 'failed-browse-search-german'));
      await api.call('settings.update', { language: 'de' });
      await page.getByRole('button', { name: 'Durchsuchen', exact: true }).click();
      await page.locator('#browse-workspace').selectOption({ label: 'Q3 Planning' });
      await shown(row('0 Left out'));
      await expect
        .poll(() => badgeWords('0 Left out'))
        .toBe('Ausgelassen: auf diesem Computer nicht synchronisiert');
      expect(await badgeWords('0 Notes')).toBe('Synchronisiert');
      await shots(page, 'browse-badges-de', { ready: row('0 Notes') });
      await search().fill('note 4');
      await shown(page.getByText('11 Elemente gefunden', { exact: false }));
      await shots(page, 'browse-search-de', { ready: results().getByRole('button').first() });
      await api.call('settings.update', { language: 'en' });
      await search().fill('');
      await shots(page, 'browse-badges', { ready: row('0 Notes') });
    });
  },
);
