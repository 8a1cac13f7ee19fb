import type { ActivityEvent } from '../../shared/app-api';

/**
 * The activity feed as people read it: the events (newest first) cut into days, and a burst of
 * one person's same action on items of one workspace told as one line ("Ann Lee uploaded 48
 * files in Q3 Planning") that opens onto its events. Pure: the feed's virtual list draws these
 * rows, each one line of one height, so grouping costs no measuring while scrolling.
 */

/** Events further apart than this are two bursts, even of the same person and action. */
export const BURST_GAP_MS = 10 * 60_000;

export type DayRelation = 'today' | 'yesterday' | 'earlier';

export type FeedRow =
  | { type: 'day'; key: string; relation: DayRelation; at: string }
  | { type: 'event'; key: string; event: ActivityEvent; day: DayRelation }
  | {
      type: 'burst';
      key: string;
      events: ActivityEvent[];
      /** What each item of the burst is: its first object's kind. */
      kind: 'file' | 'folder';
      /** The workspace named by the events, if they name one. */
      workspace: string | null;
      expanded: boolean;
      day: DayRelation;
    }
  | { type: 'member'; key: string; event: ActivityEvent; day: DayRelation };

/** The local calendar day of an instant, as a sortable key. */
export function dayKey(t: number): string {
  const d = new Date(t);
  return `${d.getFullYear()}-${d.getMonth() + 1}-${d.getDate()}`;
}

/**
 * Each event's instant, day and burst key, worked out once: the rows are made again as each page
 * arrives, and working these out for 10,000 events each time cost the scroll frames.
 */
interface Facts {
  at: number;
  day: string;
  burst: string | null;
}
const facts = new WeakMap<ActivityEvent, Facts>();
function factsOf(e: ActivityEvent): Facts {
  let f = facts.get(e);
  if (!f) {
    const at = Date.parse(e.at);
    f = { at, day: dayKey(at), burst: burstKey(e) };
    facts.set(e, f);
  }
  return f;
}

function relationOf(key: string, now: number): DayRelation {
  if (key === dayKey(now)) return 'today';
  const yesterday = new Date(now);
  yesterday.setDate(yesterday.getDate() - 1);
  return key === dayKey(yesterday.getTime()) ? 'yesterday' : 'earlier';
}

/**
 * What events must share to be one burst: the person, the action (the service's display verb),
 * the workspace and the kind of item acted on. Events about no file or folder (a workspace, a
 * comment's reply) and events of no known person stay lines of their own.
 */
function burstKey(e: ActivityEvent): string | null {
  const first = e.objects[0];
  if (!first || (first.kind !== 'file' && first.kind !== 'folder')) return null;
  if (e.actorId === null || !e.predicate) return null;
  return `${e.actorId}\u0000${e.predicate}\u0000${e.workspaceId ?? ''}\u0000${first.kind}`;
}

function workspaceOf(e: ActivityEvent): string | null {
  return e.objects.find((o) => o.kind === 'workspace')?.text ?? null;
}

/**
 * The rows of `events` (newest first): a day heading before each day's first row, bursts of two
 * or more events as one row, followed by their events when `expanded` holds any of their ids.
 */
export function feedRows(
  events: readonly ActivityEvent[],
  expanded: ReadonlySet<number>,
  now: number,
): FeedRow[] {
  const rows: FeedRow[] = [];
  let day: string | null = null;
  let relation: DayRelation = 'today';
  let i = 0;
  while (i < events.length) {
    const first = events[i]!;
    const { at: firstAt, day: thisDay, burst: key } = factsOf(first);
    if (thisDay !== day) {
      day = thisDay;
      relation = relationOf(thisDay, now);
      rows.push({ type: 'day', key: `d:${thisDay}`, relation, at: first.at });
    }
    // The burst grows while the next event matches, is close to the one before, and is on the
    // same day (a heading never falls inside a burst).
    let end = i + 1;
    let lastAt = firstAt;
    if (key !== null) {
      while (end < events.length) {
        const next = events[end]!;
        const { at, day: nextDay, burst } = factsOf(next);
        if (burst !== key || Math.abs(lastAt - at) > BURST_GAP_MS) break;
        if (nextDay !== thisDay) break;
        lastAt = at;
        end++;
      }
    }
    if (end - i < 2) {
      rows.push({ type: 'event', key: `e:${first.id}`, event: first, day: relation });
      i++;
      continue;
    }
    const members = events.slice(i, end);
    const open = members.some((e) => expanded.has(e.id));
    rows.push({
      type: 'burst',
      key: `b:${first.id}`,
      events: members,
      kind: first.objects[0]!.kind as 'file' | 'folder',
      workspace: workspaceOf(first),
      expanded: open,
      day: relation,
    });
    if (open)
      for (const e of members)
        rows.push({ type: 'member', key: `m:${e.id}`, event: e, day: relation });
    i = end;
  }
  return rows;
}
