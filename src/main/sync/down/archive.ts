import { once } from 'node:events';
import {
  close,
  createWriteStream,
  fstat as fstatFd,
  open,
  readSync,
  type WriteStream,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import yauzl from 'yauzl';
import type { ServiceClient } from '../../api/client';
import pLimit from 'p-limit';
import { writeTemp, type Fetched } from '../download';
import type { Logger } from '../ports';
import type { ArchiveJob, Placement } from './plan-types';

const EXTRACT_CONCURRENCY = 8;
/** Errors of this computer's disk, not of the archive: they fail the pass. */
const LOCAL_ERRORS = new Set(['ENOSPC', 'EDQUOT', 'EACCES', 'EPERM', 'EROFS', 'EMFILE', 'ENFILE']);
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;

/** Whether an error is this computer's (the disk, an abort) rather than the archive's. */
function isLocalFailure(err: unknown, signal?: AbortSignal): boolean {
  return !!signal?.aborted || LOCAL_ERRORS.has((err as NodeJS.ErrnoException).code ?? '');
}

/** A downloaded zip: in memory when small (yauzl then reads it without a round trip to the
 * thread pool per entry: it reads a file one request at a time), else in the cache folder. An
 * in-memory zip holds `held` bytes of its `ZipMemory` until it is unpacked. */
export type Zip = { buffer: Buffer; held: number } | { file: string };

/**
 * The bytes all in-memory zips of a pass may hold together. Several archives are fetched ahead
 * of the disk; without a shared bound 8 of them could keep 16 MiB each, the largest part of a
 * mirror's memory. Past the bound a zip goes to the cache folder, costing reads, not memory
 * (a /usr/share mirror: 24 MiB → 8 MiB took ~20 MB off its peak).
 */
export class ZipMemory {
  private used = 0;
  constructor(readonly limit = 8 * 1024 * 1024) {}

  /** Takes `n` bytes if they fit. */
  take(n: number): boolean {
    if (this.used + n > this.limit) return false;
    this.used += n;
    return true;
  }

  give(n: number): void {
    this.used -= n;
  }
}

/** One zip stays in memory up to this size (and only within its pass's ZipMemory). */
const IN_MEMORY_ZIP = 4 * 1024 * 1024;

/**
 * The most a folder's zip may weigh: the listed bytes, plus what a zip adds (headers twice per
 * entry with its name, a descriptor, zip64 fields; stored or deflated data barely grows) and a
 * floor for the folders' own entries. Past it the server is sending something else, or no end.
 */
export function archiveCap(job: ArchiveJob): number {
  const entries = job.entries ?? job.files.size;
  return job.bytes + Math.ceil(job.bytes / 64) + entries * 1024 + 1024 * 1024;
}

/** The zip weighs more than the listing promised (an endless answer is cut here). */
class ArchiveTooLargeError extends Error {
  constructor(cap: number) {
    super(`the archive is larger than the ${cap} bytes its listing allows`);
  }
}

/**
 * Fetches a folder's zip; null when the service refused it, cut it short or sent something
 * else (its files are then fetched one by one, and fail in turn, failing the pass, if the service
 * itself is out of reach). A full disk or an abort is thrown. `onBytes` hears each piece of the
 * zip as it arrives (the progress).
 */
export async function downloadArchive(
  client: ServiceClient,
  partialDir: string,
  job: ArchiveJob,
  log: Logger,
  signal?: AbortSignal,
  memory = new ZipMemory(),
  onBytes: (n: number) => void = () => {},
): Promise<Zip | null> {
  const zipPath = path.join(partialDir, `archive-${job.folderId}.zip`);
  let out: WriteStream | null = null;
  const cap = archiveCap(job);
  let held = 0;
  try {
    const body = await client.folderArchive(job.folderId, signal, cap);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      const data = chunk as Buffer;
      onBytes(data.length);
      if (out) size += data.length;
      if (size > cap) {
        body.destroy();
        throw new ArchiveTooLargeError(cap);
      }
      if (out) {
        if (!out.write(data)) await once(out, 'drain');
        continue;
      }
      chunks.push(data);
      size += data.length;
      if (size > IN_MEMORY_ZIP || !memory.take(data.length)) {
        out = createWriteStream(zipPath);
        for (const c of chunks.splice(0)) out.write(c);
        memory.give(held);
        held = 0;
      } else held += data.length;
    }
    if (!out) return { buffer: Buffer.concat(chunks), held };
    out.end();
    await finished(out);
    return { file: zipPath };
  } catch (err) {
    memory.give(held);
    out?.destroy();
    await rm(zipPath, { force: true });
    if (isLocalFailure(err, signal)) throw err;
    log.warn('folder archive failed; fetching its files one by one', {
      folderId: job.folderId,
      error: err instanceof Error ? err.message : String(err),
    });
    return null;
  }
}

