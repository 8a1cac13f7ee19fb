import type { MetaRepo } from './meta';
import { Repository, transaction } from './repository';
import type { Db } from './schema';

/**
 * Where the remote feed stands. Every event of the workspace with a time at or after `startMs`
 * has been handled: by id (the journal's seen events) or, `unknown` of them, by a walk that made
 * reading them needless; those have times up to `unknownUntilMs`.
 */
export interface FeedWindow {
  /** Epoch ms, a whole second; null before the first look at the feed. */
  startMs: number | null;
  unknown: number;
  unknownUntilMs: number;
}

/**
 * The remote feed's window: events are read from `startMs` on, and those already handled are
 * known by id (`seen_events`) or, after a walk that made reading them needless, only by count
 * (kept in `meta`); and this client's own changes (`own_changes`), known when read back.
 */
export class FeedRepo extends Repository {
  constructor(
    db: Db,
    private readonly meta: MetaRepo,
  ) {
    super(db, {
      seenCount: `SELECT count(*) FROM seen_events WHERE time_ms >= ?`,
      seenHas: `SELECT 1 FROM seen_events WHERE id = ?`,
      ownAdd: `INSERT INTO own_changes (item_id, time_ms) VALUES (?, ?)`,
      ownFind: `SELECT rowid FROM own_changes WHERE item_id = ? AND time_ms BETWEEN ? AND ?
        ORDER BY time_ms LIMIT 1`,
      ownDel: `DELETE FROM own_changes WHERE rowid = ?`,
      ownPrune: `DELETE FROM own_changes WHERE time_ms < ?`,
      seenAdd: `INSERT OR IGNORE INTO seen_events (id, time_ms) VALUES (?, ?)`,
      seenPrune: `DELETE FROM seen_events WHERE time_ms < ?`,
    });
  }

  window(): FeedWindow {
    const start = this.meta.get('feed_start_ms');
    const unknown = Number(this.meta.get('feed_unknown') ?? 0);
    const unknownUntilMs = Number(this.meta.get('feed_unknown_until_ms') ?? 0);
    if (start !== undefined) return { startMs: Number(start), unknown, unknownUntilMs };
    // A journal of an earlier version kept the newest event's time; its ids cover 5 s before it.
    const legacy = this.meta.get('cursor_ms');
    if (legacy === undefined) return { startMs: null, unknown: 0, unknownUntilMs: 0 };
    return {
      startMs: Math.floor((Number(legacy) - 5_000) / 1000) * 1000,
      unknown: 0,
      unknownUntilMs: 0,
    };
  }

  /** How many events handled by id have a time at or after `ms`. */
  seenSince(ms: number): number {
    return this.s.seenCount!.pluck().get(ms) as number;
  }

  hasSeen(eventId: number): boolean {
    return this.s.seenHas!.get(eventId) !== undefined;
  }

  /**
   * A change this client made on the service, at the time the service gave it: its event, read
   * back from the feed, is then known for ours (`takeOwnChange`) and costs no request.
   */
  noteOwnChange(itemId: number, timeMs: number): void {
    if (Number.isFinite(timeMs)) this.s.ownAdd!.run(itemId, timeMs);
  }

  /**
   * Whether an event of `itemId` at `timeMs` is one of this client's own changes; with `take`,
   * that change is used up (one event each: someone else's change in the same second is then
   * still seen). The event's time may lag the item's by a moment: `slackMs` either way.
   */
  takeOwnChange(itemId: number, timeMs: number, take: boolean, slackMs = 2_000): boolean {
    const row = this.s.ownFind!.get(itemId, timeMs - slackMs, timeMs + slackMs) as
      { rowid: number } | undefined;
    if (row && take) this.s.ownDel!.run(row.rowid);
    return row !== undefined;
  }

  /** Records events as handled and the window that follows, at once; drops ids before it. */
  record(events: readonly { id: number; timeMs: number }[], next: FeedWindow): void {
    transaction(this.db, () => {
      for (const e of events) this.s.seenAdd!.run(e.id, e.timeMs);
      this.meta.set('feed_start_ms', next.startMs);
      this.meta.set('feed_unknown', next.unknown || null);
      this.meta.set('feed_unknown_until_ms', next.unknown ? next.unknownUntilMs : null);
      this.meta.set('cursor_ms', null);
      if (next.startMs === null) this.db.exec(`DELETE FROM seen_events`);
      else this.s.seenPrune!.run(next.startMs);
      // An own change whose event never came in time is not kept to hide someone else's.
      if (next.startMs) this.s.ownPrune!.run(next.startMs - 60_000);
    });
  }
}
