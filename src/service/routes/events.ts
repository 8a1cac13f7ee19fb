import type { Statement } from 'better-sqlite3';
import type { Sandbox, User } from '../context';
import type { EventRow } from '../db';
import { VERBS, type Verb } from '../events';
import { HttpError, asBool, asId, parseForm, type Reply, type Router } from '../http';
import { itemFor, pageOf, pageWindow } from '../model';
import { can } from '../roles';
import { formatInZone, parseClientTime } from '../time';

const PER_PAGE = 30;

type EventListRow = Pick<EventRow, 'id' | 'created_at' | 'detail' | 'workspace_id' | 'user_id'>;

function serializeEvent(row: EventListRow, user: User) {
  return {
    event: {
      id: row.id,
      updated_at: formatInZone(row.created_at, user.time_zone),
      detail: row.detail,
      workspace_id: row.workspace_id,
      user_id: row.user_id,
    },
  };
}

export interface EventFilters {
  /** null: every workspace of the user. */
  workspaces: number[] | null;
  /** null: every verb. */
  verbs: Verb[] | null;
  filterSelf: boolean;
  actor: number | null;
  /** Inclusive bounds in epoch ms (whole seconds). */
  start: number | null;
  end: number | null;
}

/** A filter value that may be an array, one value, or a comma-separated string. */
function listOf(value: unknown): unknown[] | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') {
    return value
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  }
  return [value];
}

function timeFilter(value: unknown, field: string, zone: string): number | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') throw HttpError.validation(field, 'is not a valid RFC 2822 time');
  const ms = parseClientTime(value, zone);
  if (ms === null) throw HttpError.validation(field, 'is not a valid RFC 2822 time');
  return Math.floor(ms / 1000) * 1000;
}

/**
 * The filters of List all Events for a User, from the JSON (or form) body of the GET (real),
 * or from the query string (`verbs[]=create&workspaces[]=4&start_time=...`). A body field
 * wins over the same field in the query.
 */
export function eventFilters(
  query: URLSearchParams,
  body: Record<string, unknown>,
  user: User,
): EventFilters {
  const f: Record<string, unknown> = { ...parseForm(query.toString()), ...body };

  let workspaces: number[] | null = null;
  const rawWorkspaces = listOf(f.workspaces);
  if (rawWorkspaces && rawWorkspaces.length > 0) {
    workspaces = rawWorkspaces.map((w) => {
      const id = asId(w, 'workspaces');
      if (id === undefined) throw HttpError.validation('workspaces', 'must be integers');
      return id;
    });
  }

  let verbs: Verb[] | null = null;
  const rawVerbs = listOf(f.verbs);
  if (rawVerbs && rawVerbs.length > 0) {
    verbs = rawVerbs.map((v) => {
      if (typeof v !== 'string' || !(VERBS as readonly string[]).includes(v)) {
        throw HttpError.validation('verbs', `must be among ${VERBS.join(', ')}`);
      }
      return v as Verb;
    });
  }

  const start = timeFilter(f.start_time, 'start_time', user.time_zone);
  const end = timeFilter(f.end_time, 'end_time', user.time_zone);
  return {
    workspaces,
    verbs,
    filterSelf: asBool(f.filter_self, 'filter_self') ?? false,
    actor: asId(f.actor, 'actor') ?? null,
    start,
    end,
  };
}

const COLUMNS = 'id, created_at, detail, workspace_id, user_id';
const ORDER = 'ORDER BY created_at DESC, id DESC';
/** Above this many workspaces one sort of all matches beats one index walk per workspace. */
const MERGE_LIMIT = 64;

/** The user's workspaces under the filter, and the other conditions with their parameters. */
function eventQuery(
  sb: Sandbox,
  user: User,
  filters: EventFilters,
): { workspaces: number[]; where: string; params: unknown[]; from: string } | null {
  const workspaces = (
    statement(sb, `SELECT workspace_id FROM rolemaps WHERE user_id = ? AND state = 'accepted'`)
      .pluck()
      .all(user.id) as number[]
  ).filter((id) => filters.workspaces === null || filters.workspaces.includes(id));
  if (workspaces.length === 0) return null;
  const conds: string[] = [];
  const params: unknown[] = [];
  if (filters.verbs) {
    const verbs = [...new Set(filters.verbs)];
    conds.push(`verb IN (${verbs.map(() => '?').join(', ')})`);
    params.push(...verbs);
  }
  if (filters.filterSelf) {
    conds.push(`(user_id IS NULL OR user_id <> ?)`);
    params.push(user.id);
  }
  if (filters.actor !== null) {
    conds.push(`user_id = ?`);
    params.push(filters.actor);
  }
  if (filters.start !== null) {
    conds.push(`created_at >= ?`);
    params.push(filters.start);
  }
  if (filters.end !== null) {
    // Inclusive at second precision: everything within the end second.
    conds.push(`created_at < ?`);
    params.push(filters.end + 1000);
  }
  // With a verb filter (a sync client's poll), the verb index skips the downloads and views in
  // between; SQLite would otherwise pick the index that matches the ORDER BY and scan them all.
  const from = filters.verbs ? 'events INDEXED BY events_workspace_verb_time' : 'events';
  return { workspaces, where: conds.map((c) => ` AND ${c}`).join(''), params, from };
}

