import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export class BlobTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`The content is larger than the limit of ${limit} bytes`);
  }
}

/**
 * Content-addressed file contents on disk beside the database: `blobs/ab/abcdef…` named by
 * SHA-256. Written through a temporary file while hashing, so nothing is ever buffered whole.
 */
export class BlobStore {
  constructor(private readonly dir: string) {}

  async init(): Promise<void> {
    await mkdir(path.join(this.dir, 'tmp'), { recursive: true });
  }

  pathOf(hash: string): string {
    if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error('not a blob hash');
    return path.join(this.dir, hash.slice(0, 2), hash);
  }

  /** Streams `source` into the store; rejects with BlobTooLargeError past `limit` bytes. */
  async write(source: Readable, limit = Infinity): Promise<{ hash: string; size: number }> {
    const tmp = path.join(this.dir, 'tmp', randomBytes(12).toString('hex'));
    const hash = createHash('sha256');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        size += chunk.length;
        if (size > limit) return cb(new BlobTooLargeError(limit));
        hash.update(chunk);
        cb(null, chunk);
      },
    });
    try {
      await pipeline(source, meter, createWriteStream(tmp));
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    const digest = hash.digest('hex');
    const final = this.pathOf(digest);
    await mkdir(path.dirname(final), { recursive: true });
    await rename(tmp, final);
    return { hash: digest, size };
  }

  async writeBuffer(data: Buffer): Promise<{ hash: string; size: number }> {
    const { Readable } = await import('node:stream');
    return this.write(Readable.from([data]));
  }

  read(hash: string, range?: { start: number; end: number }): ReadStream {
    return createReadStream(this.pathOf(hash), range);
  }

  async size(hash: string): Promise<number> {
    return (await stat(this.pathOf(hash))).size;
  }
}
