import type { Sandbox, User } from '../context';
import type { RolemapRow, UserRow, WorkspaceRow } from '../db';
import { recordEvent } from '../events';
import { HttpError, unwrap, type Router } from '../http';
import { itemFor, kindOf, pageOf, pageWindow, workspaceFor, workspaceRole } from '../model';
import { DEFAULT_ROLE, ROLES, can, isRole, rank, type RoleName } from '../roles';
import { formatInZone } from '../time';

// Invitations to a workspace and the role maps they create (conventions: "Invitations and role
// changes"). In the sandbox an invited email that belongs to a sandbox user is accepted at once;
// any other email gets a pending role map without a user. An invitation on a folder or a file
// (POST /folders/:id/invitations, /files/:id/invitations) grants what a workspace invitation
// grants, a member of the item's workspace with that role: the sandbox's roles are per workspace
// (conventions, "Roles"); its event names the item.

const PER_PAGE = 30;
const MAX_EMAILS = 100;
const EMAIL = /^[^\s@<>()[\]",;:\\]+@[^\s@<>()[\]",;:\\]+$/;

export interface ShareJson {
  emails: string;
  email_errors: string[];
  join_errors: string[];
  invited_emails: Record<string, number>[];
  errors: Record<string, string[]>;
}

/** The role names a user with `role` may hand out: their own and every role below it. */
export function assignableRoles(role: RoleName): RoleName[] {
  return ROLES.filter((r) => rank(r) <= rank(role));
}

/** Splits the `emails` field ("a@x.org, b@y.org", or an array) into addresses. */
export function splitEmails(raw: unknown): string[] {
  const parts = Array.isArray(raw) ? raw.map(String) : typeof raw === 'string' ? [raw] : [];
  return parts
    .flatMap((p) => p.split(/[\s,;]+/))
    .map((e) => e.trim())
    .filter((e) => e !== '');
}

function wsRef(ws: WorkspaceRow) {
  return { id: ws.id, name: ws.name };
}

/** The folder or file an invitation was made on, named by its event. */
export interface InvitedItem {
  kind: 'folder' | 'file';
  id: number;
  name: string;
}

/**
 * Invites `emails` to a workspace with `roleName` (unknown or missing: the default role); `item`
 * when it was made on a folder or file of it.
 */
export function invite(
  sb: Sandbox,
  inviter: User,
  workspaceId: number,
  emails: string[],
  roleName?: string,
  item?: InvitedItem,
): ShareJson {
  const { workspace, role } = workspaceFor(sb, inviter, workspaceId);
  if (!can.invite(role)) throw HttpError.forbidden('Only a Moderator or above may invite users');
  const grant: RoleName = isRole(roleName) ? roleName : DEFAULT_ROLE;
  if (rank(grant) > rank(role)) {
    throw HttpError.forbidden(`A ${role} may not grant the ${grant} role`);
  }
  if (emails.length > MAX_EMAILS) {
    throw HttpError.validation('emails', `are too many (at most ${MAX_EMAILS} at once)`);
  }
  const share: ShareJson = {
    emails: emails.join(', '),
    email_errors: [],
    join_errors: [],
    invited_emails: [],
    errors: {},
  };
  const now = sb.clock.now();
  const findUser = sb.db.prepare(`SELECT * FROM users WHERE email = ?`);
  const findMap = sb.db.prepare(`SELECT * FROM rolemaps WHERE workspace_id = ? AND email = ?`);
  const findMapByUser = sb.db.prepare(
    `SELECT * FROM rolemaps WHERE workspace_id = ? AND user_id = ?`,
  );
  const seen = new Set<string>();
  sb.db.transaction(() => {
    for (const raw of emails) {
      const email = raw.trim();
      const key = email.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      if (email.length > 254 || !EMAIL.test(email)) {
        share.email_errors.push(email);
        continue;
      }
      const user = findUser.get(email) as UserRow | undefined;
      const existing = ((user && findMapByUser.get(workspace.id, user.id)) ??
        findMap.get(workspace.id, email)) as RolemapRow | undefined;
      if (existing && existing.state === 'accepted') {
        share.join_errors.push(email);
        continue;
      }
      let id: number;
      if (existing) {
        // A pending invitation again: it takes the new role (and is accepted if the user exists).
        sb.db
          .prepare(
            `UPDATE rolemaps SET role_name = ?, user_id = ?, state = ?, updated_at = ? WHERE id = ?`,
          )
          .run(grant, user ? user.id : null, user ? 'accepted' : 'pending', now, existing.id);
        id = existing.id;
      } else {
        const result = sb.db
          .prepare(
            `INSERT INTO rolemaps (workspace_id, user_id, email, role_name, state, updated_at)
             VALUES (?, ?, ?, ?, ?, ?)`,
          )
          .run(
            workspace.id,
            user ? user.id : null,
            user ? user.email : email,
            grant,
            user ? 'accepted' : 'pending',
            now,
          );
        id = Number(result.lastInsertRowid);
      }
      share.invited_emails.push({ [email]: id });
      recordEvent(sb, {
        workspace: wsRef(workspace),
        actor: inviter,
        verb: 'invite',
        predicate: 'invited a user to',
        complement: `${email} as ${grant}`,
        ...(item ? { item } : {}),
      });
    }
  })();
  return share;
}

