import type { SyncRate } from '../../../shared/sync-status';

/** The speed is what moved over this last stretch: long enough to smooth, short to follow. */
export const RATE_WINDOW_MS = 5_000;
/** Less than this since the pass began tells too little: no speed yet. */
export const RATE_MIN_MS = 1_000;
/** At most one sample per this long: a fast transfer reports every 64 KiB. */
const SAMPLE_EVERY_MS = 100;

interface Sample {
  at: number;
  bytes: number;
  items: number;
}

/**
 * A rolling rate of a pass's progress, from the engine's clock (injected, so tests set time):
 * bytes per second over the last few seconds, and the time left at that speed (from the bytes
 * left, or from the items left when the work is not bytes: folders, moves, the trash).
 */
export class RateMeter {
  private samples: Sample[] = [];
  /**
   * When the pass's bytes were all moved (an archive's zip in, its files still to unpack): the
   * items' pace is measured from there, not from seconds when only bytes moved.
   */
  private bytesDone: Sample | null = null;

  constructor(private readonly now: () => number) {}

  /** A pass begins: nothing has moved yet. */
  reset(): void {
    this.samples = [{ at: this.now(), bytes: 0, items: 0 }];
    this.bytesDone = null;
  }

  /** Progress so far: the pass's counts. */
  sample(bytes: { done: number; total: number }, items: { done: number; total: number }): void {
    const at = this.now();
    if (bytes.total > 0 && bytes.done >= bytes.total) {
      this.bytesDone ??= { at, bytes: bytes.done, items: items.done };
    } else this.bytesDone = null;
    const last = this.samples.at(-1);
    if (last && at - last.at < SAMPLE_EVERY_MS) return;
    this.samples.push({ at, bytes: bytes.done, items: items.done });
    // One sample at or before the window's start is kept: the base the rate is measured from.
    while (this.samples.length > 2 && this.samples[1]!.at <= at - RATE_WINDOW_MS) {
      this.samples.shift();
    }
  }

  /** The rate now, given the pass's counts; null before there is enough to tell. */
  rate(
    bytes: { done: number; total: number },
    items: { done: number; total: number },
  ): SyncRate | null {
    const at = this.now();
    const first = this.samples[0];
    if (!first) return null;
    // The base: the newest sample at or before the window's start, else the pass's first.
    let base = first;
    for (const s of this.samples) {
      if (s.at <= at - RATE_WINDOW_MS) base = s;
      else break;
    }
    const ms = at - base.at;
    if (ms < RATE_MIN_MS) return null;
    const bytesPerSecond = Math.max(0, ((bytes.done - base.bytes) * 1000) / ms);
    const bytesLeft = bytes.total - bytes.done;
    const itemsLeft = items.total - items.done;
    let secondsLeft: number | null = null;
    if (bytesLeft > 0) {
      if (bytesPerSecond > 0) secondsLeft = bytesLeft / bytesPerSecond;
    } else if (itemsLeft > 0) {
      secondsLeft = this.itemsLeftSeconds(base, at, items.done, itemsLeft);
    } else secondsLeft = 0;
    return { bytesPerSecond: Math.round(bytesPerSecond), secondsLeft };
  }

  /** Time left from the items' pace since `base`, or since the bytes were all in if later. */
  private itemsLeftSeconds(base: Sample, at: number, done: number, left: number): number | null {
    const from = this.bytesDone && this.bytesDone.at > base.at ? this.bytesDone : base;
    const ms = at - from.at;
    if (ms < RATE_MIN_MS) return null;
    const perSecond = ((done - from.items) * 1000) / ms;
    return perSecond > 0 ? left / perSecond : null;
  }
}
