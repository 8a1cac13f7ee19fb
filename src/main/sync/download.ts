import { createHash } from 'node:crypto';
import { closeSync, createReadStream, openSync, writev, writevSync } from 'node:fs';
import { stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { finished, type Readable } from 'node:stream';
import type { ServiceClient } from '../api/client';
import { ApiError } from '../api/errors';
import { DeadlineError } from '../api/transport';
import type { Journal } from '../journal/journal';
import type { Words } from '../../shared/i18n';
import { WordedError } from '../../shared/worded-error';
import type { RemoteItem } from './remote';

/** The downloaded bytes are not what the service announced. */
export class VerificationError extends WordedError {
  override readonly name = 'VerificationError';
  declare readonly words: Words;
  constructor(words: Words) {
    super(words);
  }
}

/**
 * The body ended before the bytes announced (the connection cut, a lying Content-Length): what
 * came is kept, and the next try resumes from it with Range.
 */
export class CutShortError extends WordedError {
  override readonly name = 'CutShortError';
  declare readonly words: Words;
  constructor(
    words: Words,
    /** Bytes this try brought before the cut, when it was a cut and not a deadline. */
    readonly gained = 0,
  ) {
    super(words);
  }
}

/**
 * A try cut short after at least this many new bytes is resumed at once. A server closes a
 * keep-alive connection it has finished writing to once it has been idle for its timeout (Node's
 * 5 s, Apache's 5 s, nginx's 75 s), while a throttled download is still draining what the
 * socket buffers took (megabytes): undici then drops the rest with "other side closed". Each
 * resume brings what drained meanwhile, so a slow limit takes several; a server that cuts every
 * answer short sooner is tried again later instead.
 */
const RESUME_AT_ONCE_BYTES = 64 * 1024;

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
 * Writes a body of `size` bytes to `temp` (from byte `from` on, when resuming) and returns its
 * sha256, hashed as the bytes come: the file is never read again. A small file is gathered and
 * written in one call (a stream costs several round trips to the thread pool per file, which
 * dominates small files); a large one is written as it comes. More bytes than announced is
 * refused.
 */
export async function writeTemp(
  body: Readable,
  temp: string,
  size: number,
  onBytes: (n: number) => void,
  from = 0,
  hash = createHash('sha256'),
): Promise<string> {
  let written = 0;
  const count = (chunk: Buffer) => {
    written += chunk.length;
    if (written > size)
      throw new VerificationError({ key: 'engine.tooManyBytes', params: { size } });
    hash.update(chunk);
    onBytes(chunk.length);
  };
  if (size <= SMALL_FILE && from === 0) {
    const chunks: Buffer[] = [];
    try {
      await eachChunk(body, (chunk) => {
        count(chunk);
        chunks.push(chunk);
      });
    } catch (err) {
      // A body cut off: what came is kept, for the next try to resume from (with Range).
      if (!(err instanceof VerificationError)) writeChunksSync(temp, chunks);
      throw err;
    }
    writeChunksSync(temp, chunks);
  } else {
    // At `from` by position, not in append mode: on Linux a positioned write to a file opened
    // to append goes to its end, and several writes are in flight at once.
    const fd = openSync(temp, from > 0 ? 'r+' : 'w');
    try {
      await writeAsItComes(body, fd, from, count);
    } finally {
      closeSync(fd);
    }
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
 * Calls `fn` with each chunk of `body` as it comes. The body is read in flowing mode, never with
 * its async iterator: that calls `read()`, which joins every chunk buffered meanwhile into a new
 * buffer (for a large file, a copy of all of it in pieces, and as much garbage). A throw from
 * `fn` ends the body and is the error; the body's own (a cut, the deadline) is the error
 * otherwise.
 */
function eachChunk(body: Readable, fn: (chunk: Buffer) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      try {
        fn(chunk);
      } catch (err) {
        body.off('data', onData);
        reject(err); // first: the destroy below settles `finished` with a premature close
        body.destroy();
      }
    };
    body.on('data', onData);
    finished(body, (err) => (err ? reject(err) : resolve()));
  });
}

/**
 * A large download is written in batches of about this much, each as soon as it is gathered: the
 * kernel copies the bytes while they are still in the CPU's cache from the hash (with batches of
 * 1 MiB it read them back from memory: about 0.3 s more CPU per GiB).
 */
const WRITE_BATCH = 256 * 1024;

/**
 * Writes handed to libuv's pool at once, at most: the body is paused past that and resumed as
 * they finish (a disk slower than the wire slows the sender; memory stays at about 2 MiB). Waiting
 * for each write before the next batch stood the reader still at every one.
 */
const WRITES_IN_FLIGHT = 8;

/**
 * Streams `body` into the open file `fd` from byte `at`: batches written by position on libuv's
 * pool while the next is gathered, the main thread never waiting for the disk. `count` sees each
 * chunk first (it may refuse it). A body that fails part way still has every byte before the
 * failure written, for a resume to go on; one refused by `count` or a failed write stops at once.
 * Resolves (or fails) once no write is in flight, so the caller may close `fd`.
 */
