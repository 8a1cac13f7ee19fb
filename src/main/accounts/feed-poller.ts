import type { LogSink } from '../api/transport';

/** What a poller reads of one account: the events past the last one seen, newest first. */
export interface FeedReader<A, E extends { id: number }> {
  /** The accounts to poll this round. */
  accounts(): Promise<A[]>;
  idOf(account: A): string;
  /**
   * The account's events newer than `since`, newest first (older ones are dropped); with `since`
   * undefined (the account's first poll) only the newest matters. Null when it could not be
   * read: nothing is noted, and the next round asks again.
   */
  read(account: A, since: number | undefined): Promise<E[] | null>;
}

/** One account's events new at a round, oldest first. */
export interface FreshEvents<A, E> {
  account: A;
  events: E[];
}

/**
 * Polls every account's activity feed on a timer, for those who show what others did: the
 * window's activity stream (backend/activity.ts) and the desktop notices (host/others-activity.ts).
 * The service has no push delivery (service-api.md, Events). The first poll of an account only
 * notes where its feed stands, so that only what happens after listening began is delivered.
 * A round still running is not doubled; one account failing never stops the others; a round
 * never rejects (it runs off a timer). Once stopped, a round reads no further account and what
 * an unfinished read brings is not noted, so the next start delivers it.
 */
export class FeedPoller<A, E extends { id: number }> {
  private readonly newest = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly opts: {
      /** Names the poller in the log. */
      name: string;
      intervalMs: number;
      reader: FeedReader<A, E>;
      /** Called once a round, when some account has something new. */
      deliver: (fresh: FreshEvents<A, E>[]) => void | Promise<void>;
      /** Only warnings and debug lines: a poll's failures are the next poll's to mend. */
      log: LogSink;
    },
  ) {}

  start(): void {
    this.stopped = false;
    if (this.timer) return;
    this.timer = setInterval(() => void this.poll(), this.opts.intervalMs);
    void this.poll();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One round over the accounts; a round still running is not doubled. */
  poll(): Promise<void> {
    this.running ??= this.round().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async round(): Promise<void> {
    const { name, reader, log } = this.opts;
    let accounts: A[];
    try {
      accounts = await reader.accounts();
    } catch (err) {
      log.warn(`${name} poll: accounts unavailable`, { err });
      return;
    }
    const fresh: FreshEvents<A, E>[] = [];
    for (const account of accounts) {
      if (this.stopped) break;
      try {
        const events = await this.readOne(account);
        if (events.length > 0) fresh.push({ account, events });
      } catch (err) {
        // Offline or signed out: the next round tries again.
        log.debug(`${name} poll failed`, { account: reader.idOf(account), err });
      }
    }
    if (fresh.length === 0) return;
    try {
      await this.opts.deliver(fresh);
    } catch (err) {
      log.warn(`${name}: delivering events failed`, { err });
    }
  }

  /** The account's events since its last poll, oldest first; none at its first. */
  private async readOne(account: A): Promise<E[]> {
    const id = this.opts.reader.idOf(account);
    const since = this.newest.get(id);
    const events = await this.opts.reader.read(account, since);
    if (!events || this.stopped) return [];
    this.newest.set(
      id,
      events.reduce((max, e) => Math.max(max, e.id), since ?? 0),
    );
    if (since === undefined) return [];
    return events.filter((e) => e.id > since).reverse();
  }
}
