import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ENTRY_ID,
  installIntegrations,
  integrationFiles,
  MENU_LABEL,
  uninstallIntegrations,
} from '../../src/main/os/integrate';
import { localPathOf } from '../../src/main/os/file-arg';
import {
  FILE_ACTIONS,
  FILE_ENTRIES,
  LINK_OPTIONS,
  type FileAction,
} from '../../src/main/os/menu-entry';
import { parseUi } from '../../src/main/cli/ui';
import { parseFiles } from '../../src/main/cli/files';
import { parseAppArgs } from '../../src/main/args';
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
} from '../cli/link-harness';
import { runCli, tempDir } from '../cli/run-cli';

// `workspace-sync integrate --install/--uninstall`: the entries of Nautilus, Nemo, Dolphin and
// Thunar written where each reads them (HOME in a temporary directory), Thunar's other actions
// kept; then each entry's command run the way its file manager runs it, on a synced file and
// folder, and the clipboard of a private X server read back.

let sb: RunningSandbox;
let tmp: { dir: string; remove(): Promise<void> };
let x: Xvfb;
let synced: SyncedFolder;
let home: string;
let notifications: ReturnType<typeof fakeNotifySend>;

// Quotes, $, a backslash, % and spaces in the sync folder's and the state directory's paths:
// every format's quoting is exercised by the paths themselves.
const ROOT_NAME = `Ann's "Q3" $HOME \\ 100%`;
const STATE_NAME = `state 'of' "it" $X 50%`;

/** Thunar's own writing: its header (not well-formed XML), a comment, two actions. */
const THEIR_UCA = `<?xml encoding="UTF-8" version="1.0"?>
<!-- kept by the user -->
<actions>
<action>
\t<icon>utilities-terminal</icon>
\t<name>Open Terminal Here</name>
\t<unique-id>1700000000000000-1</unique-id>
\t<command>exo-open --working-directory %f --launch TerminalEmulator</command>
\t<description>Example for a custom action &amp; more &lt;3</description>
\t<patterns>*</patterns>
\t<startup-notify/>
\t<directories/>
</action>
<action>
\t<icon>edit-find</icon>
\t<name>Search «here»</name>
\t<unique-id>1700000000000000-2</unique-id>
\t<command>catfish --path=%f</command>
\t<description></description>
\t<patterns>*</patterns>
\t<directories/>
</action>
</actions>
`;

beforeAll(async () => {
  sb = await startSandbox({ seed: 'empty' });
  tmp = await tempDir('integrate');
  synced = await syncedFolder(sb, {
    dir: path.join(tmp.dir, ROOT_NAME),
    state: path.join(tmp.dir, STATE_NAME),
  });
  home = path.join(tmp.dir, 'home');
  mkdirSync(home);
  notifications = fakeNotifySend(tmp.dir);
  x = await startXvfb();
});
afterAll(async () => {
  await x?.stop();
  await sb?.close();
  await tmp?.remove();
});

const integrate = (flag: '--install' | '--uninstall', env: Record<string, string> = {}) =>
  runCli(['integrate', flag, '--state', synced.state], {
    env: { HOME: home, XDG_DATA_HOME: '', XDG_CONFIG_HOME: '', ...env },
  });

const files = (h: string, env: NodeJS.ProcessEnv = {}) =>
  integrationFiles({ command: ['x'], env, home: h }).map((f) => f.file);

const snapshot = (paths: string[]) =>
  paths.map((p) => (existsSync(p) ? readFileSync(p, 'utf8') : null));

/** Strict XML (as a validator reads it), with Thunar's odd declaration set aside. */
const parseXml = (text: string) =>
  new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') throw new Error(message);
    },
  }).parseFromString(text, 'text/xml');

const actionsOf = (text: string) =>
  Array.from(parseXml(text.replace(/^<\?xml[^?]*\?>/, '')).getElementsByTagName('action')).map(
    (a) => ({
      id: a.getElementsByTagName('unique-id')[0]?.textContent,
      xml: a.toString(),
    }),
  );

