import { renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import {
  fakeNotifySend,
  local,
  NAMES,
  readClipboard,
  startXvfb,
  syncedFolder,
  urlOf,
  type SyncedFolder,
  type Xvfb,
} from './link-harness';
import { repoRoot, runCli, spawnCli, tempDir } from './run-cli';

// `workspace-sync link PATH [--copy]`: real child processes, a real sandbox over HTTP, a folder
// synced by `sync --once`, and the clipboard of a private X server read back with xclip.

let sb: RunningSandbox;
let tmp: { dir: string; remove(): Promise<void> };
let ann: SyncedFolder;
let x: Xvfb;

const FILE = `${NAMES.folder}/${NAMES.file}`;
const ODD = `${NAMES.folder}/${NAMES.odd}`;

beforeAll(async () => {
  sb = await startSandbox({ seed: 'empty' });
  tmp = await tempDir('link');
  ann = await syncedFolder(sb, {
    dir: path.join(tmp.dir, 'Ann Q3'),
    state: path.join(tmp.dir, 'state'),
  });
  x = await startXvfb();
});
afterAll(async () => {
  await x?.stop();
  await sb?.close();
  await tmp?.remove();
});

/** `link` as a person runs it: the pair's token in the environment, no display by default. */
const link = (args: string[], env: Record<string, string> = {}) =>
  runCli(['link', '--state', ann.state, ...args], {
    env: { WORKSPACE_SYNC_TOKEN: ann.token, DISPLAY: '', WAYLAND_DISPLAY: '', ...env },
  });

describe('workspace-sync link', () => {
  it("prints a synced file's share URL, the one the service gives, turning its link on", async () => {
    const before = await ann.client.getLink('file', ann.ids[FILE]!.id);
    expect(before.token_accessible).toBe(false);

    const run = await link([local(ann, FILE)]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(`${await urlOf(sb, ann.client, ann.ids[FILE]!)}\n`);
    expect(run.stderr).toContain('The link was turned off: it is on now');
    expect((await ann.client.getLink('file', ann.ids[FILE]!.id)).token_accessible).toBe(true);
    expect(run.stdout + run.stderr).not.toContain(ann.token);

    // The URL is the share page: it opens without an account.
    const page = await fetch(run.stdout.trim());
    expect(page.status).toBe(200);
    expect(await page.text()).toBe('the numbers\n');
  });

  it("prints a synced folder's URL, quietly when its link is already on", async () => {
    const folder = ann.ids[NAMES.folder]!;
    await ann.client.updateLink('folder', folder.id, { token_accessible: true });
    const run = await link([local(ann, NAMES.folder)]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(`${await urlOf(sb, ann.client, folder)}\n`);
    expect(run.stderr).toBe('');
  });

  it("gives the workspace's root folder link for the sync folder itself", async () => {
    const run = await link([ann.dir]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(`${await urlOf(sb, ann.client, ann.ids['']!)}\n`);
  });

  it('takes a relative path, a trailing slash, a symlink and an odd name', async () => {
    const expected = await urlOf(sb, ann.client, ann.ids[ODD]!);
    // runCli's working directory is the repository.
    const relative = await link([path.relative(repoRoot, local(ann, ODD))]);
    expect(relative.code, relative.stderr).toBe(0);
    expect(relative.stdout).toBe(`${expected}\n`);

    const slash = await link([`${local(ann, NAMES.folder)}/`]);
    expect(slash.stdout).toBe(`${await urlOf(sb, ann.client, ann.ids[NAMES.folder]!)}\n`);

    const shortcut = path.join(tmp.dir, 'shortcut to odd');
    symlinkSync(local(ann, ODD), shortcut);
    const viaLink = await link([shortcut]);
    expect(viaLink.code, viaLink.stderr).toBe(0);
    expect(viaLink.stdout).toBe(`${expected}\n`);
  });

  it('exits 1 with one clear line for a file not synced yet, outside, or missing', async () => {
    writeFileSync(local(ann, `${NAMES.folder}/new.txt`), 'not yet\n');
    const unsynced = await link([local(ann, `${NAMES.folder}/new.txt`)]);
    expect(unsynced.code).toBe(1);
    expect(unsynced.stdout).toBe('');
    expect(unsynced.stderr).toBe(
      `workspace-sync: ${local(ann, `${NAMES.folder}/new.txt`)} has not been synced yet: try again once Workspace Sync has synced it.\n`,
    );

    const outside = await link([tmp.dir]);
    expect(outside.code).toBe(1);
    expect(outside.stderr).toBe(
      `workspace-sync: ${tmp.dir} is not in a folder Workspace Sync syncs.\n`,
    );

    const dangling = path.join(tmp.dir, 'dangling');
    symlinkSync(local(ann, 'gone.txt'), dangling);
    const broken = await link([dangling]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toBe(`workspace-sync: ${dangling} does not exist.\n`);

    const missing = await link([local(ann, 'nothing here.txt')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      `workspace-sync: ${local(ann, 'nothing here.txt')} does not exist.\n`,
    );
  });

  it('refuses a file replaced since the last sync: its link would be the old one', async () => {
    const dir = path.join(tmp.dir, 'replaced');
    const mine = await syncedFolder(sb, {
      dir,
      state: path.join(tmp.dir, 'state-replaced'),
      create: false,
    });
    const file = local(mine, FILE);
    writeFileSync(`${file}.new`, 'new numbers\n');
    renameSync(`${file}.new`, file);
    const run = await runCli(['link', '--state', mine.state, file], {
      env: { WORKSPACE_SYNC_TOKEN: mine.token },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('has changed since it was last synced');
  });

  it('says what to do without an account, and when a Collaborator cannot turn a link on', async () => {
    const signedOut = await runCli(['link', '--state', ann.state, local(ann, FILE)], {
      env: { HOME: tmp.dir, XDG_DATA_HOME: path.join(tmp.dir, 'no-keychain') },
    });
    expect(signedOut.code).toBe(1);
    expect(signedOut.stderr).toMatch(/^workspace-sync: Not signed in to http:\/\/127\.0\.0\.1:\d+/);

    // Kenji (Collaborator) syncs the workspace too: he may read links, not turn them on.
    const root = ann.ids['']!.id;
    const text = 'for Kenji\n';
    await ann.client.uploadFile(root, 'for Kenji.txt', () => Readable.from([text]), text.length);
    const kenji = await syncedFolder(sb, {
      dir: path.join(tmp.dir, 'Kenji Q3'),
      state: path.join(tmp.dir, 'state-kenji'),
      user: 2,
      create: false,
    });
    const off = await runCli(['link', '--state', kenji.state, local(kenji, 'for Kenji.txt')], {
      env: { WORKSPACE_SYNC_TOKEN: kenji.token },
    });
    expect(off.code).toBe(1);
    expect(off.stdout).toBe('');
    expect(off.stderr).toBe(
      `workspace-sync: The link of “for Kenji.txt” is turned off, and your role in the workspace cannot turn it on: ask a Moderator or the workspace's owner.\n`,
    );
    const on = await runCli(['link', '--state', kenji.state, local(kenji, NAMES.folder)], {
      env: { WORKSPACE_SYNC_TOKEN: kenji.token },
    });
    expect(on.code, on.stderr).toBe(0);
    expect(on.stdout).toBe(`${await urlOf(sb, ann.client, ann.ids[NAMES.folder]!)}\n`);
  });

  it('says, in one line, that a service requiring link passwords wants one first', async () => {
    const odd = ann.ids[ODD]!;
    await ann.client.updateLink(odd.kind, odd.id, { token_accessible: false });
    sb.sandbox.config.linkPasswordRequired = true;
    try {
      const run = await link([local(ann, ODD)]);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toContain('turns a link on only with a password');
      expect(run.stderr).toContain('Copy link with options…');
    } finally {
      sb.sandbox.config.linkPasswordRequired = false;
    }
  });

  it('--copy puts the URL on the X clipboard, and says so', async () => {
    const run = await link(['--copy', local(ann, ODD)], { DISPLAY: x.display });
    expect(run.code, run.stderr).toBe(0);
    const url = await urlOf(sb, ann.client, ann.ids[ODD]!);
    expect(run.stdout).toBe(`${url}\n`);
    expect(run.stderr).toContain(`Copied the link of “${NAMES.odd}” to the clipboard (xclip).`);
    // The CLI has exited: the clipboard is served by xclip in the background.
    expect(await readClipboard(x.display)).toBe(url);
  });

  it('--copy without a display prints the URL, then fails with the reason', async () => {
    const run = await link(['--copy', local(ann, FILE)]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(`${await urlOf(sb, ann.client, ann.ids[FILE]!)}\n`);
    expect(run.stderr).toContain('There is no display to copy to');
  });

  it('--notify tells the desktop how it went, failures too', async () => {
    const notifications = fakeNotifySend(tmp.dir);
    const env = { PATH: notifications.path, DISPLAY: x.display };
    const ok = await link(['--copy', '--notify', local(ann, FILE)], env);
    expect(ok.code, ok.stderr).toBe(0);
    const bad = await link(['--copy', '--notify', local(ann, 'nothing here.txt')], env);
    expect(bad.code).toBe(1);
    const lines = notifications.shown();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(
      `--urgency=normal|--|Copied the link of “${NAMES.file}”|${ok.stdout.trim()}|`,
    );
    expect(lines[1]).toContain('--urgency=critical|--|Workspace Sync could not copy the link|');
    expect(lines[1]).toContain('does not exist.');
  });

  it('reads the journal of a sync that is running in another process', async () => {
    const child = spawnCli([
      'sync',
      '--json',
      '--server',
      sb.baseUrl,
      '--token',
      ann.token,
      '--workspace',
      String(sb.workspaceId),
      '--dir',
      ann.dir,
      '--state',
      ann.state,
    ]);
    const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
    try {
      // Up to date (new.txt uploaded by now): its link can be given while the engine runs.
      await new Promise<void>((resolve, reject) => {
        createInterface({ input: child.stdout }).on('line', (line) => {
          const o = JSON.parse(line) as { type: string; state?: string; lastSyncAt?: unknown };
          if (o.type === 'status' && o.state === 'idle' && o.lastSyncAt !== null) resolve();
        });
        child.once('close', () => reject(new Error('sync exited early')));
      });
      const run = await link([local(ann, `${NAMES.folder}/new.txt`)]);
      expect(run.code, run.stderr).toBe(0);
      const id = await findFile(ann, 'new.txt');
      expect(run.stdout).toBe(`${await urlOf(sb, ann.client, { kind: 'file', id })}\n`);
    } finally {
      child.kill('SIGINT');
      await closed;
    }
  });

  it('explains its usage', async () => {
    const none = await runCli(['link']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('PATH is required');
    const two = await link([local(ann, FILE), local(ann, ODD)]);
    expect(two.code).toBe(1);
    expect(two.stderr).toContain('Choose one file or folder at a time (2 were given).');
    const help = await runCli(['link', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('usage: workspace-sync link PATH [--copy]');
  });
});

/** The id of a file the engine uploaded, by name, in the synced folder. */
async function findFile(folder: SyncedFolder, name: string): Promise<number> {
  for await (const entry of folder.client.folderContents(folder.ids[NAMES.folder]!.id)) {
    if (entry.kind === 'file' && entry.file.filename === name) return entry.file.id;
  }
  throw new Error(`${name} is not on the service`);
}
