import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/main/api/client';
import { clientFor } from '../sync/harness';
import {
  type BridgeClient,
  shots,
  shown,
  type Sandbox,
  type Watched,
  openSession,
  type Session,
  screenshotOnFailure,
} from './harness';

// Issue 39, item 3: Keep theirs and Keep mine can be undone. Each moves a file to the sync's
// trash (docs/SYNC.md, Conflicts); a notice says so with Undo, which puts that file back from
// the trash, and it syncs as a new file. A real conflict on a sandbox of the test's own (changed
// here and on the service while the pair was paused), each state waited for.

let session: Session<'dir'>;
let sandbox: Sandbox;
let win: Watched;
let page: Page;
let api: BridgeClient;
let client: ServiceClient;
let dir: string;
let pairId: string;

const gone = (l: Locator, timeout?: number) => l.waitFor({ state: 'detached', timeout });
const card = () => page.getByRole('article');
const state = () => card().getByRole('status').first();

/** plan.txt changed on both sides while paused: the conflict's copy's name, once listed. */
async function conflict(mine: string, theirs: string): Promise<string> {
  await api.call('pairs.pause', { pairId });
  await shown(card().getByRole('status').filter({ hasText: 'Paused' }));
  writeFileSync(path.join(dir, 'plan.txt'), mine);
  const root = await client.rootFolder(sandbox.workspaceId);
  await client.uploadFile(root.id, 'plan.txt', () => [Buffer.from(theirs)]);
  await api.call('pairs.resume', { pairId });
  const copy = card().getByRole('button', { name: /^Show in folder: plan \(conflict .+\)\.txt$/ });
  await shown(copy, 120_000);
  return /^Show in folder: (.+)$/.exec((await copy.getAttribute('aria-label'))!)![1]!;
}

beforeAll(async () => {
  session = await openSession({
    dirs: { dir: 'ws-window-undo-' },
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
  const account = await api.call('accounts.signInWithToken', {
    server: sandbox.baseUrl,
    token: sandbox.users[0]!.token,
  });
  writeFileSync(path.join(dir, 'plan.txt'), 'first');
  pairId = (
    await api.call('pairs.add', { accountId: account.id, workspaceId: sandbox.workspaceId, dir })
  ).id;
  await page.reload();
  await shown(state().filter({ hasText: 'Up to date' }), 120_000);
}, 240_000);

afterAll(() => session?.close());

describe.sequential('Undo after a conflict’s choice', { timeout: 180_000 }, () => {
  screenshotOnFailure(() => page, 'undo');

  it('Keep theirs: Undo puts my copy back from the trash, and it syncs', async () => {
    const copyName = await conflict('mine', 'theirs');
    await card()
      .getByRole('button', { name: 'Keep theirs (the service’s version of plan.txt)' })
      .click();
    const undo = card().getByRole('button', { name: `Undo: put ${copyName} back from the Trash` });
    await shown(undo, 60_000);
    await shown(
      card()
        .getByRole('status')
        .filter({ hasText: 'Kept theirs for plan.txt: your copy is in the Trash.' }),
    );
    await expect.poll(() => existsSync(path.join(dir, copyName)), { timeout: 60_000 }).toBe(false);
    // Focus on the notice holds its time: the screenshots cannot outlast it.
    await undo.focus();
    await shots(page, 'undo-kept-theirs', { ready: undo });
    await undo.click();
    const back = path.join(dir, copyName);
    await shown(
      card()
        .getByRole('status')
        .filter({ hasText: `Put back from the Trash: ${back}. It syncs as a new file.` }),
    );
    await gone(undo);
    expect(readFileSync(back, 'utf8')).toBe('mine');
    expect(readFileSync(path.join(dir, 'plan.txt'), 'utf8')).toBe('theirs');
    await shots(page, 'undo-undone', { ready: card().getByText(/^Put back from the Trash/) });
    // On the service again, as a new file beside theirs.
    await expect
      .poll(
        async () => {
          const root = await client.rootFolder(sandbox.workspaceId);
          const names: string[] = [];
          for await (const e of client.folderContents(root.id))
            names.push(e.kind === 'folder' ? e.folder.filename : e.file.filename);
          return names;
        },
        { timeout: 60_000 },
      )
      .toContain(copyName);
  });

  it('Keep mine: Undo puts the replaced version back beside mine', async () => {
    await conflict('mine 2', 'theirs 2');
    await card().getByRole('button', { name: 'Keep mine (your version of plan.txt)' }).click();
    const undo = card().getByRole('button', { name: 'Undo: put plan.txt back from the Trash' });
    await shown(
      card()
        .getByRole('status')
        .filter({ hasText: 'Kept mine for plan.txt: the version it replaced is in the Trash.' }),
      60_000,
    );
    await undo.click();
    const back = path.join(dir, 'plan (2).txt');
    await shown(
      card()
        .getByRole('status')
        .filter({ hasText: `Put back from the Trash: ${back}. It syncs as a new file.` }),
    );
    expect(readFileSync(back, 'utf8')).toBe('theirs 2');
    expect(readFileSync(path.join(dir, 'plan.txt'), 'utf8')).toBe('mine 2');
  });

  it('in German', async () => {
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByLabel('Language').selectOption('de');
    await shown(page.getByRole('heading', { name: 'Einstellungen', level: 1 }));
    await page.getByRole('button', { name: 'Status', exact: true }).click();
    await api.call('pairs.pause', { pairId });
    await shown(card().getByRole('status').filter({ hasText: 'Pausiert' }));
    writeFileSync(path.join(dir, 'plan.txt'), 'mine 3');
    const root = await client.rootFolder(sandbox.workspaceId);
    await client.uploadFile(root.id, 'plan.txt', () => [Buffer.from('theirs 3')]);
    await api.call('pairs.resume', { pairId });
    const keepTheirs = card().getByRole('button', {
      name: 'Ihre behalten (die Version des Dienstes von plan.txt)',
    });
    await shown(keepTheirs, 120_000);
    await keepTheirs.click();
    const undo = card().getByRole('button', {
      name: /^Rückgängig: .+ aus dem Papierkorb zurücklegen$/,
    });
    await shown(
      card()
        .getByRole('status')
        .filter({ hasText: 'Die Version des Dienstes von plan.txt wurde behalten' }),
      60_000,
    );
    await undo.focus();
    await shots(page, 'undo-german', { ready: undo });
    await undo.click();
    await shown(
      card()
        .getByRole('status')
        .filter({ hasText: /^Aus dem Papierkorb zurückgelegt: / }),
    );
    expect(win.dialogs).toEqual([]);
  });
});