describe('workspace-sync integrate', () => {
  it('--install writes the five entries where each file manager reads them, Thunar merged', async () => {
    const uca = path.join(home, '.config', 'Thunar', 'uca.xml');
    mkdirSync(path.dirname(uca), { recursive: true });
    writeFileSync(uca, THEIR_UCA);

    const run = await integrate('--install');
    expect(run.code, run.stderr).toBe(0);
    const expected = [
      path.join(home, '.local/share/nautilus/scripts', MENU_LABEL),
      path.join(home, '.local/share/nemo/actions', `${ENTRY_ID}.nemo_action`),
      path.join(home, '.local/share/kio/servicemenus', `${ENTRY_ID}.desktop`),
      path.join(home, '.local/share/kservices5/ServiceMenus', `${ENTRY_ID}.desktop`),
      uca,
    ];
    expect(files(home)).toEqual(expected);
    // Then the placeholders' opener's three files (test/os/open-handler.test.ts).
    expect(run.stdout.trimEnd().split('\n').slice(0, 5)).toEqual([
      `Nautilus: ${expected[0]}`,
      `Nemo: ${expected[1]}`,
      `Dolphin: ${expected[2]}`,
      `Dolphin (KDE 5): ${expected[3]}`,
      `Thunar: ${expected[4]}`,
    ]);
    // Nautilus runs a script only when it is executable; KIO, a service menu of the user's.
    const mode = (p: string) => statSync(p).mode & 0o777;
    expect(mode(expected[0]!)).toBe(0o755);
    expect(mode(expected[1]!)).toBe(0o644);
    expect(mode(expected[2]!)).toBe(0o755);
    expect(mode(expected[3]!)).toBe(0o755);

    const text = readFileSync(uca, 'utf8');
    expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    expect(() => parseXml(text)).not.toThrow();
    expect(text).toContain('<!-- kept by the user -->');
    const actions = actionsOf(text);
    expect(actions.map((a) => a.id)).toEqual([
      '1700000000000000-1',
      '1700000000000000-2',
      ENTRY_ID,
      LINK_OPTIONS.id,
      ...FILE_ACTIONS.map((a) => FILE_ENTRIES[a].id),
    ]);
    expect(actions.slice(0, 2)).toEqual(actionsOf(THEIR_UCA));

    // Each language's label goes in, for the file manager to pick its locale's: a German
    // desktop reads „Workspace-Sync-Link kopieren“ without the entry being written again.
    const ours = parseXml(text).getElementsByTagName('action')[2]!;
    const named = Array.from(ours.getElementsByTagName('name')).map((n) => [
      n.getAttribute('xml:lang') ?? '',
      n.textContent,
    ]);
    expect(named).toEqual([
      ['', MENU_LABEL],
      ['de', 'Workspace-Sync-Link kopieren'],
    ]);
    for (const keyFile of expected.slice(1, 4)) {
      const lines = readFileSync(keyFile, 'utf8').split('\n');
      expect(lines, keyFile).toContain(`Name=${MENU_LABEL}`);
      expect(lines, keyFile).toContain('Name[de]=Workspace-Sync-Link kopieren');
    }
    expect(readFileSync(expected[1]!, 'utf8')).toContain(
      'Comment[de]=Den Freigabelink dieses Elements in die Zwischenablage kopieren\n',
    );
  });

  it('--install again changes nothing; --uninstall removes ours only', async () => {
    const paths = files(home);
    const before = snapshot(paths);
    const again = await integrate('--install');
    expect(again.code, again.stderr).toBe(0);
    expect(snapshot(paths)).toEqual(before);

    const removed = await integrate('--uninstall');
    expect(removed.code, removed.stderr).toBe(0);
    // And Copy link with options…, files on demand's four entries (Thunar's uca.xml once), and
    // the opener's three files.
    expect(removed.stdout.trimEnd().split('\n')).toHaveLength(5 + 4 + 4 * 4 + 3);
    expect(paths.slice(0, 4).map(existsSync)).toEqual([false, false, false, false]);
    const uca = readFileSync(paths[4]!, 'utf8');
    expect(() => parseXml(uca)).not.toThrow();
    expect(actionsOf(uca)).toEqual(actionsOf(THEIR_UCA));

    const nothing = await integrate('--uninstall');
    expect(nothing.code).toBe(0);
    expect(nothing.stdout).toBe('');
    expect(nothing.stderr).toBe('There was no entry to remove.\n');
    expect(existsSync(path.join(home, '.local/share/nautilus/scripts/Workspace Sync'))).toBe(false);
  });

  it('leaves a file of the same name that is not ours, and a uca.xml it cannot read', async () => {
    const h = path.join(tmp.dir, 'home-other');
    const [, nemo, , , uca] = files(h);
    mkdirSync(path.dirname(nemo!), { recursive: true });
    writeFileSync(nemo!, '[Nemo Action]\nName=Mine\nExec=true\nSelection=s\nExtensions=any;\n');
    mkdirSync(path.dirname(uca!), { recursive: true });
    writeFileSync(uca!, '<actions><action></actions>');

    const install = await integrate('--install', { HOME: h });
    expect(install.code).toBe(1);
    expect(install.stderr).toMatch(/uca\.xml is not valid XML \(.*\): it was left as it is/);
    // The others are written all the same (files on demand's too, and the opener's three files),
    // and the broken file is said once.
    expect(install.stdout.trimEnd().split('\n')).toHaveLength(4 + 4 + 4 * 4 + 3);
    expect(install.stderr.match(/is not valid XML/g)).toHaveLength(1);
    expect(readFileSync(uca!, 'utf8')).toBe('<actions><action></actions>');

    writeFileSync(nemo!, '[Nemo Action]\nName=Mine\nExec=true\nSelection=s\nExtensions=any;\n');
    const uninstall = await integrate('--uninstall', { HOME: h });
    expect(readFileSync(nemo!, 'utf8')).toContain('Name=Mine');
    expect(uninstall.code).toBe(1);
    expect(uninstall.stdout).not.toContain(`Nemo: ${nemo!}\n`);
  });

  it('explains its usage: one of --install and --uninstall', async () => {
    const neither = await runCli(['integrate']);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('choose one of --install and --uninstall');
    const both = await runCli(['integrate', '--install', '--uninstall']);
    expect(both.code).toBe(2);
    const help = await runCli(['integrate', '--help']);
    expect(help.code).toBe(0);
    for (const option of ['--install', '--uninstall', '--state', '--verbose']) {
      expect(help.stdout).toContain(option);
    }
  });

  it('follows XDG_DATA_HOME and XDG_CONFIG_HOME', async () => {
    const data = path.join(tmp.dir, 'xdg data');
    const config = path.join(tmp.dir, 'xdg config');
    const run = await integrate('--install', { XDG_DATA_HOME: data, XDG_CONFIG_HOME: config });
    expect(run.code, run.stderr).toBe(0);
    const want = files(home, { XDG_DATA_HOME: data, XDG_CONFIG_HOME: config });
    expect(want[0]!.startsWith(data + path.sep)).toBe(true);
    expect(want[4]).toBe(path.join(config, 'Thunar', 'uca.xml'));
    expect(want.map(existsSync)).toEqual([true, true, true, true, true]);
  });
});