type RolemapWithUser = RolemapRow & {
  u_id: number | null;
  u_email: string | null;
  u_name: string | null;
};

const SELECT_ROLEMAP = `SELECT r.*, u.id AS u_id, u.email AS u_email, u.name AS u_name
  FROM rolemaps r LEFT JOIN users u ON u.id = r.user_id`;

function splitName(name: string): { first_name: string; last_name: string } {
  const parts = name.trim().split(/\s+/);
  return { first_name: parts[0] ?? '', last_name: parts.slice(1).join(' ') };
}

export function serializeRolemap(
  row: RolemapWithUser,
  workspace: WorkspaceRow,
  viewer: User,
  viewerRole: RoleName | null,
) {
  const isOwner = row.user_id !== null && row.user_id === workspace.owner_id;
  const mayChange =
    viewerRole !== null &&
    can.changeRoles(viewerRole) &&
    !isOwner &&
    (!isRole(row.role_name) || rank(row.role_name) <= rank(viewerRole));
  return {
    id: row.id,
    state: row.state,
    object_type: 'Workspace',
    object_id: row.workspace_id,
    role_name: row.role_name,
    available_roles: mayChange && viewerRole ? assignableRoles(viewerRole) : [],
    user_id: row.user_id,
    user:
      row.u_id !== null
        ? { id: row.u_id, email: row.u_email, ...splitName(row.u_name ?? '') }
        : { id: null, email: row.email, first_name: null, last_name: null },
    updated_at: formatInZone(row.updated_at, viewer.time_zone),
  };
}

/** The role maps of a workspace, one page (Moderator and above). */
export function listRolemaps(
  sb: Sandbox,
  user: User,
  workspaceId: number,
  offset: number,
  perPage = PER_PAGE,
) {
  const { workspace, role } = workspaceFor(sb, user, workspaceId);
  if (!can.changeRoles(role)) {
    throw HttpError.forbidden('Only a Moderator or above may list the members');
  }
  const rows = sb.db
    .prepare(`${SELECT_ROLEMAP} WHERE r.workspace_id = ? ORDER BY r.id LIMIT ? OFFSET ?`)
    .all(workspace.id, perPage, offset) as RolemapWithUser[];
  const { total } = sb.db
    .prepare(`SELECT count(*) AS total FROM rolemaps WHERE workspace_id = ?`)
    .get(workspace.id) as { total: number };
  const items = rows.map((r) => ({ rolemap: serializeRolemap(r, workspace, user, role) }));
  return pageOf(items, total, offset, perPage);
}

interface RolemapAccess {
  rolemap: RolemapWithUser;
  workspace: WorkspaceRow;
  /** The requester's role in the rolemap's workspace. */
  role: RoleName | null;
}

/** A rolemap as the requester may see it: its own user, or a Moderator+ of its workspace. */
function rolemapFor(sb: Sandbox, user: User, id: number): RolemapAccess {
  const rolemap = sb.db.prepare(`${SELECT_ROLEMAP} WHERE r.id = ?`).get(id) as
    RolemapWithUser | undefined;
  if (!rolemap) throw HttpError.notFound('Rolemap not found');
  const role = workspaceRole(sb, user.id, rolemap.workspace_id);
  const own = rolemap.user_id === user.id;
  if (!role && !own) throw HttpError.notFound('Rolemap not found');
  const workspace = sb.db
    .prepare(`SELECT * FROM workspaces WHERE id = ?`)
    .get(rolemap.workspace_id) as WorkspaceRow;
  if (!own && !(role && can.changeRoles(role))) {
    throw HttpError.forbidden('Only a Moderator or above may see the members');
  }
  return { rolemap, workspace, role };
}

export function readRolemap(sb: Sandbox, user: User, id: number) {
  const { rolemap, workspace, role } = rolemapFor(sb, user, id);
  return serializeRolemap(rolemap, workspace, user, role);
}

/** Checks that the requester may change or revoke this rolemap. */
function assertMayManage(access: RolemapAccess, user: User, action: 'change' | 'revoke'): void {
  const { rolemap, workspace, role } = access;
  if (rolemap.user_id !== null && rolemap.user_id === workspace.owner_id) {
    throw HttpError.forbidden(
      `The owner's role cannot be ${action === 'change' ? 'changed' : 'revoked'}`,
    );
  }
  // Anyone may leave a workspace; changing someone's role needs Moderator and above.
  if (action === 'revoke' && rolemap.user_id === user.id) return;
  if (!role || !can.changeRoles(role)) {
    throw HttpError.forbidden('Only a Moderator or above may change roles');
  }
  if (isRole(rolemap.role_name) && rank(rolemap.role_name) > rank(role)) {
    throw HttpError.forbidden(`A ${role} may not change the role of a ${rolemap.role_name}`);
  }
}

