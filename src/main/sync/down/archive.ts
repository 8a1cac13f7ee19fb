import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
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
 * thread pool per entry: it reads a file one request at a time), else in the cache folder. */
export type Zip = { buffer: Buffer } | { file: string };

/** Zips up to this size stay in memory. */
const IN_MEMORY_ZIP = 16 * 1024 * 1024;

/**
 * Fetches a folder's zip; null when the service refused it, cut it short or sent something
 * else (its files are then fetched one by one, and fail in turn, failing the pass, if the service
 * itself is out of reach). A full disk or an abort is thrown.
 */
export async function downloadArchive(
  client: ServiceClient,
  partialDir: string,
  job: ArchiveJob,
  log: Logger,
  signal?: AbortSignal,
): Promise<Zip | null> {
  const zipPath = path.join(partialDir, `archive-${job.folderId}.zip`);
  let out: WriteStream | null = null;
  try {
    const body = await client.folderArchive(job.folderId, signal);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      const data = chunk as Buffer;
      if (out) {
        if (!out.write(data)) await once(out, 'drain');
        continue;
      }
      chunks.push(data);
      size += data.length;
      if (size > IN_MEMORY_ZIP) {
        out = createWriteStream(zipPath);
        for (const c of chunks.splice(0)) out.write(c);
      }
    }
    if (!out) return { buffer: Buffer.concat(chunks) };
    out.end();
    await finished(out);
    return { file: zipPath };
  } catch (err) {
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
    const zip =
      'buffer' in source
        ? await yauzl.fromBufferPromise(source.buffer, options)
        : await yauzl.openPromise(source.file, options);
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
        const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
        if (
          entry.uncompressedSize !== p.item.size ||
          (entry.generalPurposeBitFlag & 0x1) !== 0 ||
          // Only plain files (a link, S_IFLNK, or a device is never written).
          (mode !== 0 && mode !== S_IFREG)
        ) {
          log.warn('archive entry does not match the listing', { entry: name });
          continue;
        }
        delivered.add(p.item.id);
        extractions.push(
          limit(async () => {
            if (signal?.aborted) throw signal.reason;
            const temp = path.join(partialDir, `${p.item.id}.part`);
            const stream = await zip.openReadStreamPromise(entry);
            const hash = await writeTemp(stream, temp, p.item.size, onBytes);
            await place(p, { temp, hash });
          }).catch((err: unknown) => {
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
