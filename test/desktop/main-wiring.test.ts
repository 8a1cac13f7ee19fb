import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { IpcChannel, type Account, type Entry, type SyncPair } from '../../src/shared/app-api';
import { startDesktop } from '../../src/main/app';
import type { EngineProcess } from '../../src/main/engine-process';
import { silentLogger } from '../../src/main/sync/ports';
import { defaultProfile, openPairJournal } from '../../src/main/engine';
import { clientFor, tokenOf } from '../sync/harness';
import { signInOnPage } from '../cli/oauth-page';
import { cliEnv, requirePrivateKeyring, runCli } from '../cli/run-cli';
import {
  BrowserWindow,
  clipboard,
  dialog,
  fake,
  ipcMain,
  protocol,
  shell,
  type FakeMenuItem,
  type Tray,
} from './fake-electron';

// The main process's wiring under plain Node: Electron is the fake module, everything else is
// real: the engine host runs in a child process (as the utility process would), against a real
// sandbox over HTTP, a real state directory, a real sync folder.

const root = path.resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
let sb: RunningSandbox;
let stateDir: string;
let syncDir: string;
let host: ChildProcess | null = null;
let hostExit: Promise<number | null>;
const savedConfigHome = process.env.XDG_CONFIG_HOME;

let forks = 0;
const forkHost = (): EngineProcess => {
  forks++;
  const child = fork(path.join(root, 'src/main/host/index.ts'), [], {
    execArgv: ['--import', 'tsx'],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // This file's own keychain service, in the private keyring only (never the developer's).
    env: cliEnv(),
  });
  host = child;
  hostExit = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  fake.changed();
  return {
    post: (m) => void child.send(m),
    onMessage: (listener) => child.on('message', (m) => listener(m as never)),
    onExit: (listener) => child.on('exit', (code) => listener(code ?? 1)),
    kill: () => void child.kill(),
  };
};

const window = () => BrowserWindow.all[0]!;
const tray = (): Tray => fake.trays[0]!;
const menuLabels = () => (tray().menu?.items ?? []).map((i) => i.label ?? '—');

type Reply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: { kind: string; message: string } };

/** A call as the preload makes it, from `sender` (our window unless a test says otherwise). */
async function invoke(
  method: string,
  params: unknown,
  from: { sender: unknown; senderFrame: unknown } = {
    sender: window().webContents,
    senderFrame: window().webContents.mainFrame,
  },
): Promise<Reply> {
  const handler = ipcMain.handlers.get(IpcChannel.call)!;
  return (await handler(from, 7, method, params)) as Reply;
}

async function call<T>(method: string, params: unknown): Promise<T> {
  const reply = await invoke(method, params);
  if (!reply.ok) throw new Error(`${method}: ${reply.error.message}`);
  return reply.result as T;
}

beforeAll(async () => {
  requirePrivateKeyring();
  sb = await startSandbox({ seed: 'demo' });
  stateDir = await make('ws-desktop-state-');
  syncDir = await make('ws-desktop-sync-');
  process.env.XDG_CONFIG_HOME = await make('ws-desktop-config-');
});

