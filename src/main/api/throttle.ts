import { pipeline, Transform, type Readable } from 'node:stream';
import { TokenBucket } from 'limiter';

// The upload and download limits: one token bucket per direction for the whole process, shared
// by every request in flight (files, archives), as "limit to N KB/s" means in Nextcloud's or
// Dropbox's client. The bucket is limiter's TokenBucket (maintained, no dependencies, FIFO
// waiters under one timer, so concurrent transfers take turns piece by piece); what is ours is
// the cutting of bodies into pieces, the streams that wait for them, and the time a transfer was
// held back, which its deadline does not count (transport.ts).

/** The limits' unit: 1 KB = 1,000 bytes, as network speeds are counted. */
export const KB = 1000;

/**
 * A piece of a body waits for its tokens alone: about 1/16 s of the limit, so that concurrent
 * transfers interleave finely and a limit lowered mid-transfer holds within a fraction of a
 * second (a waiter already asleep wakes at the old rate's time). Never under 1 KB (a piece per
 * second at 1 KB/s), never over 64 KiB (the bucket's burst, below, always holds one).
 */
const MIN_PIECE = KB;
const MAX_PIECE = 64 * 1024;

/**
 * The burst a bucket allows after an idle spell: a quarter second of the limit. Over a transfer
 * of 20 s that is 1.25% more than the limit at most; it is what lets a transfer start without
 * waiting a piece's time first.
 */
const BURST_SECONDS = 0.25;

/** The time a transfer spent waiting for the limit: not the server's slowness (transport.ts). */
export class HeldTime {
  ms = 0;
}

/** One direction's limit: a rate in bytes per second, 0 for none; changed at any time. */
export class RateLimit {
  /** bucketSize 0 is limiter's "unlimited": a waiter asleep passes when it wakes. */
  private readonly bucket = new TokenBucket({
    bucketSize: 0,
    tokensPerInterval: 1,
    interval: 'second',
  });
  private rate = 0;
  private passed = 0;

  /** Bytes this limit has let through, limited or not (a status line's or a test's figure). */
  get bytesPassed(): number {
    return this.passed;
  }

  get bytesPerSecond(): number {
    return this.rate;
  }

  /** Applies at once, to the transfers under way too (their next piece waits at this rate). */
  set(bytesPerSecond: number): void {
    if (!Number.isFinite(bytesPerSecond) || bytesPerSecond < 0)
      throw new RangeError(
        `a transfer limit is a number of bytes per second, not ${bytesPerSecond}`,
      );
    this.rate = Math.floor(bytesPerSecond);
    if (this.rate === 0) {
      this.bucket.bucketSize = 0;
      return;
    }
    this.bucket.tokensPerInterval = this.rate;
    this.bucket.bucketSize = Math.max(MAX_PIECE, Math.round(this.rate * BURST_SECONDS));
  }

  /**
   * The chunks of `source`, cut into pieces each handed on once the limit allows it (an upload's
   * body). One piece at a time: the source is asked for its next chunk only when this one has
   * gone, so nothing is read ahead (a file's chunks may be buffers it reuses, file-read.ts).
   */
  async *chunks(
    source: AsyncIterable<Uint8Array>,
    held: HeldTime,
  ): AsyncGenerator<Uint8Array, void, undefined> {
    for await (const chunk of source) {
      let at = 0;
      while (at < chunk.length) {
        const n = this.piece(chunk.length - at);
        if (n === 0) {
          this.passed += chunk.length - at;
          yield at === 0 ? chunk : chunk.subarray(at);
          break;
        }
        await this.take(n, held);
        yield chunk.subarray(at, at + n);
        at += n;
      }
    }
  }

  /**
   * `body` as a stream that passes its bytes once the limit allows them (a download's body).
   * Backpressure, not buffering: while a piece waits, the stream takes no more, so `body` stops
   * being read, the socket's window fills and the server waits; a paused body is not idle for
   * undici's body timeout. An error of either side ends both with it (a deadline, a cut, a
   * consumer that stops).
   */
  stream(body: Readable, held: HeldTime): Readable {
    const pass = (chunk: Buffer, push: (piece: Buffer) => void): Promise<void> | null => {
      // Unlimited: handed on as is, without a turn of the event loop.
      if (this.piece(chunk.length) === 0) {
        this.passed += chunk.length;
        push(chunk);
        return null;
      }
      return (async () => {
        let at = 0;
        while (at < chunk.length) {
          const n = this.piece(chunk.length - at);
          if (n > 0) await this.take(n, held);
          const end = n === 0 ? chunk.length : at + n;
          if (n === 0) this.passed += end - at;
          push(chunk.subarray(at, end));
          at = end;
        }
      })();
    };
    const out = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        const waiting = pass(chunk, (piece) => this.push(piece));
        if (waiting) waiting.then(() => done(), done);
        else done();
      },
    });
    // Errors travel both ways (and the callback keeps pipeline's own from being unhandled).
    return pipeline(body, out, () => {});
  }

  /** The next piece of at most `left` bytes at the current rate; 0 when there is no limit. */
  private piece(left: number): number {
    if (this.rate === 0) return 0;
    const piece = Math.min(MAX_PIECE, Math.max(MIN_PIECE, Math.round(this.rate / 16)));
    return Math.min(piece, left);
  }

  private async take(n: number, held: HeldTime): Promise<void> {
    const started = performance.now();
    await this.bucket.removeTokens(n);
    held.ms += performance.now() - started;
    this.passed += n;
  }
}

/** The two directions' limits, set from the settings or the command line (in KB/s). */
export class TransferLimits {
  readonly up = new RateLimit();
  readonly down = new RateLimit();

  /** Sets both, in KB/s (0 for no limit). */
  setKBps(limits: { upKBps: number; downKBps: number }): void {
    this.up.set(limits.upKBps * KB);
    this.down.set(limits.downKBps * KB);
  }
}

/**
 * The process's limits: every Transport's unless it is given its own (tests), so that all the
 * engines of the app, or the one of the CLI, share one budget per direction.
 */
export const processTransfers = new TransferLimits();
