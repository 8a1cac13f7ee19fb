import type { Event } from '../../api/schemas';
import type { EventFilters, ServiceClient } from '../../api/client';
import type { FeedWindow } from '../../journal/journal';
import { parseDetail } from '../../../shared/detail';
import type { WalkReason } from '../walk-reason';

/** What an event says was acted on: the first `object` of its detail. */
export interface EventRef {
  eventId: number;
  timeMs: number;
  kind: 'folder' | 'file';
  id: number;
  /** The event removed the item (its predicate reads as a delete). */
  removed: boolean;
}

export interface FeedEvent {
  id: number;
  timeMs: number;
}

/** What the feed knows already: the window, and the events handled in it. */
export interface FeedMemory {
  window: FeedWindow;
  hasSeen(eventId: number): boolean;
  /** Events handled by id with a time at or after `ms`. */
  seenSince(ms: number): number;
}

/** Asked before the feed reads on past its first page: read the events, or walk instead. */
export interface FeedChoice {
  /** New events the service counts in the window, beyond those already read. */
  unread: number;
  /** Pages still to read to see them (the whole window when new ones hide among old). */
  pagesLeft: number;
  /** The new events read so far that name an item (a sample of what the rest will be). */
  sample: readonly EventRef[];
}

export interface FeedOptions {
  overlapMs: number;
  /**
   * Decides between reading on, a full walk, and waiting for a burst still arriving to end (read
   * nothing more now, record nothing); the feed only counts. Reads when absent.
   */
  choose?: (c: FeedChoice) => 'read' | 'walk' | 'wait';
  /** Only the first page: says whether anything is new, reads nothing further. */
  peek?: boolean;
}

export type FeedRead =
  /** Nothing new. `next` moves the window on, when it can. */
  | { kind: 'quiet'; next: FeedWindow | null; requests: number }
  /** New events, all read; `refs` (oldest first) name items to look at. */
  | { kind: 'events'; refs: EventRef[]; events: FeedEvent[]; next: FeedWindow; requests: number }
  /**
   * A walk is cheaper than reading what is new (or something cannot be read): `next` counts the
   * unread events as handled, which holds once the walk (journaled as due with it) has run.
   */
  | {
      kind: 'walk';
      reason: WalkReason;
      unread: number;
      events: FeedEvent[];
      next: FeedWindow;
      requests: number;
    }
  /** With `peek`: something is new; `unread` is how much, as far as the service says. */
  | { kind: 'changed'; unread: number; requests: number }
  /** `choose` said to wait: nothing is recorded, the next poll reads the same again. */
  | { kind: 'wait'; unread: number; requests: number };

/** The verbs that change the tree; downloads, views and invitations do not. */
const TREE_VERBS = ['create', 'upload', 'update', 'delete'] as const;
/** Events per page where the server does not say (the real service's figure). */
const PAGE_SIZE = 30;
/** A bound on pages for one read, whatever a server claims (30 per page: 3 million events). */
const MAX_PAGES = 100_000;
const REMOVED = /\b(delet|remov|trash)/i;

const second = (ms: number) => Math.floor(ms / 1000) * 1000;

/**
 * One poll of the workspace's event feed. Every event with a time in the window (from
 * `window.startMs` on: an event may become visible late, up to the overlap after its time) is
 * handled already or new; the service's count of the window (`total_entries`) against what the
 * journal knows says how many are new without reading them. So an idle poll is one request,
 * whatever happened before it, and a burst is read once: new events are newest first, read page
 * by page until all the count announced are found. When `choose` finds a walk cheaper than
 * reading on, the rest is not read; the walk covers it and the window counts it.
 */
export async function readFeed(
  client: ServiceClient,
  workspaceId: number,
  memory: FeedMemory,
  opts: FeedOptions,
): Promise<FeedRead> {
  const start = memory.window.startMs;
  if (start === null) throw new Error('readFeed: the window has no start yet');
  return new FeedReader(client, workspaceId, memory, opts, start).read();
}

