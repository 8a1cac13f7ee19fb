import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  asUser,
  shots,
  shown,
  type Sandbox,
  type Watched,
  openSession,
  type Session,
  screenshotOnFailure,
} from './harness';

// Issue 39, item 3: the window's Trash lists what the sync moved to its trash, with where it
// came from, and Restore puts it back, after which it syncs again. A folder deleted on the
// service by someone else goes to the trash here; Ann restores it from the window; its file is on
// the service again. English, then German (the language setting), at both sizes and schemes.

const ANN = { email: 'ann@example.com', password: 'ann-sandbox-pass' };
const BOARD = 'Ann’s Board';

let session: Session<'home'>;
let sandbox: Sandbox;
let win: Watched;
let page: Page;
let home: string;
let boardId: number;

const sidebar = () => page.getByRole('navigation', { name: 'Main' });
const form = () => page.getByRole('form', { name: 'Choose what to sync' });
const card = (name: string) => page.getByRole('article', { name });
const nav = (name: string) => sidebar().getByRole('button', { name, exact: true });
const upToDate = () => card(BOARD).getByRole('status').filter({ hasText: 'Up to date' });
const boardDir = () => path.join(home, 'Workspace Sync', BOARD);
const plans = () => path.join(boardDir(), 'Plans');
const main = () => page.getByRole('main');

type Listing = { items: Record<string, { id: number; filename: string }>[] };
const entries = (l: Listing) => l.items.flatMap((i) => Object.values(i));

/** The names in a folder of the workspace on the service (its root unless given), as Ann lists it. */
async function remoteNames(folderId?: number): Promise<string[]> {
  const id =
    folderId ??
    entries(await asUser<Listing>(sandbox, ANN.email, 'GET', `/workspaces/${boardId}/folders`))[0]!
      .id;
  const listed = await asUser<Listing>(sandbox, ANN.email, 'GET', `/folders/${id}`);
  return entries(listed).map((x) => x.filename);
}

beforeAll(async () => {
  session = await openSession({
    dirs: { home: 'ws-window-home-' },
    timeout: 20_000,
    pollSeconds: 5, // it waits on a colleague's new folder, and on its deletion
    prepare: async (sandbox, dirs) => {
      boardId = (
        await asUser<{ workspace: { id: number } }>(sandbox!, ANN.email, 'POST', '/workspaces', {
          name: BOARD,
        })
      ).workspace.id;
      return { HOME: dirs.home };
    },
  });
  ({ win, page } = session);
  sandbox = session.sandbox!;
  home = session.dirs.home;
}, 180_000);

afterAll(() => session?.close());

describe.sequential('Trash', { timeout: 120_000 }, () => {
  screenshotOnFailure(() => page, 'trash');

  it('is empty before anything was trashed', async () => {
    await page.getByLabel('Server address').fill(sandbox.baseUrl);
    await page.getByLabel('Email').fill(ANN.email);
    await page.getByLabel('Password', { exact: true }).fill(ANN.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await shown(form());
    await form().getByLabel('Workspace').selectOption({ label: BOARD });
    await form().getByRole('button', { name: 'Start syncing' }).click();
    await shown(upToDate(), 90_000);
    await nav('Trash').click();
    await shown(main().getByText('The trash is empty.'));
  });

  it('lists a folder deleted on the service, with where it was', async () => {
    const folder = await asUser<{ folder: { id: number } }>(
      sandbox,
      ANN.email,
      'POST',
      `/workspaces/${boardId}/folders`,
      { filename: 'Plans' },
    );
    await nav('Status').click();
    await expect.poll(() => existsSync(plans()), { timeout: 60_000 }).toBe(true);
    writeFileSync(path.join(plans(), 'q1.txt'), 'the plan');
    await expect.poll(() => remoteNames(folder.folder.id), { timeout: 60_000 }).toEqual(['q1.txt']);
    // Someone deletes it on the service: here it goes to the trash, file and all.
    // (asUser reads a JSON answer; a delete has none.)
    const res = await fetch(`${sandbox.baseUrl}/folders/${folder.folder.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${sandbox.user(ANN.email).token}` },
    });
    expect(res.ok).toBe(true);
    await expect.poll(() => existsSync(plans()), { timeout: 60_000 }).toBe(false);
    await shown(upToDate());

    await nav('Trash').click();
    const entry = main().getByRole('listitem').filter({ hasText: 'Plans' });
    await shown(entry.getByText(`Was Plans in ${boardDir()}`));
    await shown(entry.getByText(/^Moved to the trash /));
    await shown(main().getByRole('button', { name: 'Show Plans in the file manager' }));
    await shots(page, 'trash-listed', { ready: entry });
  });

  it('Restore puts it back, and it syncs again', async () => {
    await main().getByRole('button', { name: 'Restore Plans' }).click();
    await shown(
      page.getByRole('status').filter({ hasText: `Restored Plans: it is ${plans()} again.` }),
    );
    await shown(main().getByText('The trash is empty.'));
    expect(readFileSync(path.join(plans(), 'q1.txt'), 'utf8')).toBe('the plan');
    await shots(page, 'trash-restored', { ready: main().getByText('The trash is empty.') });
    await expect.poll(() => remoteNames(), { timeout: 60_000 }).toContain('Plans');
    await nav('Status').click();
    await shown(upToDate());
  });

  it('in German', async () => {
    await nav('Settings').click();
    await page.getByLabel('Language').selectOption('de');
    await shown(page.getByRole('heading', { name: 'Einstellungen', level: 1 }));
    // The sidebar's own name is German now too.
    await page.getByRole('button', { name: 'Papierkorb', exact: true }).click();
    await shown(page.getByRole('heading', { name: 'Papierkorb', level: 1 }));
    await shown(main().getByText('Der Papierkorb ist leer.'));
    await shots(page, 'trash-german-empty', {
      ready: main().getByText('Der Papierkorb ist leer.'),
    });
    expect(win.dialogs).toEqual([]);
  });
});
