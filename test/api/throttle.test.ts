import { randomBytes } from 'node:crypto';
import { finished } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/main/api/client';
import { openSession } from '../../src/main/api/oauth';
import { HeldTime, KB, TransferLimits } from '../../src/main/api/throttle';
import type { TransportLimits } from '../../src/main/api/transport';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';

// The transfer limits in the service client, against the real sandbox: a throttled body is slow
// on purpose and no deadline cuts it; a change of limit holds for the transfers under way; a
// throttled body is not read ahead of its reader, and its errors reach the reader as they were.

let sb: RunningSandbox;
let root: number;
const agents: Agent[] = [];

beforeAll(async () => {
  sb = await startSandbox({ seed: 'empty' });
  root = (await clientWith(new TransferLimits()).rootFolder(sb.workspaceId)).id;
});
afterAll(async () => {
  for (const a of agents) await a.close();
  await sb?.close();
});

function clientWith(
  transfers: TransferLimits,
  opts: { limits?: Partial<TransportLimits>; dispatcher?: Agent } = {},
): ServiceClient {
  const { transport } = openSession({
    baseUrl: sb.baseUrl,
    clientId: sb.clientId,
    clientSecret: sb.clientSecret,
    tokens: { accessToken: sb.users[0]!.token },
    transport: { retry: { maxAttempts: 1 }, transfers, ...opts },
  });
  return new ServiceClient(transport);
}

const limited = (upKBps: number, downKBps: number) => {
  const limits = new TransferLimits();
  limits.setKBps({ upKBps, downKBps });
  return limits;
};

describe('transfer limits in the service client', () => {
  it('a throttled upload, download and archive outlast every deadline and idle timeout: none is cut', async () => {
    // 150 KB at 100 KB/s: 1.5 s each way, against a deadline of 0.4 s (the size adds nothing at
    // 100 MB/s) and undici's header and body timeouts of 0.3 s.
    const limits = limited(100, 100);
    const dispatcher = new Agent({ headersTimeout: 300, bodyTimeout: 300 });
    agents.push(dispatcher);
    const client = clientWith(limits, {
      limits: { deadlineMs: 400, minBytesPerSecond: 100e6 },
      dispatcher,
    });
    const data = randomBytes(150 * KB);
    const folder = await client.createFolder(sb.workspaceId, root, 'slow');

    const file = await client.uploadFile(folder.id, 'slow.bin', () => [data], data.length);
    expect(file.size).toBe(data.length);
    expect(limits.up.bytesPassed).toBeGreaterThanOrEqual(data.length);

    const res = await client.download(file.id, { expectBytes: data.length });
    // (equals: toEqual walks a large Buffer byte by byte, for seconds)
    expect((await buffer(res.body)).equals(data)).toBe(true);
    const before = limits.down.bytesPassed;
    expect(before).toBe(data.length);

    // A folder's zip counts against the same download limit.
    const zip = await buffer(await client.folderArchive(folder.id, undefined, data.length));
    expect(zip.length).toBeGreaterThan(data.length); // stored uncompressed: random bytes
    expect(limits.down.bytesPassed - before).toBe(zip.length);
  }, 30_000);

  it('a change of limit holds for the transfers under way, both ways', async () => {
    // 1 MB at 10 KB/s would take 100 s: lifted once its first bytes went, it ends at once.
    const limits = limited(10, 10);
    const client = clientWith(limits);
    const data = randomBytes(1000 * KB);
    const uploading = client.uploadFile(root, 'lifted.bin', () => [data], data.length);
    await until(() => limits.up.bytesPassed >= 2 * KB);
    limits.up.set(0);
    const file = await uploading;
    expect(file.size).toBe(data.length);

    const res = await client.download(file.id, { expectBytes: data.length });
    const chunks: Buffer[] = [];
    res.body.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (limits.down.bytesPassed >= 2 * KB) limits.down.set(0);
    });
    await finished(res.body);
    expect(Buffer.concat(chunks).equals(data)).toBe(true);
  }, 20_000);

  it('a throttled body is read only as fast as it is passed on: backpressure, not buffering', async () => {
    const limits = limited(0, 1000);
    let produced = 0;
    const source = new Readable({
      read() {
        produced += 16 * 1024;
        this.push(Buffer.alloc(16 * 1024));
      },
    });
    const out = limits.down.stream(source, new HeldTime());
    let taken = 0;
    let ahead = 0;
    out.on('data', (chunk: Buffer) => {
      taken += chunk.length;
      ahead = Math.max(ahead, produced - taken);
      if (taken >= 300 * KB) out.destroy();
    });
    await finished(out).catch(() => {});
    // An endless source: without backpressure it is read as fast as the CPU goes.
    expect(taken).toBeGreaterThanOrEqual(300 * KB);
    expect(ahead).toBeLessThan(256 * 1024);
    // The reader stopped: so is the source (a download's request is ended with it).
    await finished(source).catch(() => {});
    expect(source.destroyed).toBe(true);
  });

  it("a body's error reaches its reader as it was (a deadline, a cut)", async () => {
    const limits = limited(0, 100);
    const source = new Readable({ read() {} });
    const out = limits.down.stream(source, new HeldTime());
    const seen = finished(out).then(
      () => null,
      (err: unknown) => err,
    );
    out.resume();
    source.push(Buffer.alloc(50 * KB));
    const cut = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    source.destroy(cut);
    expect(await seen).toBe(cut);
  });
});

/** Resolves once `check` holds, looked at on each turn of the event loop (no clock involved). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}
