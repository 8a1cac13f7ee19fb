import { existsSync } from 'node:fs';
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

// Issue 39, item 3: what stops everything asks first and says what it concerns. Sign out names
// the folders that stop (and, with two accounts, whose sign-out it is); deleting a workspace
// says it is synced here, in which folder, and what becomes of the local copy. Against a sandbox
// of the test's own, with a home folder of its own where the first folder syncs.

const ANN = { email: 'ann@example.com', password: 'ann-sandbox-pass' };
const MORITZ = { email: 'moritz@example.com', password: 'moritz-sandbox-pass' };
const BOARD = 'Ann’s Board';

let session: Session<'home'>;
let sandbox: Sandbox;
let win: Watched;
let page: Page;
let home: string;

const sidebar = () => page.getByRole('navigation', { name: 'Main' });
const form = () => page.getByRole('form', { name: 'Choose what to sync' });
const card = (name: string) => page.getByRole('article', { name });
const nav = (name: string) => sidebar().getByRole('button', { name, exact: true });
const boardDir = () => path.join(home, 'Workspace Sync', BOARD);

async function signIn(who: { email: string; password: string }) {
  await page.getByLabel('Server address').fill(sandbox.baseUrl);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

beforeAll(async () => {
  session = await openSession({
    dirs: { home: 'ws-window-home-' },
    timeout: 20_000,
    prepare: async (sandbox, dirs) => {
      await asUser(sandbox!, ANN.email, 'POST', '/workspaces', { name: BOARD });
      return { HOME: dirs.home };
    },
  });
  ({ win, page } = session);
  sandbox = session.sandbox!;
  home = session.dirs.home;
}, 180_000);

afterAll(() => session?.close());

describe.sequential('asked first', { timeout: 120_000 }, () => {
  screenshotOnFailure(() => page, 'sign-out');

  it('a synced folder', async () => {
    await signIn(ANN);
    await shown(form());
    await form().getByLabel('Workspace').selectOption({ label: BOARD });
    await form().getByRole('button', { name: 'Start syncing' }).click();
    await shown(card(BOARD).getByRole('status').filter({ hasText: 'Up to date' }), 90_000);
    expect(existsSync(boardDir())).toBe(true);
  });

  it('deleting a workspace says it is synced here, where, and what becomes of the copy', async () => {
    await nav('Workspaces').click();
    await page.getByRole('button', { name: `Delete ${BOARD}` }).click();
    const dialog = page.getByRole('dialog', { name: `Delete “${BOARD}”?` });
    await shown(dialog.getByText('It is synced on this computer, in this folder:'));
    await shown(dialog.getByText(boardDir(), { exact: true }));
    await shown(dialog.getByText(/The local copy stays on this computer as it is/));
    await shots(page, 'delete-workspace-synced', { ready: dialog });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('with two accounts, each sign-out says whose, and another account’s names none of Ann’s folders', async () => {
    await sidebar().getByRole('button', { name: 'Add account' }).click();
    await signIn(MORITZ);
    await shown(form());
    // Ann's own button names her; Moritz's, in the list of others, names him.
    await shown(sidebar().getByRole('button', { name: `Sign out ${ANN.email}`, exact: true }));
    await sidebar()
      .getByRole('button', { name: `Sign out ${MORITZ.email}`, exact: true })
      .click();
    const dialog = page.getByRole('dialog', { name: `Sign out ${MORITZ.email}?` });
    await shown(dialog.getByText(/No folder syncs with this account on this computer/));
    expect(await dialog.getByText(BOARD).count()).toBe(0);
    await shots(page, 'sign-out-other', { ready: dialog });
    await dialog.getByRole('button', { name: 'Sign out', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    // Moritz is gone, Ann's folder syncs on.
    await shown(sidebar().getByText(`Signed in as Ann Lee (${ANN.email})`));
    expect(
      await sidebar()
        .getByRole('button', { name: `Sign out ${MORITZ.email}` })
        .count(),
    ).toBe(0);
    await nav('Status').click();
    await shown(card(BOARD).getByRole('status').filter({ hasText: 'Up to date' }));
  });

  it('Sign out names the folders that stop and asks; Cancel changes nothing', async () => {
    await sidebar().getByRole('button', { name: 'Sign out', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Sign out ${ANN.email}?` });
    await shown(dialog.getByText('This folder stops syncing:'));
    await shown(dialog.getByText(BOARD, { exact: true }));
    await shown(dialog.getByText(boardDir(), { exact: true }));
    await shown(dialog.getByText(/Their files stay on this computer; nothing is deleted/));
    // The safe answer is the one a stray Enter gives.
    await expect.poll(() => page.evaluate('document.activeElement?.textContent')).toBe('Cancel');
    await shots(page, 'sign-out-ann', { ready: dialog });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await shown(card(BOARD).getByRole('status').filter({ hasText: 'Up to date' }));
  });

  it('and signs out once confirmed: the folder stays on this computer', async () => {
    await sidebar().getByRole('button', { name: 'Sign out', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Sign out ${ANN.email}?` });
    await dialog.getByRole('button', { name: 'Sign out', exact: true }).click();
    await shown(page.getByRole('heading', { name: 'Sign in to Workspace Sync' }));
    expect(existsSync(boardDir())).toBe(true);
    expect(win.dialogs).toEqual([]);
  });
});
