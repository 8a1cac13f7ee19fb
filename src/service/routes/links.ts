import { hashPassword } from '../auth';
import type { Sandbox, User } from '../context';
import { recordEvent } from '../events';
import { HttpError, asBool, unwrap, type Router } from '../http';
import type { LinkRow } from '../db';
import { ensureLink, linkOf, serializeLink, type LinkJson } from '../links-model';
import { itemFor, kindOf } from '../model';
import { can } from '../roles';
import { parseClientTime } from '../time';

export const MAX_LINK_PASSWORD = 1024;

export interface LinkChanges {
  token_accessible?: boolean;
  require_password?: boolean;
  password?: string;
  /** Epoch milliseconds, or null for no expiry. */
  token_expires_at?: number | null;
}

/** Reads an item's link, creating it on first read (Collaborator and above). */
export function readOrCreateLink(
  sb: Sandbox,
  user: User,
  kind: 'folder' | 'file',
  itemId: number,
): LinkJson {
  const { item, role } = itemFor(sb, user, itemId, kind);
  if (!can.readLinks(role)) throw HttpError.forbidden('Your role does not allow reading links');
  return serializeLink(ensureLink(sb, item.id), item, user);
}

/** Validates the body of Update a link (flat or wrapped under `content_item_link`). */
export function linkChanges(body: Record<string, unknown>, user: User): LinkChanges {
  const b = unwrap(body, 'content_item_link');
  const out: LinkChanges = {};
  const accessible = asBool(b.token_accessible, 'token_accessible');
  if (accessible !== undefined) out.token_accessible = accessible;
  const requirePassword = asBool(b.require_password, 'require_password');
  if (requirePassword !== undefined) out.require_password = requirePassword;
  if (b.password !== undefined && b.password !== null) {
    if (typeof b.password !== 'string') throw HttpError.validation('password', 'must be a string');
    out.password = b.password;
  }
  if ('token_expires_at' in b) {
    const raw = b.token_expires_at;
    if (raw === null || raw === '') {
      out.token_expires_at = null;
    } else if (typeof raw === 'string') {
      const ms = parseClientTime(raw, user.time_zone);
      if (ms === null) throw HttpError.validation('token_expires_at', 'is not a valid time');
      out.token_expires_at = ms;
    } else {
      throw HttpError.validation('token_expires_at', 'must be a time or null');
    }
  }
  return out;
}

/**
 * On a service that requires a password for links: refuses a change that would leave the link
 * on without one (422 on `password`, the answer such a service gives).
 */
function passwordEnforced(current: LinkRow, changes: LinkChanges, newPassword?: string): void {
  const on = changes.token_accessible ?? current.token_accessible === 1;
  const required = changes.require_password ?? current.require_password === 1;
  const hasPassword = newPassword !== undefined || current.password_hash !== null;
  if (on && !(required && hasPassword)) {
    throw HttpError.validation('password', 'is required for every link on this service');
  }
}

/** Changes an item's link (Moderator and above). Passwords are stored only as scrypt hashes. */
export async function updateLink(
  sb: Sandbox,
  user: User,
  kind: 'folder' | 'file',
  itemId: number,
  changes: LinkChanges,
): Promise<LinkJson> {
  const { item, role } = itemFor(sb, user, itemId, kind);
  if (!can.updateLinks(role))
    throw HttpError.forbidden('Only a Moderator or above may change links');
  const current = ensureLink(sb, item.id);
  if (changes.password !== undefined && changes.password.length > MAX_LINK_PASSWORD) {
    throw HttpError.validation(
      'password',
      `is too long (maximum is ${MAX_LINK_PASSWORD} characters)`,
    );
  }
  const newPassword =
    changes.password !== undefined && changes.password !== '' ? changes.password : undefined;
  if (changes.require_password === true && newPassword === undefined && !current.password_hash) {
    throw HttpError.validation('password', "can't be blank when a password is required");
  }
  if (
    changes.token_expires_at !== undefined &&
    changes.token_expires_at !== null &&
    !Number.isFinite(changes.token_expires_at)
  ) {
    throw HttpError.validation('token_expires_at', 'is not a valid time');
  }
  if (sb.config.linkPasswordRequired) passwordEnforced(current, changes, newPassword);
  const hash = newPassword !== undefined ? await hashPassword(newPassword) : undefined;
  const workspace = sb.db
    .prepare(`SELECT id, name FROM workspaces WHERE id = ?`)
    .get(item.workspace_id) as { id: number; name: string };
  sb.db.transaction(() => {
    // Re-read inside the transaction: the hash above was computed asynchronously.
    const link = linkOf(sb, item.id) ?? current;
    sb.db
      .prepare(
        `UPDATE links SET token_accessible = ?, require_password = ?, password_hash = ?,
           expires_at = ?, updated_at = ? WHERE item_id = ?`,
      )
      .run(
        changes.token_accessible === undefined
          ? link.token_accessible
          : changes.token_accessible
            ? 1
            : 0,
        changes.require_password === undefined
          ? link.require_password
          : changes.require_password
            ? 1
            : 0,
        hash ?? link.password_hash,
        changes.token_expires_at === undefined ? link.expires_at : changes.token_expires_at,
        sb.clock.now(),
        item.id,
      );
    recordEvent(sb, {
      workspace,
      actor: user,
      verb: 'update',
      predicate: 'updated the link of',
      item: { kind: item.kind, id: item.id, name: item.filename },
    });
  })();
  return serializeLink(linkOf(sb, item.id)!, item, user);
}

export function registerLinks(router: Router<User>, sb: Sandbox): void {
  router.add('GET', '/:item/:item_id/link', ({ user, params }) => {
    const link = readOrCreateLink(sb, user, kindOf(params.item!), Number(params.item_id));
    return { status: 200, json: { content_item_link: link } };
  });

  router.add('PUT', '/:item/:item_id/link', async ({ user, params, body }) => {
    const kind = kindOf(params.item!);
    const id = Number(params.item_id);
    // Visibility (404) and role (403) before the body is judged (422).
    const { role } = itemFor(sb, user, id, kind);
    if (!can.updateLinks(role)) {
      throw HttpError.forbidden('Only a Moderator or above may change links');
    }
    const link = await updateLink(sb, user, kind, id, linkChanges(await body(), user));
    return { status: 200, json: { content_item_link: link } };
  });
}
