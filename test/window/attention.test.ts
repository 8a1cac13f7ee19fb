import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import type { ServiceClient } from '../../src/main/api/client';
import { clientFor } from '../sync/harness';
import {
  type BridgeClient,
  expectAccessible,
  screenshot,
  shots,
  shown,
  type Sandbox,
  type Watched,
  openSession,
  type Session,
} from './harness';

// Conflicts and problems in the window: `cli ui --server` against a sandbox of the test's own; a
// real conflict (a file changed here and on the service while the pair was paused) and a real
// problem (a name that is not valid UTF-8). The card says the pair needs attention and offers
// each choice; Keep theirs settles the conflict and Dismiss the problem, and the card is up to
// date again. Each state waited for, never a duration.

let session: Session<'dir'>;
let sandbox: Sandbox;
let win: Watched;
let page: Page;
let api: BridgeClient;
let client: ServiceClient;
let dir: string;

const gone = (l: Locator, timeout?: number) => l.waitFor({ state: 'detached', timeout });

beforeAll(async () => {
  session = await openSession({
    dirs: { dir: 'ws-window-attention-' },
    timeout: 30_000,
    api: true,
    prepare: (sandbox) => {
      client = clientFor(sandbox!.baseUrl, { accessToken: sandbox!.users[0]!.token });
    },
  });
  ({ win, page } = session);
  sandbox = session.sandbox!;
  api = session.api!;
  dir = session.dirs.dir;
}, 180_000);

afterAll(() => session?.close());

describe.sequential(
  'a conflict and a problem in the card, in Chromium',
  { timeout: 180_000 },
  () => {
    it('needs attention, offers each choice, and Keep theirs and Dismiss settle them', async () => {
      onTestFailed(() => screenshot(page, 'failed-attention'));
      const owner = sandbox.users[0]!;
      const account = await api.call('accounts.signInWithToken', {
        server: sandbox.baseUrl,
        token: owner.token,
      });
      writeFileSync(path.join(dir, 'Budget.txt'), 'the first budget');
      const pair = await api.call('pairs.add', {
        accountId: account.id,
        workspaceId: sandbox.workspaceId,
        dir,
      });
      await page.reload();
      const card = page.getByRole('article');
      const state = card.getByRole('status');
      await shown(state.filter({ hasText: 'Up to date' }), 120_000);

      // Changed here and on the service while paused: a conflict once syncing resumes.
      await api.call('pairs.pause', { pairId: pair.id });
      await shown(state.filter({ hasText: 'Paused' }));
      writeFileSync(path.join(dir, 'Budget.txt'), 'my budget');
      const root = await client.rootFolder(sandbox.workspaceId);
      await client.uploadFile(root.id, 'Budget.txt', () => [Buffer.from('their budget')]);
      // A name that is not valid UTF-8: a problem, never sent.
      writeFileSync(
        Buffer.from([...Buffer.from(dir + '/Notes '), 0xff, ...Buffer.from('.txt')]),
        'x',
      );
      await api.call('pairs.resume', { pairId: pair.id });

      const keepTheirs = card.getByRole('button', {
        name: 'Keep theirs (the service’s version of Budget.txt)',
      });
      await shown(keepTheirs, 120_000);
      const dismiss = card.getByRole('button', {
        name: 'Dismiss the problem with Notes \uFFFD.txt',
      });
      await shown(dismiss, 60_000);
      await shown(state.filter({ hasText: 'Needs your attention' }));
      await shown(state.filter({ hasText: '1 conflict and 1 problem to look at' }));
      for (const name of [
        'Keep mine (your version of Budget.txt)',
        'Keep both versions of Budget.txt',
        'Open Budget.txt',
        'Retry Notes \uFFFD.txt',
      ])
        await shown(card.getByRole('button', { name }));
      const copy = card.getByRole('button', {
        name: /^Show in folder: Budget \(conflict .+\)\.txt$/,
      });
      await shown(copy);
      const copyName = /^Show in folder: (.+)$/.exec((await copy.getAttribute('aria-label'))!)![1]!;
      await shown(card.getByRole('button', { name: `Open ${copyName}` }));

      await shots(page, 'attention', { ready: keepTheirs });

      // Keep theirs: the copy goes to the trash here and from the service; the entry leaves.
      await keepTheirs.click();
      await gone(keepTheirs, 60_000);
      expect(existsSync(path.join(dir, copyName))).toBe(false);
      await shown(state.filter({ hasText: '1 problem to look at' }), 60_000);
      // Dismiss: up to date again, the problem counted as dismissed.
      await dismiss.click();
      await gone(dismiss);
      await shown(state.filter({ hasText: 'Up to date' }), 60_000);
      await shown(card.getByText('1 dismissed problem is not shown.'));
      await expectAccessible(page, 'attention settled');
      expect(win.dialogs).toEqual([]);
      expect(win.errors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
    });
  },
);
