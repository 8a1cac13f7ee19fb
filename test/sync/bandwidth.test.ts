import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/main/api/client';
import { openSession } from '../../src/main/api/oauth';
import { KB, TransferLimits } from '../../src/main/api/throttle';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import {
  TempDirs,
  clientFor,
  localTree,
  openPair,
  remoteTree,
  tokenOf,
  type Pair,
} from './harness';
import { busyConnections, rateOf, startMeter, type Flow, type Meter } from './meter';

// The transfer limits, through the engine and the real sandbox over HTTP, measured on the wire
// by a relay between them (meter.ts): each direction's bytes over the transfer's own time,
// between marks inside it (20% and 95% of its bytes: buffers on the way fill at the start).
// The acceptance: held within 10% of the limit over a 20 s transfer.

const LIMIT_KBPS = 250;
/** 20 s at the limit. */
const SIZE = 5_000_000;
const BAND = 0.1;

const dirs = new TempDirs();
let sb: RunningSandbox;
let meter: Meter;
/** The limits of the measured clients (the process's stay unset: the colleague's go free). */
let limits: TransferLimits;
/** Puts files on the service directly (not metered, not limited). */
let colleague: ServiceClient;
const pairs: Pair[] = [];
/** The two pairs of the first test (downloads, uploads), used again by the next. */
const used: Awaited<ReturnType<typeof newPair>>[] = [];

beforeAll(async () => {
  sb = await startSandbox({ seed: 'empty' });
  meter = await startMeter(sb.baseUrl);
  limits = new TransferLimits();
  colleague = clientFor(sb.baseUrl, tokenOf(sb.users[0]!));
});
afterAll(async () => {
  for (const p of pairs) await p.close();
  await meter?.close();
  await sb?.close();
  dirs.cleanup();
});

/** A client through the meter, within `limits`. */
function meteredClient(): ServiceClient {
  const { transport } = openSession({
    baseUrl: meter.baseUrl,
    clientId: sb.clientId,
    clientSecret: sb.clientSecret,
    tokens: tokenOf(sb.users[0]!),
    transport: { retry: { maxAttempts: 3, maxTotalMs: 2000 }, transfers: limits },
  });
  return new ServiceClient(transport);
}

/** A pair of a workspace of its own, synced once while empty, through the meter. */
async function newPair(name: string): Promise<{ pair: Pair; root: number; workspaceId: number }> {
  const ws = await colleague.createWorkspace({ name });
  const pair = await openPair(
    { baseUrl: meter.baseUrl, workspaceId: ws.id },
    meteredClient(),
    dirs,
  );
  pairs.push(pair);
  await pair.engine.syncOnce();
  return { pair, root: (await colleague.rootFolder(ws.id)).id, workspaceId: ws.id };
}

/**
 * The bytes a pair's engine says it has moved (its status' progress, sent at most every 100 ms),
 * as a flow: what came down as the engine took it (the relay's figures for downloads are the
 * kernel's: on loopback the sockets' buffers took 2 MB of a throttled download at once).
 */
function progressOf(pair: Pair): Flow {
  const flow: Flow = { total: 0, samples: [], perConnection: [] };
  let last = 0;
  pair.engine.on('status', (st) => {
    const done = st.bytes.done;
    flow.total += done >= last ? done - last : done; // a new pass counts from 0 again
    last = done;
    flow.samples.push({ t: performance.now(), total: flow.total });
  });
  return flow;
}

/** The rate of `flow` in KB/s over a transfer of `bytes` that starts now, once `done`. */
async function measured(flow: Flow, bytes: number, done: Promise<unknown>): Promise<number> {
  const base = flow.total;
  await done;
  return rateOf(flow, base, bytes * 0.2, bytes * 0.95) / KB;
}

const within = (kbps: number) => {
  expect(kbps).toBeGreaterThan(LIMIT_KBPS * (1 - BAND));
  expect(kbps).toBeLessThan(LIMIT_KBPS * (1 + BAND));
};

describe('transfer limits through the engine, measured on the wire', { timeout: 60_000 }, () => {
  it('a 5 MB file up and another down at once: each held within 10% of its own 250 KB/s', async () => {
    const downs = await newPair('Downloads');
    const ups = await newPair('Uploads');
    used.push(downs, ups);
    const content = randomBytes(SIZE);
    await colleague.uploadFile(downs.root, 'down.bin', () => [content], SIZE);
    writeFileSync(path.join(ups.pair.dir, 'up.bin'), randomBytes(SIZE));
    limits.setKBps({ upKBps: LIMIT_KBPS, downKBps: LIMIT_KBPS });

    const [down, up] = await Promise.all([
      measured(progressOf(downs.pair), SIZE, downs.pair.engine.syncOnce()),
      measured(meter.up, SIZE, ups.pair.engine.syncOnce()),
    ]);
    console.log(
      `one file each way at once: down ${down.toFixed(1)} KB/s, up ${up.toFixed(1)} KB/s`,
    );
    within(down);
    within(up);
    expect(localTree(downs.pair.dir)).toEqual(remoteTree(sb, downs.workspaceId));
    expect(remoteTree(sb, ups.workspaceId)).toEqual(localTree(ups.pair.dir));
  });

  it("four files each way at once share their direction's limit, within 10%", async () => {
    const [downs, ups] = used;
    const files = [1, 2, 3, 4].map((n) => ({ name: `part ${n}.bin`, data: randomBytes(SIZE / 4) }));
    for (const f of files)
      await colleague.uploadFile(downs!.root, f.name, () => [f.data], f.data.length);
    for (const f of files) writeFileSync(path.join(ups!.pair.dir, f.name), randomBytes(SIZE / 4));
    const before = { up: [...meter.up.perConnection], down: [...meter.down.perConnection] };

    const [down, up] = await Promise.all([
      measured(progressOf(downs!.pair), SIZE, downs!.pair.engine.syncOnce()),
      measured(meter.up, SIZE, ups!.pair.engine.syncOnce()),
    ]);
    console.log(
      `four files each way at once: down ${down.toFixed(1)} KB/s, up ${up.toFixed(1)} KB/s`,
    );
    // Side by side, each on a connection of its own: not one after the other.
    expect(busyConnections(meter.down, before.down, SIZE / 5)).toBe(4);
    expect(busyConnections(meter.up, before.up, SIZE / 5)).toBe(4);
    within(down);
    within(up);
    expect(localTree(downs!.pair.dir)).toEqual(remoteTree(sb, downs!.workspaceId));
    expect(remoteTree(sb, ups!.workspaceId)).toEqual(localTree(ups!.pair.dir));
  });
});
