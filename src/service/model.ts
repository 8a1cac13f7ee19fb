import type { Sandbox, User } from './context';
import { prepared, type ItemRow, type WorkspaceRow } from './db';
import { HttpError } from './http';
import { isRole, type RoleName } from './roles';
import { formatInZone } from './time';

// Access to workspaces and items as the requesting user sees them: anything the user may not
// see is a 404, never a 403 (a 403 would reveal that it exists).

export function workspaceRole(sb: Sandbox, userId: number, workspaceId: number): RoleName | null {
  const row = prepared(
    sb.db,
    `SELECT role_name FROM rolemaps WHERE workspace_id = ? AND user_id = ? AND state = 'accepted'`,
  ).get(workspaceId, userId) as { role_name: string } | undefined;
  return row && isRole(row.role_name) ? row.role_name : null;
}

export interface WorkspaceAccess {
  workspace: WorkspaceRow;
  role: RoleName;
}

export function workspaceFor(sb: Sandbox, user: User, workspaceId: number): WorkspaceAccess {
  const workspace = prepared(sb.db, `SELECT * FROM workspaces WHERE id = ?`).get(workspaceId) as
    WorkspaceRow | undefined;
  const role = workspace ? workspaceRole(sb, user.id, workspace.id) : null;
  if (!workspace || !role) throw HttpError.notFound('Workspace not found');
  return { workspace, role };
}

export interface ItemAccess extends WorkspaceAccess {
  item: ItemRow;
}

export function itemFor(sb: Sandbox, user: User, id: number, kind: 'folder' | 'file'): ItemAccess {
  const item = prepared(sb.db, `SELECT * FROM items WHERE id = ? AND kind = ?`).get(id, kind) as
    ItemRow | undefined;
  const label = kind === 'folder' ? 'Folder' : 'File';
  if (!item) throw HttpError.notFound(`${label} not found`);
  const role = workspaceRole(sb, user.id, item.workspace_id);
  if (!role) throw HttpError.notFound(`${label} not found`);
  const workspace = prepared(sb.db, `SELECT * FROM workspaces WHERE id = ?`).get(
    item.workspace_id,
  ) as WorkspaceRow;
  return { item, workspace, role };
}

/** `:item` path parameter (`folders` | `files`) to an item kind. */
export function kindOf(itemParam: string): 'folder' | 'file' {
  return itemParam === 'files' ? 'file' : 'folder';
}

/** Ids of the ancestors of `parentId` and `parentId` itself, from the root down. */
export function ancestorChain(sb: Sandbox, parentId: number | null): number[] {
  if (parentId === null) return [];
  const rows = prepared(
    sb.db,
    `WITH RECURSIVE up(id, parent_id, depth) AS (
         SELECT id, parent_id, 0 FROM items WHERE id = ?
         UNION ALL SELECT i.id, i.parent_id, up.depth + 1 FROM items i JOIN up ON i.id = up.parent_id
       ) SELECT id FROM up ORDER BY depth DESC`,
  ).all(parentId) as { id: number }[];
  return rows.map((r) => r.id);
}

/** Adds `delta` bytes to the size of `folderId` and every folder above it. */
export function adjustFolderSizes(sb: Sandbox, folderId: number | null, delta: number): void {
  if (folderId === null || delta === 0) return;
  prepared(
    sb.db,
    `WITH RECURSIVE up(id, parent_id) AS (
         SELECT id, parent_id FROM items WHERE id = ?
         UNION ALL SELECT i.id, i.parent_id FROM items i JOIN up ON i.id = up.parent_id
       ) UPDATE items SET size = size + ? WHERE id IN (SELECT id FROM up)`,
  ).run(folderId, delta);
}

// Serializers: the resources as the conventions describe them, times in the user's zone.

export function serializeWorkspace(sb: Sandbox, ws: WorkspaceRow, user: User, role: RoleName) {
  return {
    id: ws.id,
    name: ws.name,
    background_color: ws.background_color,
    updated_at: formatInZone(ws.updated_at, user.time_zone),
    data_room: ws.data_room === 1,
    default_view: ws.default_view,
    default_sort: ws.default_sort,
    root_folder_id: ws.root_folder_id,
    owner_id: ws.owner_id,
    audit_trail: ws.audit_trail === 1,
    is_owner: ws.owner_id === user.id,
    require_agreement: ws.require_agreement === 1,
    agreement_accepted: ws.require_agreement === 0,
    effective_role: role,
    errors: {},
  };
}

