import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  installOpener,
  OPENER_ID,
  openerFiles,
  PLACEHOLDER_TYPE,
  uninstallOpener,
} from '../../src/main/os/open-handler';
import { withDefault, withoutDefault } from '../../src/main/os/mimeapps';
import { runCli, tempDir } from '../cli/run-cli';

// Double-clicking a placeholder (issue 41): `integrate --install` declares the type of
// `NAME.wsync`, a handler for it and that handler as its default, in a temporary XDG home; then
// GLib (what Nautilus, Nemo and Thunar open files with) is asked, through test/os/mime-open.py,
// which type a placeholder is, which app is its default, and to open one, as a double-click does.

let tmp: { dir: string; remove(): Promise<void> };
beforeAll(async () => {
  tmp = await tempDir('open-handler');
});
afterAll(async () => {
  await tmp?.remove();
});

/** A person's own mimeapps.list: defaults, a comment, another group, a blank line. */
const THEIR_MIMEAPPS = `[Default Applications]
# mine
text/html=firefox.desktop;
application/pdf=org.gnome.Evince.desktop;

[Added Associations]
image/png=gimp.desktop;eog.desktop;
`;

/** A home and XDG dirs of its own under the temporary directory (spaces in the XDG paths). */
function xdgHome(name: string, { spaces = true } = {}) {
  const home = path.join(tmp.dir, name);
  mkdirSync(home, { recursive: true });
  const sep = spaces ? ' ' : '-';
  return {
    HOME: home,
    XDG_DATA_HOME: path.join(home, `data${sep}home`),
    XDG_CONFIG_HOME: path.join(home, `config${sep}home`),
  };
}
type XdgEnv = ReturnType<typeof xdgHome>;

const integrate = (
  flag: '--install' | '--uninstall',
  env: XdgEnv & { PATH?: string; LANG?: string },
) => runCli(['integrate', flag, '--state', path.join(tmp.dir, 'state')], { env });

/** Debian's python3 with python3-gi (pyenv's has no gi). */
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const MIME_OPEN = path.join(import.meta.dirname, 'mime-open.py');

function glib(
  args: string[],
  env: XdgEnv & { RECORD?: string },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, [MIME_OPEN, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const typeOf = async (file: string, env: XdgEnv) => {
  const r = await glib(['type', file], env);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
};
const defaultOf = async (type: string, env: XdgEnv) => {
  const r = await glib(['default', type], env);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
};

/** `xdg-mime query default`: what xdg-open goes by outside a desktop it knows. */
function xdgMimeDefault(type: string, env: XdgEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('xdg-mime', ['query', 'default', type], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.once('error', reject);
    child.once('close', () => resolve(out.trim()));
  });
}

const strictXml = (text: string) =>
  new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') throw new Error(message);
    },
  }).parseFromString(text, 'text/xml');

