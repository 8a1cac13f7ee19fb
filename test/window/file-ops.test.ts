import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asUser,
  type BridgeClient,
  expectAccessible,
  shots,
  shown,
  type Sandbox,
  type Watched,
  openSession,
  type Session,
  screenshotOnFailure,
} from './harness';

// Browse as a file manager, item 1 of issue 42: `cli ui --server` against a sandbox of the
// test's own (its workspace not synced here: the operations go to the service). A Collaborator
// (Kenji) makes a folder, uploads by the button and by a drop from the computer, renames with
// F2, marks two files with Ctrl+click and moves them with Move to…, drags one onto a folder and
// deletes a folder after the dialog that says what the service does; each checked on the
// service. Then a Viewer (Vikram) is offered none of it, each disabled with its reason, a
// Creator (Chloé) may delete only what she added, and an Administrator (Ann) deletes with the
// keyboard. English and German, light and dark, both sizes,
// axe clean. Each state is waited for, never a duration.

const KENJI = { email: 'kenji@example.com', password: 'kenji-sandbox-pass' }; // Collaborator
const VIKRAM = { email: 'vikram@example.com', password: 'vikram-sandbox-pass' }; // Viewer
const ANN = { email: 'ann@example.com', password: 'ann-sandbox-pass' }; // Administrator
const CHLOE = { email: 'chloe@example.com', password: 'chloe-sandbox-pass' }; // Creator

let session: Session;
let sandbox: Sandbox;
let win: Watched;
let page: Page;
let api: BridgeClient;

const gone = (l: Locator) => l.waitFor({ state: 'detached' });
// The table's name is said in the window's language: the rows are found by their place.
const row = (name: string) => page.locator('.entries-body [role="row"]').filter({ hasText: name });
const nameButton = (name: string) => row(name).locator('button.name');
const status = () => page.locator('.edit-status');
const alert = () => page.locator('.browse-main .error[role="alert"]');
const switcher = () =>
  page.getByRole('navigation', { name: 'Main' }).getByLabel('Account shown', { exact: true });

/** What `email` sees at the top of the workspace, by name. */
async function rootNames(email: string): Promise<string[]> {
  const ws = await asUser<{ workspace: { root_folder_id: number } }>(
    sandbox,
    email,
    'GET',
    `/workspaces/${sandbox.workspaceId}`,
  );
  return namesIn(email, ws.workspace.root_folder_id);
}
async function namesIn(email: string, folderId: number): Promise<string[]> {
  const got = await asUser<{ items: Record<string, { filename: string }>[] }>(
    sandbox,
    email,
    'GET',
    `/folders/${folderId}`,
  );
  return got.items.map((i) => Object.values(i)[0]!.filename);
}
async function folderId(email: string, name: string): Promise<number> {
  const ws = await asUser<{ workspace: { root_folder_id: number } }>(
    sandbox,
    email,
    'GET',
    `/workspaces/${sandbox.workspaceId}`,
  );
  const got = await asUser<{ items: { folder?: { id: number; filename: string } }[] }>(
    sandbox,
    email,
    'GET',
    `/folders/${ws.workspace.root_folder_id}`,
  );
  return got.items.find((i) => i.folder?.filename === name)!.folder!.id;
}

