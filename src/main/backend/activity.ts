import type { ActivityEvent } from '../../shared/app-api';
import type { Logger } from '../core/logger';
import type { SignedIn } from './accounts';
import { activityOf } from './map';

/** New events pushed per account and poll at most (a flood is read in the feed, not pushed). */
const MAX_PER_POLL = 200;

/**
 * The `activity` push stream. The service has no push delivery (service-api.md, Events), so the
 * feed of each signed-in account is polled; the first poll of an account only notes the newest
 * event, so that what is pushed is what happened after listening began.
 */
export class ActivityFeed {
  private readonly newest = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly opts: {
      intervalMs: number;
      accounts: () => Promise<SignedIn[]>;
      push: (accountId: string, event: ActivityEvent) => void;
      log: Logger;
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
    await this.polling;
  }

  /** One round over the accounts; a round still running is not doubled. */
  poll(): Promise<void> {
    this.polling ??= this.round().finally(() => {
      this.polling = null;
    });
    return this.polling;
  }

  private async round(): Promise<void> {
    let accounts: SignedIn[];
    try {
      accounts = await this.opts.accounts();
    } catch (err) {
      this.opts.log.warn('activity poll: accounts unavailable', { err });
      return;
    }
    for (const account of accounts) {
      if (this.stopped) return;
      try {
        await this.pollOne(account);
      } catch (err) {
        // Offline or signed out: the next poll tries again; the window learns it from its calls.
        this.opts.log.debug('activity poll failed', { account: account.info.id, err });
      }
    }
  }

  private async pollOne(account: SignedIn): Promise<void> {
    const id = account.info.id;
    const since = this.newest.get(id);
    const fresh: ActivityEvent[] = [];
    let newest = since ?? 0;
    // Events come newest first: read until one already seen.
    for await (const e of account.client.listEvents()) {
      if (since === undefined) {
        newest = e.id;
        break;
      }
      if (e.id <= since || fresh.length >= MAX_PER_POLL) break;
      fresh.push(activityOf(e, { userId: account.userId, name: account.info.name }));
      newest = Math.max(newest, e.id);
    }
    this.newest.set(id, newest);
    for (const event of fresh.reverse()) this.opts.push(id, event);
  }
}
