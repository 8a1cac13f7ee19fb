import pLimit from 'p-limit';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { clientFor } from '../sync/harness';
import {
  type BridgeClient,
  screenshot,
  shots,
  shown,
  type Sandbox,
  openSession,
  type Session,
} from './harness';

// A pair mid-sync in the window: `cli ui --server` against a sandbox of the test's own, whose
// workspace has a folder of 200 small files (one archive) and a download limit that makes the
// pass last; the card shows the bar, items and bytes, the speed, the time left and the step in
// words. The test waits for those states, never for a duration; then lifts the limit and waits
// for "Up to date".

const FILES = 200;
const FILE_BYTES = 20_000;

let session: Session<'dir'>;
let sandbox: Sandbox;
let page: Page;
let api: BridgeClient;
let dir: string;

beforeAll(async () => {
  session = await openSession({
    dirs: { dir: 'ws-window-progress-' },
    timeout: 30_000,
    api: true,
    prepare: async (sandbox) => {
      // 200 files of 20 KB in one folder, through the API: fetched as one archive.
      const owner = sandbox!.users[0]!;
      const client = clientFor(sandbox!.baseUrl, { accessToken: owner.token });
      const root = await client.rootFolder(sandbox!.workspaceId);
      const big = await client.createFolder(sandbox!.workspaceId, root.id, 'Big');
      const limit = pLimit(8);
      await Promise.all(
        Array.from({ length: FILES }, (_, i) =>
          limit(() =>
            client.uploadFile(big.id, `photo ${i}.jpg`, () => [Buffer.alloc(FILE_BYTES, i % 251)]),
          ),
        ),
      );
    },
  });
  ({ page } = session);
  sandbox = session.sandbox!;
  api = session.api!;
  dir = session.dirs.dir;
}, 180_000);

afterAll(() => session?.close());

describe.sequential('a pair mid-sync, in Chromium', { timeout: 180_000 }, () => {
  it('shows the bar, items and bytes within their totals, speed, time left and the step in words', async () => {
    onTestFailed(() => screenshot(page, 'failed-progress'));
    // 100 KB/s: the archive's 4 MB take about 40 s, time for every check below.
    await api.call('settings.update', { downloadLimitKBps: 100 });
    const owner = sandbox.users[0]!;
    const account = await api.call('accounts.signInWithToken', {
      server: sandbox.baseUrl,
      token: owner.token,
    });
    await api.call('pairs.add', { accountId: account.id, workspaceId: sandbox.workspaceId, dir });
    await page.reload();

    const card = page.getByRole('article');
    const step = card.getByText(/Downloading \d[\d,]* files( of \S+)? in one archive/);
    await shown(step, 90_000);
    // The speed and the time left, once the engine can tell (a second of bytes).
    const pace = card.locator('.pace');
    await shown(pace.filter({ hasText: /\/s, about .+ left/ }), 60_000);

    const text = await card.locator('.progress p').innerText();
    const counts = /([\d,]+) of ([\d,]+) items · (.+) of (.+?) ·/.exec(text);
    expect(counts, text).not.toBeNull();
    const [done, total] = [counts![1]!, counts![2]!].map((n) => Number(n.replaceAll(',', '')));
    expect(done).toBeLessThanOrEqual(total!);
    // Every file of the archive is an item of the total.
    expect(total, text).toBeGreaterThanOrEqual(FILES);
    const bar = card.getByRole('progressbar', { name: 'Progress' });
    // Bytes have come (there is a speed): the bar has moved, and is not full.
    expect(Number(await bar.getAttribute('value'))).toBeGreaterThan(0);
    expect(Number(await bar.getAttribute('value'))).toBeLessThan(
      Number(await bar.getAttribute('max')),
    );

    await shots(page, 'progress', { ready: step });

    // Lifted at once for the transfer under way: the pass ends, the progress goes.
    await api.call('settings.update', { downloadLimitKBps: 0 });
    await shown(card.getByRole('status').filter({ hasText: 'Up to date' }), 120_000);
    expect(await card.locator('.progress').count()).toBe(0);
  });
});
