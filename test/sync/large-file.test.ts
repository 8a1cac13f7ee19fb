import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  openSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Journal } from '../../src/main/journal/journal';
import { readHashed } from '../../src/main/sync/file-read';
import { resolveIntent, type IntentPayload } from '../../src/main/sync/up/outbox';
import { spawnSandbox, type SandboxProcess } from '../../src/service/child';
import { TempDirs, clientFor, openPair } from './harness';

// A large file goes up and comes down through the engine and the real sandbox (in a process of
// its own, so that what this process reads is the engine's alone), with the bytes checked on
// both sides, and read once each way: hashed while it is sent, and while it comes down (the
// socket's bytes count as read too: a second read of the file would show as twice the size).

const MiB = 1024 * 1024;
const SIZE = 64 * MiB;

const dirs = new TempDirs();
let sb: SandboxProcess;
let dataDir: string;

beforeAll(async () => {
  dataDir = dirs.make('wsync-large-data-');
  sb = await spawnSandbox(['--data', dataDir, '--seed', 'empty']);
}, 60_000);
afterAll(async () => {
  await sb?.stop();
  dirs.cleanup();
});

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** `size` bytes no two MiB alike, made quickly: one random block, numbered per copy. */
function content(size: number): Buffer {
  const block = randomBytes(MiB);
  const out = Buffer.allocUnsafe(size);
  for (let at = 0, n = 0; at < size; at += MiB, n++) {
    block.copy(out, at);
    out.writeUInt32BE(n, at);
  }
  return out;
}

/** Bytes this process has read through read(2) and friends, from files and sockets alike. */
function bytesRead(): number {
  const m = /^rchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'));
  return Number(m![1]);
}

/** Where the sandbox keeps content of this hash (its blob store is content-addressed). */
const blobOf = (hash: string) => path.join(dataDir, 'blobs', hash.slice(0, 2), hash);

describe.runIf(existsSync('/proc/self/io'))('a 64 MiB file through the engine', () => {
  it('goes up read once, and comes down the same bytes read once; a touched copy is not sent', async () => {
    const info = sb.info;
    const client = clientFor(info.base_url, { accessToken: info.users[0]!.token });
    const ws = { baseUrl: info.base_url, workspaceId: info.workspace_id };
    const data = content(SIZE);
    const want = sha(data);

    const up = await openPair(ws, client, dirs);
    try {
      writeFileSync(path.join(up.dir, 'big.bin'), data);
      const before = bytesRead();
      const summary = await up.engine.syncOnce();
      const read = bytesRead() - before;
      expect(summary.uploaded).toBe(1);
      // Once: the old engine read it twice (a hash, then the upload). What else this process
      // reads in a pass (the journal, the answers) is a few hundred KiB.
      expect(read).toBeGreaterThanOrEqual(SIZE);
      expect(read).toBeLessThan(SIZE + 8 * MiB);
      // The service holds exactly these bytes, and the journal their hash.
      expect(existsSync(blobOf(want))).toBe(true);
      expect(statSync(blobOf(want)).size).toBe(SIZE);
      expect(up.journal.items.atPath('big.bin')?.hash).toBe(want);
      expect(up.engine.status().problems).toEqual([]);

      // Touched, not changed: its hash is read first (it has its synced size) and nothing goes.
      const later = new Date(Date.now() + 5_000);
      utimesSync(path.join(up.dir, 'big.bin'), later, later);
      const touched = await up.engine.syncOnce();
      expect(touched.uploaded).toBe(0);
      expect(up.journal.items.atPath('big.bin')?.mtimeMs).toBe(
        statSync(path.join(up.dir, 'big.bin')).mtimeMs,
      );
    } finally {
      await up.close();
    }

    const down = await openPair(ws, client, dirs);
    try {
      const before = bytesRead();
      const summary = await down.engine.syncOnce();
      const read = bytesRead() - before;
      expect(summary.filesDownloaded).toBe(1);
      // Once, from the socket: hashed as it came, the file written never read back.
      expect(read).toBeGreaterThanOrEqual(SIZE);
      expect(read).toBeLessThan(SIZE + 8 * MiB);
      expect(summary.bytesDownloaded).toBe(SIZE);
      const got = readFileSync(path.join(down.dir, 'big.bin'));
      expect(got.length).toBe(SIZE);
      expect(sha(got)).toBe(want);
      expect(down.journal.items.atPath('big.bin')?.hash).toBe(want);
    } finally {
      await down.close();
    }
  }, 120_000);
});

describe('the reads of an upload', () => {
  it('start again at byte 0 from the same descriptor on every attempt, each hashed', async () => {
    const file = path.join(dirs.make(), 'f.bin');
    const data = content(3 * MiB + 12_345);
    writeFileSync(file, data);
    const fd = openSync(file, 'r');
    try {
      const hashes: string[] = [];
      for (let attempt = 0; attempt < 2; attempt++) {
        const chunks: Buffer[] = [];
        for await (const c of readHashed(fd, data.length, (h) => hashes.push(h))) {
          chunks.push(Buffer.from(c)); // a copy: the reader turns its buffers over
        }
        expect(Buffer.concat(chunks).equals(data)).toBe(true);
      }
      expect(hashes).toEqual([sha(data), sha(data)]);
      // An attempt stopped part way (a failed request) hashes nothing.
      const partial = readHashed(fd, data.length, (h) => hashes.push(h));
      await partial.next();
      await partial.return();
      expect(hashes).toHaveLength(2);
    } finally {
      closeSync(fd);
    }
  });
});

describe('an upload intent without a hash (a large file hashed while sent), left open', () => {
  it('is resolved by the bytes here when the service renamed the file meanwhile', async () => {
    const info = sb.info;
    const client = clientFor(info.base_url, { accessToken: info.users[0]!.token });
    const ws = await client.createWorkspace({ name: 'Settle large' });
    const root = await client.rootFolder(ws.id);
    const data = content(2 * MiB);
    const file = path.join(dirs.make(), 'report.bin');
    writeFileSync(file, data);
    const intentAt = Date.now();
    // Made, its answer lost; then renamed there by someone: its name no longer finds it.
    const made = await client.uploadFile(root.id, 'report.bin', () => [data], data.length);
    await client.renameFile(made.id, 'renamed.bin');
    const payload: IntentPayload = {
      op: 'upload',
      parentId: root.id,
      name: 'report.bin',
      path: 'report.bin',
      fileId: null,
      size: data.length,
      hash: null,
      before: null,
    };
    const journal = new Journal(':memory:');
    const asked: string[] = [];
    const origin = (here: string | null) => ({
      timeMs: intentAt,
      workspaceId: ws.id,
      localHash: (p: { path: string }) => {
        asked.push(p.path);
        return Promise.resolve(here);
      },
    });
    const found = await resolveIntent(client, journal, payload, origin(sha(readFileSync(file))));
    expect(found).toMatchObject({ made: true, item: { id: made.id } });
    expect(asked).toEqual(['report.bin']);
    // The file here changed since (no hash to tell): not made, so it goes up again.
    const unknown = await resolveIntent(client, journal, payload, origin(null));
    expect(unknown).toEqual({ made: false });
  });
});
