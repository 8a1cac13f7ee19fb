import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  expectAccessible,
  screenshot,
  shown,
  type Sandbox,
  type Watched,
  openSession,
  type Session,
} from './harness';

// "Sign in with your browser" as a person does it: the window (`cli ui --server`, the built
// renderer in Debian's Chromium) asks the bridge, which pushes the service's sign-in page; the
// window opens it in a new tab; the person signs in there, the service sends that tab back to
// the bridge's one-shot loopback listener, and the window goes on signed in.

const ANN = { email: 'ann@example.com', password: 'ann-sandbox-pass' };

let session: Session;
let sandbox: Sandbox;
let win: Watched;
let page: Page;

beforeAll(async () => {
  session = await openSession({ timeout: 20_000 });
  ({ win, page } = session);
  sandbox = session.sandbox!;
}, 180_000);

afterAll(() => session?.close());

describe('sign in with your browser, in Chromium, over the web bridge', { timeout: 90_000 }, () => {
  it('opens the service sign-in page in a new tab and signs the window in from there', async () => {
    await shown(page.getByRole('heading', { name: 'Sign in to Workspace Sync' }));
    await page.getByLabel('Server address').fill(sandbox.baseUrl);
    const tab = win.context.waitForEvent('page');
    await page.getByRole('button', { name: 'Sign in with your browser' }).click();
    const signInTab = await tab;
    await shown(page.getByText('Finish signing in in the tab that opened…'));
    await screenshot(page, 'sign-in-browser-waiting');
    await expectAccessible(page, 'sign-in, waiting for the browser');

    // The service's own page, in the new tab.
    await signInTab.waitForLoadState();
    expect(new URL(signInTab.url()).pathname).toMatch(/\/oauth\/authorize$/);
    await signInTab.getByLabel('Email').fill(ANN.email);
    await signInTab.getByLabel('Password').fill(ANN.password);
    await signInTab.getByRole('button', { name: 'Sign in and allow' }).click();
    await shown(signInTab.getByRole('heading', { name: 'Return to Workspace Sync' }));

    // The window goes on as after a password sign-in.
    await shown(page.getByRole('heading', { name: 'Sync status' }));
    await shown(page.getByText('Signed in as Ann Lee (ann@example.com)'));
    await screenshot(page, 'sign-in-browser-done');
    expect(win.dialogs).toEqual([]);
    expect(win.errors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
  });
});
