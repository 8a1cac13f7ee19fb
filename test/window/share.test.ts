import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asUser,
  shots,
  shown,
  type Sandbox,
  openSession,
  type Session,
  screenshotOnFailure,
} from './harness';

// Sharing from the item panel (issue 42, item 4): a folder's share link turned on, copied, given
// a password (shown as set, never shown itself) and an expiry, each said once the service
// answered; a service that requires a password for links asks for one in words; the folder
// shared with people by email and role. As the Administrator (Ann), then as the Viewer
// (Vikram), for whom every control is disabled with the reason; English and German, light and
// dark, 1280×800 and 800×600, axe clean. `cli ui --server` against a sandbox of the test's own.

const ANN = { email: 'ann@example.com', password: 'ann-sandbox-pass' }; // Administrator
const KENJI = { email: 'kenji@example.com', password: 'kenji-sandbox-pass' }; // Collaborator
const VIKRAM = { email: 'vikram@example.com', password: 'vikram-sandbox-pass' }; // Viewer

let session: Session;
let sandbox: Sandbox;
let page: Page;

const gone = (l: Locator) => l.waitFor({ state: 'detached' });
const nav = (name: string) =>
  page.getByRole('navigation', { name: /^(Main|Haupt)/ }).getByRole('button', { name });
const panel = () => page.getByRole('complementary');
const said = (text: string | RegExp) => panel().getByRole('status').filter({ hasText: text });

async function signIn(who: { email: string; password: string }) {
  await shown(page.getByRole('heading', { name: 'Sign in to Workspace Sync' }));
  await page.getByLabel('Server address').fill(sandbox.baseUrl);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await shown(page.getByRole('heading', { name: 'Sync status' }));
}

async function signOut() {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Sign out' }).click();
  await shown(page.getByRole('heading', { name: 'Sign in to Workspace Sync' }));
}

/** Browse, Reports, and the details of its folder 2026, in the window's language. */
async function openDetails(lang: 'en' | 'de') {
  const w =
    lang === 'en'
      ? {
          browse: 'Browse',
          contents: 'Folder contents',
          open: 'Open folder Reports',
          details: 'Details of 2026',
          path: 'Folder path',
        }
      : {
          browse: 'Durchsuchen',
          contents: 'Ordnerinhalt',
          open: 'Ordner Reports öffnen',
          details: 'Details zu 2026',
          path: /Ordnerpfad|Pfad/,
        };
  await nav(w.browse).click();
  const contents = page.getByRole('table', { name: w.contents });
  await shown(contents);
  const root = page
    .getByRole('navigation', { name: w.path })
    .getByRole('button', { name: 'Q3 Planning' });
  if ((await root.count()) > 0) await root.click();
  await contents.getByRole('button', { name: w.open }).click();
  await contents.getByRole('button', { name: w.details }).click();
  await shown(panel().getByRole('heading', { name: '2026' }));
}

async function language(lang: 'en' | 'de') {
  await nav(lang === 'de' ? 'Settings' : 'Einstellungen').click();
  await page.getByLabel(lang === 'de' ? 'Language' : 'Sprache').selectOption(lang);
  await shown(
    page.getByRole('heading', { name: lang === 'de' ? 'Einstellungen' : 'Settings', level: 1 }),
  );
}

/** The link section and the people section, in view, at each size and scheme. */
async function panelShots(name: string) {
  const share = panel().locator('section.share');
  await shots(page, name, {
    ready: async () => {
      await share.scrollIntoViewIfNeeded();
      await shown(share);
    },
  });
}

async function linkPolicy(required: boolean) {
  const res = await fetch(`${sandbox.baseUrl}/_sandbox/policy`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ link_password_required: required }),
  });
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  session = await openSession({ timeout: 20_000 });
  ({ page } = session);
  sandbox = session.sandbox!;
}, 180_000);

afterAll(() => session?.close());

