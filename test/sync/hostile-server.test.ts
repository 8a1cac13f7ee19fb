import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { ZipFile } from 'yazl';
import { afterAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/main/api/client';
import { openSession } from '../../src/main/api/oauth';
import type { TransportLimits } from '../../src/main/api/transport';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { translator, wordsOf } from '../../src/shared/i18n';
import { startStandIn } from './stand-in';
import { TempDirs, localTree, openPair, remoteTree, tokenOf } from './harness';

// A server that lies: trickles, answers without end, lists a folder inside itself, ignores
// offset, zips entries that inflate past their size. Each time the real engine ends, with a
// clear problem, and what the lie did not touch still syncs.

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

const ownerOf = (sb: RunningSandbox) => sb.users.find((u) => u.role === 'Administrator')!;

function clientWith(baseUrl: string, sb: RunningSandbox, limits: Partial<TransportLimits> = {}) {
  const { transport } = openSession({
    baseUrl,
    clientId: 'workspace-sync',
    clientSecret: 'sandbox-secret',
    tokens: tokenOf(ownerOf(sb)),
    transport: { retry: { maxAttempts: 2, maxTotalMs: 1000 }, limits },
  });
  return new ServiceClient(transport);
}

async function upload(client: ServiceClient, folderId: number, name: string, data: Buffer) {
  return client.uploadFile(folderId, name, () => Readable.from([data]));
}

/** Writes to `res` until the client goes away, counting what it handed to the socket. */
function endless(res: ServerResponse, chunk: Buffer, sent: { bytes: number }): void {
  const more = () => {
    while (!res.destroyed) {
      sent.bytes += chunk.length;
      if (!res.write(chunk)) break;
    }
    if (!res.destroyed) res.once('drain', more);
  };
  res.on('error', () => undefined);
  more();
}

/** Sends one byte, then another each time the last one left, slowly, until the client leaves. */
function trickle(res: ServerResponse, head: string, stop: { done: boolean }): void {
  let i = 0;
  const next = () => {
    if (res.destroyed || stop.done) return;
    res.write(head[i++ % head.length]!);
    setTimeout(next, 50).unref();
  };
  res.on('error', () => undefined);
  next();
}

async function withSandbox(run: (sb: RunningSandbox, root: number) => Promise<void>) {
  const sb = await startSandbox({ seed: 'empty' });
  try {
    const client = clientWith(sb.baseUrl, sb);
    const root = (await client.rootFolder(sb.workspaceId)).id;
    await run(sb, root);
  } finally {
    await sb.close();
  }
}

/** Runs `sync --once` through the stand-in; resolves with its error (or null) and the pair. */
async function syncOnceThrough(
  sb: RunningSandbox,
  baseUrl: string,
  limits: Partial<TransportLimits> = {},
) {
  const pair = await openPair(
    { baseUrl, workspaceId: sb.workspaceId },
    clientWith(baseUrl, sb, limits),
    dirs,
  );
  try {
    const err = await pair.engine.syncOnce().then(
      () => null,
      (e: unknown) => e as Error,
    );
    const problems = pair.engine.status().problems.map((p) => `${p.path}: ${p.message}`);
    // What a German reader of the same problems gets (their words said in German).
    const german = pair.engine
      .status()
      .problems.map((p) => `${p.path}: ${p.words ? translator('de').say(p.words) : p.message}`);
    return { err, dir: pair.dir, problems, german };
  } finally {
    await pair.close();
  }
}

describe('a hostile server', () => {
  it('lists a folder inside itself: the walk ends with a problem naming it', async () => {
    await withSandbox(async (sb, root) => {
      const client = clientWith(sb.baseUrl, sb);
      const a = await client.createFolder(sb.workspaceId, root, 'A');
      const b = await client.createFolder(sb.workspaceId, a.id, 'B');
      const aEntry = { folder: { ...a, parent_id: b.id } };
      for (const lie of ['self', 'loop', 'root'] as const) {
        const standIn = await startStandIn(sb.baseUrl, {
          json(p, json) {
            const page = json as { items?: unknown[] };
            if (lie === 'self' && p === `/folders/${a.id}`) page.items?.push(aEntry);
            if (lie === 'loop' && p === `/folders/${b.id}`) page.items?.push(aEntry);
            if (lie === 'root' && p === `/folders/${b.id}`)
              page.items?.push({ folder: { ...a, id: root, filename: 'Root' } });
            return json;
          },
        });
        try {
          const { err } = await syncOnceThrough(sb, standIn.baseUrl);
          expect(err?.message).toMatch(/lists the folder "(A|Root)" \(id \d+\) .*a loop/);
          expect(err?.message).not.toContain('\n');
        } finally {
          await standIn.close();
        }
      }
    });
  }, 30_000);

  it('ignores offset and never says where a listing ends: a protocol problem, not a heap', async () => {
    await withSandbox(async (sb, root) => {
      const client = clientWith(sb.baseUrl, sb);
      const big = await client.createFolder(sb.workspaceId, root, 'big');
      for (let i = 0; i < 70; i++) await upload(client, big.id, `f${i}.txt`, Buffer.from(`${i}`));
      await upload(client, root, 'free.txt', Buffer.from('free'));
      const standIn = await startStandIn(sb.baseUrl, {
        json(p, json) {
          if (p !== `/folders/${big.id}`) return json;
          const page = json as { items: unknown[] };
          // Always the first page, with no figures that would say where the list ends.
          return { items: page.items };
        },
        answer(_req, _res, url) {
          // The first page, whatever offset was asked (the stand-in passes `url` on).
          if (url.pathname === `/folders/${big.id}`) url.searchParams.delete('offset');
          return false;
        },
      });
      try {
        const before = process.memoryUsage().heapUsed;
        const { err, dir, problems } = await syncOnceThrough(sb, standIn.baseUrl);
        // That folder is a problem of its own; the rest syncs.
        expect(err).toBeNull();
        expect(problems).toEqual([
          'big: Unexpected answer from GET /folders/:id: repeats the page at offset 60 (the server ignores offset).',
        ]);
        expect(localTree(dir).get('free.txt')).toBe(remoteTree(sb).get('free.txt'));
        expect(process.memoryUsage().heapUsed - before).toBeLessThan(200 * 1024 * 1024);
      } finally {
        await standIn.close();
      }
    });
  }, 60_000);

  it('answers a listing without end: cut at the cap with a protocol problem', async () => {
    await withSandbox(async (sb, root) => {
      const client = clientWith(sb.baseUrl, sb);
      const sub = await client.createFolder(sb.workspaceId, root, 'sub');
      await upload(client, sub.id, 'x.txt', Buffer.from('x'));
      await upload(client, root, 'free.txt', Buffer.from('free'));
      const sent = { bytes: 0 };
      const standIn = await startStandIn(sb.baseUrl, {
        answer(_req, res, url) {
          if (url.pathname !== `/folders/${sub.id}`) return false;
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('{"items":[');
          endless(res, Buffer.from('{"file":{"id":1,"filename":"a"}},'.repeat(2048)), sent);
          return true;
        },
      });
      try {
        const cap = 4 * 1024 * 1024;
        const { err, dir, problems } = await syncOnceThrough(sb, standIn.baseUrl, {
          maxJsonBytes: cap,
        });
        expect(err).toBeNull();
        expect(problems).toEqual([
          'sub: Unexpected answer from GET /folders/:id: is larger than 4 MB.',
        ]);
        expect(localTree(dir).get('free.txt')).toBe(remoteTree(sb).get('free.txt'));
        // Two attempts at most (the retry policy); the server's socket buffers a little more.
        expect(sent.bytes).toBeLessThan(4 * cap);
      } finally {
        await standIn.close();
      }
    });
  }, 60_000);

  it('refuses a folder with an error answer without end: read up to a cap, the rest syncs', async () => {
    await withSandbox(async (sb, root) => {
      const client = clientWith(sb.baseUrl, sb);
      const locked = await client.createFolder(sb.workspaceId, root, 'locked');
      await upload(client, locked.id, 'x.txt', Buffer.from('x'));
      await upload(client, root, 'free.txt', Buffer.from('free'));
      const sent = { bytes: 0 };
      const standIn = await startStandIn(sb.baseUrl, {
        answer(_req, res, url) {
          if (url.pathname !== `/folders/${locked.id}`) return false;
          res.writeHead(403, { 'content-type': 'application/json' });
          res.write('{"errors":{"base":["');
          endless(res, Buffer.alloc(64 * 1024, 'a'), sent);
          return true;
        },
      });
      try {
        const { err, dir } = await syncOnceThrough(sb, standIn.baseUrl);
        expect(err).toBeNull();
        const local = localTree(dir);
        expect(local.get('free.txt')).toBe(remoteTree(sb).get('free.txt'));
        expect(local.has('locked/x.txt')).toBe(false);
        expect(sent.bytes).toBeLessThan(16 * 1024 * 1024);
      } finally {
        await standIn.close();
      }
    });
  }, 60_000);

  it('trickles a listing a byte at a time: the request meets its deadline, sync --once ends', async () => {
    await withSandbox(async (sb, root) => {
      const client = clientWith(sb.baseUrl, sb);
      const sub = await client.createFolder(sb.workspaceId, root, 'slow');
      await upload(client, sub.id, 'x.txt', Buffer.from('x'));
      const stop = { done: false };
      const standIn = await startStandIn(sb.baseUrl, {
        answer(_req, res, url) {
          if (url.pathname !== `/folders/${sub.id}`) return false;
          res.writeHead(200, { 'content-type': 'application/json' });
          trickle(res, '{"items":[ ', stop);
          return true;
        },
      });
      try {
        const { err } = await syncOnceThrough(sb, standIn.baseUrl, { deadlineMs: 300 });
        expect(err?.message).toBe(
          'The service did not finish answering GET /folders/:id within 0.3 s.',
        );
        expect(translator('de').say(wordsOf(err)!)).toBe(
          'Der Dienst hat die Antwort auf GET /folders/:id nicht innerhalb von 0.3 s beendet.',
        );
      } finally {
        stop.done = true;
        await standIn.close();
      }
    });
  }, 60_000);

  it('trickles a download: that request meets its deadline (scaled by size), a problem for that file; the others are placed and sync --once ends', async () => {
    await withSandbox(async (sb, root) => {
      const client = clientWith(sb.baseUrl, sb);
      const slow = await upload(client, root, 'slow.bin', randomBytes(1000));
      await upload(client, root, 'quick.txt', Buffer.from('quick'));
      const stop = { done: false };
      const standIn = await startStandIn(sb.baseUrl, {
        answer(_req, res, url) {
          if (url.pathname !== `/download/${slow.id}`) return false;
          res.writeHead(200, { 'content-length': '1000' });
          trickle(res, 'x', stop);
          return true;
        },
      });
      try {
        const { err, dir, problems, german } = await syncOnceThrough(sb, standIn.baseUrl, {
          deadlineMs: 300,
          minBytesPerSecond: 10_000,
        });
        expect(german).toEqual([
          expect.stringMatching(
            /^slow\.bin: Der Dienst hat die Antwort auf GET \/download\/:id nicht innerhalb von 0\.4 s beendet \(\d+ von 1000 Bytes kamen an\): Es wird später \(ab dort\) erneut versucht$/,
          ),
        ]);
        expect(err).toBeNull();
        expect(problems).toEqual([
          expect.stringMatching(
            /^slow\.bin: The service did not finish answering GET \/download\/:id within 0\.4 s \(\d+ of 1000 bytes came\): it is tried again \(from there\) later$/,
          ),
        ]);
        expect(readFileSync(path.join(dir, 'quick.txt'), 'utf8')).toBe('quick');
      } finally {
        stop.done = true;
        await standIn.close();
      }
    });
  }, 60_000);

  it('gives a body of a size only the server knows the time its Content-Length takes', async () => {
    await withSandbox(async (sb, root) => {
      // A folder's zip to save (no listing says its size) sent slowly but steadily: its
      // deadline grows with the announced length; a deadline of the floor alone cuts it.
      const standIn = await startStandIn(sb.baseUrl, {
        answer(_req, res, url) {
          if (url.pathname !== `/folders/${root}/archive`) return false;
          res.writeHead(200, { 'content-type': 'application/zip', 'content-length': '1000' });
          let sent = 0;
          const next = () => {
            if (res.destroyed) return;
            res.write(Buffer.alloc(100));
            if ((sent += 100) < 1000) setTimeout(next, 100).unref();
            else res.end();
          };
          next();
          return true;
        },
      });
      try {
        const client = clientWith(standIn.baseUrl, sb, {
          deadlineMs: 200,
          minBytesPerSecond: 10,
        });
        let got = 0;
        for await (const chunk of await client.folderArchive(root)) got += (chunk as Buffer).length;
        expect(got).toBe(1000);
      } finally {
        await standIn.close();
      }
    });
  }, 30_000);

  it('gives a huge download a deadline that is not past what a timer can hold', async () => {
    await withSandbox(async (sb) => {
      const standIn = await startStandIn(sb.baseUrl, {
        answer(_req, res, url) {
          if (url.pathname !== `/download/42`) return false;
          res.writeHead(200, { 'content-length': '3' });
          setTimeout(() => res.end('abc'), 50).unref();
          return true;
        },
      });
      try {
        // A 100 GB file at 1 byte/s: 3,000 years, which setTimeout would take for 1 ms.
        const client = clientWith(standIn.baseUrl, sb, { minBytesPerSecond: 1 });
        const res = await client.download(42, { expectBytes: 100e9 });
        expect(await text(res.body)).toBe('abc');
      } finally {
        await standIn.close();
      }
    });
  }, 30_000);
});

/** A zip of `entries`; those in `inflate` declare the listed size but hold far more zeros. */
async function zipOf(entries: Map<string, Buffer>, inflate: Map<string, number>) {
  const zip = new ZipFile();
  for (const [name, data] of entries) {
    const bomb = inflate.get(name);
    zip.addBuffer(bomb ? Buffer.alloc(bomb) : data, name, { compress: bomb !== undefined });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  const buf = Buffer.concat(chunks);
  // Declared sizes back to the listing's: central directory and local headers.
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = buf.readUInt32LE(eocd + 16);
  for (let n = buf.readUInt16LE(eocd + 10); n > 0; n--) {
    const nameLen = buf.readUInt16LE(at + 28);
    const name = buf.toString('utf8', at + 46, at + 46 + nameLen);
    if (inflate.has(name)) {
      const size = entries.get(name)!.length;
      buf.writeUInt32LE(size, at + 24);
      buf.writeUInt32LE(size, buf.readUInt32LE(at + 42) + 22);
    }
    at += 46 + nameLen + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
  }
  return buf;
}

describe('a hostile archive', () => {
  it('over 16 MiB with entries inflating past their size: only those come by themselves', async () => {
    await withSandbox(async (sb, root) => {
      const client = clientWith(sb.baseUrl, sb);
      const folder = await client.createFolder(sb.workspaceId, root, 'many');
      const entries = new Map<string, Buffer>();
      for (let i = 0; i < 80; i++) {
        const data = randomBytes(220 * 1024);
        await upload(client, folder.id, `f${i}.bin`, data);
        // The root's zip (the topmost subtree worth one request).
        entries.set(`many/f${i}.bin`, data);
      }
      const inflate = new Map(['f3', 'f40', 'f77'].map((n) => [`many/${n}.bin`, 64 << 20]));
      const zip = await zipOf(entries, inflate);
      expect(zip.length).toBeGreaterThan(16 * 1024 * 1024);
      const standIn = await startStandIn(sb.baseUrl, {
        archive: (id) => (id === root ? zip : null),
      });
      try {
        sb.resetStats();
        const { err, dir } = await syncOnceThrough(sb, standIn.baseUrl);
        expect(err).toBeNull();
        expect(localTree(dir)).toEqual(remoteTree(sb));
        // The three liars fetched by themselves; the 77 honest entries came from the zip.
        expect(sb.stats()['GET /download/:id']).toBe(3);
      } finally {
        await standIn.close();
      }
    });
  }, 120_000);

  it('without end: cut at what the listing promised, its files come one by one', async () => {
    await withSandbox(async (sb, root) => {
      const client = clientWith(sb.baseUrl, sb);
      const folder = await client.createFolder(sb.workspaceId, root, 'small');
      for (let i = 0; i < 20; i++)
        await upload(client, folder.id, `f${i}.txt`, Buffer.from(`${i}`));
      const sent = { bytes: 0 };
      const standIn = await startStandIn(sb.baseUrl, {
        answer(_req, res, url) {
          if (url.pathname !== `/folders/${root}/archive`) return false;
          res.writeHead(200, { 'content-type': 'application/zip' });
          endless(res, Buffer.alloc(64 * 1024), sent);
          return true;
        },
      });
      try {
        const { err, dir } = await syncOnceThrough(sb, standIn.baseUrl);
        expect(err).toBeNull();
        expect(localTree(dir)).toEqual(remoteTree(sb));
        // Cut near its cap (20 tiny files: about 1 MiB), where main wrote gigabytes.
        expect(sent.bytes).toBeGreaterThan(0);
        expect(sent.bytes).toBeLessThan(8 * 1024 * 1024);
      } finally {
        await standIn.close();
      }
    });
  }, 60_000);
});
