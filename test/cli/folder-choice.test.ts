import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { countUploads } from '../../src/main/sync/loop/first-sync';
import { translator } from '../../src/shared/i18n';
import { remoteTree } from '../sync/harness';
import { runCli, tempDir } from './run-cli';

// Issue 39: `sync --dir /etc` uploaded /etc and wrote the workspace into it, and a folder with
// files in it was merged into the workspace without a word. A real child process against the
// sandbox over HTTP.

let sb: RunningSandbox;
let tmp: { dir: string; remove(): Promise<void> };
let workspaceName = '';

beforeAll(async () => {
  sb = await startSandbox({ seed: 'demo' });
  tmp = await tempDir('folder-choice');
  workspaceName = sb.sandbox.db
    .prepare(`SELECT name FROM workspaces WHERE id = ?`)
    .pluck()
    .get(sb.workspaceId) as string;
});
afterAll(async () => {
  await sb?.close();
  await tmp?.remove();
});

/** `sync --once` of the demo workspace into `dir` (the token through standard input). */
function syncOnce(dir: string, opts: { extra?: string[]; env?: Record<string, string> } = {}) {
  return runCli(
    [
      'sync',
      '--once',
      '--server',
      sb.baseUrl,
      '--token-file',
      '-',
      '--workspace',
      String(sb.workspaceId),
      '--dir',
      dir,
      '--state',
      path.join(tmp.dir, 'state'),
      ...(opts.extra ?? []),
    ],
    { stdin: `${sb.users[0]!.token}\n`, env: opts.env },
  );
}

/** The one line the CLI said on stderr. */
function oneLine(stderr: string): string {
  const lines = stderr.trimEnd().split('\n');
  expect(lines, stderr).toHaveLength(1);
  return lines[0]!;
}

describe('sync --dir: folders that can never be a sync folder', () => {
  it.skipIf(process.platform !== 'linux')(
    '/etc is refused in one line (English and German), exit 1, before anything is written',
    async () => {
      const run = await syncOnce('/etc');
      expect(run.code, run.stderr).toBe(1);
      expect(oneLine(run.stderr)).toBe(
        'workspace-sync: /etc is in a system folder, which holds no files of yours: choose a folder in your home folder or on a data disk.',
      );
      const de = await syncOnce('/etc', { env: { LANG: 'de_DE.UTF-8' } });
      expect(de.code).toBe(1);
      expect(oneLine(de.stderr)).toMatch(/^workspace-sync: \/etc liegt in einem Systemordner/);
      expect(existsSync('/etc/.workspace-sync')).toBe(false);
    },
  );

  it('the home folder itself is refused', async () => {
    const home = path.join(tmp.dir, 'home');
    mkdirSync(home);
    const run = await syncOnce(home, { env: { HOME: home, USERPROFILE: home } });
    expect(run.code, run.stderr).toBe(1);
    expect(oneLine(run.stderr)).toBe(
      `workspace-sync: ${home} is your home folder itself, which holds everything of yours: choose a folder inside it.`,
    );
    expect(readdirSync(home)).toEqual([]);
  });
});

