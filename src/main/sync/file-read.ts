import { createHash, type Hash } from 'node:crypto';
import { read, readSync } from 'node:fs';
import { SwapError } from './confined';

// Reading a file the confined root opened (its descriptor, never its path again): whole when
// small, else in 1 MiB positional reads hashed as they are sent. Apart from confined.ts, which
// opens the file, so that each stays one subject.

/** Bodies up to this size are read whole before they are sent. */
export const SMALL_BODY = 1024 * 1024;

/**
 * Reads of a large file: 1 MiB at a time. A stream's 64 KiB reads cost a round trip to libuv's
 * pool (and a chunk through every layer above) per 64 KiB: 16,384 of them for 1 GiB.
 */
const CHUNK = 1024 * 1024;

/** The file ended before the bytes it had when it was looked at: it changed meanwhile. */
const shrank = () =>
  new SwapError('The file became shorter while it was being read: it is tried again later.');

/** `n` bytes at `pos` of an open file into `buf` (fewer only at the end of the file). */
function readAt(fd: number, buf: Buffer, n: number, pos: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    read(fd, buf, 0, n, pos, (err, got) => (err ? reject(err) : resolve(buf.subarray(0, got))));
  });
}

/**
 * The first `size` bytes of an open file, read at once into one buffer by position from its
 * descriptor (which stays open).
 */
export function readWhole(fd: number, size: number): Buffer {
  const buf = Buffer.allocUnsafe(size);
  let got = 0;
  while (got < size) {
    const n = readSync(fd, buf, got, size - got, got);
    if (n === 0) throw shrank();
    got += n;
  }
  return buf;
}

/** Buffers a read of chunks turns over: the one sent, the one read meanwhile, one to spare. */
const RING = 3;

/**
 * The first `size` bytes of an open file as chunks of 1 MiB, read by position from its
 * descriptor (which stays open): each call starts again at 0, so a retried upload reads the same
 * file again. Each chunk goes through `hash` before it is handed on, so that a file is hashed as
 * it is sent, not in a read of its own; the next read is under way while a chunk is sent.
 *
 * The chunks are read into three buffers in turn, not a new one each: 1 GiB read into new
 * buffers left ~60 MB of them for the collector at any time (V8 collects after 64 MB of them),
 * three make the memory of a read flat. So a chunk holds its bytes only until the one after the
 * next is asked for: the consumer must be done with each chunk by then (undici writes a chunk and
 * waits for the socket to drain it before it asks for the next; a hash is updated at once).
 * A consumer that stops early (a failed request) ends the read in flight before the caller may
 * close the descriptor.
 */
export async function* readChunks(
  fd: number,
  size: number,
  hash?: Hash,
): AsyncGenerator<Buffer, void, undefined> {
  const ring: Buffer[] = [];
  let turn = 0;
  const readNext = (pos: number) => {
    const n = Math.min(CHUNK, size - pos);
    const buf = (ring[turn % RING] ??= Buffer.allocUnsafe(Math.min(CHUNK, size)));
    turn++;
    const p = readAt(fd, buf, n, pos);
    p.catch(() => {}); // awaited in turn, or in `finally`: never an unhandled rejection
    return p;
  };
  let pos = 0;
  let next: Promise<Buffer> | null = size > 0 ? readNext(0) : null;
  try {
    while (next) {
      const chunk = await next;
      next = null;
      if (chunk.length === 0) throw shrank();
      pos += chunk.length;
      if (pos < size) next = readNext(pos);
      hash?.update(chunk);
      yield chunk;
    }
  } finally {
    if (next) await next.catch(() => {});
  }
}

/**
 * `readChunks` hashing as it goes: once the last chunk has been taken, `done` gets the sha256 of
 * the bytes handed on (every attempt of an upload hashes what it sends).
 */
export async function* readHashed(
  fd: number,
  size: number,
  done: (sha256: string) => void,
): AsyncGenerator<Buffer, void, undefined> {
  const hash = createHash('sha256');
  yield* readChunks(fd, size, hash);
  done(hash.digest('hex'));
}

/** The sha256 of the first `size` bytes of an open file. */
export async function hashFd(fd: number, size: number): Promise<string> {
  const hash = createHash('sha256');
  const chunks = readChunks(fd, size, hash);
  while (!(await chunks.next()).done);
  return hash.digest('hex');
}

/**
 * The sha256 of the first `size` bytes of an open file, read at once (1 MiB at a time): for the
 * local reconciliation, which is synchronous and reads a file only to tell two synced files of
 * the same size and time apart.
 */
export function hashFdSync(fd: number, size: number): string {
  const hash = createHash('sha256');
  const buf = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(size, 1)));
  for (let pos = 0; pos < size;) {
    const n = readSync(fd, buf, 0, Math.min(buf.length, size - pos), pos);
    if (n === 0) throw shrank();
    hash.update(buf.subarray(0, n));
    pos += n;
  }
  return hash.digest('hex');
}
