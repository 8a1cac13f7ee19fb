import type { Sandbox, User } from '../context';
import { NEXT_ITEM_ID, type WorkspaceRow } from '../db';
import { recordEvent } from '../events';
import { HttpError, asBool, unwrap, type Router } from '../http';
import { pageOf, pageWindow, serializeWorkspace, workspaceFor } from '../model';
import { nameKey, repairName } from '../names';
import { can } from '../roles';

export const DEFAULT_VIEWS = ['rows', 'thumbnails'] as const;
export const SORTS = ['alphabetical', 'modified', 'size', 'type', 'index'] as const;
const PER_PAGE = 30;

export interface WorkspaceFields {
  name?: string;
  background_color?: string;
  data_room?: boolean;
  default_view?: string;
  default_sort?: string;
  automatic_indexing?: boolean;
}

/** Validates workspace body fields (wrapped under `workspace` or flat, JSON or form). */
export function workspaceFields(body: Record<string, unknown>): WorkspaceFields {
  const b = unwrap(body, 'workspace');
  const out: WorkspaceFields = {};
  if (b.name !== undefined) {
    if (typeof b.name !== 'string' || b.name.trim() === '') {
      throw HttpError.validation('name', "can't be blank");
    }
    if (b.name.length > 255)
      throw HttpError.validation('name', 'is too long (maximum is 255 characters)');
    out.name = b.name.trim();
  }
  if (b.background_color !== undefined) {
    if (
      typeof b.background_color !== 'string' ||
      !/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(b.background_color)
    ) {
      throw HttpError.validation('background_color', 'must be a CSS hex color like #1a2b3c');
    }
    out.background_color = b.background_color;
  }
  const dataRoom = asBool(b.data_room, 'data_room');
  if (dataRoom !== undefined) out.data_room = dataRoom;
  const indexing = asBool(b.automatic_indexing, 'automatic_indexing');
  if (indexing !== undefined) out.automatic_indexing = indexing;
  if (b.default_view !== undefined) {
    if (!(DEFAULT_VIEWS as readonly unknown[]).includes(b.default_view)) {
      throw HttpError.validation('default_view', `must be one of ${DEFAULT_VIEWS.join(', ')}`);
    }
    out.default_view = b.default_view as string;
  }
  if (b.default_sort !== undefined) {
    if (!(SORTS as readonly unknown[]).includes(b.default_sort)) {
      throw HttpError.validation('default_sort', `must be one of ${SORTS.join(', ')}`);
    }
    out.default_sort = b.default_sort as string;
  }
  return out;
}

