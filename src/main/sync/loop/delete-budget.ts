import type { Journal } from '../../journal/journal';
import type { RemoteDeletions } from './options';

/**
 * The remote guard's budget over time (issue 38, row 6): deletions on the service applied here
 * in the last hour count with a pass's own. A service deleting 9 files per pass stays under the
 * per-pass floor of 10 for ever; counted over the hour, the pass that crosses the line waits.
 */
export const DELETE_WINDOW_MS = 60 * 60_000;
/** Journal meta: the deletions applied within the window, as JSON `Applied[]`. */
const BUDGET_META = 'remote_deletes_recent';
/** Passes remembered; older ones merge into one entry (the figures stay, the times coarsen). */
const MAX_ENTRIES = 64;
/** Folders remembered per pass: the rule only asks whether they are at least `minPlaces`. */
const MAX_PLACES = 16;

/** One pass's deletions applied here. */
interface Applied {
  at: number;
  count: number;
  topmost: number;
  /** Some of the folders they were in (up to MAX_PLACES), to count the folders once. */
  places: string[];
}

/** What the window holds: the figures of the deletions applied in the last hour, together. */
export interface RecentDeletions {
  count: number;
  topmost: number;
  places: ReadonlySet<string>;
}

export const NO_RECENT: RecentDeletions = { count: 0, topmost: 0, places: new Set() };

function read(journal: Journal, now: number): Applied[] {
  const raw = journal.meta.get(BUDGET_META);
  if (raw === undefined) return [];
  try {
    const list = JSON.parse(raw) as Applied[];
    // A clock set back leaves entries dated ahead: kept for at most the window from now.
    return Array.isArray(list)
      ? list.filter((a) => a.at > now - DELETE_WINDOW_MS && a.at <= now + DELETE_WINDOW_MS)
      : [];
  } catch {
    // A torn or foreign value counts nothing: the per-pass rule still stands.
    return [];
  }
}

/** The deletions applied here within the window before `now`. */
export function recentDeletions(journal: Journal, now: number): RecentDeletions {
  const places = new Set<string>();
  let count = 0;
  let topmost = 0;
  for (const a of read(journal, now)) {
    count += a.count;
    topmost += a.topmost;
    for (const p of a.places) places.add(p);
  }
  return { count, topmost, places };
}

/** Records a pass's deletions as applied at `now` (nothing when it applied none). */
export function recordDeletions(
  journal: Journal,
  now: number,
  applied: { count: number; topmost: number; places: readonly string[] },
): void {
  if (applied.count === 0) return;
  const list = read(journal, now);
  list.push({ ...applied, places: applied.places.slice(0, MAX_PLACES), at: now });
  while (list.length > MAX_ENTRIES) {
    const [a, b] = list.splice(0, 2) as [Applied, Applied];
    const places = [...new Set([...a.places, ...b.places])].slice(0, MAX_PLACES);
    list.unshift({ at: b.at, count: a.count + b.count, topmost: a.topmost + b.topmost, places });
  }
  journal.meta.set(BUDGET_META, JSON.stringify(list));
}

/** The person answered a hold: what they saw is answered, the window starts again. */
export function clearDeletions(journal: Journal): void {
  journal.meta.set(BUDGET_META, null);
}

/**
 * A pass's deletions with the window's added, as the rule sees them: what this side held at the
 * window's start (`total` grows by what the window took), the deletions and folders of both.
 */
export function withRecent(
  pass: RemoteDeletions,
  passPlaces: ReadonlySet<string>,
  recent: RecentDeletions,
): RemoteDeletions {
  if (recent.count === 0) return pass;
  return {
    count: pass.count + recent.count,
    total: pass.total + recent.count,
    topmost: pass.topmost + recent.topmost,
    places: new Set([...recent.places, ...passPlaces]).size,
  };
}
