import { spawn } from 'node:child_process';
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { clientFor, tokenOf } from '../sync/harness';
import { cliArgv, cliEnv, repoRoot, tempDir } from './run-cli';

// The progress bar of `sync --once` on a terminal (a real pseudo-terminal, from util-linux's
// `script`), over a real sync of 2,000 files that come in one folder archive: the counts it shows
// never run past their totals, the totals hold the 2,000 files, and the step is said in words.

const FOLDERS = 20;
const FILES_PER_FOLDER = 100;

let sb: RunningSandbox;
let tmp: { dir: string; remove(): Promise<void> };

beforeAll(async () => {
  sb = await startSandbox({ seed: 'empty' });
  tmp = await tempDir('progress');
  // Built through the API, as a person's colleagues would: 20 folders of 100 small files, which
  // the engine fetches as one archive (choose-archives.ts: 16+ files, small, all needed).
  const client = clientFor(sb.baseUrl, tokenOf(sb.users[0]!));
  const root = await client.rootFolder(sb.workspaceId);
  const big = await client.createFolder(sb.workspaceId, root.id, 'Big');
  const limit = pLimit(8);
  const uploads: Promise<unknown>[] = [];
  for (let d = 0; d < FOLDERS; d++) {
    const folder = await client.createFolder(sb.workspaceId, big.id, `Folder ${d}`);
    for (let i = 0; i < FILES_PER_FOLDER; i++) {
      const body = Buffer.alloc(2_000 + i, 97 + (d % 26));
      uploads.push(limit(() => client.uploadFile(folder.id, `file ${i}.txt`, () => [body])));
    }
  }
  await Promise.all(uploads);
}, 120_000);

afterAll(async () => {
  await sb?.close();
  await tmp?.remove();
});

/** `workspace-sync ARGS` under a pseudo-terminal 200 columns wide; its whole output, as written. */
function underTerminal(args: string[]): Promise<{ code: number | null; output: string }> {
  const quoted = cliArgv(args)
    .map((a) => `'${a.replaceAll("'", `'\\''`)}'`)
    .join(' ');
  // `stty` first: a pty starts 0 columns wide, and the bar would be cut at cli-progress's 80.
  const command = `stty cols 200 rows 40; exec ${quoted}`;
  const child = spawn('script', ['-q', '-e', '-f', '-c', command, '/dev/null'], {
    cwd: repoRoot,
    env: cliEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

/** What a terminal showed, frame by frame: the bar redraws its line after a carriage return. */
function frames(output: string): string[] {
  // The bar goes back to column 1 (ESC [1G) to draw the next frame; other escapes go.
  const plain = output
    // eslint-disable-next-line no-control-regex
    .replace(/\u001b\[1G/g, '\n')
    // eslint-disable-next-line no-control-regex
    .replace(/\u001b(\[[0-9;?]*[A-Za-z]|[78])/g, '');
  return plain
    .split(/[\r\n]+/)
    .map((l) => l.trim())
    .filter(Boolean);
}

const number = (s: string) => Number(s.replaceAll(',', ''));

describe('sync --once on a terminal: the progress line', () => {
  it('never shows more done than its total, counts the archive’s 2,000 files, says the step in words', async () => {
    const token = path.join(tmp.dir, 'token');
    await writeFile(token, `${sb.users[0]!.token}\n`, { mode: 0o600 });
    const dir = path.join(tmp.dir, 'workspace');
    const run = await underTerminal([
      'sync',
      '--once',
      '--server',
      sb.baseUrl,
      '--token-file',
      token,
      '--workspace',
      String(sb.workspaceId),
      '--dir',
      dir,
      '--state',
      path.join(tmp.dir, 'state'),
      // A download limit makes the pass last long enough for the bar to be drawn many times
      // (4 MB at 1 MB/s): the test waits for nothing, it only reads what was drawn.
      '--limit-down',
      '1000',
    ]);
    expect(run.code, run.output).toBe(0);
    const all = frames(run.output);
    const bars = all
      .map((f) => ({ f, m: /(\d[\d,]*)\/(\d[\d,]*) items/.exec(f) }))
      .filter((b) => b.m !== null);
    expect(bars.length, run.output).toBeGreaterThan(3);
    for (const { f, m } of bars) {
      const [done, total] = [number(m![1]!), number(m![2]!)];
      expect(done, f).toBeLessThanOrEqual(total);
      // Every file of the archive is an item: 2,000 files and 21 folders.
      expect(total, f).toBe(FOLDERS * FILES_PER_FOLDER + FOLDERS + 1);
      expect(f).not.toMatch(/\bdownload \d/);
    }
    // The step in words, as a person says it.
    expect(
      bars.some(({ f }) => /Downloading 2,000 files( of \S+)? in one archive/.test(f)),
      run.output,
    ).toBe(true);
    // The archive's bytes are in the total from the start (4.1 MB of small files).
    for (const { f } of bars) expect(f, f).toMatch(/ of 4\.1 MB/);
    // The speed, once a second of the pass has gone by.
    expect(
      bars.some(({ f }) => /\d MB\/s|\d KB\/s/.test(f)),
      run.output,
    ).toBe(true);
    expect(all.some((f) => f.startsWith('Sync complete: 21 folders created, 2,000 files'))).toBe(
      true,
    );
    const folders = await readdir(path.join(dir, 'Big'));
    expect(folders).toHaveLength(FOLDERS);
  }, 180_000);
});
