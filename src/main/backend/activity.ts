import type { ActivityEvent } from '../../shared/app-api';
import type { Logger } from '../core/logger';
import type { SignedIn } from './accounts';
import { activityOf } from './map';
import { FeedPoller } from '../accounts/feed-poller';

/** New events pushed per account and poll at most (a flood is read in the feed, not pushed). */
const MAX_PER_POLL = 200;

/**
 * The `activity` push stream: every signed-in account's feed, polled (accounts/feed-poller.ts),
 * each new event pushed, oldest first.
 */
export class ActivityFeed extends FeedPoller<SignedIn, ActivityEvent> {
  constructor(opts: {
    intervalMs: number;
    accounts: () => Promise<SignedIn[]>;
    push: (accountId: string, event: ActivityEvent) => void;
    log: Logger;
  }) {
    super({
      name: 'activity',
      intervalMs: opts.intervalMs,
      reader: { accounts: opts.accounts, idOf: (a) => a.info.id, read: readNew },
      deliver: (fresh) => {
        for (const { account, events } of fresh)
          for (const event of events) opts.push(account.info.id, event);
      },
      log: opts.log,
    });
  }
}

/** Events come newest first: read until one already seen (only the newest at a first poll). */
async function readNew(account: SignedIn, since: number | undefined): Promise<ActivityEvent[]> {
  const fresh: ActivityEvent[] = [];
  for await (const e of account.client.listEvents()) {
    if (since !== undefined && (e.id <= since || fresh.length >= MAX_PER_POLL)) break;
    fresh.push(activityOf(e, { userId: account.userId, name: account.info.name }));
    if (since === undefined) break;
  }
  return fresh;
}
