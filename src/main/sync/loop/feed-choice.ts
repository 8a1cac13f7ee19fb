import type { Journal } from '../../journal/journal';
import { resolveCost } from '../detect-remote/resolve';
import type { FeedChoice } from '../detect-remote/feed';
import type { LoopContext } from './context';

/** More new events than a page: a burst, left to end before it is handled (continuous mode). */
const BURST_EVENTS = 30;
/** A burst that never ends is handled after this long all the same. */
const MAX_HOLD_MS = 60_000;

/** About what a full walk costs: a listing per folder, and a page per 60 entries. */
export function walkCost(journal: Journal): number {
  return 1 + journal.items.folderCount() + Math.ceil(journal.items.count() / 60);
}

/**
 * The remote pass's choice when the feed has more than a page unread: reading the rest, or a
 * walk, or waiting for a burst to end. Kept apart from the pass because it remembers the burst
 * between passes.
 */
export class FeedChooser {
  /** A burst of remote changes left to end before it is handled: its size when last seen. */
  private burst: { unread: number; since: number } | null = null;

  constructor(private readonly ctx: LoopContext) {}

  /**
   * Reading the rest of a burst, or a walk: whichever costs fewer requests. In continuous mode a
   * burst still growing is first left to end (one request a poll), so that it is handled once.
   */
  choose(c: FeedChoice, once: boolean): 'read' | 'walk' | 'wait' {
    const now = this.ctx.now();
    const held = this.burst;
    if (
      !once &&
      c.unread > BURST_EVENTS &&
      (held === null || c.unread > held.unread) &&
      now - (held?.since ?? now) < MAX_HOLD_MS
    ) {
      this.burst = { unread: c.unread, since: held?.since ?? now };
      return 'wait';
    }
    this.burst = null;
    // The first page is the sample of what the rest will be, scaled to the count.
    const { journal } = this.ctx.opts;
    const cost = resolveCost(journal, c.sample);
    const scale = c.sample.length > 0 ? c.unread / c.sample.length : 0;
    const read = c.pagesLeft + (c.sample.length > 0 ? cost.requests * scale : c.unread);
    const walk = walkCost(journal) + cost.newFolders * scale;
    this.ctx.log.debug('feed: read or walk', {
      unread: c.unread,
      sample: c.sample.length,
      ...cost,
      read,
      walk,
    });
    return walk < read ? 'walk' : 'read';
  }
}