// ---- Running an entry the way its file manager does -------------------------------------------

/**
 * Each entry is started by test/os/fm-launch.py the way its file manager starts it, with
 * GLib's own parsing (g_shell_parse_argv, g_shell_quote, GDesktopAppInfo's Exec expansion):
 * Debian's python3 with python3-gi (pyenv's has no gi).
 */
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const FM_LAUNCH = path.join(import.meta.dirname, 'fm-launch.py');

interface Launch {
  argv: string[];
  cwd?: string;
}

/** How each file manager starts its entry for `items` (from the entries under `h`). */
function launches(h: string, items: string[]): Record<string, Launch> {
  const [nautilus, nemo, dolphin, dolphin5, uca] = files(h);
  const by = (manager: string, entry: string): Launch => ({
    argv: [PYTHON, FM_LAUNCH, manager, entry, ...items],
  });
  return {
    // Nautilus: the script in the folder shown, the selection relative to it as arguments and
    // as URIs and paths in the environment.
    Nautilus: by('nautilus', nautilus!),
    // Another caller: the arguments alone.
    'Nautilus (arguments only)': {
      argv: [nautilus!, ...items.map((p) => path.basename(p))],
      cwd: path.dirname(items[0]!),
    },
    Nemo: by('nemo', nemo!),
    Dolphin: by('dolphin', dolphin!),
    'Dolphin (KDE 5)': by('dolphin', dolphin5!),
    Thunar: by('thunar', uca!),
  };
}

