import type { Account, ActivityEvent, Page, Workspace } from '../../shared/app-api';
import type { OthersEvent } from '../../shared/others-activity';
import type { Logger } from '../core/logger';
import type { CallResult } from '../backend/backend';
import type { z } from 'zod';

/** The part of the backend the watcher uses: its public, validated API. */
export interface Caller {
  call(method: string, params: unknown): Promise<CallResult>;
}

type EventPage = z.infer<ReturnType<typeof Page<typeof ActivityEvent>>>;

/** New events read per account and poll at most: a flood is one notice, read in the feed. */
const PAGE = 100;

/**
 * Others' activity for the desktop notifications: every signed-in account's feed with the
 * service's `filter_self`, through the backend's own API. The first poll of an account only
 * notes where its feed stands, so that only what happens after the app started listening is
 * announced.
 */
export class OthersActivity {
  private readonly newest = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly opts: {
      backend: Caller;
      intervalMs: number;
      emit: (events: OthersEvent[]) => void;
      log: Logger;
    },
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.poll(), this.opts.intervalMs);
    void this.poll();
  }

  async stop(): Promise<void> {
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
    const accounts = await this.result<Account[]>('accounts.list', {});
    if (!accounts) return;
    const fresh: OthersEvent[] = [];
    for (const account of accounts) {
      try {
        fresh.push(...(await this.pollOne(account.id)));
      } catch (err) {
        this.opts.log.debug('others-activity poll failed', { account: account.id, err });
      }
    }
    if (fresh.length > 0) this.opts.emit(fresh);
  }

  private async pollOne(accountId: string): Promise<OthersEvent[]> {
    const page = await this.result<EventPage>('activity.list', {
      accountId,
      othersOnly: true,
      limit: PAGE,
    });
    if (!page) return [];
    const since = this.newest.get(accountId);
    const newest = page.items.reduce((max, e) => Math.max(max, e.id), since ?? 0);
    this.newest.set(accountId, newest);
    if (since === undefined) return [];
    const events = page.items.filter((e) => e.id > since).reverse();
    if (events.length === 0) return [];
    const names = new Map<number, string>();
    const listed = await this.result<{ items: Workspace[] }>('workspaces.list', { accountId });
    for (const w of listed?.items ?? []) names.set(w.id, w.name);
    return events.map((event) => ({
      accountId,
      workspaceName: event.workspaceId === null ? null : (names.get(event.workspaceId) ?? null),
      event,
    }));
  }

  private async result<T>(method: string, params: unknown): Promise<T | null> {
    const reply = await this.opts.backend.call(method, params);
    if (!reply.ok) {
      this.opts.log.debug('others-activity call refused', { method, kind: reply.error.kind });
      return null;
    }
    return reply.result as T;
  }
}
