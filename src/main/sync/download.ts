import { createHash } from 'node:crypto';
import { closeSync, createReadStream, openSync, writevSync } from 'node:fs';
import { open, stat, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { ServiceClient } from '../api/client';
import { ApiError } from '../api/errors';
import { DeadlineError } from '../api/transport';
import type { Journal } from '../journal/journal';
import type { RemoteItem } from './remote';

/** The downloaded bytes are not what the service announced. */
export class VerificationError extends Error {
  override readonly name = 'VerificationError';
}

/**
 * The body ended before the bytes announced (the connection cut, a lying Content-Length): what
 * came is kept, and the next try resumes from it with Range.
 */
export class CutShortError extends Error {
  override readonly name = 'CutShortError';
}

/** Codes of a connection that broke while a body was read (undici's own, or the socket's). */
const CUT_CODES = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED']);

/** Whether reading a body failed on the way (not the disk, not a cancel). */
function bodyBroke(err: unknown, signal: AbortSignal | undefined): boolean {
  if (signal?.aborted) return false;
  if (err instanceof ApiError) return err.kind === 'network' || err.kind === 'protocol';
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && (code.startsWith('UND_ERR') || CUT_CODES.has(code));
}

export interface Fetched {
  temp: string;
  hash: string;
}

/** Files up to this size are gathered in memory and written with one call. */
const SMALL_FILE = 1024 * 1024;

/**
 * Writes a body of `size` bytes to `temp` and returns its sha256. A small file is gathered and
 * written in one call (a stream costs several round trips to the thread pool per file, which
 * dominates small files); a large one is streamed. More bytes than announced is refused.
 */
export async function writeTemp(
  body: AsyncIterable<unknown>,
  temp: string,
  size: number,
  onBytes: (n: number) => void,
  flags: 'w' | 'a' = 'w',
  hash = createHash('sha256'),
): Promise<string> {
  let written = 0;
  const count = (chunk: Buffer) => {
    written += chunk.length;
    if (written > size)
      throw new VerificationError(`received more than the ${size} bytes announced`);
    hash.update(chunk);
    onBytes(chunk.length);
  };
  if (size <= SMALL_FILE && flags === 'w') {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of body) {
        count(chunk as Buffer);
        chunks.push(chunk as Buffer);
      }
    } catch (err) {
      // A body cut off: what came is kept, for the next try to resume from (with Range).
      if (!(err instanceof VerificationError)) writeChunksSync(temp, chunks);
      throw err;
    }
    writeChunksSync(temp, chunks);
  } else {
    await writeBatched(body, temp, flags, count);
  }
  return hash.digest('hex');
}

/** A small body's chunks in one file, without joining them into one more buffer first. */
function writeChunksSync(file: string, chunks: Buffer[]): void {
  const fd = openSync(file, 'w');
  try {
    let rest = chunks;
    while (rest.length > 0) {
      let skip = writevSync(fd, rest);
      while (rest.length > 0 && skip >= rest[0]!.length) {
        skip -= rest[0]!.length;
        rest = rest.slice(1);
      }
      if (rest.length > 0 && skip > 0) rest = [rest[0]!.subarray(skip), ...rest.slice(1)];
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes of a large download: the body's chunks (64 KiB as the socket gives them) are gathered
 * into one `writev` of about this much. A write stream makes one call to libuv's pool per chunk
 * (16,384 for 1 GiB), which made the disk side slower than the wire.
 */
const WRITE_BATCH = 1024 * 1024;

/**
 * Streams `body` to `temp` in batched writes, one in flight while the next batch gathers (so at
 * most about two batches are held). `count` sees each chunk first (it may refuse it); a body
 * that fails part way still has every byte before the failure written, for a resume to go on.
 */
async function writeBatched(
  body: AsyncIterable<unknown>,
  temp: string,
  flags: 'w' | 'a',
  count: (chunk: Buffer) => void,
): Promise<void> {
  const fh = await open(temp, flags);
  let batch: Buffer[] = [];
  let batched = 0;
  let writing: Promise<void> = Promise.resolve();
  const flush = async () => {
    const out = batch;
    batch = [];
    batched = 0;
    await writing;
    writing = writeAll(fh, out);
    writing.catch(() => {}); // awaited with the next batch or at the end: never unhandled
  };
  try {
    try {
      for await (const chunk of body) {
        count(chunk as Buffer);
        batch.push(chunk as Buffer);
        batched += (chunk as Buffer).length;
        if (batched >= WRITE_BATCH) await flush();
      }
    } catch (err) {
      // What came before a cut is kept (more than announced is refused: nothing to resume).
      if (err instanceof VerificationError) batch = [];
      await flush().catch(() => {});
      await writing.catch(() => {});
      throw err;
    }
    await flush();
    await writing;
  } finally {
    await fh.close();
  }
}

/** Writes every byte of `chunks` at the file's position (a short write goes on from there). */
async function writeAll(fh: FileHandle, chunks: Buffer[]): Promise<void> {
  let rest = chunks;
  while (rest.length > 0) {
    const { bytesWritten } = await fh.writev(rest);
    let skip = bytesWritten;
    while (rest.length > 0 && skip >= rest[0]!.length) {
      skip -= rest[0]!.length;
      rest = rest.slice(1);
    }
    if (rest.length > 0 && skip > 0) rest = [rest[0]!.subarray(skip), ...rest.slice(1)];
  }
}

async function hashPrefix(file: string): Promise<ReturnType<typeof createHash>> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: WRITE_BATCH })) {
    hash.update(chunk as Buffer);
  }
  return hash;
}

