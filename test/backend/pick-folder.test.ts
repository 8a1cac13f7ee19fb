import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError, MethodName, ResultOf } from '../../src/shared/app-api';
import { MemoryAccountStore } from '../../src/main/accounts/accounts';
import { MAX_FOLDERS } from '../../src/main/backend/pick-folder';
import type { RunningSandbox } from '../../src/service/sandbox';
import { translator } from '../../src/shared/i18n';
import { backendWithSandbox, type BackendWithSandbox } from './with-backend';

// The window's folder picker and the look at a chosen folder before pairs.add, on the real file
// system: a home folder of the test's own, links into and out of it, a file where a folder is
// wanted, a read-only folder, another pair's folder, a system path.

let t: BackendWithSandbox;
let sb: RunningSandbox;
let tmp: { dir: string; remove(): Promise<void> };
let home: string;
let ann: string;
/** The read-only bind mount to undo (root), or the folder whose mode to give back. */
let readOnly: { dir: string; mounted: boolean } | null = null;

const ok: BackendWithSandbox['ok'] = (method, params) => t.ok(method, params);

async function refused(method: MethodName, params: unknown): Promise<AppError> {
  const error = await t.refused(method, params);
  // One line (the shared check), no errno, no stack.
  expect(error.message).not.toMatch(/\bE[A-Z]{3,}\b/);
  return error;
}

const names = (r: ResultOf<'local.listFolders'>) => r.folders.map((f) => f.name);

beforeAll(async () => {
  t = await backendWithSandbox({
    seed: 'demo',
    prefix: 'pick-folder',
    user: 'ann@example.com',
    backend: (made) => {
      home = path.join(made.dir, 'home');
      for (const d of ['b', 'a', 'A2', 'a10', '.config', 'many', 'Documents/Notes'])
        mkdirSync(path.join(home, d), { recursive: true });
      for (let i = 0; i < MAX_FOLDERS + 10; i++) mkdirSync(path.join(home, 'many', `f${i}`));
      writeFileSync(path.join(home, 'notes.txt'), 'x');
      mkdirSync(path.join(made.dir, 'elsewhere', 'secret'), { recursive: true });
      symlinkSync(path.join(home, 'Documents'), path.join(home, 'docs-link'));
      symlinkSync(path.join(made.dir, 'elsewhere'), path.join(home, 'out-link'));
      symlinkSync(path.join(home, 'notes.txt'), path.join(home, 'file-link'));
      return { accounts: new MemoryAccountStore(), pollIntervalMs: 200, home };
    },
  });
  ({ sb, tmp, accountId: ann } = t);
});

afterAll(async () => {
  if (readOnly?.mounted) execFileSync('umount', [readOnly.dir]);
  else if (readOnly) chmodSync(readOnly.dir, 0o755);
  await t?.close();
});

