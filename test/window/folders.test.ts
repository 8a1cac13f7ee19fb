import { existsSync, mkdirSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import {
  asUser,
  expectAccessible,
  screenshot,
  shots,
  shown,
  type Sandbox,
  type Watched,
  openSession,
  type Session,
  screenshotOnFailure,
} from './harness';

// Several synced folders and accounts in the window, and the folder picker, as a person uses
// them: `cli ui --server` against a sandbox of the test's own, with a home folder of the test's
// own (the picker's top, where `~` leads). Sign in, add the first folder at its default place
// after a look in the picker, add a second workspace into a folder chosen in the picker, pause
// one card while the other keeps syncing, add a second account and a folder for it.

const ANN = { email: 'ann@example.com', password: 'ann-sandbox-pass' };
const MORITZ = { email: 'moritz@example.com', password: 'moritz-sandbox-pass' };
/** A name with characters no folder name may hold: the default folder makes it safe. */
const BOARD = 'Board: 2027/Q1';
const BOARD_FOLDER = 'Board- 2027-Q1';
const NOTES = 'Moritz Notes';

let session: Session<'home'>;
let sandbox: Sandbox;
let win: Watched;
let page: Page;
let home: string;
let board: { id: number };

/** A <select>'s option: in the page, though not drawn until the list opens. */
const listed = (l: Locator) => l.waitFor({ state: 'attached' });
const form = () => page.getByRole('form', { name: 'Choose what to sync' });
const folderField = () => form().getByLabel('Folder on this computer');
const picker = () => page.getByRole('dialog', { name: 'Choose a folder' });
const folders = () => picker().getByRole('listbox');
const card = (name: string) => page.getByRole('article', { name });
const stateOf = (name: string) => card(name).getByRole('status');

async function signIn(who: { email: string; password: string }) {
  await page.getByLabel('Server address').fill(sandbox.baseUrl);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** A file made on the service by `email` at the top of a workspace, as someone else would. */
const remoteFolder = (email: string, workspaceId: number, name: string) =>
  asUser(sandbox, email, 'POST', `/workspaces/${workspaceId}/folders`, { filename: name });

beforeAll(async () => {
  session = await openSession({
    dirs: { home: 'ws-window-home-' },
    timeout: 20_000,
    pollSeconds: 5, // a colleague's new folders come down while one card is paused
    prepare: async (sandbox, dirs) => {
      mkdirSync(path.join(dirs.home, 'Documents', 'Notes'), { recursive: true });
      mkdirSync(path.join(dirs.home, 'Music'));
      mkdirSync(path.join(dirs.home, '.cache'));
      board = (
        await asUser<{ workspace: { id: number } }>(sandbox!, ANN.email, 'POST', '/workspaces', {
          name: BOARD,
        })
      ).workspace;
      await asUser(sandbox!, MORITZ.email, 'POST', '/workspaces', { name: NOTES });
      return { HOME: dirs.home };
    },
  });
  ({ win, page } = session);
  sandbox = session.sandbox!;
  home = session.dirs.home;
}, 180_000);

afterAll(() => session?.close());

describe.sequential('synced folders, accounts and the folder picker', { timeout: 120_000 }, () => {
  screenshotOnFailure(() => page, 'folders');

  it('signs in and offers the first folder at ~/Workspace Sync/<workspace>, following the workspace', async () => {
    await signIn(ANN);
    await shown(form());
    // The first run: nothing to cancel, no Add folder yet.
    expect(await form().getByRole('button', { name: 'Cancel' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add folder' }).count()).toBe(0);
    const workspace = form().getByLabel('Workspace');
    await workspace.selectOption({ label: 'Q3 Planning' });
    expect(await folderField().inputValue()).toBe('~/Workspace Sync/Q3 Planning');
    await workspace.selectOption({ label: BOARD });
    expect(await folderField().inputValue()).toBe(`~/Workspace Sync/${BOARD_FOLDER}`);
    await workspace.selectOption({ label: 'Q3 Planning' });
    expect(await folderField().inputValue()).toBe('~/Workspace Sync/Q3 Planning');
    // One account: no account to choose.
    expect(await form().getByLabel('Account').count()).toBe(0);
    await shots(page, 'folders-form', { ready: folderField() });
  });

  it('the picker opens at home (the default is not made yet) and works with the keyboard', async () => {
    await form().getByRole('button', { name: 'Choose…' }).click();
    await shown(picker());
    const list = folders();
    await shown(list.getByRole('option', { name: 'Documents' }));
    // Folders only, sorted, no dot names.
    expect(await list.getByRole('option').allTextContents()).toEqual(['Documents', 'Music']);
    await expect
      .poll(() => list.evaluate((el) => el === el.ownerDocument.activeElement))
      .toBe(true);
    await shots(page, 'folders-picker', { ready: list.getByRole('option', { name: 'Documents' }) });
    await list.focus();
    await page.keyboard.press('ArrowDown');
    await shown(list.getByRole('option', { name: 'Documents', selected: true }));
    await page.keyboard.press('Enter');
    await shown(list.getByRole('option', { name: 'Notes' }));
    await shown(picker().getByRole('navigation', { name: 'Folder path' }).getByText('Documents'));
    await page.keyboard.press('Backspace');
    await shown(list.getByRole('option', { name: 'Music' }));
    expect(await picker().getByRole('button', { name: 'Up one folder' }).isDisabled()).toBe(true);
    // Cancel leaves the default as it was.
    await picker().getByRole('button', { name: 'Cancel' }).click();
    await picker().waitFor({ state: 'detached' });
    expect(await folderField().inputValue()).toBe('~/Workspace Sync/Q3 Planning');
  });

  it('syncs the first workspace into the default folder, one folder left out in the form', async () => {
    // Selective sync at setup: closed by default (all of it syncs), its folders listed when opened.
    await form().getByText('Choose folders…').click();
    const design = form().getByRole('checkbox', { name: 'Design Assets' });
    await shown(design);
    expect(await design.isChecked()).toBe(true);
    await design.uncheck();
    await expectAccessible(page, 'setup form with its folders');
    await shots(page, 'folders-form-selection', { ready: design });
    await form().getByRole('button', { name: 'Start syncing' }).click();
    const dir = path.join(home, 'Workspace Sync', 'Q3 Planning');
    await shown(card('Q3 Planning').getByText(`Synced to ${dir}`));
    await shown(stateOf('Q3 Planning').filter({ hasText: 'Up to date' }), 90_000);
    expect(existsSync(path.join(dir, 'README.txt'))).toBe(true);
    expect(existsSync(path.join(dir, 'Reports'))).toBe(true);
    expect(existsSync(path.join(dir, 'Design Assets'))).toBe(false);
    // The form gave way to the card; the focus went to Add folder, for the next one.
    const add = page.getByRole('button', { name: 'Add folder' });
    await expect.poll(() => add.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
  });

  it('adds a second workspace as a second card, into a folder chosen in the picker', async () => {
    await page.getByRole('button', { name: 'Add folder' }).click();
    await shown(form());
    const workspace = form().getByLabel('Workspace');
    // The form starts at its first control.
    await expect
      .poll(() => workspace.evaluate((el) => el === el.ownerDocument.activeElement))
      .toBe(true);
    // The workspace not synced yet comes first; the synced one says so.
    expect(await workspace.inputValue()).toBe(String(board.id));
    await listed(workspace.getByRole('option', { name: 'Q3 Planning (already synced)' }));
    expect(await folderField().inputValue()).toBe(`~/Workspace Sync/${BOARD_FOLDER}`);

    // A folder around the first pair's is refused before anything is sent.
    await folderField().fill('~/Workspace Sync');
    await form().getByRole('button', { name: 'Start syncing' }).click();
    await shown(form().getByRole('alert').filter({ hasText: 'already syncs "Q3 Planning"' }));

    // The picker opens where the folder is (its nearest existing parent), and chooses Notes.
    await form().getByRole('button', { name: 'Choose…' }).click();
    const list = folders();
    await shown(list.getByRole('option', { name: 'Q3 Planning' }));
    await picker().getByRole('button', { name: 'Up one folder' }).click();
    await list.getByRole('option', { name: 'Documents' }).dblclick();
    await list.getByRole('option', { name: 'Notes' }).click();
    await picker().getByRole('button', { name: 'Choose “Notes”' }).click();
    await picker().waitFor({ state: 'detached' });
    const notes = path.join(home, 'Documents', 'Notes');
    expect(await folderField().inputValue()).toBe(notes);
    // Checked at once: nothing wrong.
    await expect.poll(() => form().getByRole('alert').count()).toBe(0);
    await form().getByRole('button', { name: 'Start syncing' }).click();
    await shown(card(BOARD).getByText(`Synced to ${notes}`));
    await shown(stateOf(BOARD).filter({ hasText: 'Up to date' }), 90_000);
    await shown(stateOf('Q3 Planning').filter({ hasText: 'Up to date' }));
    // The form closed; Add folder has the focus back for the next one.
    expect(await form().count()).toBe(0);
    const add = page.getByRole('button', { name: 'Add folder' });
    await expect.poll(() => add.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await shots(page, 'folders-two-cards', { ready: card(BOARD) });
  });

  it('pauses one card while the other keeps syncing', async () => {
    await card(BOARD).getByRole('button', { name: 'Pause sync' }).click();
    await shown(stateOf(BOARD).filter({ hasText: 'Paused' }));
    await remoteFolder(ANN.email, board.id, 'While paused');
    await remoteFolder(ANN.email, sandbox.workspaceId, 'Still syncing');
    const q3 = path.join(home, 'Workspace Sync', 'Q3 Planning');
    await expect.poll(() => readdir(q3), { timeout: 60_000 }).toContain('Still syncing');
    await shown(stateOf('Q3 Planning').filter({ hasText: 'Up to date' }), 60_000);
    expect(await readdir(path.join(home, 'Documents', 'Notes'))).not.toContain('While paused');
    expect(await stateOf(BOARD).textContent()).toContain('Paused');
    await card(BOARD).getByRole('button', { name: 'Resume sync' }).click();
    await expect
      .poll(() => readdir(path.join(home, 'Documents', 'Notes')), { timeout: 60_000 })
      .toContain('While paused');
  });

  it('adds a second account and a folder for it', async () => {
    await page.getByRole('button', { name: 'Add account' }).click();
    await shown(page.getByRole('heading', { name: 'Add an account' }));
    await expectAccessible(page, 'add account');
    await signIn(MORITZ);
    // Back in the window, still Ann's, with the form open for Moritz.
    await shown(form());
    // Two accounts: the sidebar's switcher says which one the views show (accounts-switch.test.ts).
    const shownAccount = page.getByRole('navigation', { name: 'Main' }).getByLabel('Account shown');
    expect(await shownAccount.locator('option:checked').textContent()).toMatch(/^Ann Lee /);
    const account = form().getByLabel('Account');
    expect(await account.locator('option:checked').textContent()).toBe(
      `${MORITZ.email} — ${sandbox.baseUrl}`,
    );
    await listed(account.getByRole('option', { name: `${ANN.email} — ${sandbox.baseUrl}` }));
    await form().getByLabel('Workspace').selectOption({ label: NOTES });
    expect(await folderField().inputValue()).toBe(`~/Workspace Sync/${NOTES}`);
    await form().getByRole('button', { name: 'Start syncing' }).click();
    await shown(stateOf(NOTES).filter({ hasText: 'Up to date' }), 90_000);
    expect(existsSync(path.join(home, 'Workspace Sync', NOTES))).toBe(true);
    await shown(
      page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('button', { name: `Sign out ${MORITZ.email}` }),
    );
    expect(await page.getByRole('article').count()).toBe(3);
    // With two accounts, each card names its own.
    await shown(card(NOTES).getByText(`Account: ${MORITZ.email}`));
    await shown(card(BOARD).getByText(`Account: ${ANN.email}`));
    await expectAccessible(page, 'three cards, two accounts');
    await screenshot(page, 'folders-two-accounts');
    expect(win.dialogs).toEqual([]);
  });
});