describe('integrate: the opener of placeholders', () => {
  const env = () => xdgHome('home');
  const placeholder = () => path.join(tmp.dir, 'some.pdf.wsync');

  it('--install declares the type, the opener and its default; GLib finds them', async () => {
    const e = env();
    const list = path.join(e.XDG_CONFIG_HOME, 'mimeapps.list');
    mkdirSync(path.dirname(list), { recursive: true });
    writeFileSync(list, THEIR_MIMEAPPS);

    const run = await integrate('--install', e);
    expect(run.code, run.stderr).toBe(0);
    const [xml, desktop] = openerFiles({ command: [], env: e, home: e.HOME }).map((f) => f.file);
    expect(xml).toBe(path.join(e.XDG_DATA_HOME, 'mime/packages/workspace-sync.xml'));
    expect(desktop).toBe(path.join(e.XDG_DATA_HOME, 'applications', OPENER_ID));
    expect(run.stdout.trimEnd().split('\n').slice(-3)).toEqual([
      `MIME type: ${xml}`,
      `Opener: ${desktop}`,
      `Default app: ${list}`,
    ]);
    expect(run.stderr).toContain(
      'Double-clicking a placeholder (NAME.wsync) in a file manager now downloads the file and opens it.',
    );

    // Well-formed (update-mime-database skips a file that is not, and exits 0), both languages.
    const doc = strictXml(readFileSync(xml!, 'utf8'));
    const comments = Array.from(doc.getElementsByTagName('comment')).map((c) => [
      c.getAttribute('xml:lang') ?? '',
      c.textContent,
    ]);
    expect(comments).toEqual([
      ['', 'Workspace Sync placeholder (online only)'],
      ['de', 'Workspace-Sync-Platzhalter (nur online)'],
    ]);
    // Our one line, right under the header; every other byte theirs.
    expect(readFileSync(list, 'utf8')).toBe(
      THEIR_MIMEAPPS.replace(
        '[Default Applications]\n',
        `[Default Applications]\n${PLACEHOLDER_TYPE}=${OPENER_ID};\n`,
      ),
    );
    const entry = readFileSync(desktop!, 'utf8').split('\n');
    expect(entry).toContain('NoDisplay=true');
    expect(entry).toContain(`MimeType=${PLACEHOLDER_TYPE};`);
    expect(entry.find((l) => l.startsWith('Exec='))).toMatch(
      /^Exec=".+" "files" "open" "--notify" "--state" ".+" -- %f$/,
    );

    writeFileSync(placeholder(), 'Online only: report.pdf, 1.2 MB\n');
    expect(await typeOf(placeholder(), e)).toBe(PLACEHOLDER_TYPE);
    expect(await defaultOf(PLACEHOLDER_TYPE, e)).toBe(OPENER_ID);
    // Other types keep theirs.
    expect(await defaultOf('application/pdf', e)).not.toBe(OPENER_ID);
  });

  it('--install again changes nothing; --uninstall gives back mimeapps.list byte for byte', async () => {
    const e = env();
    const files = openerFiles({ command: [], env: e, home: e.HOME }).map((f) => f.file);
    const before = files.map((f) => readFileSync(f, 'utf8'));
    const again = await integrate('--install', e);
    expect(again.code, again.stderr).toBe(0);
    expect(files.map((f) => readFileSync(f, 'utf8'))).toEqual(before);

    const removed = await integrate('--uninstall', e);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout.trimEnd().split('\n').slice(-3)).toEqual([
      `MIME type: ${files[0]}`,
      `Opener: ${files[1]}`,
      `Default app: ${files[2]}`,
    ]);
    expect(removed.stderr).toContain('Removed the opener of placeholders.');
    expect(existsSync(files[0]!)).toBe(false);
    expect(existsSync(files[1]!)).toBe(false);
    expect(readFileSync(files[2]!, 'utf8')).toBe(THEIR_MIMEAPPS);
    // The database was compiled again without our type.
    expect(await typeOf(placeholder(), e)).not.toBe(PLACEHOLDER_TYPE);
    expect(await defaultOf(PLACEHOLDER_TYPE, e)).toBe('');

    const nothing = await integrate('--uninstall', e);
    expect(nothing.code).toBe(0);
    expect(nothing.stdout).toBe('');
    expect(nothing.stderr).toBe('There was no entry to remove.\n');
  });

  it('--uninstall removes the mimeapps.list that --install created', async () => {
    // No space in these XDG paths: xdg-utils 1.1.3 splits its search path on spaces.
    const e = xdgHome('home-no-list', { spaces: false });
    const list = path.join(e.XDG_CONFIG_HOME, 'mimeapps.list');
    expect((await integrate('--install', e)).code).toBe(0);
    // What xdg-open goes by outside a desktop it knows (then `file`, which has no globs of ours).
    expect(await xdgMimeDefault(PLACEHOLDER_TYPE, e)).toBe(OPENER_ID);
    expect(readFileSync(list, 'utf8')).toBe(
      `[Default Applications]\n${PLACEHOLDER_TYPE}=${OPENER_ID};\n`,
    );
    expect((await integrate('--uninstall', e)).code).toBe(0);
    expect(existsSync(list)).toBe(false);
  });

  it('without update-mime-database: one line says so, the rest is written', async () => {
    const e = xdgHome('home-no-tool');
    const empty = path.join(tmp.dir, 'empty-bin');
    mkdirSync(empty, { recursive: true });
    const run = await integrate('--install', { ...e, PATH: empty });
    expect(run.code, run.stderr).toBe(0);
    // Every entry is written all the same: the copy-link ones, Copy link with options…, files on
    // demand's four entries per manager and the opener's three files.
    expect(run.stdout.trimEnd().split('\n')).toHaveLength(5 + 4 + 4 * 4 + 3);
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines.filter((l) => l.includes('update-mime-database'))).toEqual([
      `update-mime-database was not found (Debian: sudo apt-get install shared-mime-info): file managers will not know placeholders until it has run on ${path.join(e.XDG_DATA_HOME, 'mime')}.`,
    ]);
    // Not said when it is not so.
    expect(run.stderr).not.toContain('Double-clicking');
  });

  it('says it in German under a German locale', async () => {
    const e = xdgHome('home-de');
    const empty = path.join(tmp.dir, 'empty-bin');
    mkdirSync(empty, { recursive: true });
    const run = await integrate('--install', { ...e, PATH: empty, LANG: 'de_DE.UTF-8' });
    expect(run.code, run.stderr).toBe(0);
    expect(
      run.stdout
        .trimEnd()
        .split('\n')
        .slice(-3)
        .map((l) => l.split(': ')[0]),
    ).toEqual(['MIME-Typ', 'Öffner', 'Standardanwendung']);
    expect(run.stderr).toContain(
      'update-mime-database wurde nicht gefunden (Debian: sudo apt-get install shared-mime-info): Dateimanager erkennen Platzhalter erst, wenn es auf ',
    );
    const ok = await integrate('--install', { ...e, LANG: 'de_DE.UTF-8' });
    expect(ok.stderr).toContain(
      'Ein Doppelklick auf einen Platzhalter (NAME.wsync) in einem Dateimanager lädt die Datei jetzt herunter und öffnet sie.',
    );
    const gone = await integrate('--uninstall', { ...e, LANG: 'de_DE.UTF-8' });
    expect(gone.stderr).toContain('Der Öffner für Platzhalter wurde entfernt.');
  });
});

