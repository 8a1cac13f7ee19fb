import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/main/api/client';
import { openSession } from '../../src/main/api/oauth';
import { TransferLimits } from '../../src/main/api/throttle';
import type { SyncStatus } from '../../src/shared/sync-status';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { TempDirs, openPair, tokenOf, type Pair } from './harness';

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