export function serializeItem(
  item: ItemRow,
  user: User,
  ancestors: number[],
  isRoot = false,
): Record<string, unknown> {
  const common = {
    id: item.id,
    filename: item.filename,
    created_at: formatInZone(item.created_at, user.time_zone),
    updated_at: formatInZone(item.updated_at, user.time_zone),
    user_id: isRoot ? null : item.user_id,
    workspace_id: item.workspace_id,
    ancestor_ids: ancestors,
    errors: {},
    'hidden?': item.hidden === 1,
    size: item.size,
  };
  if (item.kind === 'folder') return common;
  return {
    ...common,
    thumbnail:
      item.width !== null && item.height !== null
        ? {
            id: item.id,
            state: 'complete',
            width: item.width,
            height: item.height,
            url: `/files/${item.id}/thumbnail`,
          }
        : null,
  };
}

/**
 * The same text as `JSON.stringify(serializeItem(...))`, built directly: listings serialize
 * dozens of items per request and skipping the intermediate objects halves their cost.
 * `ancestorsJson` is the JSON of the ancestor ids, shared by all the children of one folder.
 */
export function itemJson(item: ItemRow, user: User, ancestorsJson: string): string {
  const zone = user.time_zone;
  const head =
    `{"id":${item.id},"filename":${JSON.stringify(item.filename)},` +
    `"created_at":"${formatInZone(item.created_at, zone)}","updated_at":"${formatInZone(item.updated_at, zone)}",` +
    `"user_id":${item.user_id === null ? 'null' : item.user_id},"workspace_id":${item.workspace_id},` +
    `"ancestor_ids":${ancestorsJson},"errors":{},"hidden?":${item.hidden === 1},"size":${item.size}`;
  if (item.kind === 'folder') return head + '}';
  const thumb =
    item.width !== null && item.height !== null
      ? `{"id":${item.id},"state":"complete","width":${item.width},"height":${item.height},"url":"/files/${item.id}/thumbnail"}`
      : 'null';
  return `${head},"thumbnail":${thumb}}`;
}

/** An item wrapped under its kind, with its ancestors computed. */
export function wrapItem(sb: Sandbox, item: ItemRow, user: User) {
  const isRoot = item.parent_id === null;
  return { [item.kind]: serializeItem(item, user, ancestorChain(sb, item.parent_id), isRoot) };
}

export interface Page<T> {
  total_entries: number;
  current_page: number;
  total_pages: number;
  per_page: number;
  items: T[];
}

/**
 * Offset paging: `?offset=N` (or `offset` in the body) skips N items; `?page=N` is accepted
 * too. Returns the window to read.
 */
export function pageWindow(
  query: URLSearchParams,
  body: Record<string, unknown>,
  perPage: number,
): { offset: number; perPage: number } {
  const rawOffset = query.get('offset') ?? (body.offset as string | number | undefined);
  const rawPage = query.get('page') ?? (body.page as string | number | undefined);
  let offset = 0;
  if (rawOffset !== undefined && rawOffset !== null && rawOffset !== '') {
    offset = Number(rawOffset);
    if (!Number.isSafeInteger(offset) || offset < 0) {
      throw HttpError.validation('offset', 'must be a non-negative integer');
    }
  } else if (rawPage !== undefined && rawPage !== null && rawPage !== '') {
    const page = Number(rawPage);
    if (!Number.isSafeInteger(page) || page < 1) {
      throw HttpError.validation('page', 'must be a positive integer');
    }
    offset = (page - 1) * perPage;
  }
  return { offset, perPage };
}

export function pageOf<T>(items: T[], total: number, offset: number, perPage: number): Page<T> {
  return {
    total_entries: total,
    current_page: Math.floor(offset / perPage) + 1,
    total_pages: Math.max(1, Math.ceil(total / perPage)),
    per_page: perPage,
    items,
  };
}
