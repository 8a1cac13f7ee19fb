import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import {
  type BridgeClient,
  expectAccessible,
  screenshot,
  shown,
  openSession,
  type Session,
} from './harness';

// Issue 37's new words in German: a failed pass (reason, last success, Retry now) and a sign-out
// (card and sidebar), with none of their English left. `cli ui --sandbox` in de-DE.

let session: Session;
let page: Page;
let api: BridgeClient;
let base: string;
let email: string;

async function hook(route: string, body: unknown): Promise<void> {
  const res = await fetch(`${base}/_sandbox/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${route}: ${res.status} ${await res.text()}`);
}

/** English this issue added, which a German window must not show. */
const ENGLISH = [
  'Retry now',
  'Why:',
  'Last successful sync',
  'Signed out',
  'Sign in again',
  'no longer accepts',
];

beforeAll(async () => {
  session = await openSession({ server: 'sandbox', locale: 'de-DE', timeout: 30_000, api: true });
  ({ page } = session);
  api = session.api!;
  const [account] = await api.call('accounts.list', {});
  base = account!.server;
  email = account!.email;
}, 180_000);

afterAll(() => session?.close());

describe.sequential('the status is true, in German', { timeout: 180_000 }, () => {
  it('says a failed pass and a sign-out in German', async () => {
    onTestFailed(async () => {
      await screenshot(page, 'failed-status-german');
      await hook('faults', { spec: '' });
    });
    const [pair] = await api.call('pairs.list', {});
    const card = page.getByRole('article', { name: pair!.workspaceName });
    const state = card.getByRole('status');
    await shown(state.filter({ hasText: 'Aktuell' }), 120_000);

    await hook('faults', { spec: 'fail=1' });
    await api.call('pairs.retry', { pairId: pair!.id });
    const retry = card.getByRole('button', { name: 'Jetzt erneut versuchen' });
    await shown(retry, 60_000);
    await shown(card.getByText(/^Grund: /));
    await shown(card.getByText(/^Zuletzt erfolgreich synchronisiert /));
    let text = await page.locator('body').innerText();
    for (const english of ENGLISH) expect(text, english).not.toContain(english);
    await expectAccessible(page, 'failed pass, German');
    await hook('faults', { spec: '' });
    await api.call('pairs.retry', { pairId: pair!.id });
    await shown(state.filter({ hasText: 'Aktuell' }), 60_000);

    await hook('revoke', { email });
    await api.call('pairs.retry', { pairId: pair!.id });
    await shown(state.filter({ hasText: 'Abgemeldet' }), 60_000);
    await shown(page.getByRole('navigation').getByText(`Abgemeldet: ${email}`));
    await shown(card.getByRole('button', { name: 'Erneut anmelden' }));
    text = await page.locator('body').innerText();
    for (const english of ENGLISH) expect(text, english).not.toContain(english);
    await expectAccessible(page, 'signed out, German');
  });
});