function memberLabel(rolemap: RolemapWithUser): string {
  return rolemap.u_email ?? rolemap.email;
}

export function changeRole(sb: Sandbox, user: User, id: number, roleName: unknown): void {
  const access = rolemapFor(sb, user, id);
  assertMayManage(access, user, 'change');
  const { rolemap, workspace, role } = access;
  if (!isRole(roleName)) {
    throw HttpError.validation('role_name', `must be one of ${ROLES.join(', ')}`);
  }
  if (!role || rank(roleName) > rank(role)) {
    throw HttpError.forbidden(`A ${role ?? 'non-member'} may not grant the ${roleName} role`);
  }
  if (roleName === rolemap.role_name) return;
  sb.db.transaction(() => {
    sb.db
      .prepare(`UPDATE rolemaps SET role_name = ?, updated_at = ? WHERE id = ?`)
      .run(roleName, sb.clock.now(), rolemap.id);
    recordEvent(sb, {
      workspace: wsRef(workspace),
      actor: user,
      verb: 'update',
      predicate: 'changed a role in',
      complement: `${memberLabel(rolemap)} from ${rolemap.role_name} to ${roleName}`,
    });
  })();
}

export function revokeRolemap(sb: Sandbox, user: User, id: number): void {
  const access = rolemapFor(sb, user, id);
  assertMayManage(access, user, 'revoke');
  const { rolemap, workspace } = access;
  sb.db.transaction(() => {
    sb.db.prepare(`DELETE FROM rolemaps WHERE id = ?`).run(rolemap.id);
    recordEvent(sb, {
      workspace: wsRef(workspace),
      actor: user,
      verb: 'update',
      predicate: 'removed a member from',
      complement: memberLabel(rolemap),
    });
  })();
}

/** An invitation's body judged and sent, once visibility (404) and role (403) are checked. */
async function inviteFromBody(
  sb: Sandbox,
  user: User,
  body: () => Promise<Record<string, unknown>>,
  workspaceId: number,
  item?: InvitedItem,
) {
  const b = unwrap(await body(), 'invitation');
  const emails = splitEmails(b.emails);
  if (emails.length === 0) throw HttpError.validation('emails', "can't be blank");
  const roleName = typeof b.role_name === 'string' ? b.role_name : undefined;
  const share = invite(sb, user, workspaceId, emails, roleName, item);
  if (typeof b.emails === 'string') share.emails = b.emails;
  return { status: 200, json: { share } };
}

export function registerInvitations(router: Router<User>, sb: Sandbox): void {
  router.add('POST', '/workspaces/:id/invitations', async ({ user, params, body }) => {
    const workspaceId = Number(params.id);
    const { role } = workspaceFor(sb, user, workspaceId);
    if (!can.invite(role)) throw HttpError.forbidden('Only a Moderator or above may invite users');
    return inviteFromBody(sb, user, body, workspaceId);
  });

  for (const plural of ['folders', 'files'] as const) {
    router.add('POST', `/${plural}/:id/invitations`, async ({ user, params, body }) => {
      const { item, role } = itemFor(sb, user, Number(params.id), kindOf(plural));
      if (!can.invite(role))
        throw HttpError.forbidden('Only a Moderator or above may invite users');
      const invited = { kind: item.kind, id: item.id, name: item.filename };
      return inviteFromBody(sb, user, body, item.workspace_id, invited);
    });
  }

  router.add('GET', '/workspaces/:id/rolemaps', async ({ user, params, query, body }) => {
    const { offset, perPage } = pageWindow(query, await body(), PER_PAGE);
    return { status: 200, json: listRolemaps(sb, user, Number(params.id), offset, perPage) };
  });

  router.add('GET', '/rolemaps/:id', ({ user, params }) => {
    return { status: 200, json: { rolemap: readRolemap(sb, user, Number(params.id)) } };
  });

  router.add('PUT', '/rolemaps/:id', async ({ user, params, body }) => {
    const id = Number(params.id);
    assertMayManage(rolemapFor(sb, user, id), user, 'change');
    const b = unwrap(await body(), 'rolemap');
    changeRole(sb, user, id, b.role_name);
    // 200 with an empty body: what the real service answers.
    return { status: 200 };
  });

  router.add('DELETE', '/rolemaps/:id', ({ user, params }) => {
    revokeRolemap(sb, user, Number(params.id));
    return { status: 204 };
  });
}