describe('sync --dir: a folder with files in it on a first sync', () => {
  it('is refused with how many items would be uploaded, and merged with --merge', async () => {
    const dir = path.join(tmp.dir, 'mine');
    mkdirSync(path.join(dir, 'notes'), { recursive: true });
    writeFileSync(path.join(dir, 'a.txt'), 'a');
    writeFileSync(path.join(dir, 'b.txt'), 'b');
    writeFileSync(path.join(dir, 'notes', 'c.txt'), 'c');
    // Never uploaded, so never counted: the built-in ignored names.
    writeFileSync(path.join(dir, 'draft.tmp'), 'x');
    writeFileSync(path.join(dir, '.DS_Store'), 'x');
    const before = remoteTree(sb);

    const run = await syncOnce(dir);
    expect(run.code, run.stderr).toBe(1);
    expect(oneLine(run.stderr)).toBe(
      `workspace-sync: --dir ${dir} holds 4 items that this first sync would upload into "${workspaceName}": give --merge to merge them, or choose an empty folder.`,
    );
    // Nothing sent, nothing written.
    expect(remoteTree(sb)).toEqual(before);
    expect(readdirSync(dir).sort()).toEqual(['.DS_Store', 'a.txt', 'b.txt', 'draft.tmp', 'notes']);

    const de = await syncOnce(dir, { env: { LANG: 'de_DE.UTF-8' } });
    expect(oneLine(de.stderr)).toBe(
      `workspace-sync: --dir ${dir} enthält 4 Objekte, die diese erste Synchronisierung nach „${workspaceName}“ hochladen würde: Geben Sie --merge an, um sie zusammenzuführen, oder wählen Sie einen leeren Ordner.`,
    );

    // A program reading --json is told it is a refusal, not a fault of the program.
    const json = await syncOnce(dir, { extra: ['--json'] });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout.trim().split('\n').at(-1)!)).toMatchObject({
      type: 'error',
      kind: 'refused',
    });

    const merged = await syncOnce(dir, { extra: ['--merge'] });
    expect(merged.code, merged.stderr).toBe(0);
    const after = remoteTree(sb);
    expect([...after.keys()]).toEqual(expect.arrayContaining(['a.txt', 'b.txt', 'notes/c.txt']));
    // The pair synced before: its next run asks nothing.
    writeFileSync(path.join(dir, 'd.txt'), 'd');
    const again = await syncOnce(dir);
    expect(again.code, again.stderr).toBe(0);
  });

  it('an empty folder (or a missing one) starts without asking', async () => {
    const run = await syncOnce(path.join(tmp.dir, 'fresh', 'Q3'));
    expect(run.code, run.stderr).toBe(0);
  });

  it('counts as the engine would, and stops counting at the bound ("more than")', async () => {
    const dir = path.join(tmp.dir, 'many');
    mkdirSync(path.join(dir, 'sub'), { recursive: true });
    for (let i = 0; i < 5; i++) writeFileSync(path.join(dir, 'sub', `${i}.txt`), 'x');
    writeFileSync(path.join(dir, '.workspace-sync-ignore'), 'skip/\n*.log\n');
    mkdirSync(path.join(dir, 'skip'));
    writeFileSync(path.join(dir, 'skip', 'x.txt'), 'x');
    writeFileSync(path.join(dir, 'x.log'), 'x');
    // sub, its 5 files and the ignore file itself (it is synced).
    expect(await countUploads(dir)).toEqual({ count: 7, more: false });
    expect(await countUploads(dir, { ignorePatterns: ['sub/'] })).toEqual({
      count: 1,
      more: false,
    });
    expect(await countUploads(dir, { limit: 3 })).toEqual({ count: 3, more: true });
    expect(
      translator('en').t('cli.err.notEmpty', { dir: 'x', n: 100000, more: 'yes', workspace: 'Q3' }),
    ).toBe(
      '--dir x holds more than 100,000 items that this first sync would upload into "Q3": give --merge to merge them, or choose an empty folder.',
    );
  });
});

describe('sync --dir: a folder inside or around another pair', () => {
  it('is refused in one line, with --merge too; the pair itself syncs again', async () => {
    const outer = path.join(tmp.dir, 'outer');
    const first = await syncOnce(path.join(outer, 'Q3'));
    expect(first.code, first.stderr).toBe(0);
    for (const dir of [outer, path.join(outer, 'Q3', 'Reports', 'deeper')]) {
      const run = await syncOnce(dir, { extra: ['--merge'] });
      expect(run.code, run.stderr).toBe(1);
      expect(oneLine(run.stderr)).toBe(
        `workspace-sync: --dir ${dir} is inside or around ${path.join(outer, 'Q3')}, which already syncs workspace ${sb.workspaceId} here: choose a folder outside it`,
      );
    }
    expect((await syncOnce(path.join(outer, 'Q3'))).code).toBe(0);
  });
});