/** One read of the feed: what it found so far, page by page, newest first. */
class FeedReader {
  private readonly window: FeedWindow;
  private readonly knownCount: number;
  private readonly fresh: FeedEvent[] = [];
  private readonly refs: EventRef[] = [];
  /** Unread ids that may be events a walk already covered (their ids were never read). */
  private readonly maybeCovered: FeedEvent[] = [];
  private readonly coveredEvents: { event: Event; timeMs: number }[] = [];
  private readonly seen = new Set<number>();
  private readonly unreadable: number[] = [];
  private total: number | null = null;
  private head: number | null = null;
  /** The oldest time read: events not read are no newer (the feed is newest first). */
  private oldest: number | null = null;
  private reachedKnown = false;
  private inCovered = false;
  private requests = 0;
  private problem: WalkReason | null = null;
  private asked = false;
  private askedCovered = false;

  constructor(
    private readonly client: ServiceClient,
    private readonly workspaceId: number,
    private readonly memory: FeedMemory,
    private readonly opts: FeedOptions,
    private readonly start: number,
  ) {
    this.window = memory.window;
    this.knownCount = memory.seenSince(start) + this.window.unknown;
  }

  async read(): Promise<FeedRead> {
    const filters: EventFilters = {
      workspaces: [this.workspaceId],
      verbs: [...TREE_VERBS],
      startTime: this.start,
    };
    let offset = 0;
    for (let page = 0; page < MAX_PAGES; page++) {
      const answer = await this.client.eventsPage({ ...filters, offset });
      this.requests++;
      if (page === 0) this.total = answer.total;
      const older = this.take(answer.events);
      const unread = this.total === null ? null : this.total - this.knownCount - this.fresh.length;
      const end = older || answer.next === null;
      if (this.opts.peek) {
        const peeked = this.peeked(end, unread);
        if (peeked) return peeked;
        offset = answer.next!;
        continue;
      }
      // Done when every new event the count announced is found and the known ones are reached
      // (events that vanished from the service would otherwise hide new ones from the count).
      if (end || (unread !== null && unread <= 0 && this.reachedKnown)) break;
      const chosen = unread === null ? null : this.ask(unread, answer.next!);
      if (chosen) return chosen;
      offset = answer.next!;
    }
    return this.finish();
  }

  /** Takes in one page's events; true when the rest is older than the window. */
  private take(events: readonly Event[]): boolean {
    const { memory, window } = this;
    for (const event of events) {
      if (this.seen.has(event.id)) continue;
      this.seen.add(event.id);
      const timeMs = Date.parse(event.updated_at);
      if (Number.isNaN(timeMs)) {
        if (memory.hasSeen(event.id)) continue;
        // Known from here by its id, kept while the window is where it is (one walk, not one a
        // poll); its time is taken for the newest read.
        this.unreadable.push(event.id);
        this.problem ??= { kind: 'event-time', eventId: event.id };
        continue;
      }
      this.head = Math.max(this.head ?? timeMs, timeMs);
      this.oldest = Math.min(this.oldest ?? timeMs, timeMs);
      // A server that ignores start_time: everything from here on is older than the window.
      if (timeMs < this.start) return true;
      if (memory.hasSeen(event.id)) {
        this.reachedKnown = true;
        continue;
      }
      if (window.unknown > 0 && timeMs <= window.unknownUntilMs) {
        this.reachedKnown = true;
        this.inCovered = true;
        this.maybeCovered.push({ id: event.id, timeMs });
        this.coveredEvents.push({ event, timeMs });
        continue;
      }
      this.fresh.push({ id: event.id, timeMs });
      const ref = refOf(event, this.workspaceId, timeMs);
      if (ref === 'unreadable') this.problem ??= { kind: 'event-item', eventId: event.id };
      else if (ref) this.refs.push(ref);
    }
    return false;
  }