/**
 * One page of events, newest first. Within one workspace, events(workspace_id, created_at)
 * (whose entries end in the rowid) is already in the page's order, so each workspace's walk
 * stops after `offset + perPage` matches and only those few rows are merged and sorted,
 * however many events the workspaces hold.
 */
function eventPage(
  sb: Sandbox,
  q: { workspaces: number[]; where: string; params: unknown[]; from: string },
  offset: number,
  perPage: number,
): EventListRow[] {
  const ws = q.workspaces;
  if (ws.length === 1 || ws.length > MERGE_LIMIT) {
    const sql = `SELECT ${COLUMNS} FROM ${q.from} WHERE workspace_id IN (${ws.map(() => '?').join(', ')})${q.where}
      ${ORDER} LIMIT ? OFFSET ?`;
    return statement(sb, sql).all(...ws, ...q.params, perPage, offset) as EventListRow[];
  }
  const one = `SELECT * FROM (SELECT ${COLUMNS} FROM ${q.from} WHERE workspace_id = ?${q.where} ${ORDER} LIMIT ?)`;
  const sql = `SELECT * FROM (${ws.map(() => one).join(' UNION ALL ')}) ${ORDER} LIMIT ? OFFSET ?`;
  const params = ws.flatMap((id) => [id, ...q.params, offset + perPage]);
  return statement(sb, sql).all(...params, perPage, offset) as EventListRow[];
}

// Prepared statements by SQL text: the filters make a handful of shapes.
const statements = new WeakMap<Sandbox, Map<string, Statement<unknown[]>>>();

function statement(sb: Sandbox, sql: string): Statement<unknown[]> {
  let cache = statements.get(sb);
  if (!cache) statements.set(sb, (cache = new Map()));
  let stmt = cache.get(sql);
  if (!stmt) {
    if (cache.size > 500) cache.clear();
    stmt = sb.db.prepare<unknown[]>(sql);
    cache.set(sql, stmt);
  }
  return stmt;
}

export function registerEvents(router: Router<User>, sb: Sandbox): void {
  // `/activity/` (as documented) and `/activity` match the same template.
  router.add('GET', '/activity', async ({ user, query, body }) => {
    const b = await body();
    const filters = eventFilters(query, b, user);
    const { offset, perPage } = pageWindow(query, b, PER_PAGE);
    const q = eventQuery(sb, user, filters);
    if (!q) return { status: 200, json: pageOf([], 0, offset, perPage) };
    const total = statement(
      sb,
      `SELECT count(*) FROM events WHERE workspace_id IN (${q.workspaces.map(() => '?').join(', ')})${q.where}`,
    )
      .pluck()
      .get(...q.workspaces, ...q.params) as number;
    const rows = offset >= total ? [] : eventPage(sb, q, offset, perPage);
    return eventListReply(rows, user, total, offset, perPage);
  });

  const fileEvents = sb.db.prepare(
    `SELECT id, created_at, detail, workspace_id, user_id FROM events
     WHERE item_id = ? AND item_kind = 'file' ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
  );
  const fileEventCount = sb.db
    .prepare(`SELECT count(*) FROM events WHERE item_id = ? AND item_kind = 'file'`)
    .pluck();

  router.add('GET', '/files/:id/audit_trail', async ({ user, params, query, body }) => {
    const { item, role } = itemFor(sb, user, Number(params.id), 'file');
    if (!can.readAuditTrail(role)) {
      throw HttpError.forbidden("Only a Moderator or above may read a file's audit trail");
    }
    const { offset, perPage } = pageWindow(query, await body(), PER_PAGE);
    const total = fileEventCount.get(item.id) as number;
    const rows = fileEvents.all(item.id, perPage, offset) as EventListRow[];
    return eventListReply(rows, user, total, offset, perPage);
  });
}

/** The event list wrapper of one page, times in the user's zone. */
function eventListReply(
  rows: EventListRow[],
  user: User,
  total: number,
  offset: number,
  perPage: number,
): Reply {
  return {
    status: 200,
    json: pageOf(
      rows.map((r) => serializeEvent(r, user)),
      total,
      offset,
      perPage,
    ),
  };
}