/**
 * Downloads a file's bytes into a temporary file of the cache folder, resuming an interrupted
 * download of the same version with Range, hashing as it writes, and checking the length against
 * the size the listing gave (the service has no checksum).
 */
export async function fetchToTemp(
  client: ServiceClient,
  journal: Journal,
  partialDir: string,
  item: RemoteItem,
  onBytes: (n: number) => void,
  signal?: AbortSignal,
): Promise<Fetched> {
  const temp = path.join(partialDir, `${item.id}.part`);
  if (item.size === 0) {
    // Nothing to fetch: an empty file needs no request.
    await writeFile(temp, '');
    return { temp, hash: createHash('sha256').digest('hex') };
  }
  const pending = journal.pendingDownload(item.id);
  let offset = 0;
  if (
    pending &&
    pending.tempName === path.basename(temp) &&
    pending.remoteUpdatedAt === item.updatedAt &&
    pending.remoteSize === item.size
  ) {
    const have = await stat(temp).catch(() => null);
    if (have && have.size <= item.size) offset = have.size;
  }
  if (offset === 0) {
    journal.putDownload({
      remoteId: item.id,
      tempName: path.basename(temp),
      remoteUpdatedAt: item.updatedAt,
      remoteSize: item.size,
    });
  }
  if (offset === item.size) {
    // Complete before the interruption: only the rename into place was missing.
    return { temp, hash: (await hashPrefix(temp)).digest('hex') };
  }
  const res = await client.download(item.id, { offset, signal, expectBytes: item.size - offset });
  // A server that ignores Range sends the whole file: start over.
  if (offset > 0 && !res.partial) offset = 0;
  const hash = offset > 0 ? await hashPrefix(temp) : createHash('sha256');
  let written = offset;
  let digest: string;
  try {
    digest = await writeTemp(
      res.body,
      temp,
      item.size - offset,
      (n) => {
        written += n;
        onBytes(n);
      },
      offset > 0 ? 'a' : 'w',
      hash,
    );
  } catch (err) {
    if (err instanceof VerificationError) journal.removeDownload(item.id);
    if (bodyBroke(err, signal)) {
      // Headers came, the bytes stopped: this file's problem, not the pass's. The service may
      // be fine (a lying length), and the next file's request tells if it is not.
      const what =
        err instanceof DeadlineError
          ? `${err.message.replace(/\.$/, '')} (${written} of ${item.size} bytes came)`
          : `The download was cut off after ${written} of the ${item.size} bytes announced`;
      throw new CutShortError(`${what}: it is tried again (from there) later`);
    }
    throw err;
  }
  if (written !== item.size) {
    journal.removeDownload(item.id);
    throw new VerificationError(`received ${written} of the ${item.size} bytes announced`);
  }
  return { temp, hash: digest };
}