  /**
   * A peek's answer after a page, or null to read on. Something new is an event not seen; a
   * count that is off (a server that counts what it does not show) alone is not: it would hold
   * back every delete for ever.
   */
  private peeked(end: boolean, unread: number | null): FeedRead | null {
    const { requests } = this;
    if (this.fresh.length > 0) {
      const unreadNow = Math.max(this.fresh.length, (this.total ?? 0) - this.knownCount);
      return { kind: 'changed', unread: unreadNow, requests };
    }
    if (end || unread === null || unread <= 0) return { kind: 'quiet', next: null, requests };
    return null;
  }

  /**
   * Asks `choose` whether to read on, wait or walk: once per read, and once more when the new
   * events must be found among covered ones (those can be anywhere in the window). Null to
   * read on.
   */
  private ask(unread: number, next: number): FeedRead | null {
    const choose = this.opts.choose;
    if (!choose || (this.asked && (!this.inCovered || this.askedCovered))) return null;
    const pagesLeft = this.inCovered
      ? Math.ceil((this.total! - next) / PAGE_SIZE)
      : Math.ceil(unread / PAGE_SIZE);
    const first = !this.asked;
    this.asked = true;
    this.askedCovered = this.inCovered;
    const choice = choose({ unread, pagesLeft, sample: this.refs });
    if (choice === 'wait' && first) {
      return { kind: 'wait', unread: unread + this.fresh.length, requests: this.requests };
    }
    if (choice === 'walk') {
      const { memory, fresh, oldest, knownCount, requests } = this;
      return skipToWalk(memory, fresh, oldest, this.total!, knownCount, requests);
    }
    return null;
  }

  /** What the whole read found: the events, in order, and where the window moves. */
  private finish(): FeedRead {
    const { fresh, refs, window, head, requests } = this;
    const all = [...fresh, ...this.unreadable.map((id) => ({ id, timeMs: head ?? this.start }))];
    let next = advance(window, head, this.opts.overlapMs);
    const hidden = this.total !== null && this.total - this.knownCount > fresh.length;
    if (hidden && this.maybeCovered.length > 0) {
      // New events hide among those a walk covered without reading their ids: nothing tells
      // them apart, so all are looked at (a look at a covered one finds it as it is). Every id
      // of the window was read just now: from here they are all known.
      all.push(...this.maybeCovered);
      for (const e of this.coveredEvents) {
        const ref = refOf(e.event, this.workspaceId, e.timeMs);
        if (ref && ref !== 'unreadable') refs.push(ref);
      }
      refs.sort((a, b) => b.timeMs - a.timeMs);
      next = advance({ ...window, unknown: 0, unknownUntilMs: 0 }, head, this.opts.overlapMs);
    }
    if (this.problem !== null) {
      return { kind: 'walk', reason: this.problem, unread: 0, events: all, next, requests };
    }
    if (fresh.length === 0 && all.length === 0) {
      return { kind: 'quiet', next: sameWindow(next, window) ? null : next, requests };
    }
    refs.reverse();
    all.reverse();
    return { kind: 'events', refs, events: all, next, requests };
  }
}

/** The walk covers what was not read: the window counts it, until its start moves past it. */
function skipToWalk(
  memory: FeedMemory,
  fresh: FeedEvent[],
  oldest: number | null,
  total: number,
  knownCount: number,
  requests: number,
): FeedRead {
  const { window } = memory;
  const unknown = Math.max(0, total - (knownCount - window.unknown) - fresh.length);
  const next: FeedWindow = {
    startMs: window.startMs,
    unknown,
    unknownUntilMs: Math.max(window.unknownUntilMs, oldest ?? 0),
  };
  const changes = total - knownCount;
  const reason: WalkReason = { kind: 'catch-up', changes };
  return { kind: 'walk', reason, unread: changes, events: fresh, next, requests };
}