export function createWorkspace(sb: Sandbox, user: User, fields: WorkspaceFields): WorkspaceRow {
  if (!fields.name) throw HttpError.validation('name', "can't be blank");
  const now = sb.clock.now();
  const name = fields.name;
  return sb.db.transaction(() => {
    const ws = sb.db
      .prepare(
        `INSERT INTO workspaces (name, background_color, data_room, automatic_indexing, default_view,
           default_sort, owner_id, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        name,
        fields.background_color ?? '#4a90d9',
        fields.data_room ? 1 : 0,
        fields.automatic_indexing ? 1 : 0,
        fields.default_view ?? 'rows',
        fields.default_sort ?? 'alphabetical',
        user.id,
        now,
        now,
      );
    const wsId = Number(ws.lastInsertRowid);
    const rootName = repairName(name, 'name');
    const root = sb.db
      .prepare(
        `INSERT INTO items (id, kind, workspace_id, parent_id, filename, name_key, user_id, created_at, updated_at)
         VALUES (${NEXT_ITEM_ID}, 'folder', ?, NULL, ?, ?, ?, ?, ?)`,
      )
      .run(wsId, rootName, nameKey(rootName), user.id, now, now);
    sb.db
      .prepare(`UPDATE workspaces SET root_folder_id = ? WHERE id = ?`)
      .run(Number(root.lastInsertRowid), wsId);
    sb.db
      .prepare(
        `INSERT INTO rolemaps (workspace_id, user_id, email, role_name, state, updated_at)
         VALUES (?, ?, ?, 'Administrator', 'accepted', ?)`,
      )
      .run(wsId, user.id, user.email, now);
    recordEvent(sb, {
      workspace: { id: wsId, name },
      actor: user,
      verb: 'create',
      predicate: 'created',
    });
    return sb.db.prepare(`SELECT * FROM workspaces WHERE id = ?`).get(wsId) as WorkspaceRow;
  })();
}

export function updateWorkspace(
  sb: Sandbox,
  user: User,
  workspaceId: number,
  fields: WorkspaceFields,
): WorkspaceRow {
  const { workspace, role } = workspaceFor(sb, user, workspaceId);
  if (!can.updateWorkspace(role)) {
    throw HttpError.forbidden("Only an Administrator may change the workspace's settings");
  }
  const now = sb.clock.now();
  return sb.db.transaction(() => {
    const next = { ...workspace, ...fields };
    sb.db
      .prepare(
        `UPDATE workspaces SET name = ?, background_color = ?, data_room = ?, automatic_indexing = ?,
           default_view = ?, default_sort = ?, updated_at = ? WHERE id = ?`,
      )
      .run(
        next.name,
        next.background_color,
        fields.data_room === undefined ? workspace.data_room : fields.data_room ? 1 : 0,
        fields.automatic_indexing === undefined
          ? workspace.automatic_indexing
          : fields.automatic_indexing
            ? 1
            : 0,
        next.default_view,
        next.default_sort,
        now,
        workspace.id,
      );
    if (fields.name !== undefined && fields.name !== workspace.name) {
      const rootName = repairName(fields.name, 'name');
      sb.db
        .prepare(`UPDATE items SET filename = ?, name_key = ?, updated_at = ? WHERE id = ?`)
        .run(rootName, nameKey(rootName), now, workspace.root_folder_id);
    }
    recordEvent(sb, {
      workspace: { id: workspace.id, name: next.name },
      actor: user,
      verb: 'update',
      predicate: 'updated',
      complement:
        fields.name !== undefined && fields.name !== workspace.name
          ? `from ${workspace.name}`
          : undefined,
    });
    return sb.db.prepare(`SELECT * FROM workspaces WHERE id = ?`).get(workspace.id) as WorkspaceRow;
  })();
}

export function registerWorkspaces(router: Router<User>, sb: Sandbox): void {
  router.add('POST', '/workspaces', async ({ user, body }) => {
    const ws = createWorkspace(sb, user, workspaceFields(await body()));
    // 200, not 201: the real service answers a workspace create with 200.
    return { status: 200, json: { workspace: serializeWorkspace(sb, ws, user, 'Administrator') } };
  });

  router.add('GET', '/workspaces', async ({ user, query, body }) => {
    const { offset, perPage } = pageWindow(query, await body(), PER_PAGE);
    const rows = sb.db
      .prepare(
        `SELECT w.*, r.role_name FROM workspaces w JOIN rolemaps r ON r.workspace_id = w.id
         WHERE r.user_id = ? AND r.state = 'accepted' ORDER BY w.id LIMIT ? OFFSET ?`,
      )
      .all(user.id, perPage, offset) as (WorkspaceRow & { role_name: string })[];
    const { total } = sb.db
      .prepare(`SELECT count(*) AS total FROM rolemaps WHERE user_id = ? AND state = 'accepted'`)
      .get(user.id) as { total: number };
    const items = rows.map((w) => ({
      workspace: serializeWorkspace(sb, w, user, w.role_name as 'Administrator'),
    }));
    return { status: 200, json: pageOf(items, total, offset, perPage) };
  });

  router.add('GET', '/workspaces/:id', ({ user, params }) => {
    const { workspace, role } = workspaceFor(sb, user, Number(params.id));
    return { status: 200, json: { workspace: serializeWorkspace(sb, workspace, user, role) } };
  });

  router.add('PUT', '/workspaces/:id', async ({ user, params, body }) => {
    const ws = updateWorkspace(sb, user, Number(params.id), workspaceFields(await body()));
    const { role } = workspaceFor(sb, user, ws.id);
    return { status: 200, json: { workspace: serializeWorkspace(sb, ws, user, role) } };
  });

  router.add('DELETE', '/workspaces/:id', ({ user, params }) => {
    const { workspace } = workspaceFor(sb, user, Number(params.id));
    if (workspace.owner_id !== user.id) {
      throw HttpError.forbidden('Only the owner may delete a workspace');
    }
    sb.db.transaction(() => {
      recordEvent(sb, {
        workspace: { id: workspace.id, name: workspace.name },
        actor: user,
        verb: 'delete',
        predicate: 'deleted',
      });
      // Items reference each other: clear the root pointer, then let the cascade run.
      sb.db.prepare(`UPDATE workspaces SET root_folder_id = NULL WHERE id = ?`).run(workspace.id);
      sb.db
        .prepare(`DELETE FROM items WHERE workspace_id = ? AND parent_id IS NULL`)
        .run(workspace.id);
      sb.db.prepare(`DELETE FROM workspaces WHERE id = ?`).run(workspace.id);
    })();
    return { status: 204 };
  });
}
