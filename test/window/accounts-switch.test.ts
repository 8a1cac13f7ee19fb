import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import {
  asUser,
  shots,
  shown,
  type Sandbox,
  type Size,
  type Watched,
  openSession,
  type Session,
  screenshotOnFailure,
} from './harness';

// The account switcher, as a person uses it: two accounts signed in against a sandbox of the
// test's own (folders.test.ts's second account), each with a workspace the other cannot see.
// Browse, Activity and Workspaces show the account chosen in the sidebar, the choice lasts a
// reload, and signing out of the shown one shows the other.

const ANN = { email: 'ann@example.com', password: 'ann-sandbox-pass' };
const MORITZ = { email: 'moritz@example.com', password: 'moritz-sandbox-pass' };
const BOARD = 'Ann’s Board';
const NOTES = 'Moritz Notes';

let session: Session<'home'>;
let sandbox: Sandbox;
let win: Watched;
let page: Page;
let host: string;

const sidebar = () => page.getByRole('navigation', { name: 'Main' });
const switcher = () => sidebar().getByLabel('Account shown', { exact: true });
const form = () => page.getByRole('form', { name: 'Choose what to sync' });
/** The options of a <select> by its label (they are in the page, drawn or not). */
const optionsOf = (l: Locator) => l.locator('option').allTextContents();
const browseWorkspaces = () => optionsOf(page.locator('#browse-workspace'));
const annChoice = () => `Ann Lee (${ANN.email}) on ${host}`;
const moritzChoice = () => `Moritz Schäfer (${MORITZ.email}) on ${host}`;

async function signIn(who: { email: string; password: string }) {
  await page.getByLabel('Server address').fill(sandbox.baseUrl);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/**
 * Both sizes, light and dark. At 800×600 the sidebar is behind the menu button: the shot opens
 * it, so the switcher shows there too (and axe looks at it open).
 */
async function switcherShots(name: string) {
  const menu = page.getByRole('button', { name: 'Show the menu' });
  const narrow = (size: Size) => size.width < 1280;
  await shots(page, name, {
    ready: async (size) => {
      if (narrow(size)) {
        await shown(menu);
        await menu.click();
      }
      await shown(switcher());
    },
    axe: 'shot',
    what: (scheme, size) => `${name} (${scheme}, ${narrow(size) ? 'narrow, menu open' : 'wide'})`,
    after: async (size) => {
      if (!narrow(size)) return;
      await page.keyboard.press('Escape');
      await shown(menu);
    },
  });
}

beforeAll(async () => {
  session = await openSession({
    dirs: { home: 'ws-window-home-' },
    timeout: 20_000,
    prepare: async (sandbox, dirs) => {
      host = new URL(sandbox!.baseUrl).host;
      await asUser(sandbox!, ANN.email, 'POST', '/workspaces', { name: BOARD });
      await asUser(sandbox!, MORITZ.email, 'POST', '/workspaces', { name: NOTES });
      return { HOME: dirs.home };
    },
  });
  ({ win, page } = session);
  sandbox = session.sandbox!;
}, 180_000);

afterAll(() => session?.close());

describe.sequential('the account switcher', { timeout: 120_000 }, () => {
  screenshotOnFailure(() => page, 'accounts');

  it('with one account, there is nothing to switch', async () => {
    await signIn(ANN);
    await shown(form());
    await shown(sidebar().getByText(`Signed in as Ann Lee (${ANN.email})`));
    expect(await switcher().count()).toBe(0);
    await page.getByRole('button', { name: 'Browse', exact: true }).click();
    await shown(page.locator('#browse-workspace'));
    expect(await browseWorkspaces()).toContain(BOARD);
  });

  it('with two, the sidebar lists both; Browse shows the account chosen, then the other', async () => {
    await page.getByRole('button', { name: 'Add account' }).click();
    await signIn(MORITZ);
    // Back in the window, still Ann's (the form is open for Moritz's first folder).
    await shown(form());
    await shown(switcher());
    expect(await switcher().locator('option:checked').textContent()).toBe(annChoice());
    expect(await optionsOf(switcher())).toEqual([annChoice(), moritzChoice()]);
    await page.getByRole('button', { name: 'Browse', exact: true }).click();
    await shown(page.locator('#browse-workspace'));
    const ann = await browseWorkspaces();
    expect(ann).toContain(BOARD);
    expect(ann).not.toContain(NOTES);
    await switcherShots('accounts-switch-ann');

    await switcher().selectOption({ label: moritzChoice() });
    // Still Browse, now Moritz's: his workspace, not Ann's; the focus on the view.
    await expect.poll(browseWorkspaces).toContain(NOTES);
    expect(await browseWorkspaces()).not.toContain(BOARD);
    expect(await switcher().locator('option:checked').textContent()).toBe(moritzChoice());
    await expect.poll(() => page.evaluate('document.activeElement?.id')).toBe('main');
    await switcherShots('accounts-switch-moritz');
  });

  it('Activity and Workspaces follow the account shown, and the keyboard switches back', async () => {
    await page.getByRole('button', { name: 'Activity', exact: true }).click();
    const filter = page.getByRole('main').getByLabel('Workspace', { exact: true });
    await expect.poll(() => optionsOf(filter)).toContain(NOTES);
    expect(await optionsOf(filter)).not.toContain(BOARD);
    await page.getByRole('button', { name: 'Workspaces', exact: true }).click();
    await shown(page.getByRole('main').getByText(NOTES, { exact: true }).first());
    expect(await page.getByRole('main').getByText(BOARD, { exact: true }).count()).toBe(0);
    // A native <select>: the arrow keys choose (sorted by name: Ann is above Moritz).
    await switcher().focus();
    await page.keyboard.press('ArrowUp');
    await shown(page.getByRole('main').getByText(BOARD, { exact: true }).first());
    expect(await page.getByRole('main').getByText(NOTES, { exact: true }).count()).toBe(0);
    expect(await switcher().locator('option:checked').textContent()).toBe(annChoice());
  });

  it('keeps the choice for the session, and signing out of the shown account shows the other', async () => {
    await switcher().selectOption({ label: moritzChoice() });
    await shown(page.getByRole('main').getByText(NOTES, { exact: true }).first());
    await page.reload();
    await shown(switcher());
    expect(await switcher().locator('option:checked').textContent()).toBe(moritzChoice());
    // With two accounts the sidebar's own sign-out names whose it is, and asks first.
    await sidebar()
      .getByRole('button', { name: `Sign out ${MORITZ.email}`, exact: true })
      .click();
    await page
      .getByRole('dialog', { name: `Sign out ${MORITZ.email}?` })
      .getByRole('button', { name: 'Sign out', exact: true })
      .click();
    // Ann's window again, with one account: the plain line, no switcher.
    await shown(sidebar().getByText(`Signed in as Ann Lee (${ANN.email})`));
    expect(await switcher().count()).toBe(0);
    await page.getByRole('button', { name: 'Browse', exact: true }).click();
    await expect.poll(browseWorkspaces).toContain(BOARD);
    expect(await browseWorkspaces()).not.toContain(NOTES);
    expect(win.dialogs).toEqual([]);
  });
});