/**
 * The window after events up to `head` were handled: it starts the overlap before the newest,
 * and never moves past events known only by count (their ids could not be told from new ones).
 */
function advance(window: FeedWindow, head: number | null, overlapMs: number): FeedWindow {
  if (head === null || window.startMs === null) return window;
  const start = second(head - overlapMs);
  if (start <= window.startMs) return window;
  if (window.unknown > 0 && window.unknownUntilMs >= start) return window;
  return { startMs: start, unknown: 0, unknownUntilMs: 0 };
}

function sameWindow(a: FeedWindow, b: FeedWindow): boolean {
  return (
    a.startMs === b.startMs && a.unknown === b.unknown && a.unknownUntilMs === b.unknownUntilMs
  );
}

function refOf(event: Event, workspaceId: number, timeMs: number): EventRef | 'unreadable' | null {
  if (event.workspace_id != null && event.workspace_id !== workspaceId) return null;
  const detail = parseDetail(event.detail);
  const target = detail.objects[0];
  if (!target || target.kind === 'workspace') return null;
  if (target.kind === 'unknown' || target.id === null) return 'unreadable';
  if (target.workspaceId !== null && target.workspaceId !== workspaceId) return null;
  return {
    eventId: event.id,
    timeMs,
    kind: target.kind,
    id: target.id,
    removed: REMOVED.test(detail.predicate),
  };
}

/**
 * Where a fresh journal's feed starts: the overlap before the newest event, every event from
 * there on counted as covered by the walk that follows. One request, two when the newest page
 * lies wholly inside the overlap (a burst just happened): then the service counts the window.
 */
export async function feedStart(
  client: ServiceClient,
  workspaceId: number,
  overlapMs: number,
): Promise<{ events: FeedEvent[]; window: FeedWindow }> {
  const filters: EventFilters = { workspaces: [workspaceId], verbs: [...TREE_VERBS] };
  const first = await client.eventsPage(filters);
  const times = first.events
    .map((e) => ({ id: e.id, timeMs: Date.parse(e.updated_at) }))
    .filter((e) => !Number.isNaN(e.timeMs));
  if (times.length === 0) {
    // No event yet: every event to come is in the window.
    return { events: [], window: { startMs: 0, unknown: 0, unknownUntilMs: 0 } };
  }
  const head = Math.max(...times.map((e) => e.timeMs));
  const startMs = second(head - overlapMs);
  const inWindow = times.filter((e) => e.timeMs >= startMs);
  const whole = first.next === null || times.some((e) => e.timeMs < startMs);
  if (whole) return { events: inWindow, window: { startMs, unknown: 0, unknownUntilMs: 0 } };
  // The newest page lies wholly in the window: the service counts the window, and the ids of
  // the counted answer's own first page are known; the rest are no newer than its oldest.
  const counted = await client.eventsPage({ ...filters, startTime: startMs });
  const page = counted.events
    .map((e) => ({ id: e.id, timeMs: Date.parse(e.updated_at) }))
    .filter((e) => !Number.isNaN(e.timeMs) && e.timeMs >= startMs);
  if (counted.total === null || counted.next === null) {
    // No count, or all on one page: the window's ids are read instead.
    const events = [...page];
    if (counted.next !== null) {
      for await (const e of client.listEvents({ ...filters, startTime: startMs })) {
        const timeMs = Date.parse(e.updated_at);
        if (!Number.isNaN(timeMs) && !events.some((x) => x.id === e.id)) {
          events.push({ id: e.id, timeMs });
        }
      }
    }
    return { events, window: { startMs, unknown: 0, unknownUntilMs: 0 } };
  }
  const oldest = Math.min(...page.map((e) => e.timeMs));
  return {
    events: page,
    window: {
      startMs,
      unknown: Math.max(0, counted.total - page.length),
      unknownUntilMs: Number.isFinite(oldest) ? oldest : head,
    },
  };
}
