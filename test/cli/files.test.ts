import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Journal } from '../../src/main/journal/journal';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { clientFor, remoteTree, tokenOf } from '../sync/harness';
import { fakeNotifySend } from './link-harness';
import { runCli, startCli, syncArgs, tempDir } from './run-cli';

// Files on demand from the terminal (`workspace-sync files`): real child processes against the
// sandbox, a token on standard input, a sync folder whose files arrive as placeholders.

let sb: RunningSandbox;
let tmp: { dir: string; remove(): Promise<void> };
let token: string;
let upload: (name: string, data: string) => Promise<{ id: number }>;
let deleteFile: (id: number) => Promise<void>;

beforeAll(async () => {
  sb = await startSandbox({ seed: 'empty' });
  tmp = await tempDir('files');
  const owner = sb.users.find((u) => u.role === 'Administrator')!;
  token = owner.token;
  const client = clientFor(sb.baseUrl, tokenOf(owner));
  const root = (await client.rootFolder(sb.workspaceId)).id;
  const up = (folder: number, name: string, data: string) =>
    client.uploadFile(folder, name, () => Readable.from([Buffer.from(data)]));
  const docs = (await client.createFolder(sb.workspaceId, root, 'Docs')).id;
  await up(docs, 'a.txt', 'a content');
  await up(docs, 'b.txt', 'b content');
  await up(root, 'c.txt', 'c content');
  upload = (name, data) => up(root, name, data);
  deleteFile = (id) => client.deleteFile(id);
});
afterAll(async () => {
  await sb?.close();
  await tmp?.remove();
});

/** Requests that fetch a file's content. */
const contentRequests = () =>
  Object.entries(sb.stats())
    .filter(([route]) => /download|archive|zip/i.test(route))
    .reduce((n, [, count]) => n + count, 0);

