import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/main/api/client';
import { openSession } from '../../src/main/api/oauth';
import { TransferLimits } from '../../src/main/api/throttle';
import type { SyncStatus } from '../../src/shared/sync-status';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { TempDirs, clientFor, openPair, tokenOf, type Pair } from './harness';

// The progress of an upload through the engine and the real sandbox: a big file's bytes count
// as they go (each piece waits for the upload limit), not all at once when the service answers;
// and never past the total.

const SIZE = 3_000_000;

const dirs = new TempDirs();
let sb: RunningSandbox;
let pair: Pair;
const limits = new TransferLimits();

beforeAll(async () => {
  sb = await startSandbox({ seed: 'empty' });
  const { transport } = openSession({
    baseUrl: sb.baseUrl,
    clientId: sb.clientId,
    clientSecret: sb.clientSecret,
    tokens: tokenOf(sb.users[0]!),
    transport: { retry: { maxAttempts: 3, maxTotalMs: 2000 }, transfers: limits },
  });
  pair = await openPair(sb, new ServiceClient(transport), dirs);
  await pair.engine.syncOnce();
});
afterAll(async () => {
  await pair?.close();
  await sb?.close();
  dirs.cleanup();
});

describe('the progress of an upload', { timeout: 60_000 }, () => {
  it('counts a big file’s bytes as they are sent, within the total, with a speed', async () => {
    writeFileSync(path.join(pair.dir, 'big.bin'), randomBytes(SIZE));
    // 1 MB/s: the upload lasts about 3 s, long enough for several statuses during it.
    limits.setKBps({ upKBps: 1000, downKBps: 0 });
    const seen: SyncStatus[] = [];
    pair.engine.on('status', (s) => seen.push(s));
    await pair.engine.syncOnce();

    const during = seen.filter((s) => s.current?.op === 'upload' && s.current.side === 'up');
    expect(during.length).toBeGreaterThan(0);
    for (const s of seen) {
      expect(s.items.done).toBeLessThanOrEqual(s.items.total);
      expect(s.bytes.done).toBeLessThanOrEqual(s.bytes.total);
    }
    // Part of the file counted while it was still going up.
    expect(during.some((s) => s.bytes.done > 0 && s.bytes.done < SIZE)).toBe(true);
    expect(during.some((s) => (s.rate?.bytesPerSecond ?? 0) > 0)).toBe(true);
  });
});

describe('the progress of files a role may not download', { timeout: 60_000 }, () => {
  it('counts them in the total of a pass from the feed: done never passes it', async () => {
    const viewer = sb.users.find((u) => u.role === 'Viewer')!;
    const owner = clientFor(sb.baseUrl, tokenOf(sb.users[0]!));
    const seeing = await openPair(sb, clientFor(sb.baseUrl, tokenOf(viewer)), dirs);
    try {
      await seeing.engine.syncOnce();
      // A few new files: read from the feed (a partial view), each recorded as not permitted.
      const root = await owner.rootFolder(sb.workspaceId);
      for (let i = 0; i < 5; i++)
        await owner.uploadFile(root.id, `v${i}.txt`, () => [Buffer.from('x')]);
      const seen: SyncStatus[] = [];
      // Read at each file's problem (not permitted), as it is recorded: the status events
      // themselves come at most every 100 ms, and this pass is over sooner.
      seeing.engine.on('problem', () => seen.push(seeing.engine.status()));
      seeing.engine.on('status', (s) => seen.push(s));
      await seeing.engine.syncOnce();
      expect(seen.some((s) => s.items.done > 0)).toBe(true);
      for (const s of seen)
        expect(s.items.done, JSON.stringify(s.items)).toBeLessThanOrEqual(s.items.total);
      expect(seen.some((s) => s.items.total >= 5)).toBe(true);
    } finally {
      await seeing.close();
    }
  });
});
