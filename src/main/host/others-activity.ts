import type { Account, ActivityEvent, Page, Workspace } from '../../shared/app-api';
import type { OthersEvent } from '../../shared/others-activity';
import type { Logger } from '../core/logger';
import type { CallResult } from '../backend/backend';
import type { z } from 'zod';
import { FeedPoller, type FreshEvents } from '../accounts/feed-poller';

/** The part of the backend the watcher uses: its public, validated API. */
export interface Caller {
  call(method: string, params: unknown): Promise<CallResult>;
}

type EventPage = z.infer<ReturnType<typeof Page<typeof ActivityEvent>>>;

/** New events read per account and poll at most: a flood is one notice, read in the feed. */
const PAGE = 100;

interface Options {
  backend: Caller;
  intervalMs: number;
  emit: (events: OthersEvent[]) => void;
  log: Logger;
}

/**
 * Others' activity for the desktop notifications: every signed-in account's feed with the
 * service's `filter_self`, through the backend's own API, polled (accounts/feed-poller.ts); a
 * round's new events are emitted together, each with its workspace's name.
 */
export class OthersActivity extends FeedPoller<Account, ActivityEvent> {
  constructor(opts: Options) {
    super({
      name: 'others-activity',
      intervalMs: opts.intervalMs,
      reader: {
        accounts: async () => (await result<Account[]>(opts, 'accounts.list', {})) ?? [],
        idOf: (a) => a.id,
        read: async (a) => {
          const params = { accountId: a.id, othersOnly: true, limit: PAGE };
          return (await result<EventPage>(opts, 'activity.list', params))?.items ?? null;
        },
      },
      deliver: async (fresh) => {
        const named: OthersEvent[] = [];
        for (const f of fresh) named.push(...(await withNames(opts, f)));
        opts.emit(named);
      },
      log: opts.log,
    });
  }
}

/** The account's new events, each with its workspace's name (null when unknown). */
async function withNames(
  opts: Options,
  { account, events }: FreshEvents<Account, ActivityEvent>,
): Promise<OthersEvent[]> {
  const names = new Map<number, string>();
  const listed = await result<{ items: Workspace[] }>(opts, 'workspaces.list', {
    accountId: account.id,
  });
  for (const w of listed?.items ?? []) names.set(w.id, w.name);
  return events.map((event) => ({
    accountId: account.id,
    workspaceName: event.workspaceId === null ? null : (names.get(event.workspaceId) ?? null),
    event,
  }));
}

/** A call's result, or null (logged) when the backend refused it. */
async function result<T>(opts: Options, method: string, params: unknown): Promise<T | null> {
  const reply = await opts.backend.call(method, params);
  if (!reply.ok) {
    opts.log.debug('others-activity call refused', { method, kind: reply.error.kind });
    return null;
  }
  return reply.result as T;
}