describe('local.listFolders: the picker served to the browser', () => {
  it('lists the home folder: folders only, sorted as people read, no dot names, links inside home', async () => {
    const r = await ok('local.listFolders', { dir: '~' });
    expect(r.path).toBe(home);
    expect(r.home).toBe(home);
    expect(r.parent).toBeNull();
    expect(r.crumbs).toEqual([{ name: 'home', path: home }]);
    // No file, no link to a file, no link out of home, no .config.
    expect(names(r)).toEqual(['a', 'A2', 'a10', 'b', 'docs-link', 'Documents', 'many']);
    expect(r.folders[0]).toEqual({ name: 'a', path: path.join(home, 'a') });
    expect(r.truncated).toBe(false);
    expect(names(await ok('local.listFolders', { dir: '~', hidden: true }))).toContain('.config');
  });

  it('goes down and up, with breadcrumbs from home; a path under home works as well as ~', async () => {
    const r = await ok('local.listFolders', { dir: '~/Documents' });
    expect(names(r)).toEqual(['Notes']);
    expect(r.parent).toBe(home);
    expect(r.crumbs.map((c) => c.name)).toEqual(['home', 'Documents']);
    const deeper = await ok('local.listFolders', { dir: path.join(home, 'Documents', 'Notes') });
    expect(deeper.parent).toBe(path.join(home, 'Documents'));
    expect(deeper.crumbs.at(-1)).toEqual({
      name: 'Notes',
      path: path.join(home, 'Documents', 'Notes'),
    });
    // Through a link that stays inside home.
    expect(names(await ok('local.listFolders', { dir: '~/docs-link' }))).toEqual(['Notes']);
  });

  it('lists a bounded number of folders and says there were more', async () => {
    const r = await ok('local.listFolders', { dir: '~/many' });
    expect(r.folders).toHaveLength(MAX_FOLDERS);
    expect(r.truncated).toBe(true);
  });

  // Issue 38: the picker looked at 20,000 entries at most, files included, so a folder whose
  // first 20,000 entries (in the disk's order) were files showed no subfolder. With 40,000 files
  // and ten folders, the old bound hid some of them in all but one run in a thousand.
  it('finds the folders among 40,000 files', async () => {
    const crowded = path.join(home, 'crowded');
    mkdirSync(crowded);
    for (let i = 0; i < 40_000; i++) writeFileSync(path.join(crowded, `scan-${i}.txt`), '');
    const wanted = Array.from({ length: 10 }, (_, i) => `Folder ${i}`);
    for (const name of wanted) mkdirSync(path.join(crowded, name));
    const r = await ok('local.listFolders', { dir: '~/crowded' });
    expect(names(r)).toEqual(wanted);
    expect(r.truncated).toBe(false);
  });

  it('opens a folder not made yet at its nearest existing parent, when asked', async () => {
    expect((await refused('local.listFolders', { dir: '~/Workspace Sync/Q3' })).kind).toBe(
      'not-found',
    );
    const r = await ok('local.listFolders', { dir: '~/Workspace Sync/Q3', nearest: true });
    expect(r.path).toBe(home);
  });

  it("leaves the OS's folder dialog to the desktop app's main process", async () => {
    expect((await refused('local.chooseFolder', {})).kind).toBe('unsupported');
  });

  it('refuses paths outside home, links out of home, files and relative paths in one line', async () => {
    const outside = await refused('local.listFolders', { dir: tmp.dir });
    expect(outside).toMatchObject({
      kind: 'invalid',
      message: `${tmp.dir} is outside your home folder: choose a folder under ${home}.`,
    });
    expect((await refused('local.listFolders', { dir: '~/../' })).message).toMatch(
      /is outside your home folder/,
    );
    expect((await refused('local.listFolders', { dir: '~/out-link' })).message).toBe(
      `~/out-link is outside your home folder: choose a folder under ${home}.`,
    );
    expect(await refused('local.listFolders', { dir: '~/notes.txt' })).toMatchObject({
      kind: 'invalid',
      message: '~/notes.txt is a file, not a folder.',
    });
    expect((await refused('local.listFolders', { dir: 'Documents' })).message).toMatch(
      /^Choose the local folder by its full path/,
    );
  });
});