describe('a double-click on a placeholder, through GLib', () => {
  it('runs the opener with the exact path as one argument, whatever the name holds', async () => {
    const e = xdgHome('home-launch');
    // Quotes, $, a backslash and % in the program's own path too.
    const recorder = path.join(tmp.dir, `the "opener" it's $PATH \\ 100%`);
    const record = path.join(tmp.dir, 'argv.bin');
    writeFileSync(recorder, `#!/bin/sh\nfor a; do printf '%s\\0' "$a"; done > "$RECORD"\n`, {
      mode: 0o755,
    });
    const done = await installOpener({
      command: [recorder, 'files', 'open'],
      env: e,
      home: e.HOME,
    });
    expect(done.failures).toEqual([]);
    expect(done.notes).toEqual([]);

    const dir = path.join(tmp.dir, 'placeholders');
    mkdirSync(dir, { recursive: true });
    const names = [
      'report.pdf.wsync',
      `it's "q" $(id) \`id\` $HOME.pdf.wsync`,
      '-rf --help.wsync',
      'two\nlines.pdf.wsync',
      ' leading space\ttab.wsync',
      'back\\ slash %f %U %%.wsync',
      'query?a=1&b;c#frag ü.docx.wsync',
    ];
    for (const name of names) {
      const file = path.join(dir, name);
      writeFileSync(file, 'Online only\n');
      const opened = await glib(['open', file], { ...e, RECORD: record });
      expect(opened.code, `${JSON.stringify(name)}: ${opened.stderr}`).toBe(0);
      expect(opened.stdout.trim(), JSON.stringify(name)).toBe(OPENER_ID);
      const argv = readFileSync(record, 'utf8').split('\0').slice(0, -1);
      expect(argv, JSON.stringify(name)).toEqual(['files', 'open', '--', file]);
    }
    const removed = await uninstallOpener({ command: [], env: e, home: e.HOME });
    expect(removed.done.map((d) => d.part)).toEqual(['mimeType', 'opener', 'defaultApp']);
    expect(existsSync(path.join(e.XDG_CONFIG_HOME, 'mimeapps.list'))).toBe(false);
  });
});

