import { statSync, readFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PLAIN_ACCOUNTS_FILE } from '../../src/main/accounts/keychain';
import { NO_BUS } from '../cli/run-cli';
import {
  openWindow,
  screenshotOnFailure,
  shots,
  shown,
  type Sandbox,
  type Session,
  openSession,
} from './harness';

// Issue 39, items 2 and 6: `cli ui --server` on a machine without a keychain, in Chromium. The
// bridge runs with no D-Bus session (no Secret Service answers): the window offers to keep the
// account for this session or in the plain file, fills in the server given, says an unreachable
// server in words, and a browser sign-in's tab never claims more than it knows.

const ANN = { email: 'ann@example.com', password: 'ann-sandbox-pass' };
const MORITZ = { email: 'moritz@example.com', password: 'moritz-sandbox-pass' };

let session: Session;
let sandbox: Sandbox;
let page: Page;

beforeAll(async () => {
  session = await openSession({
    timeout: 20_000,
    // The keychain made absent on purpose: the harness runs under a private keyring.
    prepare: () => ({ DBUS_SESSION_BUS_ADDRESS: NO_BUS }),
  });
  ({ page } = session);
  sandbox = session.sandbox!;
}, 180_000);

afterAll(() => session?.close());

screenshotOnFailure(() => page, 'headless-signin');

/** A port nothing listens on: it was free a moment ago. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((r) => probe.close(r));
  return port;
}

describe('signing in with no keychain, over the web bridge', { timeout: 120_000 }, () => {
  it('fills in the server given, and offers this session or the plain file, named', async () => {
    await shown(page.getByRole('heading', { name: 'Sign in to Workspace Sync' }));
    await expect.poll(() => page.getByLabel('Server address').inputValue()).toBe(sandbox.baseUrl);
    const keep = page.getByRole('group', { name: 'Keep this account' });
    await shown(keep);
    expect(await keep.getByLabel('For this session only').isChecked()).toBe(true);
    const file = path.join(session.bridge.stateDir, PLAIN_ACCOUNTS_FILE);
    await shown(keep.getByText(`Kept in ${file}, readable by you only (permissions 0600)`));
    await shots(page, 'headless-signin-choice-en', { ready: keep });
  });

  it('an unreachable server fails in words at once, and no tab opens', async () => {
    const server = `http://127.0.0.1:${await closedPort()}`;
    const tabs: unknown[] = [];
    session.win.context.on('page', (p) => tabs.push(p));
    await page.getByLabel('Server address').fill(server);
    await page.getByRole('button', { name: 'Sign in with your browser' }).click();
    const said = page.getByText(`${server} cannot be reached (ECONNREFUSED)`);
    await shown(said);
    expect(tabs).toEqual([]);
    await shots(page, 'headless-signin-unreachable-en', { ready: said });
    await page.getByLabel('Server address').fill(sandbox.baseUrl);
  });

  it('a host that takes the connection and never answers: no tab is claimed, words after seconds', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((s) => void sockets.push(s.on('error', () => {})));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const server = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const tabs: unknown[] = [];
      session.win.context.on('page', (p) => tabs.push(p));
      await page.getByLabel('Server address').fill(server);
      await page.getByRole('button', { name: 'Sign in with your browser' }).click();
      // While the server is asked, the window says so, not that a tab opened.
      await shown(page.getByText('Reaching the server…'));
      expect(await page.getByText('Finish signing in in the tab that opened').count()).toBe(0);
      await shown(page.getByText(`${server} did not answer within 5 seconds`));
      expect(tabs).toEqual([]);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((r) => silent.close(r));
    }
    await page.getByLabel('Server address').fill(sandbox.baseUrl);
  });

  it('in German: a browser sign-in kept for this session, the tab sends the person back', async () => {
    const de = await openWindow(session.browser, session.bridge.url, 'de-DE');
    try {
      const p = de.page;
      p.setDefaultTimeout(20_000);
      await shown(p.getByRole('heading', { name: 'Bei Workspace Sync anmelden' }));
      const keep = p.getByRole('group', { name: 'Konto aufbewahren' });
      await shown(keep);
      await shots(p, 'headless-signin-choice-de', { ready: keep });
      expect(await keep.getByLabel('Nur für diese Sitzung').isChecked()).toBe(true);
      const tab = de.context.waitForEvent('page');
      await p.getByRole('button', { name: 'Mit dem Browser anmelden' }).click();
      const signInTab = await tab;
      await signInTab.waitForLoadState();
      await signInTab.getByLabel('Email').fill(ANN.email);
      await signInTab.getByLabel('Password').fill(ANN.password);
      await signInTab.getByRole('button', { name: 'Sign in and allow' }).click();
      // Only what is known when the service sends the tab back: the window says the outcome.
      await shown(signInTab.getByRole('heading', { name: 'Zurück zu Workspace Sync' }));
      expect(await signInTab.textContent('body')).not.toMatch(/angemeldet sind|signed in/i);
      await shown(p.getByRole('heading', { name: 'Synchronisierungsstatus' }));
      // The window says the outcome, and where the account is: nowhere but this session.
      await shown(p.getByText('Nur für diese Sitzung aufbewahrt', { exact: false }));
      await shots(p, 'headless-signin-done-de', {
        ready: p.getByRole('heading', { name: 'Synchronisierungsstatus' }),
      });
      expect(de.dialogs).toEqual([]);
    } finally {
      await de.context.close();
    }
  });

  it('Add account kept in the plain file: the file holds it, mode 0600; no keychain words', async () => {
    // The session's account (Ann's, signed in above) is the bridge's: the window opens signed in.
    await page.reload();
    await shown(page.getByRole('heading', { name: 'Sync status' }));
    await shown(page.getByText('Kept for this session only: you sign in again', { exact: false }));
    await page.getByRole('button', { name: 'Add account' }).click();
    const keep = page.getByRole('group', { name: 'Keep this account' });
    await shown(keep);
    await keep.getByLabel('In a file on this computer').check();
    await expect.poll(() => page.getByLabel('Server address').inputValue()).toBe(sandbox.baseUrl);
    await page.getByLabel('Email').fill(MORITZ.email);
    await page.getByLabel('Password', { exact: true }).fill(MORITZ.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await shown(page.getByRole('heading', { name: 'Sync status' }));
    const file = path.join(session.bridge.stateDir, PLAIN_ACCOUNTS_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const kept = readFileSync(file, 'utf8');
    expect(kept).toContain(MORITZ.email);
    // Ann's was kept for the session only: never written.
    expect(kept).not.toContain(ANN.email);
    await shots(page, 'headless-signin-done-en', {
      ready: page.getByRole('heading', { name: 'Sync status' }),
    });
    expect(await page.textContent('body')).not.toMatch(/--token|WORKSPACE_SYNC_TOKEN/);
  });
});