async function make(prefix: string): Promise<string> {
  const d = await mkdtemp(path.join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}
const newDir = () => make('ws-desktop-other-');

afterAll(async () => {
  host?.kill();
  await sb?.close();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
  if (savedConfigHome === undefined) delete process.env.XDG_CONFIG_HOME;
  else process.env.XDG_CONFIG_HOME = savedConfigHome;
});

describe('the desktop main process', () => {
  let account: Account;

  it('a second launch hands its arguments to the first and quits', () => {
    fake.app.locked = false;
    // Issue 38, attack 9: Electron's shell starts xdg-open, the browser and the file manager with
    // the main process's environment, so the secrets leave it at once.
    process.env.WORKSPACE_SYNC_TOKEN = 'exported-token';
    process.env.WORKSPACE_SYNC_CLIENT_SECRET = 'exported-secret';
    const started = startDesktop({
      argv: ['/opt/ws', '--copy-link', 'notes.txt'],
      cwd: '/home/ann',
      stateDir: '/nowhere',
      version: '1',
      verbose: false,
      paths: { preload: '/p', renderer: '/r/index.html', trayIcons: '/t' },
      forkEngine: () => {
        throw new Error('a second instance must not start an engine');
      },
      log: silentLogger,
    });
    expect(started).toBe(false);
    expect(fake.app.lockData).toEqual({
      argv: ['/opt/ws', '--copy-link', 'notes.txt'],
      cwd: '/home/ann',
    });
    expect(fake.app.quitCalls).toBe(1);
    expect(process.env.WORKSPACE_SYNC_TOKEN).toBeUndefined();
    expect(process.env.WORKSPACE_SYNC_CLIENT_SECRET).toBeUndefined();
    fake.app.locked = true;
  });

  it('starts one window, the tray and the engine host', async () => {
    const started = startDesktop({
      argv: ['/opt/ws'],
      cwd: root,
      stateDir,
      version: '1.2.3',
      verbose: false,
      paths: {
        preload: path.join(root, 'out/preload/index.cjs'),
        renderer: path.join(stateDir, 'renderer', 'index.html'),
        trayIcons: path.join(root, 'assets/tray'),
      },
      forkEngine: forkHost,
      log: silentLogger,
      othersPollMs: 100,
      noticeQuietMs: 50,
      stopTimeoutMs: 20_000,
    });
    expect(started).toBe(true);
    fake.app.makeReady();
    await fake.until(() => BrowserWindow.all.length === 1 && window().visible, 'the window');
    expect(window().options).toMatchObject({
      webPreferences: { sandbox: true, contextIsolation: true },
    });
    // Through the app:// protocol (never file://), served from the renderer's folder only.
    expect(window().loaded).toBe('app://workspace-sync/index.html');
    expect(protocol.privileged).toEqual([
      { scheme: 'app', privileges: { standard: true, secure: true, corsEnabled: true } },
    ]);
    expect(protocol.handlers.has('app')).toBe(true);
    await fake.until(() => fake.trays.length === 1 && tray().menu, 'the tray');
    expect(tray().image.file).toBe(path.join(root, 'assets/tray/idle.png'));
    expect(menuLabels()).toContain('Quit Workspace Sync');
    const info = await call<{ desktop: boolean; version: string; platform: string }>(
      'app.info',
      {},
    );
    expect(info).toMatchObject({ desktop: true, version: '1.2.3', platform: 'linux' });
  });

  it('answers only its own window: other senders, frames and pages are refused', async () => {
    const other = new BrowserWindow({});
    const fromOther = await invoke(
      'app.info',
      {},
      {
        sender: other.webContents,
        senderFrame: other.webContents.mainFrame,
      },
    );
    expect(fromOther).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    const subFrame = { url: window().webContents.mainFrame.url };
    expect(
      await invoke('app.info', {}, { sender: window().webContents, senderFrame: subFrame }),
    ).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    const frame = window().webContents.mainFrame;
    const url = frame.url;
    frame.url = 'https://evil.example/';
    expect(await invoke('app.info', {})).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    frame.url = url;
    expect(await invoke('no.such', {})).toMatchObject({ ok: false, error: { kind: 'invalid' } });
    expect(await invoke('accounts.signIn', { server: 42 })).toMatchObject({
      ok: false,
      error: { kind: 'invalid' },
    });
  });

  it("Choose... opens the OS's folder dialog over the window, at the default folder; Cancel is null", async () => {
    dialog.folders.push('/home/ann/Q3', null);
    expect(await call('local.chooseFolder', { startAt: '~/Workspace Sync/Q3' })).toEqual({
      dir: '/home/ann/Q3',
    });
    const opened = dialog.opened.at(-1)!;
    expect(opened.parent).toBe(window());
    expect(opened.options.properties).toEqual(['openDirectory', 'createDirectory']);
    expect(opened.options.defaultPath).toBe(path.join(homedir(), 'Workspace Sync', 'Q3'));
    expect(await call('local.chooseFolder', {})).toEqual({ dir: null });
    // Only our window may open it.
    const other = new BrowserWindow({});
    const count = dialog.opened.length;
    expect(
      await invoke(
        'local.chooseFolder',
        {},
        { sender: other.webContents, senderFrame: other.webContents.mainFrame },
      ),
    ).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    expect(dialog.opened).toHaveLength(count);
  });

  // Issue 39, item 4: in the app a zip is saved where the OS's save dialog says.
  it("Download as zip asks the OS's save dialog over the window, at Downloads; Cancel is null", async () => {
    dialog.savePaths.push('/home/ann/Downloads/Q3 report.zip', null);
    expect(await call('local.chooseZipFile', { name: 'Reports / 2026' })).toEqual({
      path: '/home/ann/Downloads/Q3 report.zip',
    });
    const asked = dialog.saved.at(-1)!;
    expect(asked.parent).toBe(window());
    expect(asked.options.defaultPath).toBe('/home/fake/Downloads/Reports - 2026.zip');
    expect(asked.options.filters).toEqual([{ name: 'Zip archives', extensions: ['zip'] }]);
    expect(await call('local.chooseZipFile', { name: 'Reports' })).toEqual({ path: null });
  });

  it('signs in, syncs a workspace, and the tray follows the engine to "Up to date"', async () => {
    const owner = sb.users[0]!;
    account = await call<Account>('accounts.signIn', {
      server: sb.baseUrl,
      email: owner.email,
      password: owner.password,
    });
    await call<SyncPair>('pairs.add', {
      accountId: account.id,
      workspaceId: sb.workspaceId,
      dir: syncDir,
    });
    await fake.until(
      () => tray().tooltip === 'Workspace Sync: Up to date' && menuLabels().includes('Open folder'),
      'the tray to say Up to date',
    );
    expect(readdirSync(syncDir).length).toBeGreaterThan(0);
    // The CLI finds the account the app added, in the same keychain, from another state folder.
    const cli = await runCli(['workspaces', '--server', sb.baseUrl, '--state', await newDir()]);
    expect(cli.stderr).toBe('');
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain('Q3 Planning');
    // The window got the engine's status pushes.
    expect(
      window().webContents.sent.some((s) => (s.data as { event: string }).event === 'pair-status'),
    ).toBe(true);
  });

  // Issue 39, item 4: the app's Open folder and Open logs told nothing when the shell failed.
  it("Open folder and Open logs answer the shell's refusal, in words with the place", async () => {
    const [pair] = await call<SyncPair[]>('pairs.list', {});
    shell.refusals.push('Failed to open path');
    expect(await invoke('pairs.openFolder', { pairId: pair!.id })).toMatchObject({
      ok: false,
      error: {
        kind: 'unsupported',
        message: `The system could not open ${syncDir} (Failed to open path): open it in your file manager, or set a default program for it.`,
      },
    });
    expect(shell.paths.at(-1)).toBe(syncDir);
    shell.refusals.push('No application is associated');
    const logs = await invoke('app.openLogs', {});
    expect(logs).toMatchObject({ ok: false, error: { kind: 'unsupported' } });
    expect(logs.ok ? '' : logs.error.message).toMatch(
      /^The system could not open the logs folder \(No application is associated\): the logs are in /,
    );
    // Opened: done, and only then.
    expect(await invoke('pairs.openFolder', { pairId: pair!.id })).toMatchObject({
      ok: true,
      result: null,
    });
    // The tray's Open folder has no window: a notice says it.
    shell.refusals.push('Failed to open path');
    const before = fake.notifications.length;
    tray().menu!.items.find((i: FakeMenuItem) => i.label === 'Open folder')!.click!();
    const notice = await fake.until(
      () => fake.notifications.slice(before).find((n) => n.options.title !== ''),
      'a notice of the folder not opened',
    );
    expect(notice.options).toMatchObject({
      title: 'The folder was not opened',
      body: `The system could not open ${syncDir} (Failed to open path): open it in your file manager, or set a default program for it.`,
    });
  });

  it('"Sign in with your browser" opens the system browser and gets the code back on loopback', async () => {
    const before = shell.external.length;
    const pending = invoke('accounts.signInWithBrowser', { server: sb.baseUrl });
    const url = await fake.until(
      () => shell.external.slice(before).find((u) => u.includes('/oauth/authorize')),
      'the system browser to be opened',
    );
    expect(new URL(url).searchParams.get('code_challenge_method')).toBe('S256');
    await signInOnPage(url, 'moritz@example.com', 'moritz-sandbox-pass');
    expect(await pending).toMatchObject({ ok: true, result: { email: 'moritz@example.com' } });
    await call('accounts.signOut', { accountId: `${sb.baseUrl}#moritz@example.com` });
  });

  async function aSyncedFile(): Promise<Entry> {
    const ws = (
      await call<{ items: { id: number; rootFolderId: number }[] }>('workspaces.list', {
        accountId: account.id,
      })
    ).items.find((w) => w.id === sb.workspaceId)!;
    const contents = await call<{ items: Entry[] }>('folders.contents', {
      accountId: account.id,
      folderId: ws.rootFolderId,
    });
    const file = contents.items.find(
      (e) => e.kind === 'file' && existsSync(path.join(syncDir, e.name)),
    );
    expect(file).toBeDefined();
    return file!;
  }

  it('copies a link from the window onto the clipboard', async () => {
    const file = await aSyncedFile();
    const { text } = await call<{ text: string }>('links.copy', {
      accountId: account.id,
      kind: 'file',
      itemId: file.id,
    });
    expect(clipboard.readText()).toBe(text);
    expect(text).toMatch(/^https?:\/\//);
  });

  it('puts Copy diagnostics on the clipboard, with the versions and no email', async () => {
    clipboard.writeText('');
    const { text } = await call<{ text: string }>('app.diagnostics', { includeNames: false });
    expect(clipboard.readText()).toBe(text);
    expect(text).toMatch(/^Workspace Sync \S+\n/);
    expect(text).not.toContain(account.email);
  });

  it("copies a synced file's link for a second launch's --copy-link, and says so", async () => {
    clipboard.writeText('');
    const file = await aSyncedFile();
    const link = await call<{ url: string }>('links.get', {
      accountId: account.id,
      kind: 'file',
      itemId: file.id,
    });
    const before = fake.notifications.length;
    fake.app.emit('second-instance', {}, ['/opt/ws', '--copy-link', file.name], syncDir, {
      argv: ['/opt/ws', '--copy-link', file.name],
      cwd: syncDir,
    });
    const notice = await fake.until(
      () => fake.notifications.slice(before).find((n) => n.options.title === 'Link copied'),
      'the "Link copied" notification',
    );
    expect(notice.options.body).toBe(`The link to ${file.name} is on the clipboard.`);
    expect(clipboard.readText()).toBe(link.url);

    const outside = path.join(stateDir, 'not-synced.txt');
    fake.app.emit('second-instance', {}, [], '/', {
      argv: ['/opt/ws', '--copy-link', outside],
      cwd: '/',
    });
    const refused = await fake.until(
      () =>
        fake.notifications.slice(before).find((n) => n.options.title === 'Could not copy the link'),
      'the refusal',
    );
    expect(refused.options.body.length).toBeGreaterThan(10);
    expect(clipboard.readText()).toBe(link.url);
  });

  // Issue 41: a placeholder's double-click where the app is installed runs `app --open PATH`;
  // the running app has the pair's engine download the file, then opens it with the shell.
  it("downloads and opens a placeholder for a second launch's --open, a failure in words", async () => {
    const [pair] = await call<SyncPair[]>('pairs.list', {});
    // The pair keeps new files online only (the setting the CLI's --on-demand writes).
    const journals = path.join(stateDir, 'journals');
    const file = readdirSync(journals).find((n) => n.endsWith('.db'))!;
    const journal = openPairJournal(path.join(journals, file), defaultProfile());
    journal.onDemand.setMode('online');
    journal.close();
    const moritz = sb.users[1]!;
    const client = clientFor(sb.baseUrl, tokenOf(moritz));
    const body = Buffer.from('opened from a placeholder');
    await client.uploadFile(
      (await client.rootFolder(sb.workspaceId)).id,
      'on-demand.txt',
      () => Readable.from([body]),
      body.length,
    );
    const placeholder = path.join(syncDir, 'on-demand.txt.wsync');
    const real = path.join(syncDir, 'on-demand.txt');
    await call('pairs.retry', { pairId: pair!.id });
    await fake.until(() => existsSync(placeholder), 'the placeholder', 60_000);
    expect(existsSync(real)).toBe(false);

    const before = fake.notifications.length;
    const opened = shell.paths.length;
    fake.app.emit('second-instance', {}, [], syncDir, {
      argv: ['/opt/ws', '--open', '--', 'on-demand.txt.wsync'],
      cwd: syncDir,
    });
    await fake.until(
      () => shell.paths.slice(opened).includes(real),
      'the shell to open it',
      60_000,
    );
    expect(readFileSync(real, 'utf8')).toBe('opened from a placeholder');
    expect(existsSync(placeholder)).toBe(false);
    expect(fake.notifications.slice(before).map((n) => n.options.title)).toEqual([
      'Downloading on-demand.txt…',
    ]);
    // No window for it: the notice is the answer.
    // Outside every synced folder: said in words.
    const outside = path.join(stateDir, 'elsewhere.txt.wsync');
    fake.app.emit('second-instance', {}, [], '/', {
      argv: ['/opt/ws', '--open', outside],
      cwd: '/',
    });
    const failed = await fake.until(
      () =>
        fake.notifications
          .slice(before)
          .find((n) => n.options.title === 'Workspace Sync could not open elsewhere.txt'),
      'the failure',
    );
    expect(failed.options.body).toBe(
      `${outside} is not in a folder Workspace Sync syncs. Name a file or folder inside a synced folder.`,
    );
    const shownAfter = shell.paths.length;
    expect(shownAfter).toBe(opened + 1);
  });

  // Issue 41: the files-on-demand menu entries where the app is installed run `app --files
  // ACTION PATH…`: the running app's engines do it (the CLI would run a second engine).
  it("frees and downloads for a second launch's --files, each outcome a notice", async () => {
    const real = path.join(syncDir, 'on-demand.txt');
    const placeholder = `${real}.wsync`;
    expect(existsSync(real)).toBe(true);
    window().close();
    const before = fake.notifications.length;
    const titles = () => fake.notifications.slice(before).map((n) => n.options.title);
    const launch = (argv: string[]) =>
      fake.app.emit('second-instance', {}, [], syncDir, {
        argv: ['/opt/ws', ...argv],
        cwd: syncDir,
      });

    launch(['--files', 'free', '--', real]);
    await fake.until(() => titles().length === 1, 'the notice of the free');
    expect(titles()).toEqual(['Freed up the space of on-demand.txt: online only now']);
    expect(existsSync(real)).toBe(false);
    expect(existsSync(placeholder)).toBe(true);

    launch(['--files', 'download', '--', 'on-demand.txt.wsync']);
    await fake.until(() => titles().length === 3, 'the notices of the download');
    expect(titles().slice(1)).toEqual(['Downloading on-demand.txt…', 'Downloaded on-demand.txt']);
    expect(readFileSync(real, 'utf8')).toBe('opened from a placeholder');
    expect(existsSync(placeholder)).toBe(false);

    const outside = path.join(stateDir, 'elsewhere.txt');
    launch(['--files', 'pin', '--', outside]);
    const failed = await fake.until(
      () => fake.notifications.slice(before).find((n) => n.options.title.includes('could not')),
      'the failure',
    );
    expect(failed.options.title).toBe('Workspace Sync could not always keep elsewhere.txt');
    expect(failed.options.body).toBe(
      `${outside} is not in a folder Workspace Sync syncs. Name a file or folder inside a synced folder.`,
    );
    // No window for them: the notices are the answer.
    expect(window().visible).toBe(false);

    // A pair that does not sync now (paused) cannot bring it down: said, not waited for.
    const [pair] = await call<SyncPair[]>('pairs.list', {});
    launch(['--files', 'free', '--', real]);
    await fake.until(() => existsSync(placeholder), 'the placeholder again');
    await call('pairs.pause', { pairId: pair!.id });
    // The engine says it is paused (the tray follows its status): no round runs from here.
    await fake.until(() => tray().image.file.endsWith('paused.png'), 'the paused icon');
    const count = fake.notifications.length;
    launch(['--open', '--', placeholder]);
    const notYet = await fake.until(
      () => fake.notifications.slice(count).find((n) => n.options.title.includes('could not')),
      'the failure of the open',
    );
    expect(notYet.options.title).toBe('Workspace Sync could not open on-demand.txt');
    expect(notYet.options.body).toBe(
      'on-demand.txt is not downloaded yet: its folder did not sync it now (paused, offline, or a problem with it, shown in Status). Try again once it syncs.',
    );
    expect(existsSync(real)).toBe(false);
    await call('pairs.resume', { pairId: pair!.id });
  });

  it("notifies of others' activity after it started listening, and a click opens the item", async () => {
    const moritz = sb.users[1]!;
    const client = clientFor(sb.baseUrl, tokenOf(moritz));
    const rootFolder = await client.rootFolder(sb.workspaceId);
    const before = fake.notifications.length;
    const body = Buffer.from('from moritz');
    await client.uploadFile(
      rootFolder.id,
      'from-moritz.txt',
      () => Readable.from([body]),
      body.length,
    );
    const notice = await fake.until(
      () =>
        fake.notifications.slice(before).find((n) => n.options.body.includes('from-moritz.txt')),
      "the notice of Moritz's upload",
    );
    expect(notice.options.body).toMatch(/uploaded the from-moritz\.txt File/);
    // The owner's own changes are never announced.
    expect(fake.notifications.some((n) => n.options.body.startsWith(sb.users[0]!.name))).toBe(
      false,
    );
    window().close();
    expect(window().visible).toBe(false);
    notice.click();
    expect(window().visible).toBe(true);
    const shown = window().webContents.sent.filter(
      (s) => (s.data as { event: string }).event === 'show',
    );
    expect(shown.at(-1)?.data).toMatchObject({
      event: 'show',
      data: { kind: 'item', itemKind: 'file' },
    });
  });

  it('notifies of a new conflict, the tray needs attention, and a click shows the pair', async () => {
    const [pair] = await call<SyncPair[]>('pairs.list', {});
    const owner = sb.users[0]!;
    const client = clientFor(sb.baseUrl, tokenOf(owner));
    const rootFolder = await client.rootFolder(sb.workspaceId);
    const file = path.join(syncDir, 'Both sides.txt');
    writeFileSync(file, 'first');
    await fake.until(
      () => pair && tray().tooltip === 'Workspace Sync: Up to date' && existsSync(file),
      'Both sides.txt synced',
    );
    // Changed on both sides while paused: a conflict once syncing resumes.
    await call('pairs.pause', { pairId: pair!.id });
    writeFileSync(file, 'mine');
    const theirs = Buffer.from('theirs');
    await client.uploadFile(
      rootFolder.id,
      'Both sides.txt',
      () => Readable.from([theirs]),
      theirs.length,
    );
    const before = fake.notifications.length;
    await call('pairs.resume', { pairId: pair!.id });
    const notice = await fake.until(
      () =>
        fake.notifications.slice(before).find((n) => n.options.body.startsWith('Both sides.txt')),
      'the notice of the conflict',
    );
    expect(notice.options).toMatchObject({
      title: 'Q3 Planning',
      body: 'Both sides.txt was changed here and on the service: both versions are kept; choose one in Workspace Sync.',
    });
    await fake.until(
      () =>
        tray().image.file.endsWith('attention.png') &&
        tray().tooltip === 'Workspace Sync: Q3 Planning: 1 conflict to look at',
      'the attention icon, saying why',
    );
    window().close();
    notice.click();
    expect(window().visible).toBe(true);
    const shown = window().webContents.sent.filter(
      (s) => (s.data as { event: string }).event === 'show',
    );
    expect(shown.at(-1)?.data).toEqual({ event: 'show', data: { kind: 'pair', pairId: pair!.id } });
    // Settled (both kept): up to date again, and no second notice for it.
    const [status] = await call<SyncPair[]>('pairs.list', {});
    const c = status!.status.conflicts.find((x) => x.copy !== undefined)!;
    await call('pairs.settleConflict', { pairId: pair!.id, conflictId: c.id!, keep: 'both' });
    await fake.until(() => tray().image.file.endsWith('idle.png'), 'the idle icon');
    expect(
      fake.notifications.slice(before).filter((n) => n.options.body.startsWith('Both sides.txt')),
    ).toHaveLength(1);
  });

  it('applies settings: start at login writes the autostart entry', async () => {
    const file = path.join(process.env.XDG_CONFIG_HOME!, 'autostart', 'workspace-sync.desktop');
    await call('settings.update', { startAtLogin: true });
    expect(existsSync(file)).toBe(true);
    await call('settings.update', { startAtLogin: false });
    expect(existsSync(file)).toBe(false);
  });

  it('says the tray in the OS language (System) or the chosen one, at once', async () => {
    await fake.until(() => tray().tooltip === 'Workspace Sync: Up to date', 'up to date');
    // A German OS and the setting System: the tray's line and menu in German.
    fake.app.locale = 'de-DE';
    await call('settings.update', { language: 'system' });
    await fake.until(
      () =>
        tray().tooltip === 'Workspace Sync: Aktuell' &&
        menuLabels().includes('Ordner öffnen') &&
        menuLabels().includes('Synchronisierung pausieren') &&
        menuLabels().includes('Workspace Sync beenden'),
      'the German tray',
    );
    // English chosen on the German OS: English at once.
    await call('settings.update', { language: 'en' });
    await fake.until(
      () => tray().tooltip === 'Workspace Sync: Up to date' && menuLabels().includes('Open folder'),
      'the English tray',
    );
    fake.app.locale = 'en-US';
    await call('settings.update', { language: 'system' });
  });

  it('pauses and resumes from the tray menu', async () => {
    const click = (label: string) => {
      const item = tray().menu!.items.find((i: FakeMenuItem) => i.label === label);
      expect(item, label).toBeDefined();
      item!.click!();
    };
    click('Pause syncing');
    await fake.until(
      () => tray().image.file.endsWith('paused.png') && menuLabels().includes('Resume syncing'),
      'the paused icon and Resume',
    );
    click('Resume syncing');
    await fake.until(
      () => tray().image.file.endsWith('idle.png') && menuLabels().includes('Pause syncing'),
      'the idle icon and Pause',
    );
  });

  it('starts the engine again when it crashes, and the pairs carry on', async () => {
    const crashed = host!;
    const gone = hostExit;
    crashed.kill('SIGKILL');
    await gone;
    await fake.until(() => host !== crashed, 'a new engine host');
    // Calls reach the new host, which restored the pair from pairs.json.
    const pairs = await call<SyncPair[]>('pairs.list', {});
    expect(pairs.map((p) => p.dir)).toEqual([syncDir]);
    expect((await call<{ desktop: boolean }>('app.info', {})).desktop).toBe(true);
  });

  it("names a conflict copy in the OS's language (System), which the engine host is given", async () => {
    // A German OS: the engine host started from now on (after a crash here) is told so.
    fake.app.locale = 'de-DE';
    const crashed = host!;
    const gone = hostExit;
    crashed.kill('SIGKILL');
    await gone;
    await fake.until(() => host !== crashed, 'a new engine host');
    const [pair] = await call<SyncPair[]>('pairs.list', {});
    const owner = sb.users[0]!;
    const client = clientFor(sb.baseUrl, tokenOf(owner));
    const rootFolder = await client.rootFolder(sb.workspaceId);
    // A new file here and one of its name there, while paused: both kept, this one as the copy.
    await call('pairs.pause', { pairId: pair!.id });
    writeFileSync(path.join(syncDir, 'Beide Seiten.txt'), 'meine');
    const theirs = Buffer.from('ihre');
    await client.uploadFile(rootFolder.id, 'Beide Seiten.txt', () => Readable.from([theirs]), 4);
    await call('pairs.resume', { pairId: pair!.id });
    await fake.until(() => tray().image.file.endsWith('attention.png'), 'the attention icon');
    const [status] = await call<SyncPair[]>('pairs.list', {});
    const c = status!.status.conflicts.find((x) => x.path === 'Beide Seiten.txt' && x.copy)!;
    expect(c.copy).toMatch(/^Beide Seiten \(Konfliktkopie \d{4}-\d\d-\d\d \d{6} .+\)\.txt$/);
    await call('pairs.settleConflict', { pairId: pair!.id, conflictId: c.id!, keep: 'both' });
    await fake.until(() => tray().image.file.endsWith('idle.png'), 'the idle icon');
    fake.app.locale = 'en-US';
  });

  it('closing the window keeps the app in the tray; the tray opens it again', () => {
    window().close();
    expect(window().isDestroyed()).toBe(false);
    expect(window().visible).toBe(false);
    tray().emit('click');
    expect(window().visible).toBe(true);
  });

  it('quits gracefully: the engine host stops its engines and ends before the app', async () => {
    let quit = false;
    fake.app.on('quit', () => (quit = true));
    fake.app.quit();
    expect(quit).toBe(false);
    expect(await hostExit).toBe(0);
    await fake.until(() => quit, 'the app to quit');
    // The host ran three times: at the start and after the tests' two crashes, never ending on
    // its own.
    expect(forks).toBe(3);
    expect(tray().destroyed).toBe(true);
  });
});
