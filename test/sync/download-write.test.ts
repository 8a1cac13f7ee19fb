import { createHash, randomBytes } from 'node:crypto';
import { fstatSync, openSync, closeSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { VerificationError, writeTemp } from '../../src/main/sync/download';
import { TempDirs } from './harness';

// How a large body is written to its temporary file (`writeTemp`): as it comes, hashed on the
// way, several writes in flight by position, the body paused while too many are, what came before
// a cut kept, and a resume written at its offset.

const MiB = 1024 * 1024;
const CHUNK = 64 * 1024;
const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * A body of `data` in 64 KiB chunks, each pushed as soon as it is asked for (a sender faster than
 * any disk), then `end` (the end, or an error as a cut connection gives). `onRead` sees how many
 * bytes had been handed out at each ask.
 */
function body(data: Buffer, end: Error | null = null, onRead?: (given: number) => void): Readable {
  let at = 0;
  return new Readable({
    highWaterMark: CHUNK,
    read() {
      onRead?.(at);
      if (at >= data.length) {
        if (end) this.destroy(end);
        else this.push(null);
        return;
      }
      const n = Math.min(CHUNK, data.length - at);
      // A copy, as a socket gives: each chunk its own memory.
      this.push(Buffer.from(data.subarray(at, at + n)));
      at += n;
    },
  });
}

describe('a large body written to its temporary file', () => {
  it('is written whole, hashed as it came, with no more than a few MiB ahead of the disk', async () => {
    const data = randomBytes(48 * MiB + 12_345);
    const temp = path.join(dirs.make(), 'big.part');
    writeFileSync(temp, '');
    // How far the body ran ahead of the file on disk, at each ask for more.
    const fd = openSync(temp, 'r');
    let ahead = 0;
    let bytes = 0;
    const hash = await writeTemp(
      body(data, null, (given) => {
        ahead = Math.max(ahead, given - fstatSync(fd).size);
      }),
      temp,
      data.length,
      (n) => (bytes += n),
    );
    closeSync(fd);
    expect(hash).toBe(sha(data));
    expect(bytes).toBe(data.length);
    expect(readFileSync(temp).equals(data)).toBe(true);
    // Paused while 8 writes of 256 KiB are in flight: ~2 MiB, plus the batch gathering and the
    // stream's own buffer. Without the pause the whole body would be read before the disk took it.
    expect(ahead).toBeGreaterThan(0);
    expect(ahead).toBeLessThan(4 * MiB);
  });

  it('keeps every byte that came before a cut, and refuses more than announced', async () => {
    const data = randomBytes(5 * MiB + 777);
    const dir = dirs.make();
    const cut = path.join(dir, 'cut.part');
    const err = Object.assign(new Error('the connection broke'), { code: 'ECONNRESET' });
    let came = 0;
    await expect(
      writeTemp(body(data, err), cut, data.length + MiB, (n) => (came += n)),
    ).rejects.toBe(err);
    // What the body delivered is on disk, in order, to its last byte (a resume starts there);
    // what a paused body still held when it broke never came.
    const kept = readFileSync(cut);
    expect(kept.length).toBe(came);
    expect(kept.length).toBeGreaterThan(4 * MiB);
    expect(kept.equals(data.subarray(0, kept.length))).toBe(true);

    const more = path.join(dir, 'more.part');
    await expect(writeTemp(body(data), more, data.length - 1, () => {})).rejects.toBeInstanceOf(
      VerificationError,
    );
  });

  it('resumes at its offset, the hash carried over from the bytes already there', async () => {
    const data = randomBytes(6 * MiB + 99);
    const temp = path.join(dirs.make(), 'resumed.part');
    const have = 2 * MiB + 5;
    writeFileSync(temp, data.subarray(0, have));
    const hash = createHash('sha256').update(data.subarray(0, have));
    const digest = await writeTemp(
      body(data.subarray(have)),
      temp,
      data.length - have,
      () => {},
      have,
      hash,
    );
    expect(digest).toBe(sha(data));
    expect(readFileSync(temp).equals(data)).toBe(true);
  });
});
