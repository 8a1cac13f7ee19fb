import type { ActivityEvent, EventOf, ItemKind } from '../../shared/app-api';
import { didOf, eventText, subjectOf } from '../../shared/event-words';
import type { Translator } from '../../shared/i18n';
import type { OthersEvent } from '../../shared/others-activity';
import { mainLanguage } from './language';

/** Where clicking a notice leads. */
export type NoticeTarget = EventOf<'show'>;

export interface Notice {
  title: string;
  body: string;
  target: NoticeTarget;
}

/** Where an event of the tray's recent list leads: its file or folder, else the activity feed. */
export function eventTarget(accountId: string, event: ActivityEvent): NoticeTarget {
  const item = event.objects.find(
    (o) => (o.kind === 'file' || o.kind === 'folder') && o.id !== null,
  );
  const workspaceId = item?.workspaceId ?? event.workspaceId;
  if (item?.id != null && workspaceId !== null && (item.kind === 'file' || item.kind === 'folder'))
    return {
      kind: 'item',
      accountId,
      workspaceId,
      itemKind: item.kind,
      itemId: item.id,
      name: item.text,
    };
  return { kind: 'activity', accountId };
}

/** An event as one line in the language: English is the service's own sentence. */
export function sentenceOf(event: ActivityEvent, tr: Translator): string {
  return tr.lang === 'en' || (!event.subject && !event.predicate)
    ? event.text
    : eventText(tr, event);
}

function people(names: string[], tr: Translator): string {
  if (names.length <= 1) return names[0] ?? tr.t('notice.someone');
  if (names.length === 2) return tr.t('notice.two', { a: names[0]!, b: names[1]! });
  return tr.t('notice.many', { first: names[0]!, n: names.length - 1 });
}

const distinct = <T>(values: T[]) => [...new Set(values)];

/**
 * One notice for a burst of others' events: a single event reads as itself ("Ann Lee uploaded
 * model.json"); several as who did how much where ("Ann Lee and 2 others changed 5 items in
 * Q3"). Null for no events.
 */
export function summarize(
  batch: readonly OthersEvent[],
  tr: Translator = mainLanguage(),
): Notice | null {
  const first = batch[0];
  if (!first) return null;
  const items = new Map<
    string,
    { kind: ItemKind; id: number; name: string; workspaceId: number | null }
  >();
  for (const { event } of batch) {
    for (const o of event.objects) {
      if ((o.kind === 'file' || o.kind === 'folder') && o.id !== null)
        items.set(`${o.kind}:${o.id}`, {
          kind: o.kind,
          id: o.id,
          name: o.text,
          workspaceId: o.workspaceId ?? event.workspaceId,
        });
    }
  }
  const accounts = distinct(batch.map((b) => b.accountId));
  const only = items.size === 1 ? [...items.values()][0] : undefined;
  const target: NoticeTarget =
    only && only.workspaceId !== null && accounts.length === 1
      ? {
          kind: 'item',
          accountId: first.accountId,
          workspaceId: only.workspaceId,
          itemKind: only.kind,
          itemId: only.id,
          name: only.name,
        }
      : { kind: 'activity', accountId: accounts.length === 1 ? first.accountId : null };
  const workspaces = distinct(batch.map((b) => b.workspaceName).filter((n) => n !== null));
  const title = workspaces.length === 1 ? workspaces[0]! : tr.t('app.name');
  // One event is the service's own sentence (in English as it wrote it).
  if (batch.length === 1) return { title, body: sentenceOf(first.event, tr), target };
  const predicates = distinct(batch.map((b) => b.event.predicate));
  // The service's verb when all agree ("uploaded", said in the language), else ours.
  const verb =
    predicates.length === 1 && predicates[0] ? didOf(tr, predicates[0]) : tr.t('notice.changed');
  const what =
    items.size > 0
      ? tr.t('notice.items', { n: items.size })
      : tr.t('notice.things', { n: batch.length });
  const who = people(distinct(batch.map((b) => subjectOf(tr, b.event.subject))), tr);
  const body =
    workspaces.length === 1
      ? tr.t('notice.burstIn', { who, verb, what, workspace: workspaces[0]! })
      : workspaces.length > 1
        ? tr.t('notice.burstInMany', { who, verb, what, n: workspaces.length })
        : tr.t('notice.burst', { who, verb, what });
  return { title, body, target };
}

export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: Timers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (h) => clearTimeout(h as NodeJS.Timeout),
};

/**
 * Gathers others' events into bursts: a burst ends after `quietMs` without a new event, or
 * `maxWaitMs` after it began, and becomes one notice. While notifications are off, events are
 * dropped rather than kept for later: a notice is about what just happened. Other things to
 * announce (a pair's conflicts, a sign-out: attention-notices.ts) are batched the same way with
 * a `summarize` of their own.
 */
export class NoticeBatcher<T = OthersEvent> {
  private pending: T[] = [];
  private quiet: unknown = null;
  private deadline: unknown = null;
  private enabled = true;

  constructor(
    private readonly opts: {
      quietMs: number;
      maxWaitMs: number;
      notify: (notice: Notice) => void;
      timers?: Timers;
      summarize?: (batch: readonly T[]) => Notice | null;
    },
  ) {}

  private get timers(): Timers {
    return this.opts.timers ?? realTimers;
  }

  setEnabled(enabled: boolean): void {
    this.enabled = enabled;
    if (!enabled) this.reset();
  }

  add(events: readonly T[]): void {
    if (!this.enabled || events.length === 0) return;
    this.pending.push(...events);
    if (this.quiet !== null) this.timers.clear(this.quiet);
    this.quiet = this.timers.set(() => this.flush(), this.opts.quietMs);
    this.deadline ??= this.timers.set(() => this.flush(), this.opts.maxWaitMs);
  }

  /** Ends the burst now: one notice for what was gathered. */
  flush(): void {
    const batch = this.pending;
    this.reset();
    const words = this.opts.summarize ?? (summarize as (b: readonly T[]) => Notice | null);
    const notice = words(batch);
    if (notice) this.opts.notify(notice);
  }

  private reset(): void {
    if (this.quiet !== null) this.timers.clear(this.quiet);
    if (this.deadline !== null) this.timers.clear(this.deadline);
    this.quiet = this.deadline = null;
    this.pending = [];
  }
}
