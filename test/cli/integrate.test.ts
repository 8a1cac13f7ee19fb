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
import { runCli, tempDir } from './run-cli';

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
    expect(run.stdout.trimEnd().split('\n')).toEqual([
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
    expect(removed.stdout.trimEnd().split('\n')).toHaveLength(5);
    expect(paths.slice(0, 4).map(existsSync)).toEqual([false, false, false, false]);
    const uca = readFileSync(paths[4]!, 'utf8');
    expect(() => parseXml(uca)).not.toThrow();
    expect(actionsOf(uca)).toEqual(actionsOf(THEIR_UCA));

    const nothing = await integrate('--uninstall');
    expect(nothing.code).toBe(0);
    expect(nothing.stdout).toBe('');
    expect(nothing.stderr).toBe('There was no entry to remove.\n');
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
    // The others are written all the same.
    expect(install.stdout.trimEnd().split('\n')).toHaveLength(4);
    expect(readFileSync(uca!, 'utf8')).toBe('<actions><action></actions>');

    writeFileSync(nemo!, '[Nemo Action]\nName=Mine\nExec=true\nSelection=s\nExtensions=any;\n');
    const uninstall = await integrate('--uninstall', { HOME: h });
    expect(readFileSync(nemo!, 'utf8')).toContain('Name=Mine');
    expect(uninstall.code).toBe(1);
    expect(uninstall.stdout).not.toContain('Nemo');
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

/** g_shell_parse_argv: quotes and backslashes as the shell has them, no expansion at all. */
function shellParse(line: string): string[] {
  const out: string[] = [];
  let cur: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      cur = (cur ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      cur ??= '';
      for (i++; line[i] !== '"'; i++) {
        if (line[i] === '\\' && '$`"\\\n'.includes(line[i + 1]!)) i++;
        cur += line[i]!;
      }
    } else if (c === '\\') {
      cur = (cur ?? '') + line[++i]!;
    } else if (/\s/.test(c)) {
      if (cur !== null) out.push(cur);
      cur = null;
    } else {
      cur = (cur ?? '') + c;
    }
  }
  if (cur !== null) out.push(cur);
  return out;
}

/** The value of `key` in `group` of a key file, with its string escapes undone. */
function keyFileValue(text: string, group: string, key: string): string {
  const lines = text.split('\n');
  const start = lines.indexOf(`[${group}]`);
  const line = lines.slice(start + 1).find((l) => l.startsWith(`${key}=`))!;
  return line
    .slice(key.length + 1)
    .replace(/\\(.)/g, (_, e: string) => ({ s: ' ', n: '\n', t: '\t', r: '\r' })[e] ?? e);
}

/** The Desktop Entry spec's Exec: double-quoted arguments, %f the file, %% a percent sign. */
function desktopExec(exec: string, file: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < exec.length) {
    if (exec[i] === ' ') {
      i++;
      continue;
    }
    let arg = '';
    if (exec[i] === '"') {
      for (i++; exec[i] !== '"'; i++) {
        if (exec[i] === '\\') i++;
        arg += exec[i]!;
      }
      i++;
    } else {
      while (i < exec.length && exec[i] !== ' ') arg += exec[i++]!;
    }
    out.push(arg === '%f' ? file : arg.replaceAll('%%', '%'));
  }
  return out;
}

/** Nemo's %F with EscapeSpaces: quotes, backslashes and spaces escaped by a backslash. */
const nemoPath = (p: string) => p.replace(/['"\\\t]/g, '\\$&').replaceAll(' ', '\\ ');

/** Thunar's %f (g_shell_quote), %% a percent sign, any other %-pair dropped. */
const thunarExpand = (command: string, file: string) =>
  command.replace(/%(.)/g, (_, c: string) =>
    c === 'f' ? `'${file.replaceAll("'", `'\\''`)}'` : c === '%' ? '%' : '',
  );

interface Launch {
  argv: string[];
  cwd?: string;
  env?: Record<string, string>;
}

/** How each file manager starts its entry for `file` (from the entries under `h`). */
function launches(h: string, file: string): Record<string, Launch> {
  const [nautilus, nemo, dolphin, dolphin5, uca] = files(h);
  const thunar = Array.from(
    parseXml(readFileSync(uca!, 'utf8')).getElementsByTagName('action'),
  ).find((a) => a.getElementsByTagName('unique-id')[0]?.textContent === ENTRY_ID)!;
  const command = thunar.getElementsByTagName('command')[0]!.textContent!;
  const exec = (desktop: string) =>
    desktopExec(
      keyFileValue(readFileSync(desktop, 'utf8'), 'Desktop Action copyWorkspaceSyncLink', 'Exec'),
      file,
    );
  return {
    // Nautilus: the script in the folder shown, the selection relative to it and as absolute
    // paths in the environment.
    Nautilus: {
      argv: [nautilus!, path.basename(file)],
      cwd: path.dirname(file),
      env: { NAUTILUS_SCRIPT_SELECTED_FILE_PATHS: `${file}\n` },
    },
    'Nautilus (arguments only)': {
      argv: [nautilus!, path.basename(file)],
      cwd: path.dirname(file),
    },
    Nemo: {
      argv: shellParse(
        keyFileValue(readFileSync(nemo!, 'utf8'), 'Nemo Action', 'Exec').replace(
          '%F',
          nemoPath(file),
        ),
      ),
    },
    Dolphin: { argv: exec(dolphin!) },
    'Dolphin (KDE 5)': { argv: exec(dolphin5!) },
    Thunar: { argv: ['/bin/sh', '-c', thunarExpand(command, file)] },
  };
}

function run(
  launch: Launch,
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(launch.argv[0]!, launch.argv.slice(1), {
      cwd: launch.cwd ?? tmp.dir,
      env: { ...env, ...launch.env },
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
    for (const [manager, launch] of Object.entries(launches(h, file))) {
      const done = await run(launch, { PATH: process.env.PATH ?? '', RECORD: record });
      expect(done.code, `${manager}: ${done.stderr}`).toBe(0);
      const argv = readFileSync(record, 'utf8').split('\0').slice(0, -1);
      const expectedPath = manager.startsWith('Nautilus (') ? path.basename(file) : file;
      expect(argv, manager).toEqual([...command.slice(1), expectedPath]);
    }
    expect((await uninstallIntegrations({ command, env: {}, home: h })).length).toBe(5);
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
      for (const [manager, launch] of Object.entries(launches(home, local(synced, rel)))) {
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
  });
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
