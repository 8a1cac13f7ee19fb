import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runMain } from './in-process';
import { KEYCHAIN_TEST_SERVICE, NO_BUS, tempDir } from './run-cli';

// The CLI's refusals as a German user gets them (LANG=de_DE.UTF-8): each wrong or refused command
// line exits as in English, says one or two lines on stderr, in German, without an English word;
// under LANG=C the same lines stay English. In-process (`main`, as the shipped-CLI test runs it):
// every case is refused before anything reaches a server (port 1 of 127.0.0.1 is never asked).

let tmp: Awaited<ReturnType<typeof tempDir>>;
let aFile: string;

beforeAll(async () => {
  tmp = await tempDir('german-errors');
  aFile = path.join(tmp.dir, 'a-file');
  await writeFile(aFile, 'not a folder\n');
});
afterAll(async () => {
  await tmp?.remove();
});

function run(args: string[], lang: string, extra: Record<string, string> = {}) {
  return runMain(args, {
    LANG: lang,
    WORKSPACE_SYNC_STATE: path.join(tmp.dir, 'state'),
    // Never the developer's keychain (no case should reach one).
    WORKSPACE_SYNC_KEYCHAIN_SERVICE: KEYCHAIN_TEST_SERVICE,
    DBUS_SESSION_BUS_ADDRESS: NO_BUS,
    HOME: tmp.dir,
    ...extra,
  });
}

const SERVER = 'http://127.0.0.1:1';
const dir = () => path.join(tmp.dir, 'Q3');
const missing = () => path.join(tmp.dir, 'nonexistent');

/** A command line, its exit status, a German word of its message and an English one. */
const CASES: [string, () => string[], number, string, string][] = [
  ['unknown option', () => ['sync', '--frobnicate'], 2, 'unbekannte Option', 'unknown option'],
  ['missing value', () => ['sync', '--server'], 2, 'verlangt einen Wert', 'argument missing'],
  [
    'value forgotten before an option',
    () => ['login', '--server', '--email', 'ann@example.com'],
    2,
    'verlangt einen Wert',
    'argument missing',
  ],
  ['a value to a switch', () => ['sync', '--once=yes'], 2, 'nimmt keinen Wert', 'does not take'],
  ['unexpected argument', () => ['status', 'extra'], 2, 'unerwartetes Argument', 'unexpected'],
  [
    'not a whole number',
    () => ['sync', '--server', SERVER, '--workspace', 'abc', '--dir', dir()],
    2,
    'positive ganze Zahl, nicht „abc“',
    'positive whole number',
  ],
  [
    'not a number',
    () => ['sync', '--server', SERVER, '--workspace', '1', '--dir', dir(), '--poll', 'abc'],
    2,
    'positive Zahl',
    'positive number',
  ],
  [
    'a limit out of range',
    () => ['sync', '--server', SERVER, '--workspace', '1', '--dir', dir(), '--limit-up', 'lots'],
    2,
    'keine Grenze',
    'no limit',
  ],
  [
    'sync without --workspace',
    () => ['sync', '--server', SERVER, '--dir', dir()],
    2,
    '--workspace fehlt',
    '--workspace is required',
  ],
  ['--token without --server', () => ['workspaces', '--token', 'x'], 2, 'fehlt', 'required'],
  [
    '--sandbox with --server',
    () => ['sync', '--sandbox', '--server', SERVER],
    2,
    'schließen einander aus',
    'exclude each other',
  ],
  [
    '--token with --token-file',
    () => [
      'sync',
      ...['--server', SERVER, '--workspace', '1', '--dir', dir()],
      ...['--token', 'x', '--token-file', aFile],
    ],
    2,
    'schließen einander aus',
    'exclude each other',
  ],
  [
    'two answers to deletions',
    () => [
      'sync',
      ...['--server', SERVER, '--workspace', '1', '--dir', dir()],
      ...['--confirm-remote-deletes', '--keep-local-copies'],
    ],
    2,
    'nicht zusammen',
    'cannot both',
  ],
  [
    '--dir is a file',
    () => ['sync', '--server', SERVER, '--workspace', '1', '--dir', aFile],
    2,
    'ist eine Datei, kein Ordner',
    'is a file, not a folder',
  ],
  [
    'a --token-file that does not exist',
    () => ['workspaces', '--server', SERVER, '--token-file', missing()],
    1,
    'gibt es nicht',
    'does not exist',
  ],
  [
    'login --store foo',
    () => ['login', '--server', SERVER, '--email', 'ann@example.com', '--store', 'foo'],
    2,
    'verlangt keychain oder file',
    'must be keychain or file',
  ],
  [
    'login to a server that is no URL',
    () => ['login', '--server', 'nonsense', '--email', 'ann@example.com'],
    1,
    'ist keine URL',
    'is not a URL',
  ],
  [
    'a proxy of another scheme',
    () => ['workspaces', '--server', SERVER, '--proxy', 'ftp://p:21'],
    2,
    'Nur',
    'only',
  ],
  ['folders without DIR', () => ['folders'], 2, 'DIR fehlt', 'DIR is required'],
  ['folders /nonexistent', () => ['folders', missing()], 1, 'gibt es nicht', 'does not exist'],
  [
    'folders of a folder not synced',
    () => ['folders', tmp.dir],
    1,
    'kein synchronisierter Ordner',
    'is not a sync folder',
  ],
  ['link without PATH', () => ['link'], 2, 'PATH fehlt', 'PATH is required'],
  ['link of a path not there', () => ['link', missing()], 1, 'gibt es nicht', 'does not exist'],
  [
    'link of a path not synced',
    () => ['link', aFile],
    1,
    'liegt in keinem Ordner',
    'is not in a folder',
  ],
  ['link of two paths', () => ['link', aFile, tmp.dir], 1, '2 wurden angegeben', '2 were given'],
  [
    'ui --port 99999',
    () => ['ui', '--server', SERVER, '--port', '99999'],
    2,
    'verlangt eine Portnummer',
    'must be a port number',
  ],
  ['ui --server nonsense', () => ['ui', '--server', 'nonsense'], 2, 'keine URL', 'is not a URL'],
  ['integrate without a choice', () => ['integrate'], 2, 'Wählen Sie', 'choose one'],
];