describe.sequential('sharing an item, in Chromium', { timeout: 150_000 }, () => {
  screenshotOnFailure(() => page, 'share');

  it('an Administrator turns the link on and copies it, each said once the service answered', async () => {
    await signIn(ANN);
    await openDetails('en');
    const enabled = panel().getByLabel('Anyone with the link can view');
    await shown(enabled);
    expect(await enabled.isChecked()).toBe(false);
    await shown(panel().getByText('No password is set.'));
    await enabled.click();
    await shown(said('Saved: anyone with the link can view it.'));
    expect(await enabled.isChecked()).toBe(true);
    await panel().getByRole('button', { name: 'Copy link' }).click();
    const copied = said('Copied:');
    await shown(copied);
    const url = ((await copied.textContent()) ?? '').replace(/^Copied: /, '');
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(url);
    expect((await fetch(url)).status).toBe(200);
  });

  it('sets a password, shown as set and never shown itself, and an expiry', async () => {
    await panel().getByRole('button', { name: 'Set a password' }).click();
    const field = panel().getByLabel('Link password');
    await field.fill('a long link passphrase');
    await panel().getByRole('button', { name: 'Save password' }).click();
    await shown(said('Saved: the link asks for its password.'));
    await shown(panel().getByText('A password is set (it is never shown).'));
    await gone(field);
    expect(await page.content()).not.toContain('a long link passphrase');
    // The service agrees: its link asks for the password.
    const folders = await asUser<{ items: { folder?: { id: number; filename: string } }[] }>(
      sandbox,
      ANN.email,
      'GET',
      `/folders/${await reportsId()}`,
    );
    const id = folders.items.find((i) => i.folder?.filename === '2026')!.folder!.id;
    const link = await asUser<{ content_item_link: { require_password: boolean } }>(
      sandbox,
      ANN.email,
      'GET',
      `/folders/${id}/link`,
    );
    expect(link.content_item_link.require_password).toBe(true);

    await panel().getByLabel('Link expires on').fill('2030-06-15');
    await shown(said(/^Saved: the link expires at the end of .*2030/));
    await shown(panel().getByRole('button', { name: 'Remove expiry' }));
    await panelShots('share-admin');
  });

  it('a service that requires a password for links asks for one in words', async () => {
    await panel().getByRole('button', { name: 'Remove password' }).click();
    await shown(said('Saved: the link asks for no password.'));
    await panel().getByLabel('Anyone with the link can view').click();
    await shown(said('Saved: the link is off.'));
    await linkPolicy(true);
    try {
      await panel().getByLabel('Anyone with the link can view').click();
      await shown(
        panel().getByText('This service asks for a password for every share link', {
          exact: false,
        }),
      );
      // Asked, not hung: the field is open, focused, and the link stays off until answered.
      const field = panel().getByLabel('Link password');
      await shown(field);
      await expect.poll(() => page.evaluate('document.activeElement?.id')).toBe('link-password');
      expect(await panel().getByLabel('Anyone with the link can view').isChecked()).toBe(false);
      await panelShots('share-asked');
      await field.fill('required-pass');
      await field.press('Enter');
      await shown(said('Saved: the link asks for its password.'));
      expect(await panel().getByLabel('Anyone with the link can view').isChecked()).toBe(true);
    } finally {
      await linkPolicy(false);
    }
  });

  it('shares the folder with people by email and role', async () => {
    const emails = panel().getByLabel('Email addresses');
    await emails.fill('guest@example.org, not-an-address');
    await panel().getByLabel('Role', { exact: true }).selectOption('Collaborator');
    await panel().getByRole('button', { name: 'Invite', exact: true }).click();
    const outcome = panel().locator('.invite-outcome');
    await shown(outcome.getByText('Invited 1 person as Collaborator.'));
    await shown(outcome.getByText('not-an-address', { exact: false }));
    expect(await emails.inputValue()).toBe('not-an-address');
    const maps = await asUser<{
      items: { rolemap: { user: { email: string }; role_name: string } }[];
    }>(sandbox, ANN.email, 'GET', `/workspaces/${sandbox.workspaceId}/rolemaps`);
    expect(
      maps.items.find((m) => m.rolemap.user.email === 'guest@example.org')?.rolemap.role_name,
    ).toBe('Collaborator');
    await emails.fill('');
    await panelShots('share-people-admin');
  });

  it('the same panel in German', async () => {
    await language('de');
    await openDetails('de');
    await shown(panel().getByText('Ein Passwort ist gesetzt (es wird nie angezeigt).'));
    await shown(panel().getByRole('heading', { name: 'Mit Personen teilen' }));
    await panelShots('share-admin-de');
    await language('en');
  });

  it('a Collaborator reads the link and copies it, its settings and invitations disabled with the reason', async () => {
    await signOut();
    await signIn(KENJI);
    await openDetails('en');
    await shown(panel().getByText("Only Moderators and above can change a link's settings."));
    expect(await panel().getByLabel('Anyone with the link can view').isDisabled()).toBe(true);
    expect(await panel().getByRole('button', { name: 'Change password' }).isDisabled()).toBe(true);
    // Whether a password is set is shown to whoever reads the link.
    await shown(panel().getByText('A password is set (it is never shown).'));
    await panel().getByRole('button', { name: 'Copy link' }).click();
    await shown(said('Copied:'));
    await shown(panel().getByText('Only Moderators and above can invite people.'));
    expect(await panel().getByLabel('Email addresses').isDisabled()).toBe(true);
    await panelShots('share-collaborator');
  });

  it('a Viewer sees every control disabled, with the reason', async () => {
    await signOut();
    await signIn(VIKRAM);
    await openDetails('en');
    await shown(panel().getByText('Your role does not show share links', { exact: false }));
    expect(await panel().getByRole('button', { name: 'Copy link' }).isDisabled()).toBe(true);
    await shown(panel().getByText('Only Moderators and above can invite people.'));
    expect(await panel().getByLabel('Email addresses').isDisabled()).toBe(true);
    expect(await panel().getByRole('button', { name: 'Invite', exact: true }).isDisabled()).toBe(
      true,
    );
    await panelShots('share-viewer');
    await language('de');
    await openDetails('de');
    await shown(panel().getByText('Ihre Rolle zeigt keine Freigabelinks', { exact: false }));
    await panelShots('share-viewer-de');
    await language('en');
  });
});

/** The id of Q3 Planning's folder Reports, as Ann sees it. */
async function reportsId(): Promise<number> {
  const ws = await asUser<{ workspace: { root_folder_id: number } }>(
    sandbox,
    ANN.email,
    'GET',
    `/workspaces/${sandbox.workspaceId}`,
  );
  const root = await asUser<{ items: { folder?: { id: number; filename: string } }[] }>(
    sandbox,
    ANN.email,
    'GET',
    `/folders/${ws.workspace.root_folder_id}`,
  );
  return root.items.find((i) => i.folder?.filename === 'Reports')!.folder!.id;
}
