import { existsSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { IGNORE_FILE, IgnoreRules, patternProblem } from '../../src/main/sync/detect-local/ignore';
import type { ServiceClient } from '../../src/main/api/client';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import {
  TempDirs,
  clientFor,
  openPair,
  remoteTree,
  settledUntil,
  tokenOf,
  type Pair,
} from './harness';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function rootWith(ignoreFile?: string | Buffer): string {
  const root = mkdtempSync(path.join(tmpdir(), 'ignore-test-'));
  roots.push(root);
  if (ignoreFile !== undefined) writeFileSync(path.join(root, IGNORE_FILE), ignoreFile);
  return root;
}

describe('built-in rules', () => {
  const rules = IgnoreRules.of();

  it.each([
    '.DS_Store',
    'Thumbs.db',
    'desktop.ini',
    '~$Report.docx',
    'data.tmp',
    '.~lock.sheet.ods#',
    'notes.txt.swp',
    'notes.txt.swx',
    '.notes.txt.swp',
    'notes.txt~',
    'movie.mp4.crdownload',
    'movie.mp4.part',
    '.#notes.txt',
    '4913',
  ])('ignores %s, at the top and deeper', (name) => {
    expect(rules.ignores(name, false)).toBe(true);
    expect(rules.ignores(`a/b/${name}`, false)).toBe(true);
  });

  it.each(['.ds_store', '.DS_STORE', 'thumbs.db', 'THUMBS.DB', 'Desktop.ini', 'DESKTOP.INI'])(
    'ignores the system file %s in any case',
    (name) => {
      expect(rules.ignores(name, false)).toBe(true);
      expect(rules.ignores(`docs/${name}`, false)).toBe(true);
    },
  );

  it.each([
    'report.docx',
    'tmp',
    'data.tmp.txt',
    'a$b',
    'part',
    'swp',
    '49130',
    '.gitignore',
    '.hidden',
    'lock.~txt',
  ])('keeps %s', (name) => {
    expect(rules.ignores(name, false)).toBe(false);
    expect(rules.ignores(`a/${name}`, false)).toBe(false);
  });

  it("ignores the engine's cache folder at the top only, and everything in it", () => {
    expect(rules.ignores('.workspace-sync-cache', true)).toBe(true);
    expect(rules.ignores('.workspace-sync-cache/partial', true)).toBe(true);
    expect(rules.ignores('.workspace-sync-cache/partial/file.bin', false)).toBe(true);
    expect(rules.ignores('docs/.workspace-sync-cache', true)).toBe(false);
  });

  it('never ignores the ignore file itself, nor the root', () => {
    expect(IgnoreRules.isIgnoreFile(IGNORE_FILE)).toBe(true);
    expect(IgnoreRules.isIgnoreFile(`a/${IGNORE_FILE}`)).toBe(false);
    expect(rules.ignores(IGNORE_FILE, false)).toBe(false);
    expect(IgnoreRules.of(['.*', IGNORE_FILE]).ignores(IGNORE_FILE, false)).toBe(false);
    expect(rules.ignores('', true)).toBe(false);
  });

  it('does not throw on paths the gitignore library rejects', () => {
    for (const odd of ['./x', '/x', '..', '../x', '.', 'a/../b', 'a\\b']) {
      expect(() => rules.ignores(odd, false)).not.toThrow();
      expect(() => rules.ignores(odd, true)).not.toThrow();
    }
    expect(rules.ignores('./x', false)).toBe(false);
  });
});

describe("the user's ignore file", () => {
  it('adds gitignore rules: folders, patterns, negation', () => {
    const rules = IgnoreRules.load(
      rootWith('# comment\nbuild/\n*.log\n!keep.log\n/top-only.txt\n'),
    );
    expect(rules.problems).toEqual([]);
    expect(rules.ignores('build', true)).toBe(true);
    expect(rules.ignores('src/build', true)).toBe(true);
    expect(rules.ignores('build/out.js', false)).toBe(true);
    expect(rules.ignores('build', false)).toBe(false); // a file named build: `build/` is for folders
    expect(rules.ignores('debug.log', false)).toBe(true);
    expect(rules.ignores('logs/debug.log', false)).toBe(true);
    expect(rules.ignores('keep.log', false)).toBe(false);
    expect(rules.ignores('logs/keep.log', false)).toBe(false);
    expect(rules.ignores('top-only.txt', false)).toBe(true);
    expect(rules.ignores('a/top-only.txt', false)).toBe(false);
    expect(rules.ignores('# comment', false)).toBe(false);
    expect(rules.ignores('src/main.ts', false)).toBe(false);
    expect(rules.ignores(IGNORE_FILE, false)).toBe(false);
  });

  it('answers the same however many paths it is asked about (its memory is bounded)', () => {
    const rules = IgnoreRules.load(rootWith('build/\n*.log\n!keep.log\n'));
    // Well past the point where the matchers are built afresh, several times over.
    for (let i = 0; i < 12_000; i++) {
      const dir = `d${i % 97}/e${i}`;
      expect(rules.ignores(`${dir}/x${i}.log`, false)).toBe(true);
      expect(rules.ignores(`${dir}/keep.log`, false)).toBe(false);
      expect(rules.ignores(`${dir}/build`, true)).toBe(true);
      expect(rules.ignores(`${dir}/~$report${i}.docx`, false)).toBe(true);
      expect(rules.ignores(`${dir}/THUMBS.DB`, false)).toBe(true);
      expect(rules.ignores(`${dir}/notes${i}.txt`, false)).toBe(false);
    }
  });

  it('is case-sensitive, like gitignore on Linux', () => {
    const rules = IgnoreRules.load(rootWith('*.log\n'));
    expect(rules.ignores('debug.log', false)).toBe(true);
    expect(rules.ignores('DEBUG.LOG', false)).toBe(false);
  });

  it('cannot bring back the built-in names or the cache folder', () => {
    const rules = IgnoreRules.load(rootWith('!*.tmp\n!.DS_Store\n!/.workspace-sync-cache\n'));
    expect(rules.ignores('data.tmp', false)).toBe(true);
    expect(rules.ignores('.DS_Store', false)).toBe(true);
    expect(rules.ignores('.workspace-sync-cache', true)).toBe(true);
  });

  it('reads CRLF line ends and a byte order mark', () => {
    const rules = IgnoreRules.load(rootWith('\uFEFF*.log\r\nbuild/\r\n'));
    expect(rules.ignores('a.log', false)).toBe(true);
    expect(rules.ignores('build', true)).toBe(true);
  });

  it('survives a malformed file: odd lines are skipped or harmless, good lines still apply', () => {
    const odd = [
      '[z-a]',
      '[',
      '\\',
      '!',
      '',
      '   ',
      'a[',
      '\u0000\u0001\uFFFD',
      'x'.repeat(5000),
      '**/[!',
      '*.bak',
      '',
    ].join('\n');
    const rules = IgnoreRules.load(
      rootWith(Buffer.concat([Buffer.from(odd), Buffer.from([0xff, 0xfe, 0x0a])])),
    );
    expect(rules.ignores('old.bak', false)).toBe(true);
    expect(rules.ignores('notes.txt', false)).toBe(false);
    expect(rules.ignores('data.tmp', false)).toBe(true);
  });

  it('without an ignore file: the built-ins only, no problem reported', () => {
    const rules = IgnoreRules.load(rootWith());
    expect(rules.problems).toEqual([]);
    expect(rules.ignores('x.tmp', false)).toBe(true);
    expect(rules.ignores('x.log', false)).toBe(false);
  });

  it('an unreadable ignore file (here a folder) is reported, not thrown; the built-ins still apply', () => {
    const root = rootWith();
    mkdirSync(path.join(root, IGNORE_FILE));
    const rules = IgnoreRules.load(root);
    expect(rules.problems).toHaveLength(1);
    expect(rules.problems[0]).toContain(IGNORE_FILE);
    expect(rules.ignores('x.tmp', false)).toBe(true);
  });

  it('load again picks up an edited file', () => {
    const root = rootWith('*.log\n');
    expect(IgnoreRules.load(root).ignores('a.log', false)).toBe(true);
    writeFileSync(path.join(root, IGNORE_FILE), '*.bak\n');
    const reloaded = IgnoreRules.load(root);
    expect(reloaded.ignores('a.log', false)).toBe(false);
    expect(reloaded.ignores('a.bak', false)).toBe(true);
  });
});

describe('patterns from the settings (every pair)', () => {
  it('apply with the built-ins and before the ignore file, which may bring a name back', () => {
    const rules = IgnoreRules.load(rootWith('!keep.log\n*.bak\n'), ['*.log', 'build/']);
    expect(rules.problems).toEqual([]);
    expect(rules.ignores('debug.log', false)).toBe(true);
    expect(rules.ignores('a/build', true)).toBe(true);
    expect(rules.ignores('keep.log', false)).toBe(false);
    expect(rules.ignores('old.bak', false)).toBe(true);
    expect(rules.ignores('x.tmp', false)).toBe(true);
    expect(rules.ignores('notes.txt', false)).toBe(false);
    // Without an ignore file, and with one that cannot be read, the settings' lines still apply.
    expect(IgnoreRules.load(rootWith(), ['*.log']).ignores('a.log', false)).toBe(true);
    const unreadable = rootWith();
    mkdirSync(path.join(unreadable, IGNORE_FILE));
    const both = IgnoreRules.load(unreadable, ['*.log']);
    expect(both.problems).toHaveLength(1);
    expect(both.ignores('a.log', false)).toBe(true);
  });

  it('cannot bring back the built-ins either, nor hide the ignore file', () => {
    const rules = IgnoreRules.load(rootWith(), ['!*.tmp', '!/.workspace-sync-cache', '.*']);
    expect(rules.ignores('data.tmp', false)).toBe(true);
    expect(rules.ignores('.workspace-sync-cache', true)).toBe(true);
    expect(rules.ignores(IGNORE_FILE, false)).toBe(false);
  });

  it('patternProblem accepts gitignore lines and names what is wrong with the rest', () => {
    for (const ok of ['*.log', 'build/', '!keep.log', '/top.txt', '# note', '[z-a]', '**/x'])
      expect(patternProblem(ok)).toBeNull();
    expect(patternProblem('a\nb')).toMatch(/One pattern per line/);
    expect(patternProblem('a\u0000b')).toMatch(/control character/);
    expect(patternProblem('   ')).toMatch(/cannot be empty/);
    expect(patternProblem('!/')).toMatch(/matches nothing/);
    expect(patternProblem('x'.repeat(1025))).toMatch(/longer than 1024/);
  });
});

describe('a running engine given new settings', { timeout: 60_000 }, () => {
  const dirs = new TempDirs();
  afterEach(() => dirs.cleanup());

  interface Running {
    sb: RunningSandbox;
    client: ServiceClient;
    pair: Pair;
    /** Starts the engine's continuous run (register what to wait for first). */
    start(): void;
    onService(rel: string): () => boolean;
  }

  /** A pair on an empty sandbox, run continuously by `body`, everything closed after. */
  async function withRunningPair(pollIntervalMs: number, body: (r: Running) => Promise<void>) {
    const sb = await startSandbox({ seed: 'empty' });
    const client = clientFor(
      sb.baseUrl,
      tokenOf(sb.users.find((u) => u.role === 'Administrator')!),
    );
    const pair = await openPair(sb, client, dirs, { pollIntervalMs });
    const stop = new AbortController();
    let running: Promise<void> = Promise.resolve();
    try {
      await body({
        sb,
        client,
        pair,
        start: () => (running = pair.engine.run(stop.signal)),
        onService: (rel) => () => remoteTree(sb).has(rel),
      });
      stop.abort();
      await running;
    } finally {
      stop.abort();
      await pair.close();
      await sb.close();
    }
  }

  it('a newly added pattern keeps a new file off the service, leaves synced ones, and its removal sends it', () =>
    withRunningPair(20, async ({ sb, pair, start, onService }) => {
      writeFileSync(path.join(pair.dir, 'old.log'), 'synced before the pattern');
      const first = settledUntil(pair.engine, onService('old.log'));
      start();
      await first;

      pair.engine.setExtraIgnore(['*.log']);
      // The marker is written after the ignored file: a pass that sends it has seen both.
      writeFileSync(path.join(pair.dir, 'new.log'), 'never sent while ignored');
      writeFileSync(path.join(pair.dir, 'marker.txt'), 'sent');
      await settledUntil(pair.engine, onService('marker.txt'));
      const remote = remoteTree(sb);
      expect(remote.has('new.log')).toBe(false);
      // Ignored now, but not deleted from the service: ignoring is not removing.
      expect(remote.has('old.log')).toBe(true);
      expect(existsSync(path.join(pair.dir, 'new.log'))).toBe(true);

      // The pattern gone: the folder is scanned again and the file goes up.
      pair.engine.setExtraIgnore([]);
      await settledUntil(pair.engine, onService('new.log'));
    }));

  it('a folder a removed pattern hid is watched from then on', () =>
    withRunningPair(20, async ({ sb, pair, start, onService }) => {
      pair.engine.setExtraIgnore(['build/']);
      mkdirSync(path.join(pair.dir, 'build'));
      writeFileSync(path.join(pair.dir, 'build', 'a.txt'), 'hidden at first');
      writeFileSync(path.join(pair.dir, 'marker.txt'), 'sent');
      const first = settledUntil(pair.engine, onService('marker.txt'));
      start();
      await first;
      expect(remoteTree(sb).has('build')).toBe(false);

      pair.engine.setExtraIgnore([]);
      await settledUntil(pair.engine, onService('build/a.txt'));
      // Only the watcher can bring this one in: no full scan is due for minutes.
      writeFileSync(path.join(pair.dir, 'build', 'b.txt'), 'seen by the watcher');
      await settledUntil(pair.engine, onService('build/b.txt'));
    }));

  // An hour between polls: only the new interval can bring the service's change in this test.
  it('a new poll interval applies to the wait under way', () =>
    withRunningPair(3_600_000, async ({ sb, client, pair, start }) => {
      const first = settledUntil(pair.engine, () => true);
      start();
      await first;
      const root = (await client.rootFolder(sb.workspaceId)).id;
      await client.uploadFile(root, 'theirs.txt', () =>
        Readable.from([Buffer.from('from the service')]),
      );
      const arrived = settledUntil(pair.engine, () =>
        existsSync(path.join(pair.dir, 'theirs.txt')),
      );
      pair.engine.setPollInterval(20);
      await arrived;
      expect(() => pair.engine.setPollInterval(0)).toThrow(RangeError);
    }));
});
