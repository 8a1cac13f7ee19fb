import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/main/cli/main';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { cliEnv, spawnCli, syncArgs } from '../cli/run-cli';
import { TempDirs, clientFor, localTree, remoteTree, tokenOf } from './harness';

// A first mirror stopped at any moment costs at most the downloads in flight at the stop: a
// file already placed is never fetched again (recorded before the stop or not: a hard stop
// loses the journal's last uncommitted writes), and a partial download kept in the cache folder
// resumes. The stops are the CLI's own: an abort in this process (what SIGINT/SIGTERM do), a
// real SIGTERM, and SIGKILL (nothing runs after it), at seeded random points.

const FILES = 40;
const KiB = 1024;
/** The CLI's downloads in flight at once (the engine's default). */
const IN_FLIGHT = 8;
const DOWNLOAD = 'GET /download/:id';

const dirs = new TempDirs();
let sb: RunningSandbox;
let token: string;

/** A small seeded generator (mulberry32): the same stops on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

beforeAll(async () => {
  sb = await startSandbox({ seed: 'empty' });
  const owner = sb.users.find((u) => u.role === 'Administrator')!;
  token = owner.token;
  const client = clientFor(sb.baseUrl, tokenOf(owner));
  const root = (await client.rootFolder(sb.workspaceId)).id;
  const folder = await client.createFolder(sb.workspaceId, root, 'Big');
  const random = seeded(7);
  for (let i = 0; i < FILES; i++) {
    // 256 KiB to 1 MiB: several in flight at once, each gathered in memory and written whole
    // (no commit of its own at its start: what a stop loses is only the batch's last writes).
    const data = randomBytes((256 + Math.floor(random() * 768)) * KiB);
    await client.uploadFile(folder.id, `file-${String(i).padStart(2, '0')}.bin`, () =>
      Readable.from([data]),
    );
  }
}, 60_000);
afterAll(async () => {
  await sb?.close();
  dirs.cleanup();
});

/** Files in their final place (each one put there whole, by a rename). */
function placed(dir: string): number {
  const big = path.join(dir, 'Big');
  return existsSync(big) ? readdirSync(big).length : 0;
}

type Stop = 'abort' | 'SIGTERM' | 'SIGKILL' | null;

/**
 * One `sync --once` of the CLI, stopped (`stop`) once `k` files are placed (the disk is polled;
 * the exact moment does not matter, only what is counted around it).
 */
async function syncStopped(dir: string, state: string, stop: Stop, k: number): Promise<void> {
  const args = syncArgs(sb, dir, state, '--once', '--token', token);
  const reached = () => placed(dir) >= k;
  if (stop === null || stop === 'abort') {
    const controller = new AbortController();
    const poll = stop ? setInterval(() => reached() && controller.abort(), 1) : undefined;
    const out = new PassThrough().resume();
    try {
      await main(args, {
        stdout: out,
        stderr: new PassThrough().resume(),
        stdin: new PassThrough(),
        env: cliEnv(),
        signal: controller.signal,
      });
    } finally {
      clearInterval(poll);
    }
    return;
  }
  const child = spawnCli(args);
  let sent = false;
  let stderr = '';
  child.stdout.resume();
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end();
  const poll = setInterval(() => {
    if (!reached()) return;
    clearInterval(poll);
    sent = child.kill(stop);
  }, 1);
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  clearInterval(poll);
  // SIGTERM is an interruption the CLI reports as one (130), never a failure named "SIGTERM".
  if (stop === 'SIGTERM' && sent) {
    expect(code).toBe(130);
    expect(stderr).not.toContain('SIGTERM');
  }
}

describe('a first mirror stopped part way', () => {
  it('fetches again only what was in flight at each stop', async () => {
    const dir = path.join(dirs.make(), 'Workspace');
    const state = dirs.make('wsync-state-');
    const random = seeded(37);
    const stops: Stop[] = [
      'abort',
      'SIGKILL',
      'abort',
      'SIGKILL',
      'SIGTERM',
      'abort',
      'SIGKILL',
      'abort',
      'SIGKILL',
      'SIGKILL',
    ];
    const runs: { stop: Stop; before: number; after: number; downloads: number }[] = [];
    for (const stop of [...stops, null]) {
      const before = placed(dir);
      if (stop !== null && before >= FILES - 2) continue;
      const k = before + 1 + Math.floor(random() * 4);
      sb.resetStats();
      await syncStopped(dir, state, stop, k);
      runs.push({ stop, before, after: placed(dir), downloads: sb.stats()[DOWNLOAD] ?? 0 });
    }
    const said = JSON.stringify(runs);
    expect(localTree(dir), said).toEqual(remoteTree(sb));
    for (const r of runs) {
      // Only what was not in place yet is asked for: nothing placed is fetched again.
      expect(r.downloads, said).toBeLessThanOrEqual(FILES - r.before);
      // A stopped run left at most its downloads in flight unfinished.
      if (r.stop) expect(r.downloads - (r.after - r.before), said).toBeLessThanOrEqual(IN_FLIGHT);
    }
    // The whole: every file once, plus at most the downloads in flight at each stop.
    const total = runs.reduce((n, r) => n + r.downloads, 0);
    const inFlight = runs.reduce(
      (n, r) => n + (r.stop ? r.downloads - (r.after - r.before) : 0),
      0,
    );
    expect(total, said).toBeLessThanOrEqual(FILES + inFlight);
  }, 120_000);
});