function run(
  launch: Launch,
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(launch.argv[0]!, launch.argv.slice(1), {
      cwd: launch.cwd ?? tmp.dir,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stderr }));
  });
}

describe('the entries, run as their file managers run them', () => {
  it('pass the path through every format exactly (an app command with odd characters)', async () => {
    const h = path.join(tmp.dir, 'home-argv');
    const app = path.join(tmp.dir, `the "app" it's $PATH \\ 100%`);
    const record = path.join(tmp.dir, 'argv.bin');
    writeFileSync(app, `#!/bin/sh\nfor a; do printf '%s\\0' "$a"; done > "$RECORD"\n`, {
      mode: 0o755,
    });
    const command = [app, '--copy-link', `an arg: 'single' "double" \`tick\` $HOME \\ 5%`];
    await installIntegrations({ command, env: {}, home: h });
    const file = local(synced, `${NAMES.folder}/${NAMES.odd}`);
    for (const [manager, launch] of Object.entries(launches(h, [file]))) {
      const done = await run(launch, { PATH: process.env.PATH ?? '', RECORD: record });
      expect(done.code, `${manager}: ${done.stderr}`).toBe(0);
      const argv = readFileSync(record, 'utf8').split('\0').slice(0, -1);
      expect(argv.slice(0, -1), manager).toEqual([...command.slice(1), '--']);
      const cwd = launch.cwd ?? path.dirname(file);
      expect(localPathOf(argv.at(-1)!, cwd), manager).toBe(file);
    }
    expect((await uninstallIntegrations({ command, env: {}, home: h })).length).toBe(5);
  });

  it('pass each hostile name as one item, never a switch (issue 38, attacks 3 and 7)', async () => {
    const h = path.join(tmp.dir, 'home-hostile');
    const dir = path.join(tmp.dir, 'hostile');
    mkdirSync(dir);
    const names = [
      // A name that, split on its lines, is a whole CLI command line (attack 3; a name holds
      // no slash, so the server is a host name).
      'invoice.pdf\n--cli\nsync\n--server=evil.example:9\n--token=t\n--workspace=1\n--dir=.\n--once',
      // Nemo split these at `\ ` and cut them at ` #` (attack 7).
      'back\\ slash\\',
      'hash #tag #',
      `it's "q" $(id) \`id\` $HOME`,
      '100%free %f %F %U %%',
      '--hidden',
      ' leading space\ttab',
      'query?a=1&b;c#frag ü',
    ];
    const items = names.map((n) => path.join(dir, n));
    for (const p of items) writeFileSync(p, 'x');
    const app = path.join(tmp.dir, 'recorder');
    const record = path.join(tmp.dir, 'argv-hostile.bin');
    writeFileSync(app, `#!/bin/sh\nfor a; do printf '%s\\0' "$a"; done > "$RECORD"\n`, {
      mode: 0o755,
    });
    await installIntegrations({ command: [app, '--copy-link'], env: {}, home: h });
    const received = async (launch: Launch) => {
      const done = await run(launch, { PATH: process.env.PATH ?? '', RECORD: record });
      expect(done.code, done.stderr).toBe(0);
      const argv = readFileSync(record, 'utf8').split('\0').slice(0, -1);
      // What the app makes of them (args.ts): copy-link items only, no CLI, not hidden.
      return parseAppArgs(['app', ...argv], launch.cwd ?? dir);
    };
    for (const item of items) {
      for (const [manager, launch] of Object.entries(launches(h, [item]))) {
        expect(await received(launch), `${manager}: ${JSON.stringify(item)}`).toEqual({
          copyLink: [item],
          open: [],
          files: null,
          hidden: false,
          cli: null,
        });
      }
    }
    // Nautilus passes the whole selection: one item each.
    const all = launches(h, items);
    expect((await received(all.Nautilus!)).copyLink).toEqual(items);
    expect((await received(all['Nautilus (arguments only)']!)).copyLink).toEqual(items);
  });

  it('copy the right URL for a synced file and folder (the CLI, a private X display)', async () => {
    const install = await integrate('--install');
    expect(install.code, install.stderr).toBe(0);
    const env = {
      HOME: home,
      DISPLAY: x.display,
      PATH: notifications.path,
      // A file manager has the session's environment, not a shell's: a token the session has.
      WORKSPACE_SYNC_TOKEN: synced.token,
    };
    const items = [`${NAMES.folder}/${NAMES.odd}`, NAMES.folder];
    let runs = 0;
    for (const rel of items) {
      const url = await urlOf(sb, synced.client, synced.ids[rel]!);
      for (const [manager, launch] of Object.entries(launches(home, [local(synced, rel)]))) {
        await setClipboard('before');
        const done = await run(launch, env);
        runs++;
        expect(done.code, `${manager}: ${done.stderr}`).toBe(0);
        expect(await readClipboard(x.display), manager).toBe(url);
      }
    }
    // Each run said so on the desktop (there is no terminal).
    const shown = notifications.shown();
    expect(shown).toHaveLength(runs);
    expect(shown.every((l) => l.includes('|Copied the link of “'))).toBe(true);
    // A deadline for ten CLI runs one after another (the clipboard is one), not a measure.
  }, 120_000);
});

