import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandIn } from '../sync/stand-in';
import { openSession, shots, shown, type Session } from './harness';

// Issue 38, attack 4, as a person sees it: a lying service answers the workspaces list with
// endless fresh pages of 16 KB items. The window (the built renderer in Debian's Chromium over
// the web bridge) shows what the backend kept, says above the list that the service listed more,
// and stays usable; the service is asked for a bounded number of items, not for ever.

const ANN = { email: 'ann@example.com', password: 'ann-sandbox-pass' };
const PAD = 'x'.repeat(16 * 1024);
const PAGE = 25;
/** Where the lie would end on its own: far past any bound the backend keeps. */
const LIE_STOP = 100_000;

let session: Session;
let page: Page;
let standIn: { baseUrl: string; close(): Promise<void> };
let lying = false;
let served = 0;

const nav = (name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true });

beforeAll(async () => {
  session = await openSession({ timeout: 30_000 });
  ({ page } = session.win);
  standIn = await startStandIn(session.sandbox!.baseUrl, {
    answer: (req, res, url) => {
      if (!lying || req.method !== 'GET' || url.pathname !== '/workspaces') return false;
      req.resume();
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const count = Math.max(0, Math.min(PAGE, LIE_STOP - offset));
      const items = Array.from({ length: count }, (_, i) => {
        const id = 1_000_000 + offset + i;
        return { workspace: { id, name: `Lie ${id} ${PAD}`, root_folder_id: id } };
      });
      served += count;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ items, next_offset: offset + count }));
      return true;
    },
  });
}, 180_000);

afterAll(async () => {
  await standIn?.close();
  await session?.close();
});

describe('a service listing endless workspaces, in Chromium', { timeout: 180_000 }, () => {
  it('shows what was kept and says, above the list, that the service listed more', async () => {
    await page.getByLabel('Server address').fill(standIn.baseUrl);
    await page.getByLabel('Email').fill(ANN.email);
    await page.getByLabel('Password', { exact: true }).fill(ANN.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await shown(page.getByRole('heading', { name: 'Sync status' }));

    // From here on the service lies; the window is opened again so that it asks anew (what it
    // read while signing in is not kept).
    lying = true;
    await page.reload();
    await shown(page.getByRole('heading', { name: 'Sync status' }));
    await nav('Workspaces').click();
    const said = page.getByText('The service listed more than this window keeps', { exact: false });
    await shown(said);
    const rows = page.getByRole('list', { name: 'Workspaces' }).getByRole('listitem');
    const kept = await rows.count();
    expect(kept).toBeGreaterThan(0);
    expect(await said.textContent()).toContain(`only the first ${kept.toLocaleString('en')}`);
    // Said before the list: a person reads it without scrolling past every row.
    const saidTop = (await said.boundingBox())!.y;
    expect(saidTop).toBeLessThan((await rows.first().boundingBox())!.y);
    // The service was asked for the bound and a page, not the lie's 100,000.
    expect(served).toBeLessThan(LIE_STOP / 10);
    await shots(page, 'workspaces-list-cut', { ready: said });
  });
});