/** Runs a program to completion; its exit status and stderr. */
function runProgram(argv: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stderr }));
  });
}

describe('a double-click on a placeholder, through the desktop tools', () => {
  it('gio open and xdg-open (in a GNOME session) run the opener on it', async () => {
    const e = xdgHome('home-gio');
    const recorder = path.join(tmp.dir, 'gio-recorder');
    writeFileSync(recorder, `#!/bin/sh\nfor a; do printf '%s\\0' "$a"; done > "$RECORD"\n`, {
      mode: 0o755,
    });
    await installOpener({ command: [recorder, 'files', 'open'], env: e, home: e.HOME });
    const dir = path.join(tmp.dir, 'gio placeholders');
    mkdirSync(dir, { recursive: true });
    // These tools return once the app is started: the recorder writes into a FIFO, whose read
    // ends when it has written (no polling); a tool that fails gets it closed by us instead.
    const fifo = path.join(tmp.dir, 'argv.fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const opened = async (argv: string[], extra: Record<string, string> = {}) => {
      const read = readFile(fifo);
      const done = await runProgram(argv, {
        PATH: process.env.PATH ?? '',
        ...e,
        RECORD: fifo,
        ...extra,
      });
      if (done.code !== 0) writeFileSync(fifo, '');
      const argvOf = (await read).toString().split('\0').slice(0, -1);
      expect(done.code, `${argv.join(' ')}: ${done.stderr}`).toBe(0);
      return argvOf;
    };
    for (const name of [`it's "q" $(id) -x.pdf.wsync`, 'two\nlines.wsync']) {
      const file = path.join(dir, name);
      writeFileSync(file, 'Online only\n');
      const want = ['files', 'open', '--', file];
      expect(await opened(['gio', 'open', file]), JSON.stringify(name)).toEqual(want);
      expect(
        await opened(['xdg-open', file], { XDG_CURRENT_DESKTOP: 'GNOME' }),
        JSON.stringify(name),
      ).toEqual(want);
    }
  });
});

describe('mimeapps.list: our line in, our line out', () => {
  const T = PLACEHOLDER_TYPE;
  const ID = OPENER_ID;
  const befores = [
    '',
    THEIR_MIMEAPPS,
    '[Added Associations]\nimage/png=eog.desktop;\n',
    '# only a comment\n',
    '[Default Applications]',
    '[Added Associations]\nimage/png=eog.desktop;\n[Default Applications]\ntext/html=f.desktop;',
  ];
  it('gives back every file as it was', () => {
    for (const before of befores) {
      const after = withDefault(before, T, ID);
      expect(after, JSON.stringify(before)).toContain(`${T}=${ID};`);
      expect(withDefault(after, T, ID), JSON.stringify(before)).toBe(after);
      expect(withoutDefault(after, T, ID), JSON.stringify(before)).toBe(before);
    }
  });
  it('takes an empty [Default Applications] at the end for the one it added (it said nothing)', () => {
    const added = withDefault('x=y\n\n[Default Applications]\n', T, ID);
    expect(added).toBe(`x=y\n\n[Default Applications]\n${T}=${ID};\n`);
    expect(withoutDefault(added, T, ID)).toBe('x=y\n');
    expect(withoutDefault(withDefault('[Default Applications]\n', T, ID), T, ID)).toBe('');
  });
  it('replaces another default for our type; leaves one that is not ours alone', () => {
    const other = `[Default Applications]\n${T}=other.desktop;\ntext/html=f.desktop;\n`;
    expect(withDefault(other, T, ID)).toBe(
      `[Default Applications]\n${T}=${ID};\ntext/html=f.desktop;\n`,
    );
    expect(withoutDefault(other, T, ID)).toBeNull();
    // A line of our type in another group is not ours.
    expect(withoutDefault(`[Added Associations]\n${T}=${ID};\n`, T, ID)).toBeNull();
  });
});
