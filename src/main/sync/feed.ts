import type { ServiceClient } from '../api/client';
import { parseDetail } from '../../shared/detail';

/** What an event says was acted on: the first `object` of its detail. */
export interface EventRef {
  eventId: number;
  timeMs: number;
  kind: 'folder' | 'file';
  id: number;
}

export interface FeedResult {
  /** New events that name an item of this workspace, oldest first. */
  refs: EventRef[];
  /** Every new event (for the cursor), including those that name no item. */
  seen: { id: number; timeMs: number }[];
  /** Something the feed cannot vouch for: too many events, an unreadable one. Walk instead. */
  gap: string | null;
}

export interface FeedCursor {
  timeMs: number | null;
  seen: ReadonlySet<number>;
}

/** The verbs that change the tree; downloads, views and invitations do not. */
const TREE_VERBS = ['create', 'upload', 'update', 'delete'] as const;

/**
 * One poll of the workspace's event feed: the events since the cursor, re-reading an overlap
 * window before it (an event may become visible late) and dropping the ids already handled.
 * When nothing happened it costs one request, whatever the size of the tree.
 */
export async function pollFeed(
  client: ServiceClient,
  workspaceId: number,
  cursor: FeedCursor,
  opts: { overlapMs: number; maxEvents: number },
): Promise<FeedResult> {
  if (cursor.timeMs === null) return { refs: [], seen: [], gap: 'no cursor yet' };
  const startTime = Math.floor((cursor.timeMs - opts.overlapMs) / 1000) * 1000;
  const refs: EventRef[] = [];
  const seen: FeedResult['seen'] = [];
  let gap: string | null = null;
  for await (const event of client.listEvents({
    workspaces: [workspaceId],
    verbs: [...TREE_VERBS],
    startTime,
  })) {
    if (cursor.seen.has(event.id)) continue;
    const timeMs = Date.parse(event.updated_at);
    if (Number.isNaN(timeMs)) {
      gap = `event ${event.id} has an unreadable time`;
      break;
    }
    if (event.workspace_id != null && event.workspace_id !== workspaceId) continue;
    seen.push({ id: event.id, timeMs });
    if (seen.length > opts.maxEvents) {
      gap = `more than ${opts.maxEvents} changes`;
      break;
    }
    const target = parseDetail(event.detail).objects[0];
    if (!target || target.kind === 'workspace') continue;
    if (target.kind === 'unknown' || target.id === null) {
      gap = `event ${event.id} names no item this client can read`;
      break;
    }
    if (target.workspaceId !== null && target.workspaceId !== workspaceId) continue;
    refs.push({ eventId: event.id, timeMs, kind: target.kind, id: target.id });
  }
  // The feed is newest first; changes are applied oldest first.
  refs.reverse();
  seen.reverse();
  return { refs, seen, gap };
}

/** The newest event of the workspace: where a fresh journal's cursor starts. */
export async function feedHead(
  client: ServiceClient,
  workspaceId: number,
  overlapMs: number,
): Promise<{ timeMs: number | null; seen: { id: number; timeMs: number }[] }> {
  const seen: { id: number; timeMs: number }[] = [];
  let newest: number | null = null;
  let count = 0;
  for await (const event of client.listEvents({
    workspaces: [workspaceId],
    verbs: [...TREE_VERBS],
  })) {
    const timeMs = Date.parse(event.updated_at);
    if (Number.isNaN(timeMs)) break;
    newest ??= timeMs;
    if (timeMs < newest - overlapMs) break;
    seen.push({ id: event.id, timeMs });
    // Only the first page is needed: older events of the window are merely re-resolved.
    if (++count >= 30) break;
  }
  return { timeMs: newest, seen };
}