describe('local.checkFolder: what is wrong with a folder, before pairs.add', () => {
  const check = (dir: string) => ok('local.checkFolder', { dir });

  it('accepts a folder that can be created, and creates nothing', async () => {
    expect(await check('~/Workspace Sync/Q3 Planning')).toEqual({
      dir: path.join(home, 'Workspace Sync', 'Q3 Planning'),
      exists: false,
      problem: null,
    });
    expect(existsSync(path.join(home, 'Workspace Sync'))).toBe(false);
    expect(await check('~/Documents')).toEqual({
      dir: path.join(home, 'Documents'),
      exists: true,
      problem: null,
      uploads: { count: 1, more: false },
    });
  });

  it('says a file is in the way, for the folder or a parent', async () => {
    const file = path.join(home, 'notes.txt');
    expect((await check('~/notes.txt')).problem).toBe(
      `${file} is a file, not a folder: choose a folder.`,
    );
    expect((await check('~/notes.txt/Q3')).problem).toBe(
      `${file} is a file, not a folder: choose a folder.`,
    );
  });

  it('says a folder cannot be written to (a read-only mount, or no permission)', async () => {
    const dir = path.join(home, 'locked');
    mkdirSync(dir);
    if (process.getuid?.() === 0) {
      // root writes wherever chmod says no: a read-only bind mount refuses even root.
      execFileSync('mount', ['--bind', '-o', 'ro', dir, dir]);
      readOnly = { dir, mounted: true };
    } else {
      chmodSync(dir, 0o500);
      readOnly = { dir, mounted: false };
    }
    const problem = (await check('~/locked/Q3')).problem;
    expect(problem).toMatch(
      /locked\/Q3 (is on a read-only disk:|cannot be used: permission denied\.) [Cc]hoose a folder you can write to\./,
    );
    expect((await check('~/locked')).problem).toMatch(
      /locked (is on a read-only disk|cannot be used)/,
    );
  });

  it.skipIf(process.platform !== 'linux')('refuses a system path', async () => {
    expect((await check('/proc/self/Q3')).problem).toMatch(
      /^\/proc\/self\/Q3 is in a system folder/,
    );
  });

  it("refuses the home folder itself, /etc and the app's own state, in the check and pairs.add (issue 39)", async () => {
    const homeItself = `${home} is your home folder itself, which holds everything of yours: choose a folder inside it.`;
    expect((await check('~')).problem).toBe(homeItself);
    expect(
      await refused('pairs.add', { accountId: ann, workspaceId: sb.workspaceId, dir: '~' }),
    ).toMatchObject({ message: homeItself });
    if (process.platform === 'linux')
      expect((await check('/etc')).problem).toMatch(/^\/etc is in a system folder/);
    const state = path.join(tmp.dir, 'state');
    const inState = path.join(state, 'Q3');
    const own = `${inState} holds or is inside this app's own data (${state}): choose another folder.`;
    expect((await check(inState)).problem).toBe(own);
    expect(
      await refused('pairs.add', { accountId: ann, workspaceId: sb.workspaceId, dir: inState }),
    ).toMatchObject({ message: own });
    expect((await check(tmp.dir)).problem).toMatch(/holds or is inside this app's own data/);
  });

  it('counts what a first sync of an existing folder would upload, for the window to ask', async () => {
    // Documents holds the folder Notes.
    expect((await check('~/Documents')).uploads).toEqual({ count: 1, more: false });
    expect((await check('~/a')).uploads).toEqual({ count: 0, more: false });
    expect((await check('~/not-yet')).uploads).toBeUndefined();
  });

  it('refuses a relative path and an empty one, as data', async () => {
    expect((await check('Q3')).problem).toMatch(/^Choose the local folder by its full path/);
    expect((await check('  ')).problem).toBe('Choose a folder on this computer.');
  });

  it('pairs.add takes ~; a folder inside or around it, or a link to it, is then refused', async () => {
    const pair = await ok('pairs.add', {
      accountId: ann,
      workspaceId: sb.workspaceId,
      dir: '~/Synced',
    });
    expect(pair.dir).toBe(path.join(home, 'Synced'));
    const taken = `${path.join(home, 'Synced')} already syncs "Q3 Planning": choose a folder outside it.`;
    expect((await check('~/Synced/Reports')).problem).toBe(taken);
    expect((await check('~')).problem).toBe(taken);
    symlinkSync(path.join(home, 'Synced'), path.join(home, 'synced-alias'));
    expect((await check('~/synced-alias/x')).problem).toBe(taken);
    expect(
      await refused('pairs.add', {
        accountId: ann,
        workspaceId: sb.workspaceId,
        dir: '~/Synced/Reports',
      }),
    ).toMatchObject({ kind: 'conflict', message: taken });
    // Through the link too: pairs.add looks where the folder leads.
    expect(
      await refused('pairs.add', {
        accountId: ann,
        workspaceId: sb.workspaceId,
        dir: '~/synced-alias/x',
      }),
    ).toMatchObject({ kind: 'conflict', message: taken });
    expect(existsSync(path.join(home, 'Synced', 'x'))).toBe(false);
    // A German window says the refusal in German: the check and pairs.add send their words.
    const german = `${path.join(home, 'Synced')} synchronisiert bereits „Q3 Planning“: Wählen Sie einen Ordner außerhalb davon.`;
    const checked = await check('~/Synced/Reports');
    expect(checked.words && translator('de').say(checked.words)).toBe(german);
    const refusal = await refused('pairs.add', {
      accountId: ann,
      workspaceId: sb.workspaceId,
      dir: '~/Synced/Reports',
    });
    expect(refusal.words && translator('de').say(refusal.words)).toBe(german);
  });
});

describe('a German window gets German refusals (AppError.words)', () => {
  const german = (e: AppError) =>
    e.words ? translator('de').say(e.words) : `(English) ${e.message}`;

  it('says a file, a folder outside home, a relative path and an empty one in German', async () => {
    expect(german(await refused('local.listFolders', { dir: '~/notes.txt' }))).toBe(
      '~/notes.txt ist eine Datei, kein Ordner.',
    );
    expect(german(await refused('local.listFolders', { dir: tmp.dir }))).toBe(
      `${tmp.dir} liegt außerhalb Ihres persönlichen Ordners: Wählen Sie einen Ordner unter ${home}.`,
    );
    expect(german(await refused('local.listFolders', { dir: '~/nowhere' }))).toBe(
      '~/nowhere existiert nicht.',
    );
    const relative = await ok('local.checkFolder', { dir: 'Q3' });
    expect(relative.problem).toMatch(/^Choose the local folder by its full path/);
    expect(relative.words && translator('de').say(relative.words)).toBe(
      'Wählen Sie den lokalen Ordner mit seinem vollständigen Pfad (zum Beispiel ~/Q3 oder /home/ann/Q3).',
    );
    const empty = await ok('local.checkFolder', { dir: ' ' });
    expect(empty.words && translator('de').say(empty.words)).toBe(
      'Wählen Sie einen Ordner auf diesem Computer.',
    );
  });

  it('says a wrong call in German too: no such method, no name for a workspace', async () => {
    const none = await t.backend.call('no.such', {});
    expect(!none.ok && german(none.error)).toBe('Es gibt keine Methode „no.such“.');
    expect(german(await refused('workspaces.create', { accountId: ann, name: '  ' }))).toBe(
      'Geben Sie dem Arbeitsbereich einen Namen.',
    );
  });
});