/** Puts `text` on the X clipboard (xclip serves it until the next copy). */
function setClipboard(text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('xclip', ['-selection', 'clipboard', '-in'], {
      env: { ...process.env, DISPLAY: x.display },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`xclip ${code}`))));
    child.stdin.end(text);
  });
}

// ---- Files on demand's entries (issue 41) ---------------------------------------------------

describe("files on demand's entries: Download now, Always keep, Don't always keep, Free up space", () => {
  const entryFiles = (h: string, action: FileAction) =>
    integrationFiles({ command: ['x'], env: {}, home: h }, FILE_ENTRIES[action]).map((f) => f.file);

  it('--install writes them beside the copy-link entries, --uninstall removes them', async () => {
    const h = path.join(tmp.dir, 'home-files');
    mkdirSync(h);
    const uca = path.join(h, '.config', 'Thunar', 'uca.xml');
    mkdirSync(path.dirname(uca), { recursive: true });
    writeFileSync(uca, THEIR_UCA);
    const run = await integrate('--install', { HOME: h });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      "Added Download now, Always keep on this device, Don't always keep, Free up space (files on demand) to the file managers' menus.",
    );
    const scripts = path.join(h, '.local/share/nautilus/scripts');
    for (const action of FILE_ACTIONS) {
      const [nautilus, nemo, dolphin, dolphin5] = entryFiles(h, action);
      const id = FILE_ENTRIES[action].id;
      // Nautilus: a "Workspace Sync" submenu (a folder of scripts); Dolphin: X-KDE-Submenu.
      expect(path.dirname(nautilus!)).toBe(path.join(scripts, 'Workspace Sync'));
      expect(nemo).toBe(path.join(h, '.local/share/nemo/actions', `${id}.nemo_action`));
      for (const f of [nautilus!, nemo!, dolphin!, dolphin5!]) expect(existsSync(f), f).toBe(true);
      expect(statSync(nautilus!).mode & 0o777).toBe(0o755);
      expect(readFileSync(dolphin!, 'utf8')).toContain('\nX-KDE-Submenu=Workspace Sync\n');
      expect(readFileSync(nemo!, 'utf8')).toContain('\nSelection=notnone\n');
    }
    // German labels beside the English ones.
    expect(readFileSync(entryFiles(h, 'pin')[1]!, 'utf8')).toContain(
      'Name[de]=Immer auf diesem Gerät behalten\n',
    );
    expect(actionsOf(readFileSync(uca, 'utf8')).map((a) => a.id)).toEqual([
      '1700000000000000-1',
      '1700000000000000-2',
      ENTRY_ID,
      LINK_OPTIONS.id,
      ...FILE_ACTIONS.map((a) => FILE_ENTRIES[a].id),
    ]);

    const removed = await integrate('--uninstall', { HOME: h });
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stderr).toContain(
      "Removed Download now, Always keep on this device, Don't always keep, Free up space.",
    );
    for (const action of FILE_ACTIONS) {
      expect(entryFiles(h, action).slice(0, 4).map(existsSync)).toEqual([
        false,
        false,
        false,
        false,
      ]);
    }
    expect(existsSync(path.join(scripts, 'Workspace Sync'))).toBe(false);
    expect(actionsOf(readFileSync(uca, 'utf8'))).toEqual(actionsOf(THEIR_UCA));
  });

  it('run `files ACTION --notify --state DIR -- PATH…`, hostile names each one argument', async () => {
    const h = path.join(tmp.dir, 'home-files-argv');
    const dir = path.join(tmp.dir, 'hostile files');
    mkdirSync(dir);
    const names = [
      'report final.pdf',
      `it's "q" $(id) \`id\` $HOME`,
      '-rf --help',
      '--notify',
      'two\nlines\n--cli',
      'back\\ slash %f %U %%',
      'hash #tag #',
    ];
    const items = names.map((n) => path.join(dir, n));
    for (const p of items) writeFileSync(p, 'x');
    const recorder = path.join(tmp.dir, `files "recorder" it's 100%`);
    const record = path.join(tmp.dir, 'argv-files.bin');
    writeFileSync(recorder, `#!/bin/sh\nfor a; do printf '%s\\0' "$a"; done > "$RECORD"\n`, {
      mode: 0o755,
    });
    const state = path.join(tmp.dir, `state "x" $Y`);
    for (const action of FILE_ACTIONS) {
      const head = ['files', action, '--notify', '--state', state];
      await installIntegrations(
        { command: [recorder, ...head], env: {}, home: h },
        FILE_ENTRIES[action],
      );
    }
    const [nautilus, nemo, dolphin, dolphin5, uca] = entryFiles(h, 'download');
    for (const action of FILE_ACTIONS) {
      const [nScript, nemoAction, kio, kio5] = entryFiles(h, action);
      const launchesOf: Record<string, Launch> = {
        Nautilus: { argv: [PYTHON, FM_LAUNCH, 'nautilus', nScript!, ...items] },
        'Nautilus (arguments only)': {
          argv: [nScript!, ...items.map((p) => path.basename(p))],
          cwd: dir,
        },
        Nemo: { argv: [PYTHON, FM_LAUNCH, 'nemo', nemoAction!, ...items] },
        Dolphin: { argv: [PYTHON, FM_LAUNCH, 'dolphin', kio!, ...items] },
        'Dolphin (KDE 5)': { argv: [PYTHON, FM_LAUNCH, 'dolphin', kio5!, ...items] },
        Thunar: { argv: [PYTHON, FM_LAUNCH, 'thunar', uca!, ...items] },
      };
      for (const [manager, launch] of Object.entries(launchesOf)) {
        const env = {
          PATH: process.env.PATH ?? '',
          RECORD: record,
          FM_ENTRY_ID: FILE_ENTRIES[action].id,
        };
        const done = await run(launch, env);
        const what = `${action}, ${manager}`;
        expect(done.code, `${what}: ${done.stderr}`).toBe(0);
        const argv = readFileSync(record, 'utf8').split('\0').slice(0, -1);
        expect(argv.slice(0, 6), what).toEqual([
          'files',
          action,
          '--notify',
          '--state',
          state,
          '--',
        ]);
        // What the CLI makes of them: the action, every item one path, in one run.
        const parsed = parseFiles(argv.slice(1));
        expect(parsed.action, what).toBe(action);
        expect(parsed.notify, what).toBe(true);
        expect(parsed.state, what).toBe(state);
        expect(
          parsed.paths.map((p) => path.resolve(launch.cwd ?? dir, p)),
          what,
        ).toEqual(items);
      }
    }
    expect([nautilus, nemo, dolphin, dolphin5].map((f) => existsSync(f!))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    for (const action of FILE_ACTIONS) {
      const gone = await uninstallIntegrations(
        { command: [], env: {}, home: h },
        FILE_ENTRIES[action],
      );
      expect(
        gone.map((g) => g.fileManager),
        action,
      ).toEqual(['Nautilus', 'Nemo', 'Dolphin', 'Dolphin (KDE 5)', 'Thunar']);
    }
    expect(existsSync(path.dirname(nautilus!))).toBe(false);
    expect(actionsOf(readFileSync(uca!, 'utf8'))).toEqual([]);
  }, 60_000);
});

