import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asUser,
  expectAccessible,
  shots,
  shown,
  type Sandbox,
  type Watched,
  openSession,
  type Session,
  screenshotOnFailure,
} from './harness';

// People in the window: `cli ui --server` against a sandbox of the test's own, signed in as its
// Moderator (Moritz): the members of Q3 Planning from Workspaces and from Browse, an invitation,
// a role change and a removal, each checked on the service as the member concerned; then its
// Viewer (Vikram), who reads the service's refusal in one line. One story in order; each state
// waited for, never a duration.

const MORITZ = { email: 'moritz@example.com', password: 'moritz-sandbox-pass' }; // Moderator
const VIKRAM = { email: 'vikram@example.com', password: 'vikram-sandbox-pass' }; // Viewer
const WS = 'Q3 Planning';

let session: Session;
let sandbox: Sandbox;
let win: Watched;
let page: Page;

const gone = (l: Locator) => l.waitFor({ state: 'detached' });
const nav = (name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name });
const table = () => page.getByRole('table', { name: 'Members' });
const row = (who: string) => table().getByRole('row').filter({ hasText: who });
const notice = () => page.locator('.notice-line');

async function signIn(who: { email: string; password: string }) {
  await shown(page.getByRole('heading', { name: 'Sign in to Workspace Sync' }));
  await page.getByLabel('Server address').fill(sandbox.baseUrl);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await shown(page.getByRole('heading', { name: 'Sync status' }));
}

/** Workspaces, then Members on Q3 Planning. */
async function openMembers() {
  await nav('Workspaces').click();
  await page.getByRole('button', { name: `Members of ${WS}` }).click();
  await shown(page.getByRole('heading', { name: `Members of ${WS}`, level: 1 }));
}

/** The workspace as `email` sees it now, or null where the service no longer shows it. */
async function roleOf(email: string): Promise<string | null> {
  try {
    const got = await asUser<{ workspace: { effective_role: string } }>(
      sandbox,
      email,
      'GET',
      `/workspaces/${sandbox.workspaceId}`,
    );
    return got.workspace.effective_role;
  } catch (err) {
    if (/: 404 /.test(String(err))) return null;
    throw err;
  }
}

beforeAll(async () => {
  session = await openSession({ timeout: 20_000 });
  ({ win, page } = session);
  sandbox = session.sandbox!;
}, 180_000);

afterAll(() => session?.close());