/**
 * Extracts the needed files from a downloaded zip, each checked against the listing (same path,
 * same size, a plain file) and handed to `place` as a temporary file. Entry names are only ever
 * compared with the listing's paths, never used to build a path, so a hostile archive (`../x`,
 * absolute names, links) cannot write anywhere. Returns the files it could not deliver, for
 * single downloads; a zip file is removed.
 */
export async function extractArchive(
  source: Zip,
  partialDir: string,
  job: ArchiveJob,
  onBytes: (n: number) => void,
  place: (p: Placement, fetched: Fetched) => Promise<void>,
  log: Logger,
  signal?: AbortSignal,
): Promise<Placement[]> {
  const delivered = new Set<number>();
  const remaining = () => [...job.files.values()].filter((p) => !delivered.has(p.item.id));
  try {
    // Closed by hand once every extraction is done: an auto-closed zip refuses the entries
    // still waiting for their turn.
    const options = {
      lazyEntries: true,
      decodeStrings: false,
      validateEntrySizes: true,
      autoClose: false,
    };
    const zip = await openZip(source, options);
    // Entries are read and placed several at a time: each costs a few file-system calls, and
    // waiting for them one by one would leave the disk and the CPU idle in turn.
    const limit = pLimit(EXTRACT_CONCURRENCY);
    const extractions: Promise<void>[] = [];
    let failed: unknown = null;
    try {
      for (;;) {
        if (failed) throw failed;
        const entry = await nextEntry(zip);
        if (!entry) break;
        const raw = entry.fileName as unknown as Buffer;
        const name = raw.toString('utf8');
        const p = job.files.get(name);
        if (!p || delivered.has(p.item.id)) continue;
        if (!matchesListing(entry, p)) {
          log.warn('archive entry does not match the listing', { entry: name });
          continue;
        }
        delivered.add(p.item.id);
        extractions.push(
          limit(() =>
            extractEntry(zip, entry, p, name, partialDir, onBytes, place, delivered, log, signal),
          ).catch((err: unknown) => {
            delivered.delete(p.item.id);
            failed ??= err;
          }),
        );
      }
    } finally {
      await Promise.all(extractions);
      zip.close();
    }
    if (failed) throw failed;
  } catch (err) {
    if (isLocalFailure(err, signal)) throw err;
    log.warn('folder archive unreadable; fetching the rest of its files one by one', {
      folderId: job.folderId,
      error: err instanceof Error ? err.message : String(err),
    });
  } finally {
    if ('file' in source) await rm(source.file, { force: true });
  }
  return remaining();
}

/** Whether a zip entry is the listed file it names: its size, unencrypted, a plain file. */
function matchesListing(entry: yauzl.Entry, p: Placement): boolean {
  const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
  return (
    entry.uncompressedSize === p.item.size &&
    (entry.generalPurposeBitFlag & 0x1) === 0 &&
    // Only plain files (a link, S_IFLNK, or a device is never written).
    (mode === 0 || mode === S_IFREG)
  );
}

/** Writes one entry to the cache and places it; an entry that lies is left for a download. */
async function extractEntry(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  p: Placement,
  name: string,
  partialDir: string,
  onBytes: (n: number) => void,
  place: (p: Placement, fetched: Fetched) => Promise<void>,
  delivered: Set<number>,
  log: Logger,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (signal?.aborted) throw signal.reason;
  const temp = path.join(partialDir, `${p.item.id}.part`);
  let hash: string;
  try {
    const stream = await zip.openReadStreamPromise(entry);
    hash = await writeTemp(stream, temp, p.item.size, onBytes);
  } catch (err) {
    if (isLocalFailure(err, signal)) throw err;
    // This entry lies (it inflates past its size, its data is corrupt): it alone is
    // fetched by itself; the other entries of the zip are still good.
    delivered.delete(p.item.id);
    log.warn('archive entry unreadable; fetching it by itself', {
      entry: name,
      error: err instanceof Error ? err.message : String(err),
    });
    await rm(temp, { force: true });
    return;
  }
  await place(p, { temp, hash });
}