/** English that must not be left in a German line. */
const ENGLISH = [
  'must',
  'required',
  'unknown',
  'option',
  'argument',
  'is not',
  'cannot',
  'does not',
  'the ',
  'missing',
  'needs',
  'choose',
  'exclude each',
  'Run "',
];

describe('the CLI refuses in German', { timeout: 60_000 }, () => {
  it.each(CASES)('%s', async (_name, args, code, german, english) => {
    const de = await run(args(), 'de_DE.UTF-8');
    expect(de.code).toBe(code);
    const lines = de.err.trimEnd().split('\n');
    expect(lines.length, de.err).toBeGreaterThanOrEqual(1);
    expect(lines.length, de.err).toBeLessThanOrEqual(2);
    expect(lines[0]).toMatch(/^workspace-sync: /);
    expect(de.err).toContain(german);
    for (const word of ENGLISH) expect(de.err, word).not.toContain(word);
    if (code === 2) expect(lines[1]).toMatch(/^„workspace-sync( \w+)? --help“ zeigt den Aufruf\.$/);

    const en = await run(args(), 'C');
    expect(en.code).toBe(code);
    expect(en.err.trimEnd().split('\n')).toHaveLength(lines.length);
    expect(en.err).toContain(english);
    expect(en.err).not.toContain(german);
  });

  it('says the help of folders (and integrate) in German, and English under LANG=C', async () => {
    const de = await run(['folders', '--help'], 'de_DE.UTF-8');
    expect(de.code).toBe(0);
    expect(de.out).toMatch(/^Aufruf: workspace-sync folders DIR /);
    expect(de.out).toContain('dieser Text');
    expect(de.out).toContain('„synchronisiert“ oder „nicht synchronisiert“');
    for (const word of ['usage:', 'examples:', 'this text', 'state directory', 'the '])
      expect(de.out, word).not.toContain(word);
    const en = await run(['folders', '--help'], 'C');
    expect(en.out).toMatch(/^usage: workspace-sync folders DIR /);
    expect(en.out).toContain('"synced" or "not synced", then the path.');

    const integrate = await run(['integrate', '--help'], 'de_DE.UTF-8');
    expect(integrate.out).toMatch(/^Aufruf: workspace-sync integrate --install \| --uninstall/);
    expect(integrate.out).toContain('dieser Text');
    for (const word of ['usage:', 'this text', 'the files'])
      expect(integrate.out).not.toContain(word);
    // The entry's German name, as a German file manager shows it.
    expect(integrate.out).toContain('„Workspace-Sync-Link kopieren“');
  });

  it("says why a file manager's entry could not be written in German", async () => {
    const home = path.join(tmp.dir, 'home');
    const uca = path.join(home, '.config', 'Thunar', 'uca.xml');
    await mkdir(path.dirname(uca), { recursive: true });
    await writeFile(uca, '<other/>\n');
    const de = await run(['integrate', '--install'], 'de_DE.UTF-8', { HOME: home });
    expect(de.code).toBe(1);
    expect(de.err).toBe(
      `workspace-sync: Nicht jeder Eintrag ließ sich schreiben. Thunar: ${uca} ist nicht die Liste der benutzerdefinierten Aktionen von Thunar (kein <actions>): Sie bleibt, wie sie ist.\n`,
    );
    const en = await run(['integrate', '--install'], 'C', { HOME: home });
    expect(en.err).toBe(
      `workspace-sync: Could not write every entry. Thunar: ${uca} is not Thunar's list of custom actions (no <actions>): left as it is.\n`,
    );
  });
});