function writeAsItComes(
  body: Readable,
  fd: number,
  at: number,
  count: (chunk: Buffer) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let batch: Buffer[] = [];
    let batched = 0;
    let inFlight = 0;
    let ended = false;
    let failure: { err: unknown } | null = null;
    const settle = () => {
      if (inFlight > 0) return;
      if (failure) reject(failure.err);
      else if (ended) resolve();
    };
    const fail = (err: unknown) => {
      failure ??= { err };
      body.destroy();
      settle();
    };
    const flush = () => {
      if (batched === 0) return;
      const chunks = batch;
      const pos = at;
      at += batched;
      batch = [];
      batched = 0;
      inFlight++;
      writeAll(fd, chunks, pos, (err) => {
        inFlight--;
        if (err) fail(err);
        else if (!failure && body.isPaused() && inFlight < WRITES_IN_FLIGHT) body.resume();
        settle();
      });
      if (inFlight >= WRITES_IN_FLIGHT) body.pause();
    };
    body.on('data', (chunk: Buffer) => {
      if (failure) return;
      try {
        count(chunk);
      } catch (err) {
        // More than announced: nothing of it is kept or resumed.
        batch = [];
        batched = 0;
        fail(err);
        return;
      }
      batch.push(chunk);
      batched += chunk.length;
      if (batched >= WRITE_BATCH) flush();
    });
    finished(body, (err) => {
      if (err && !failure) {
        flush(); // what came before a cut is kept
        failure = { err };
      } else if (!err) {
        flush();
        ended = true;
      }
      settle();
    });
  });
}

/** Writes every byte of `chunks` at `pos` (a short write goes on from there). */
function writeAll(
  fd: number,
  chunks: Buffer[],
  pos: number,
  done: (err: NodeJS.ErrnoException | null) => void,
): void {
  writev(fd, chunks, pos, (err, n) => {
    if (err) return done(err);
    let rest = chunks;
    let skip = n;
    while (rest.length > 0 && skip >= rest[0]!.length) {
      skip -= rest[0]!.length;
      rest = rest.slice(1);
    }
    if (rest.length === 0) return done(null);
    if (skip > 0) rest = [rest[0]!.subarray(skip), ...rest.slice(1)];
    writeAll(fd, rest, pos + n, done);
  });
}

async function hashPrefix(file: string): Promise<ReturnType<typeof createHash>> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) {
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
  for (;;) {
    try {
      return await fetchOnce(client, journal, partialDir, item, onBytes, signal);
    } catch (err) {
      if (!(err instanceof CutShortError) || err.gained < RESUME_AT_ONCE_BYTES) throw err;
    }
  }
}

/** One try of `fetchToTemp`: from what the cache folder has of this version, to the end. */
async function fetchOnce(
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
  let offset = await resumeFrom(journal, temp, item);
  if (offset === item.size) {
    // Complete before the interruption: only the rename into place was missing.
    return { temp, hash: (await hashPrefix(temp)).digest('hex') };
  }
  /** What the cache folder had before this try: a resume must bring more than that. */
  const had = offset;
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
      offset,
      hash,
    );
  } catch (err) {
    if (err instanceof VerificationError) journal.downloads.remove(item.id);
    if (bodyBroke(err, signal)) throw cutShort(err, written, had, item.size);
    throw err;
  }
  if (written !== item.size) {
    journal.downloads.remove(item.id);
    throw new VerificationError({
      key: 'engine.fewerBytes',
      params: { written, size: item.size },
    });
  }
  return { temp, hash: digest };
}

/**
 * Where a download starts: after what the cache folder holds of this very version (a download
 * cut short before), else at 0, the download then journaled so that a stop can resume it.
 */
async function resumeFrom(journal: Journal, temp: string, item: RemoteItem): Promise<number> {
  const pending = journal.downloads.get(item.id);
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
    journal.downloads.put({
      remoteId: item.id,
      tempName: path.basename(temp),
      remoteUpdatedAt: item.updatedAt,
      remoteSize: item.size,
    });
    // Committed at once (even inside a batch) for a file written as it comes: a stop that loses
    // the batch would otherwise leave its bytes in the cache folder with nothing to resume them.
    if (item.size > SMALL_FILE) journal.commitNow();
  }
  return offset;
}

/**
 * Headers came, the bytes stopped: this file's problem, not the pass's. The service may be fine
 * (a lying length), and the next file's request tells if it is not. The deadline's own sentence
 * loses its full stop inside ours (as words do).
 */
function cutShort(err: unknown, written: number, had: number, size: number): CutShortError {
  const words: Words =
    err instanceof DeadlineError
      ? {
          key: 'engine.deadlineCut',
          params: { deadline: err.words ?? err.message, written, size },
        }
      : { key: 'engine.cutOff', params: { written, size } };
  const gained = err instanceof DeadlineError ? 0 : written - had;
  return new CutShortError(words, gained);
}
