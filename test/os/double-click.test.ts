import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { clientFor, tokenOf } from '../sync/harness';
import { fakeNotifySend } from '../cli/link-harness';
import { cliEnv, runCli, syncArgs, tempDir } from '../cli/run-cli';

// Issue 41, "proven as in life": a double-click on a placeholder through the real MIME database,
// end to end. In a temporary XDG home: `integrate --install` (the real CLI, as the tests start
// it, is the launcher the opener runs), a real sandbox pair kept online only, and a recording
// fake "usual app" made the default for text/plain. Then `gio open` and `xdg-open` on
// `report.txt.wsync`: GLib finds our opener, which runs `files open`, which downloads the file
// and hands it to the desktop's opener, which starts the fake app on the real file.

let sb: RunningSandbox;
let tmp: { dir: string; remove(): Promise<void> };
let token: string;

const CONTENT = { 'report.txt': 'the report, in full\n', 'notes.txt': 'notes, in full\n' };

beforeAll(async () => {
  sb = await startSandbox({ seed: 'empty' });
  tmp = await tempDir('double-click');
  const owner = sb.users.find((u) => u.role === 'Administrator')!;
  token = owner.token;
  const client = clientFor(sb.baseUrl, tokenOf(owner));
  const root = (await client.rootFolder(sb.workspaceId)).id;
  for (const [name, data] of Object.entries(CONTENT))
    await client.uploadFile(root, name, () => Readable.from([Buffer.from(data)]));
});
afterAll(async () => {
  await sb?.close();
  await tmp?.remove();
});

/** Requests that fetch a file's content. */
const downloads = () =>
  Object.entries(sb.stats())
    .filter(([route]) => /download|archive|zip/i.test(route))
    .reduce((n, [, count]) => n + count, 0);

/** How long the chain may take before the test says where it stopped (not a measure). */
const DEADLINE_MS = Number(process.env.DC_DEADLINE ?? 60_000);

function runProgram(argv: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stderr }));
  });
}

describe('a double-click on a placeholder, through the real MIME database', () => {
  it('downloads the file to its real name and opens it with its usual app (gio open, xdg-open)', async () => {
    const home = path.join(tmp.dir, 'home');
    const xdg = {
      HOME: home,
      // No spaces: xdg-utils' generic way splits the XDG dirs on them (ours are tested with
      // spaces in open-handler.test.ts).
      XDG_DATA_HOME: path.join(home, 'data'),
      XDG_CONFIG_HOME: path.join(home, 'config'),
    };
    mkdirSync(home, { recursive: true });
    const dir = path.join(tmp.dir, 'Workspace');
    const state = path.join(tmp.dir, 'state');

    const install = await runCli(['integrate', '--install', '--state', state], { env: xdg });
    expect(install.code, install.stderr).toBe(0);
    const synced = await runCli(
      syncArgs(sb, dir, state, '--once', '--on-demand', 'online', '--token-file', '-'),
      { stdin: `${token}\n` },
    );
    expect(synced.code, synced.stderr).toBe(0);
    for (const name of Object.keys(CONTENT)) {
      expect(existsSync(path.join(dir, `${name}.wsync`)), name).toBe(true);
      expect(existsSync(path.join(dir, name)), name).toBe(false);
    }
    expect(downloads()).toBe(0);

    // The usual app of text/plain: a recorder of its argv, into a FIFO the test reads.
    const record = path.join(tmp.dir, 'usual-app.fifo');
    expect(spawnSync('mkfifo', [record]).status).toBe(0);
    // (No space in its path, unquoted: xdg-utils' generic way splits Exec on spaces.)
    const app = path.join(tmp.dir, 'usual-app');
    writeFileSync(app, `#!/bin/sh\nfor a; do printf '%s\\0' "$a"; done > "$RECORD"\n`, {
      mode: 0o755,
    });
    const apps = path.join(xdg.XDG_DATA_HOME, 'applications');
    writeFileSync(
      path.join(apps, 'fake-editor.desktop'),
      `[Desktop Entry]\nType=Application\nName=Fake editor\nExec=${app} %f\nMimeType=text/plain;\n`,
    );
    const list = path.join(xdg.XDG_CONFIG_HOME, 'mimeapps.list');
    const lines = readFileSync(list, 'utf8').split('\n');
    lines.splice(lines.indexOf('[Default Applications]') + 1, 0, 'text/plain=fake-editor.desktop;');
    writeFileSync(list, lines.join('\n'));

    const notices = fakeNotifySend(path.join(tmp.dir, 'notices'));
    // A desktop session's environment: the XDG dirs, a token the session has (the launched CLI
    // finds no account otherwise), notify-send.
    // xdg-open goes by the MIME database only where there is a display (it never connects to
    // it here: the apps started are ours).
    const env = cliEnv({
      ...xdg,
      PATH: notices.path,
      RECORD: record,
      WORKSPACE_SYNC_TOKEN: token,
      DISPLAY: ':941',
      // Where xdg-open finds no app, it tries browsers: none is started here.
      BROWSER: 'false',
    });

    const cases: [string, string[], NodeJS.ProcessEnv][] = [
      // gio (what Nautilus, Nemo and Thunar open with) on the placeholder; on a desktop
      // xdg-open does not know, it opens the file its generic way (xdg-mime, the app's Exec).
      ['report.txt', ['gio', 'open'], env],
      // xdg-open in a GNOME session: gio, for the placeholder and for the file. (Its generic
      // way cannot open a placeholder: it types files with `file`, which has no globs of ours.)
      ['notes.txt', ['xdg-open'], { ...env, XDG_CURRENT_DESKTOP: 'GNOME' }],
    ];
    for (const [name, opener, e] of cases) {
      const placeholder = path.join(dir, `${name}.wsync`);
      const real = path.join(dir, name);
      const before = downloads();
      const received = readFile(record);
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          writeFileSync(record, ''); // lets the pending read end
          const said = notices.shown().join('\n');
          reject(
            new Error(
              `${opener.join(' ')}: the usual app was not started in time; notices:\n${said}`,
            ),
          );
        }, DEADLINE_MS);
      });
      const started = await runProgram([...opener, placeholder], e);
      expect(started.code, `${opener.join(' ')}: ${started.stderr}`).toBe(0);
      const argv = (await Promise.race([received, deadline])).toString().split('\0').slice(0, -1);
      clearTimeout(timer);
      expect(argv, opener.join(' ')).toEqual([real]);
      expect(readFileSync(real, 'utf8')).toBe(CONTENT[name as keyof typeof CONTENT]);
      expect(existsSync(placeholder)).toBe(false);
      expect(downloads() - before, name).toBe(1);
    }
    // Each said its download on the desktop, as it began (no terminal to say it in).
    const shown = notices.shown().map((n) => n.split('|')[4]);
    expect(shown).toContain('Downloading report.txt…');
    expect(shown).toContain('Downloading notes.txt…');
  }, 120_000);
});