describe.sequential('members of a workspace, in Chromium', { timeout: 120_000 }, () => {
  screenshotOnFailure(() => page, 'members');

  it('a Moderator sees the members, with only the roles a Moderator may give', async () => {
    await signIn(MORITZ);
    await openMembers();
    await shown(page.getByText('Your role here: Moderator.'));
    await shown(row('Ann Lee').getByText('Owner'));
    await shown(row('Moritz Schäfer').getByText('you'));
    // Neither the owner's role nor one's own can be changed here; nor removed.
    expect(await row('Ann Lee').getByRole('combobox').count()).toBe(0);
    expect(await row('Moritz Schäfer').getByRole('combobox').count()).toBe(0);
    expect(await row('Ann Lee').getByRole('button').count()).toBe(0);
    const danaRole = page.getByRole('combobox', { name: 'Role of Dana Cruz' });
    expect(await danaRole.inputValue()).toBe('Downloader');
    const options = (sel: Locator) => sel.locator('option').allTextContents();
    expect(await options(danaRole)).toEqual([
      'Moderator',
      'Collaborator',
      'Creator',
      'Downloader',
      'Printer',
      'Viewer',
    ]);
    expect(await options(page.getByLabel('Role', { exact: true }))).not.toContain('Administrator');
    // What each role may do, the Moderator's own marked.
    const roles = page.getByRole('table', { name: 'What each role may do' });
    await shown(roles.getByRole('rowheader', { name: 'Moderator (your role)' }));
    expect(await roles.getByRole('row').count()).toBe(8);
    await shots(page, 'members', { ready: danaRole });
  });

  it('invites by email with a role', async () => {
    await page.getByLabel('Email addresses').fill('new.person@example.org, dana@example.com');
    await page.getByLabel('Role', { exact: true }).selectOption('Creator');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    const outcome = page.locator('.invite-outcome');
    await shown(outcome.getByText('Invited 1 person as Creator.'));
    await shown(outcome.getByText('dana@example.com is already a member.'));
    // What was not invited stays in the field.
    expect(await page.getByLabel('Email addresses').inputValue()).toBe('dana@example.com');
    const invited = row('new.person@example.org');
    await shown(invited.getByText('Invited, not joined yet'));
    expect(await invited.getByRole('combobox').inputValue()).toBe('Creator');
    const maps = await asUser<{
      items: { rolemap: { role_name: string; user: { email: string } } }[];
    }>(sandbox, MORITZ.email, 'GET', `/workspaces/${sandbox.workspaceId}/rolemaps`);
    expect(
      maps.items.find((i) => i.rolemap.user.email === 'new.person@example.org')?.rolemap.role_name,
    ).toBe('Creator');
  });

  it('changes a role with its own button, and the service has it', async () => {
    const danaRole = page.getByRole('combobox', { name: 'Role of Dana Cruz' });
    await danaRole.selectOption('Collaborator');
    // Choosing sends nothing yet.
    expect(await roleOf('dana@example.com')).toBe('Downloader');
    await page.getByRole('button', { name: 'Make Dana Cruz Collaborator' }).click();
    await shown(notice().getByText('Dana Cruz is now Collaborator.'));
    await gone(page.getByRole('button', { name: 'Make Dana Cruz Collaborator' }));
    expect(await danaRole.inputValue()).toBe('Collaborator');
    expect(await roleOf('dana@example.com')).toBe('Collaborator');
    await expectAccessible(page, 'members after a role change');
  });

  it('removes a member after a confirm dialog; Cancel keeps them', async () => {
    const remove = page.getByRole('button', { name: `Remove Chloé Martin from ${WS}` });
    await remove.click();
    const dialog = page.getByRole('dialog', { name: `Remove Chloé Martin from ${WS}?` });
    await shown(dialog);
    await shots(page, 'members-remove', { ready: dialog });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await gone(dialog);
    expect(await roleOf('chloe@example.com')).toBe('Creator');

    await remove.click();
    await shown(dialog);
    await dialog.getByRole('button', { name: 'Remove', exact: true }).click();
    await shown(notice().getByText(`Chloé Martin was removed from ${WS}.`));
    await gone(row('Chloé Martin'));
    expect(await roleOf('chloe@example.com')).toBeNull();

    // An invitation is withdrawn the same way.
    await page
      .getByRole('button', { name: 'Withdraw the invitation to new.person@example.org' })
      .click();
    const withdraw = page.getByRole('dialog', {
      name: 'Withdraw the invitation to new.person@example.org?',
    });
    await withdraw.getByRole('button', { name: 'Withdraw' }).click();
    await shown(notice().getByText('The invitation to new.person@example.org was withdrawn.'));
    await gone(row('new.person@example.org'));
  });

  it('is reached from Browse too', async () => {
    await nav('Browse').click();
    await page.getByRole('button', { name: `Members of ${WS}` }).click();
    await shown(page.getByRole('heading', { name: `Members of ${WS}`, level: 1 }));
    await shown(row('Dana Cruz'));
  });

  it('a Viewer reads the service’s refusal in one line, and what each role may do', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Sign out' }).click();
    await signIn(VIKRAM);
    await openMembers();
    const refusal = page.getByText(
      'Not permitted: Only a Moderator or above may list the members.',
    );
    await shown(refusal);
    expect(await page.getByLabel('Email addresses').count()).toBe(0);
    expect(await table().count()).toBe(0);
    await shown(page.getByRole('rowheader', { name: 'Viewer (your role)' }));
    await shots(page, 'members-viewer', { ready: refusal });
    expect(win.dialogs).toEqual([]);
    expect(win.errors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
  });
});