describe('workspace-sync files', () => {
  const dir = () => path.join(tmp.dir, 'workspace');
  const state = () => path.join(tmp.dir, 'state');
  const at = (rel: string) => path.join(dir(), rel);
  const filesCli = (args: string[], env: Record<string, string> = {}) =>
    runCli(['files', ...args, '--state', state(), '--token-file', '-'], {
      stdin: `${token}\n`,
      env,
    });

  it('mirrors online only, then downloads, frees, refuses, pins and says each state', async () => {
    const first = await runCli(
      syncArgs(sb, dir(), state(), '--once', '--on-demand', 'online', '--token-file', '-'),
      { stdin: `${token}\n` },
    );
    expect(first.code, first.stderr).toBe(0);
    expect(existsSync(at('Docs/a.txt.wsync'))).toBe(true);
    expect(existsSync(at('Docs/a.txt'))).toBe(false);
    expect(contentRequests()).toBe(0);

    const status = await filesCli(['status', at('Docs/a.txt.wsync'), at('Docs'), at('c.txt')]);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout.trimEnd().split('\n')).toEqual([
      `${at('Docs/a.txt.wsync')}: online only`,
      `${at('Docs')}: online only`,
      `${at('c.txt')}: online only`,
    ]);

    const down = await filesCli(['download', at('Docs/a.txt.wsync')]);
    expect(down.code, down.stderr).toBe(0);
    expect(readFileSync(at('Docs/a.txt'), 'utf8')).toBe('a content');
    expect(existsSync(at('Docs/a.txt.wsync'))).toBe(false);
    expect(down.stdout.trimEnd()).toBe(`${at('Docs/a.txt.wsync')}: on this device`);
    expect(contentRequests()).toBe(1);

    // Changed here: the free is refused in one line, the change is sent by the pass it runs.
    writeFileSync(at('Docs/a.txt'), 'a changed here');
    const refused = await filesCli(['free', at('Docs/a.txt')]);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trimEnd().split('\n')).toEqual([
      'workspace-sync: Not freed: Docs/a.txt has changes that are not on the service yet. Let it sync, then free it.',
    ]);
    expect(readFileSync(at('Docs/a.txt'), 'utf8')).toBe('a changed here');
    expect(remoteTree(sb).get('Docs/a.txt')).toBeDefined();

    // Sent now: freed, to the trash, its placeholder back.
    const freed = await filesCli(['free', at('Docs/a.txt')]);
    expect(freed.code, freed.stderr).toBe(0);
    expect(existsSync(at('Docs/a.txt'))).toBe(false);
    expect(readFileSync(at('Docs/a.txt.wsync'), 'utf8')).toContain('14 bytes');
    expect(freed.stdout.trimEnd()).toBe(`${at('Docs/a.txt')}: online only`);

    const pinned = await filesCli(['pin', at('Docs')]);
    expect(pinned.code, pinned.stderr).toBe(0);
    expect(readFileSync(at('Docs/a.txt'), 'utf8')).toBe('a changed here');
    expect(readFileSync(at('Docs/b.txt'), 'utf8')).toBe('b content');
    expect(pinned.stdout.trimEnd()).toBe(`${at('Docs')}: on this device, pinned`);
  });

  it('opens a placeholder: downloads it, then hands the real file to the opener', async () => {
    const bin = path.join(tmp.dir, 'bin');
    mkdirSync(bin, { recursive: true });
    const said = path.join(tmp.dir, 'opened.txt');
    writeFileSync(path.join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${said}'\n`);
    chmodSync(path.join(bin, 'xdg-open'), 0o755);
    const opened = await filesCli(['open', at('c.txt.wsync')], {
      PATH: `${bin}:${process.env.PATH ?? ''}`,
    });
    expect(opened.code, opened.stderr).toBe(0);
    expect(readFileSync(at('c.txt'), 'utf8')).toBe('c content');
    expect(existsSync(at('c.txt.wsync'))).toBe(false);
    expect(readFileSync(said, 'utf8')).toBe(at('c.txt'));
  });

  it('says in one line when the opener cannot open the file, which is here all the same', async () => {
    // As a double-click runs it (--notify: no terminal): the download and the failure are also
    // desktop notices.
    const notices = fakeNotifySend(path.join(tmp.dir, 'notices'));
    const bin = path.join(tmp.dir, 'bin-failing');
    mkdirSync(bin, { recursive: true });
    writeFileSync(path.join(bin, 'xdg-open'), '#!/bin/sh\nexit 4\n');
    chmodSync(path.join(bin, 'xdg-open'), 0o755);
    const failed = await filesCli(['open', '--notify', at('Docs/b.txt')], {
      PATH: `${bin}:${notices.path}`,
    });
    expect(failed.code).toBe(1);
    const said = `xdg-open could not open ${at('Docs/b.txt')} (it ended with code 4): open it in your file manager, or set a default program for it.`;
    expect(failed.stderr.trimEnd().split('\n')).toEqual([
      `Opening ${at('Docs/b.txt')}`,
      `workspace-sync: ${said}`,
    ]);
    expect(readFileSync(at('Docs/b.txt'), 'utf8')).toBe('b content');
    const shown = notices.shown().map((n) => n.split('|').slice(2, -1));
    expect(shown).toEqual([
      ['--urgency=normal', '--', 'Downloading b.txt…', ''],
      ['--urgency=critical', '--', 'Workspace Sync could not open b.txt', said],
    ]);
  });

  // Files of their own (the other tests' stay as they left them).
  const syncOnce = async () => {
    const r = await runCli(
      syncArgs(sb, dir(), state(), '--once', '--on-demand', 'online', '--token-file', '-'),
      { stdin: `${token}\n` },
    );
    expect(r.code, r.stderr).toBe(0);
  };

  it("says each menu action's outcome as a desktop notice, success and failure, en and de", async () => {
    // What the file managers' menu entries run (`files ACTION --notify`): no terminal.
    await upload('menu-a.txt', 'menu a');
    await upload('menu-b.txt', 'menu b');
    await syncOnce();
    expect(existsSync(at('menu-a.txt.wsync'))).toBe(true);
    const notices = fakeNotifySend(path.join(tmp.dir, 'menu-notices'));
    const env = { PATH: notices.path };
    const de = { ...env, LANG: 'de_DE.UTF-8' };
    const said = () => notices.shown().map((n) => n.split('|').slice(2, -1));
    const ok = async (args: string[], e: Record<string, string>) => {
      const r = await filesCli(['--notify', ...args], e);
      expect(r.code, r.stderr).toBe(0);
    };
    await ok(['download', at('menu-a.txt.wsync')], env);
    expect(readFileSync(at('menu-a.txt'), 'utf8')).toBe('menu a');
    await ok(['free', at('menu-a.txt')], env);
    expect(existsSync(at('menu-a.txt.wsync'))).toBe(true);
    await ok(['pin', at('menu-a.txt.wsync'), at('menu-b.txt.wsync')], env);
    expect(readFileSync(at('menu-b.txt'), 'utf8')).toBe('menu b');
    await ok(['unpin', at('menu-a.txt')], de);
    expect(said()).toEqual([
      ['--urgency=normal', '--', 'Downloading menu-a.txt…', ''],
      ['--urgency=normal', '--', 'Downloaded menu-a.txt', ''],
      ['--urgency=normal', '--', 'Freed up the space of menu-a.txt: online only now', ''],
      ['--urgency=normal', '--', 'menu-a.txt is always kept on this device and 1 other item', ''],
      ['--urgency=normal', '--', 'menu-a.txt wird nicht mehr immer auf diesem Gerät behalten', ''],
    ]);

    // A refusal: said as a failure, in words, in each language.
    writeFileSync(at('menu-a.txt'), 'a changed here');
    const refused = await filesCli(['--notify', 'free', at('menu-a.txt')], env);
    expect(refused.code).toBe(1);
    // (That run's pass sent the change: changed again.)
    writeFileSync(at('menu-a.txt'), 'a changed again');
    const refusedDe = await filesCli(['--notify', 'free', at('menu-a.txt')], de);
    expect(refusedDe.code).toBe(1);
    expect(said().slice(-2)).toEqual([
      [
        '--urgency=critical',
        '--',
        'Workspace Sync could not free up the space of menu-a.txt',
        'Not freed: menu-a.txt has changes that are not on the service yet. Let it sync, then free it.',
      ],
      [
        '--urgency=critical',
        '--',
        'Workspace Sync konnte den Speicherplatz von menu-a.txt nicht freigeben',
        refusedDe.stderr.trimEnd().replace(/^workspace-sync: /, ''),
      ],
    ]);
    expect(readFileSync(at('menu-a.txt'), 'utf8')).toBe('a changed again');
    await syncOnce();
  });

  it('says a download that failed as a failure in words, never as done', async () => {
    // The service lost the file's content: it drops the connection of its download.
    await upload('lost.txt', 'lost content');
    await syncOnce();
    expect(existsSync(at('lost.txt.wsync'))).toBe(true);
    const hash = createHash('sha256').update('lost content').digest('hex');
    rmSync(sb.sandbox.blobs.pathOf(hash));
    const notices = fakeNotifySend(path.join(tmp.dir, 'lost-notices'));
    const failed = await filesCli(['--notify', 'download', at('lost.txt.wsync')], {
      PATH: notices.path,
    });
    expect(existsSync(at('lost.txt'))).toBe(false);
    expect(failed.code).toBe(1);
    const words = 'Cannot reach the service (UND_ERR_SOCKET): check the connection.';
    expect(failed.stderr.trimEnd().split('\n').at(-1)).toBe(`workspace-sync: ${words}`);
    expect(notices.shown().map((n) => n.split('|').slice(2, -1))).toEqual([
      ['--urgency=normal', '--', 'Downloading lost.txt…', ''],
      ['--urgency=critical', '--', 'Workspace Sync could not download lost.txt', words],
    ]);
    // Found again, for the tests after this one.
    await sb.sandbox.blobs.writeBuffer(Buffer.from('lost content'));
  });

  it('says a file gone there before its download as not downloaded, never as done', async () => {
    const gone = await upload('gone.txt', 'gone content');
    await syncOnce();
    expect(existsSync(at('gone.txt.wsync'))).toBe(true);
    await deleteFile(gone.id);
    const res = await filesCli(['download', at('gone.txt.wsync')]);
    expect(existsSync(at('gone.txt'))).toBe(false);
    expect(res.code).toBe(1);
    expect(res.stderr.trimEnd()).toBe(
      'workspace-sync: gone.txt is no longer on the service (deleted or moved there meanwhile): nothing to download.',
    );
  });

  it('says a bad action and a path outside in one line each', async () => {
    const bad = await filesCli(['fetch', at('c.txt')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.split('\n')[0]).toBe(
      'workspace-sync: Unknown action "fetch": use download, free, pin, unpin, status or open.',
    );
    const outside = await filesCli(['status', tmp.dir]);
    expect(outside.code).toBe(1);
    expect(outside.stderr.trimEnd()).toBe(
      `workspace-sync: ${tmp.dir} is not in a folder Workspace Sync syncs. Name a file or folder inside a synced folder.`,
    );
    const help = await runCli(['files', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(
      /^usage: workspace-sync files download\|free\|pin\|unpin\|status\|open PATH/,
    );
  });

  it('asks a running sync to do it (it never opens a second engine), and a second sync is refused', async () => {
    const { child } = startCli(syncArgs(sb, dir(), state(), '--token-file', '-'), {
      stdin: `${token}\n`,
    });
    const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
    try {
      await new Promise<void>((resolve, reject) => {
        createInterface({ input: child.stdout }).on('line', (line) => {
          const o = JSON.parse(line) as { type: string; state?: string; lastSyncAt?: unknown };
          if (o.type === 'status' && o.state === 'idle' && o.lastSyncAt !== null) resolve();
        });
        child.once('close', () => reject(new Error('sync exited early')));
      });
      // A token that signs nobody in: only the running sync's engine can have done the work.
      const asked = (args: string[]) =>
        runCli(['files', ...args, '--state', state(), '--token-file', '-'], {
          stdin: 'not-a-token\n',
        });
      const freed = await asked(['free', at('Docs/b.txt')]);
      expect(freed.code, freed.stderr).toBe(0);
      expect(existsSync(at('Docs/b.txt'))).toBe(false);
      expect(existsSync(at('Docs/b.txt.wsync'))).toBe(true);

      const before = contentRequests();
      const down = await asked(['download', at('Docs/b.txt.wsync')]);
      expect(down.code, down.stderr).toBe(0);
      // Said done only once the file is here.
      expect(readFileSync(at('Docs/b.txt'), 'utf8')).toBe('b content');
      expect(existsSync(at('Docs/b.txt.wsync'))).toBe(false);
      expect(contentRequests()).toBe(before + 1);

      // The running engine's refusal, in the asker's words and one line.
      const refused = await asked(['download', at('Docs/nothing-there.txt')]);
      expect(refused.code).toBe(1);
      expect(refused.stderr.trimEnd()).toBe(
        `workspace-sync: Not a synced file or folder: Docs/nothing-there.txt. Sync it first (workspace-sync sync --once).`,
      );

      const second = await runCli(syncArgs(sb, dir(), state(), '--once', '--token-file', '-'), {
        stdin: `${token}\n`,
      });
      expect(second.code).not.toBe(0);
      expect(second.stderr).toContain(
        `Another Workspace Sync process is syncing ${dir()} already (the app, or a sync command)`,
      );
    } finally {
      child.kill('SIGINT');
      await closed;
    }
  });

  it('remembers --free-unused-days N, turns it off with off, and refuses other values', async () => {
    const syncWith = (value: string) =>
      runCli(
        syncArgs(sb, dir(), state(), '--once', '--free-unused-days', value, '--token-file', '-'),
        { stdin: `${token}\n` },
      );
    const setting = () => {
      const journals = path.join(state(), 'journals');
      const file = readdirSync(journals).find((f) => f.endsWith('.db'))!;
      const journal = new Journal(path.join(journals, file));
      try {
        return journal.onDemand.freeUnusedDays();
      } finally {
        journal.close();
      }
    };
    const on = await syncWith('30');
    expect(on.code, on.stderr).toBe(0);
    expect(setting()).toBe(30);
    const off = await syncWith('off');
    expect(off.code, off.stderr).toBe(0);
    expect(setting()).toBeNull();
    const bad = await syncWith('soon');
    expect(bad.code).toBe(2);
    expect(bad.stderr.split('\n')[0]).toBe(
      'workspace-sync: --free-unused-days takes a number of days (1 to 36500) or off, not "soon".',
    );
  });
});