describe('Copy link with options… (issue 42), beside Copy Workspace Sync link', () => {
  const optionFiles = (h: string) =>
    integrationFiles({ command: ['x'], env: {}, home: h }, LINK_OPTIONS).map((f) => f.file);

  it('--install writes it for every file manager, and it runs `ui --link-options` on the item', async () => {
    const h = path.join(tmp.dir, 'home-options');
    mkdirSync(h);
    const run0 = await integrate('--install', { HOME: h });
    expect(run0.code, run0.stderr).toBe(0);
    expect(run0.stderr).toContain('Added "Copy link with options…" to the file managers');
    const [nautilus, nemo, dolphin, dolphin5, uca] = optionFiles(h);
    expect(nautilus).toBe(path.join(h, '.local/share/nautilus/scripts', 'Copy link with options…'));
    for (const f of [nautilus!, nemo!, dolphin!, dolphin5!]) expect(existsSync(f), f).toBe(true);
    expect(readFileSync(nemo!, 'utf8')).toContain('\nName[de]=Link mit Optionen kopieren…\n');
    expect(readFileSync(nemo!, 'utf8')).toContain('\nSelection=s\n');
    expect(actionsOf(readFileSync(uca!, 'utf8')).map((a) => a.id)).toContain(LINK_OPTIONS.id);
    // The installed entry's command: the CLI's `ui --link-options --state DIR --` and the item.
    for (const f of [nautilus!, nemo!, dolphin!]) {
      expect(readFileSync(f, 'utf8'), f).toContain('ui');
      expect(readFileSync(f, 'utf8'), f).toContain('--link-options');
    }

    // Run as each manager runs it, with a recorder for the program: one item, never a switch.
    const recorder = path.join(tmp.dir, `options "recorder" it's 100%`);
    const record = path.join(tmp.dir, 'argv-options.bin');
    writeFileSync(recorder, `#!/bin/sh\nfor a; do printf '%s\\0' "$a"; done > "$RECORD"\n`, {
      mode: 0o755,
    });
    const h2 = path.join(tmp.dir, 'home-options-argv');
    const state = path.join(tmp.dir, `state "o" $Z`);
    await installIntegrations(
      { command: [recorder, 'ui', '--link-options', '--state', state], env: {}, home: h2 },
      LINK_OPTIONS,
    );
    const item = path.join(tmp.dir, `-rf it's "q" $(id) %f`);
    writeFileSync(item, 'x');
    const [n2, nemo2, kio2, kio52, uca2] = optionFiles(h2);
    const launchesOf: Record<string, Launch> = {
      Nautilus: { argv: [PYTHON, FM_LAUNCH, 'nautilus', n2!, item] },
      Nemo: { argv: [PYTHON, FM_LAUNCH, 'nemo', nemo2!, item] },
      Dolphin: { argv: [PYTHON, FM_LAUNCH, 'dolphin', kio2!, item] },
      'Dolphin (KDE 5)': { argv: [PYTHON, FM_LAUNCH, 'dolphin', kio52!, item] },
      Thunar: { argv: [PYTHON, FM_LAUNCH, 'thunar', uca2!, item] },
    };
    for (const [manager, launch] of Object.entries(launchesOf)) {
      const env = { PATH: process.env.PATH ?? '', RECORD: record, FM_ENTRY_ID: LINK_OPTIONS.id };
      const done = await run(launch, env);
      expect(done.code, `${manager}: ${done.stderr}`).toBe(0);
      const argv = readFileSync(record, 'utf8').split('\0').slice(0, -1);
      const parsed = parseUi(argv.slice(1));
      expect(argv[0], manager).toBe('ui');
      expect(parsed.linkOptions, manager).toBe(true);
      expect(parsed.state, manager).toBe(state);
      expect(
        parsed.paths.map((p) => localPathOf(p, tmp.dir)),
        manager,
      ).toEqual([item]);
    }
  }, 60_000);
});
