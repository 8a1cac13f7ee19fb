import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppCallError, DEFAULT_SETTINGS, type Settings } from '../../src/shared/app-api';
import { MAX_PATTERNS, SETTINGS_FILE, SettingsStore } from '../../src/main/state/settings';
import type { Logger } from '../../src/main/sync/ports';
import { tempDir } from '../cli/run-cli';

// The settings store on a real state directory: what is on disk, what a bad file costs.

let tmp: { dir: string; remove(): Promise<void> };
let lines: { level: string; message: string; fields?: Record<string, unknown> }[];
const log: Logger = {
  debug: (message, fields) => lines.push({ level: 'debug', message, fields }),
  info: (message, fields) => lines.push({ level: 'info', message, fields }),
  warn: (message, fields) => lines.push({ level: 'warn', message, fields }),
  error: (message, fields) => lines.push({ level: 'error', message, fields }),
};

beforeEach(async () => {
  tmp = await tempDir('settings');
  lines = [];
});
afterEach(() => tmp.remove());

const file = () => path.join(tmp.dir, SETTINGS_FILE);
const store = () => SettingsStore.inDir(tmp.dir, log);

/** The AppError a refused update throws. */
async function refusal(patch: unknown): Promise<{ kind: string; message: string }> {
  // Deliberately untyped: a caller outside TypeScript (the bridge's JSON) can send anything.
  const error = await store()
    .update(patch as Partial<Settings>)
    .then(
      () => null,
      (e: unknown) => e,
    );
  if (!(error instanceof AppCallError)) throw new Error(`not refused: ${String(error)}`);
  return error.error;
}