function nextEntry(zip: yauzl.ZipFile): Promise<yauzl.Entry | null> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    const onEntry = (e: yauzl.Entry) => {
      cleanup();
      resolve(e);
    };
    const onEnd = () => {
      cleanup();
      resolve(null);
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}

/** A spilled zip is read in blocks of this size, a few kept (see FileZipReader). */
const ZIP_WINDOW = 128 * 1024;
const ZIP_WINDOWS = 3;

/**
 * A zip file read through one descriptor, in blocks. yauzl asks for a few small pieces per
 * entry (its central-directory record, its name, its local header, then its data): read one by
 * one through the thread pool, a 100k-file mirror spent ~6 s of its main thread on 237,000 such
 * round trips. Here each request is served from one of a few 128 KiB blocks read at once (the
 * central directory and the entries' data each advance through the file in order), so a zip
 * costs about its size / 128 KiB reads. The reads are synchronous: a block of the page cache is
 * copied in tens of microseconds. A stream destroyed meanwhile (an entry refused mid-way) is
 * simply not pushed to; nothing reads the descriptor after `close`.
 */
class FileZipReader extends yauzl.RandomAccessReader {
  /** Most recently used last. */
  private readonly windows: { pos: number; buf: Buffer; len: number }[] = [];
  private closed = false;

  constructor(private readonly fd: number) {
    super();
  }

  /** Copies up to `length` bytes at `position` into `into`; returns how many there were. */
  private copy(into: Buffer, length: number, position: number): number {
    let done = 0;
    while (done < length) {
      const at = position + done;
      let w = this.windows.find((x) => at >= x.pos && at < x.pos + x.len);
      if (w) {
        // Most recently used last.
        this.windows.splice(this.windows.indexOf(w), 1);
        this.windows.push(w);
      } else {
        if (this.closed) throw new Error('the zip was closed');
        const reuse = this.windows.length >= ZIP_WINDOWS ? this.windows.shift()! : null;
        const buf = reuse?.buf ?? Buffer.allocUnsafe(ZIP_WINDOW);
        const len = readSync(this.fd, buf, 0, ZIP_WINDOW, at);
        if (len === 0) break; // the end of the file
        w = { pos: at, buf, len };
        this.windows.push(w);
      }
      const from = at - w.pos;
      const n = Math.min(length - done, w.len - from);
      w.buf.copy(into, done, from, from + n);
      done += n;
    }
    return done;
  }

  override read(buffer: Buffer, offset: number, length: number, position: number, cb: ReadDone) {
    let got = 0;
    let error: Error | null = null;
    try {
      got = this.copy(offset === 0 ? buffer : buffer.subarray(offset), length, position);
    } catch (err) {
      error = err as Error;
    }
    // yauzl expects the answer later, as from the file system.
    process.nextTick(cb, error, got);
  }

  override _readStreamForRange(start: number, end: number): Readable {
    let pos = start;
    const copy = this.copy.bind(this);
    return new Readable({
      read(size) {
        const n = Math.min(size, end - pos);
        if (n <= 0) {
          this.push(null);
          return;
        }
        if (this.destroyed) return;
        const buffer = Buffer.allocUnsafe(n);
        let got: number;
        try {
          got = copy(buffer, n, pos);
        } catch (err) {
          this.destroy(err as Error);
          return;
        }
        if (got === 0) this.push(null);
        else {
          pos += got;
          this.push(got === n ? buffer : buffer.subarray(0, got));
        }
      },
    });
  }

  override close(cb: (err: Error | null) => void): void {
    this.closed = true;
    this.windows.length = 0;
    close(this.fd, (err) => cb(err));
  }
}

type ReadDone = (err: Error | null, bytesRead: number) => void;

/** Opens a downloaded zip for reading (exported for its test). */
export function openZip(source: Zip, options: yauzl.Options): Promise<yauzl.ZipFile> {
  return 'buffer' in source
    ? yauzl.fromBufferPromise(source.buffer, options)
    : openFileZip(source.file, options);
}

async function openFileZip(file: string, options: yauzl.Options): Promise<yauzl.ZipFile> {
  const fd = await promisify(open)(file, 'r');
  try {
    const { size } = await promisify(fstatFd)(fd);
    return await yauzl.fromRandomAccessReaderPromise(new FileZipReader(fd), size, options);
  } catch (err) {
    await promisify(close)(fd);
    throw err;
  }
}
