import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { clientFor, openPair, TempDirs, tokenOf, type Pair } from './harness';
import { startStandIn } from './stand-in';

// A person's Download now (asked at the pair's door, or by the window) while the running engine
// is in the middle of a round: it is applied as that round ends, and the next round (which
// downloads it) starts at once, not after the poll (10 minutes here). The round is held in the
// middle by a stand-in that keeps another file's download until the action is in the inbox.

const dirs = new TempDirs();
let sb: RunningSandbox | undefined;
let standIn: { baseUrl: string; close(): Promise<void> } | undefined;
let pair: Pair | undefined;
const stop = new AbortController();

afterEach(async () => {
  stop.abort();
  await pair?.close();
  await standIn?.close();
  await sb?.close();
  dirs.cleanup();
});

describe("the pair's door during a round", () => {
  it('answers Download now after the round that does it, without waiting for the poll', async () => {
    sb = await startSandbox({ seed: 'empty' });
    const owner = sb.users.find((u) => u.role === 'Administrator')!;
    const direct = clientFor(sb.baseUrl, tokenOf(owner));
    const root = (await direct.rootFolder(sb.workspaceId)).id;
    await direct.uploadFile(root, 'a.txt', () => Readable.from([Buffer.from('a content')]));

    let holding = false;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let heldOne!: () => void;
    const held = new Promise<void>((resolve) => (heldOne = resolve));
    standIn = await startStandIn(sb.baseUrl, {
      answer: async (req, _res, url) => {
        if (!holding || !url.pathname.includes('download')) return false;
        holding = false;
        heldOne();
        await released;
        return false;
      },
    });
    pair = await openPair(sb, clientFor(standIn.baseUrl, tokenOf(owner)), dirs, {
      pollIntervalMs: 10 * 60_000,
    });
    pair.journal.onDemand.setMode('online');
    await pair.engine.syncOnce();
    expect(existsSync(path.join(pair.dir, 'a.txt.wsync'))).toBe(true);

    // A file that comes in full (pinned) makes the next round download, and is held there.
    pair.journal.onDemand.pin('b.txt');
    await direct.uploadFile(root, 'b.txt', () => Readable.from([Buffer.from('b content')]));
    holding = true;
    const running = pair.engine.run(stop.signal);
    await held;
    // Queued at once (a round is running): applied as it ends.
    const { applied, round } = pair.engine.filesOnDemandRound('download', ['a.txt.wsync']);
    release();
    await applied;
    await round;
    expect(readFileSync(path.join(pair.dir, 'b.txt'), 'utf8')).toBe('b content');
    expect(readFileSync(path.join(pair.dir, 'a.txt'), 'utf8')).toBe('a content');
    stop.abort();
    await running;
    // Without the fix it waits for the poll: 10 minutes, far past this test's limit.
  }, 30_000);
});