describe('SettingsStore', () => {
  it('gives the defaults when there is no file, and writes none', async () => {
    expect(await store().load()).toEqual({
      notifications: true,
      startAtLogin: false,
      pollIntervalSeconds: 30,
      ignorePatterns: [],
      uploadLimitKBps: 0,
      downloadLimitKBps: 0,
      proxy: '',
      language: 'system',
      browseSorts: {},
    });
    await expect(stat(file())).rejects.toMatchObject({ code: 'ENOENT' });
    expect(lines).toEqual([]);
  });

  it('round-trips every setting through the file, readable by this user only', async () => {
    const wanted: Settings = {
      notifications: false,
      startAtLogin: true,
      pollIntervalSeconds: 120,
      ignorePatterns: ['*.log', 'build/', '!keep.log', '# a note', 'Ünïcode ✓/'],
      uploadLimitKBps: 250,
      downloadLimitKBps: 10_000_000,
      proxy: 'http://ann:pw@proxy.example.com:3128',
      language: 'de',
      browseSorts: { '7': { sort: 'size', reversed: true } },
    };
    expect(await store().update(wanted)).toEqual(wanted);
    expect(await SettingsStore.inDir(tmp.dir).load()).toEqual(wanted);
    expect(JSON.parse(await readFile(file(), 'utf8'))).toEqual({ version: 1, ...wanted });
    if (process.platform !== 'win32') expect((await stat(file())).mode & 0o777).toBe(0o600);
  });

  it('changes only the fields a patch names', async () => {
    await store().update({ pollIntervalSeconds: 60, ignorePatterns: ['*.bak'] });
    expect(await store().update({ notifications: false })).toEqual({
      ...DEFAULT_SETTINGS,
      notifications: false,
      pollIntervalSeconds: 60,
      ignorePatterns: ['*.bak'],
    });
    expect(await store().update({})).toMatchObject({ pollIntervalSeconds: 60 });
  });

  it('applies updates made at once one after the other, none lost', async () => {
    const s = store();
    await Promise.all([
      s.update({ notifications: false }),
      s.update({ startAtLogin: true }),
      s.update({ pollIntervalSeconds: 45 }),
      s.update({ ignorePatterns: ['x/'] }),
    ]);
    expect(await s.load()).toEqual({
      notifications: false,
      startAtLogin: true,
      pollIntervalSeconds: 45,
      ignorePatterns: ['x/'],
      uploadLimitKBps: 0,
      downloadLimitKBps: 0,
      proxy: '',
      language: 'system',
      browseSorts: {},
    });
  });

  it.each([
    ['not JSON', '{"notifications": fal'],
    ['an array', '[1, 2]'],
    ['null', 'null'],
    ['empty', ''],
  ])('a file that is %s gives the defaults and a log line, never a throw', async (_, text) => {
    await writeFile(file(), text);
    expect(await store().load()).toEqual(DEFAULT_SETTINGS);
    expect(lines.some((l) => l.level === 'error' && l.message.includes('settings.json'))).toBe(
      true,
    );
  });

  it('an invalid or unknown field costs only itself, each said in the log', async () => {
    await writeFile(
      file(),
      JSON.stringify({
        version: 1,
        notifications: 'yes',
        startAtLogin: true,
        pollIntervalSeconds: 2,
        ignorePatterns: ['*.log', 'two\nlines', '', 42],
        proxy: 'proxy.example.com:3128',
        colour: 'blue',
      }),
    );
    // ignorePatterns holds a number: the field as a whole is invalid.
    expect(await store().load()).toEqual({ ...DEFAULT_SETTINGS, startAtLogin: true });
    const said = lines.map((l) => `${l.message} ${JSON.stringify(l.fields)}`);
    expect(said).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/invalid setting.*"notifications"/),
        expect.stringMatching(/invalid setting.*"pollIntervalSeconds"/),
        expect.stringMatching(/invalid setting.*"ignorePatterns"/),
        expect.stringMatching(/invalid setting.*"proxy"/),
        expect.stringMatching(/unknown setting.*"colour"/),
      ]),
    );
  });

  it('leaves out the unusable patterns of a hand-edited file, keeping the rest', async () => {
    await writeFile(file(), JSON.stringify({ ignorePatterns: ['*.log', 'two\nlines', '', '!'] }));
    expect((await store().load()).ignorePatterns).toEqual(['*.log']);
    expect(lines).toEqual([expect.objectContaining({ level: 'warn', fields: { count: 3 } })]);
  });

  it('an update over an invalid file keeps what was valid and repairs the rest', async () => {
    await writeFile(file(), JSON.stringify({ startAtLogin: true, pollIntervalSeconds: 'often' }));
    expect(await store().update({ notifications: false })).toEqual({
      ...DEFAULT_SETTINGS,
      notifications: false,
      startAtLogin: true,
    });
    expect(JSON.parse(await readFile(file(), 'utf8'))).toMatchObject({ pollIntervalSeconds: 30 });
  });

  it('refuses an invalid patch whole, with a message naming what is wrong', async () => {
    await store().update({ pollIntervalSeconds: 90 });
    const before = await readFile(file(), 'utf8');

    for (const [patch, message] of [
      [{ pollIntervalSeconds: 4 }, /from 5 to 3600/],
      [{ pollIntervalSeconds: 3601 }, /from 5 to 3600/],
      [{ pollIntervalSeconds: 7.5 }, /whole number/],
      [{ notifications: 'yes' }, /notifications/],
      [{ theme: 'dark' }, /theme/],
      [{ ignorePatterns: '*.log' }, /ignorePatterns/],
      [{ ignorePatterns: ['*.log', 'a\nb'] }, /One pattern per line/],
      [{ ignorePatterns: ['ok', ''] }, /cannot be empty/],
      [{ ignorePatterns: ['!'] }, /matches nothing/],
      [{ ignorePatterns: ['bad\u0007bell'] }, /control character/],
      [{ ignorePatterns: ['x'.repeat(2000)] }, /longer than 1024/],
      [
        { proxy: 'proxy.example.com:3128' },
        /^proxy: write the proxy as a URL starting with http:\/\//,
      ],
      [{ proxy: 'socks5://127.0.0.1:1080' }, /not socks5:\/\//],
      [{ proxy: 'http://ann:pw@proxy:3128/path' }, /without a path/],
      [{ ignorePatterns: Array.from({ length: MAX_PATTERNS + 1 }, (_, i) => `f${i}`) }, /at most/],
      [{ uploadLimitKBps: -1 }, /whole number of KB\/s from 0 \(no limit\) to 10,000,000/],
      [{ downloadLimitKBps: 2.5 }, /whole number of KB\/s/],
      [{ downloadLimitKBps: 10_000_001 }, /from 0 \(no limit\)/],
      [{ uploadLimitKBps: '250' }, /uploadLimitKBps/],
      // One good field beside a bad one: still nothing applied.
      [{ notifications: false, pollIntervalSeconds: 0 }, /from 5 to 3600/],
    ] as const) {
      const error = await refusal(patch);
      expect(error.kind).toBe('invalid');
      expect(error.message).toMatch(message);
    }
    expect(await readFile(file(), 'utf8')).toBe(before);
  });
});