/** The sandbox's faults (`/_sandbox/faults`): "" takes them off. */
async function faults(spec: string) {
  const res = await fetch(`${sandbox.baseUrl}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ spec }),
  });
  expect(res.ok).toBe(true);
}

async function signIn(who: { email: string; password: string }) {
  await shown(page.getByRole('heading', { name: 'Sign in to Workspace Sync' }));
  await page.getByLabel('Server address').fill(sandbox.baseUrl);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await shown(page.getByRole('heading', { name: 'Sync status' }));
}

async function openBrowse() {
  await page.getByRole('button', { name: 'Browse', exact: true }).click();
  await shown(row('README.txt'));
}

/** Shows the account `email` in the window (signed in through the bridge beforehand). */
async function show(who: { email: string; password: string }) {
  await api.call('accounts.signIn', { server: sandbox.baseUrl, ...who });
  // The window asks for its accounts when it opens.
  await page.reload();
  await shown(switcher());
  const option = switcher().locator('option', { hasText: who.email });
  await switcher().selectOption((await option.getAttribute('value'))!);
}

beforeAll(async () => {
  session = await openSession({ timeout: 20_000, api: true });
  ({ win, page } = session);
  sandbox = session.sandbox!;
  api = session.api!;
}, 180_000);

afterAll(() => session?.close());

describe.sequential('file operations in Browse, in Chromium', { timeout: 120_000 }, () => {
  screenshotOnFailure(() => page, 'file-ops');

  it('a Collaborator makes a folder; a name taken is said in words', async () => {
    await signIn(KENJI);
    await openBrowse();
    await page.getByRole('button', { name: 'New folder' }).click();
    const dialog = page.getByRole('dialog', { name: 'New folder in Q3 Planning' });
    await dialog.getByLabel('Folder name').fill('Board Pack');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await gone(dialog);
    await shown(row('Board Pack'));
    await shown(status().getByText('Folder Board Pack created.'));
    expect(await rootNames(KENJI.email)).toContain('Board Pack');

    await page.getByRole('button', { name: 'New folder' }).click();
    await dialog.getByLabel('Folder name').fill('board pack');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await shown(
      alert().getByText('The name board pack is already taken in this folder: choose another.'),
    );
    // An empty name is refused in the dialog, before anything is sent.
    await page.getByRole('button', { name: 'New folder' }).click();
    await dialog.getByRole('button', { name: 'Create' }).click();
    await shown(dialog.getByRole('alert').getByText('Type a name.'));
    await shots(page, 'file-ops-new-folder', { ready: dialog });
    await page.keyboard.press('Escape');
    await gone(dialog);
  });

  it('uploads by the button and by a drop from the computer, with progress', async () => {
    // The service slowed down (every request 1.5 s later), so the progress stays in view while
    // the first file goes to the service; it is waited for, and the slowing taken off.
    await faults('latency=1500-1500');
    await page.getByTestId('upload-input').setInputFiles([
      { name: 'agenda.txt', mimeType: 'text/plain', buffer: Buffer.from('1. Budget\n2. Hires\n') },
      { name: 'minutes.txt', mimeType: 'text/plain', buffer: Buffer.alloc(1_300_000, 'm') },
    ]);
    const progress = page.getByRole('progressbar', { name: /^Uploading agenda\.txt \(1\/2\): / });
    await shown(progress);
    await faults('');
    await shown(status().getByText('Uploaded 2 files.'));
    await gone(progress);
    await shown(row('agenda.txt'));
    await shown(row('minutes.txt'));
    // A drop of the computer's files onto the list: the browser's own DataTransfer.
    // (A string: the test's types have no DOM.)
    const files = await page.evaluateHandle(`(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(['dropped bytes'], 'dropped.txt', { type: 'text/plain' }));
      return dt;
    })()`);
    const area = page.locator('.browse-main');
    await area.dispatchEvent('dragover', { dataTransfer: files });
    await shown(page.getByText('Drop files to upload them to Q3 Planning'));
    await area.dispatchEvent('drop', { dataTransfer: files });
    await shown(status().getByText('Uploaded 1 file.'));
    await shown(row('dropped.txt'));
    const names = await rootNames(KENJI.email);
    expect(names).toEqual(expect.arrayContaining(['agenda.txt', 'minutes.txt', 'dropped.txt']));
  });

  it('uploads a folder with what it holds, its folders made on the service', async () => {
    const top = mkdtempSync(path.join(tmpdir(), 'ws-file-ops-'));
    try {
      const scans = path.join(top, 'Scans');
      mkdirSync(path.join(scans, 'inner'), { recursive: true });
      writeFileSync(path.join(scans, 'page 1.txt'), 'first page');
      writeFileSync(path.join(scans, 'inner', 'page 2.txt'), 'second page');
      await page.getByTestId('upload-folder-input').setInputFiles(scans);
      await shown(status().getByText('Uploaded 2 files.'));
      await shown(row('Scans'));
      const inScans = await namesIn(KENJI.email, await folderId(KENJI.email, 'Scans'));
      expect(inScans.sort()).toEqual(['inner', 'page 1.txt']);
      // Again: the folders there are used (no "name taken"), the files become new versions.
      // (A third file: this upload's outcome is told from the last one's.)
      writeFileSync(path.join(scans, 'page 1.txt'), 'first page, second version');
      writeFileSync(path.join(scans, 'inner', 'page 3.txt'), 'third page');
      await page.getByTestId('upload-folder-input').setInputFiles(scans);
      await shown(status().getByText('Uploaded 3 files.'));
      expect(await alert().count()).toBe(0);
      expect((await namesIn(KENJI.email, await folderId(KENJI.email, 'Scans'))).sort()).toEqual([
        'inner',
        'page 1.txt',
      ]);
    } finally {
      rmSync(top, { recursive: true, force: true });
    }
  });

  it('renames with F2', async () => {
    await nameButton('agenda.txt').focus();
    await page.keyboard.press('F2');
    const dialog = page.getByRole('dialog', { name: 'Rename agenda.txt' });
    const field = dialog.getByLabel('New name');
    expect(await field.inputValue()).toBe('agenda.txt');
    await field.fill('agenda (final).txt');
    await page.keyboard.press('Enter');
    await gone(dialog);
    await shown(status().getByText('Renamed to agenda (final).txt.'));
    await shown(row('agenda (final).txt'));
    expect(await rootNames(KENJI.email)).toContain('agenda (final).txt');
  });

  it('marks two files with Ctrl+click and moves them with Move to…', async () => {
    await row('agenda (final).txt')
      .locator('.num')
      .click({ modifiers: ['Control'] });
    await row('minutes.txt')
      .locator('.num')
      .click({ modifiers: ['Control'] });
    const bar = page.getByRole('group', { name: '2 items selected' });
    await shown(bar);
    expect(await row('minutes.txt').getByRole('checkbox').isChecked()).toBe(true);
    await shots(page, 'file-ops-marked', { ready: bar });
    await bar.getByRole('button', { name: 'Move to…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move 2 items' });
    const list = dialog.getByRole('listbox', { name: 'Folders in Q3 Planning' });
    await list.getByRole('option', { name: 'Board Pack' }).click();
    await shots(page, 'file-ops-move', {
      ready: dialog.getByRole('option', { name: 'Board Pack' }),
    });
    await dialog.getByRole('button', { name: 'Move to Board Pack' }).click();
    await gone(dialog);
    await shown(status().getByText('Moved 2 items to Board Pack.'));
    await gone(row('minutes.txt'));
    await gone(bar);
    const inPack = await namesIn(KENJI.email, await folderId(KENJI.email, 'Board Pack'));
    expect(inPack.sort()).toEqual(['agenda (final).txt', 'minutes.txt']);
  });

  it('moves a file by dragging it onto a folder', async () => {
    expect(await row('dropped.txt').getAttribute('draggable')).toBe('true');
    await row('dropped.txt').locator('.num').dragTo(row('Board Pack').locator('.num'));
    await shown(status().getByText('Moved 1 item to Board Pack.'));
    await gone(row('dropped.txt'));
    const inPack = await namesIn(KENJI.email, await folderId(KENJI.email, 'Board Pack'));
    expect(inPack).toContain('dropped.txt');
  });

  it('deletes from the item menu after a dialog that says what the service does', async () => {
    await row('Board Pack').click({ button: 'right', position: { x: 400, y: 10 } });
    const menu = page.getByRole('menu', { name: 'Actions for Board Pack' });
    await menu.getByRole('menuitem', { name: 'Delete…' }).click();
    const dialog = page.getByRole('alertdialog').or(page.getByRole('dialog'));
    await shown(dialog.getByText(/deleted on the service for everyone in the workspace/));
    await shown(dialog.getByText(/The service keeps no trash/));
    // Cancel has the focus: nothing irreversible in one key press.
    expect(
      await dialog
        .getByRole('button', { name: 'Cancel' })
        .evaluate(
          (b) =>
            (b as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement === b,
        ),
    ).toBe(true);
    await shots(page, 'file-ops-delete', { ready: dialog });
    await dialog.getByRole('button', { name: 'Delete on the service' }).click();
    await shown(status().getByText('Deleted 1 item.'));
    await gone(row('Board Pack'));
    expect(await rootNames(KENJI.email)).not.toContain('Board Pack');
  });

  it('in German', async () => {
    await api.call('settings.update', { language: 'de' });
    await shown(page.getByRole('button', { name: 'Neuer Ordner' }));
    // What the last operation said is said again in the new language.
    await shown(status().getByText('1 Element gelöscht.'));
    await row('README.txt')
      .locator('.num')
      .click({ modifiers: ['Control'] });
    const bar = page.getByRole('group', { name: '1 Element ausgewählt' });
    await shown(bar);
    await shots(page, 'file-ops-de', { ready: bar });
    await bar.getByRole('button', { name: 'Löschen…' }).click();
    const dialog = page.getByRole('dialog', { name: 'README.txt löschen?' });
    await shown(dialog.getByText(/Der Dienst hat keinen Papierkorb/));
    await shots(page, 'file-ops-delete-de', { ready: dialog });
    await dialog.getByRole('button', { name: 'Abbrechen' }).click();
    await gone(dialog);
    await bar.getByRole('button', { name: 'Auswahl aufheben' }).click();
    await api.call('settings.update', { language: 'en' });
    await shown(page.getByRole('button', { name: 'New folder' }));
  });

  it('a Viewer is offered nothing that changes, each disabled with its reason', async () => {
    await show(VIKRAM);
    await page.getByRole('button', { name: 'Browse', exact: true }).click();
    await shown(row('README.txt'));
    const reason =
      'Your role here (Viewer) may not add files or folders: ask an administrator for Creator or above.';
    const upload = page.getByRole('button', { name: 'Upload files' });
    await expect.poll(() => upload.getAttribute('title')).toBe(reason);
    expect(await upload.getAttribute('aria-disabled')).toBe('true');
    expect(await page.getByRole('button', { name: 'New folder' }).getAttribute('title')).toBe(
      reason,
    );
    // Clicking a disabled button opens nothing (it stays focusable, so its reason is read).
    await page.getByRole('button', { name: 'New folder' }).click({ force: true });
    expect(await page.getByRole('dialog').count()).toBe(0);
    // Rows are not dragged (a move) where the role allows no move.
    expect(await row('README.txt').getAttribute('draggable')).toBe(null);
    // F2 opens no rename; the menu has the three, disabled, with the reason.
    await nameButton('README.txt').focus();
    await page.keyboard.press('F2');
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.keyboard.press('Shift+F10');
    const menu = page.getByRole('menu', { name: 'Actions for README.txt' });
    const change =
      'Your role here (Viewer) may not rename, move or delete: ask an administrator for Collaborator or above.';
    for (const name of ['Rename…', 'Move to…', 'Delete…']) {
      const item = menu.getByRole('menuitem', { name });
      expect(await item.getAttribute('aria-disabled')).toBe('true');
      expect(await item.getAttribute('title')).toBe(change);
    }
    await page.keyboard.press('Escape');
    await gone(menu);
    // The menu opened at each size (a menu stays where it opened when the window is resized).
    await shots(page, 'file-ops-viewer', {
      ready: async () => {
        await nameButton('README.txt').focus();
        await page.keyboard.press('Shift+F10');
        await shown(menu);
      },
      after: async () => {
        await page.keyboard.press('Escape');
        await gone(menu);
      },
      axe: 'shot',
    });
    await expectAccessible(page, 'file operations, Viewer');
  });

  it('a Creator may add, and delete only what they added', async () => {
    await show(CHLOE);
    await page.getByRole('button', { name: 'Browse', exact: true }).click();
    await shown(row('README.txt'));
    const newFolder = page.getByRole('button', { name: 'New folder' });
    await expect.poll(() => newFolder.getAttribute('title')).toBe(null);
    expect(await newFolder.getAttribute('aria-disabled')).toBe(null);
    const menuOf = async (name: string) => {
      await row(name).click({ button: 'right', position: { x: 400, y: 10 } });
      return page.getByRole('menu', { name: `Actions for ${name}` });
    };
    // Ann's folder: no delete, and why.
    let menu = await menuOf('Reports');
    const remove = menu.getByRole('menuitem', { name: 'Delete…' });
    expect(await remove.getAttribute('aria-disabled')).toBe('true');
    expect(await remove.getAttribute('title')).toBe(
      'Your role here (Creator) may delete only what you added: ask an administrator for Collaborator or above.',
    );
    expect(
      await menu.getByRole('menuitem', { name: 'Rename…' }).getAttribute('aria-disabled'),
    ).toBe('true');
    await page.keyboard.press('Escape');
    await gone(menu);
    // Her own folder: a delete, asked first.
    menu = await menuOf('Café Meetings');
    const own = menu.getByRole('menuitem', { name: 'Delete…' });
    expect(await own.getAttribute('aria-disabled')).toBe(null);
    await own.click();
    const dialog = page.getByRole('dialog', { name: 'Delete Café Meetings?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await gone(dialog);
  });

  it('an Administrator deletes two files marked with the keyboard', async () => {
    await show(ANN);
    await page.getByRole('button', { name: 'Browse', exact: true }).click();
    await shown(row('README.txt'));
    // Ctrl+Space marks the focused row, Shift+Down adds the next one.
    await nameButton('Team Photos').focus();
    await page.keyboard.press('Control+Space');
    await page.keyboard.press('Shift+ArrowDown');
    const bar = page.getByRole('group', { name: '2 items selected' });
    await shown(bar);
    await page.keyboard.press('Delete');
    const dialog = page.getByRole('dialog', { name: 'Delete 2 items?' });
    await shown(dialog);
    await dialog.getByRole('button', { name: 'Delete on the service' }).click();
    await shown(status().getByText('Deleted 2 items.'));
    const left = await rootNames(ANN.email);
    expect(left.filter((n) => /Team Photos|README/.test(n))).toEqual([]);
    expect(win.dialogs).toEqual([]);
  });
});
