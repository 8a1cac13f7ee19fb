import { createHmac } from 'node:crypto';
import { newToken, safeEqual } from './auth';
import type { Sandbox, User } from './context';
import type { ItemRow, LinkRow } from './db';
import { formatInZone } from './time';

// The link of a folder or file (one per item, created on first read) and what the shared pages
// need to decide whether a request may see the content behind it.

/** 18 random bytes: 24 base64url characters, 144 bits. */
const TOKEN_BYTES = 18;

/** A fresh link token: random, URL-safe, and never all digits (the router tells ids by that). */
export function newLinkToken(): string {
  for (;;) {
    const token = newToken(TOKEN_BYTES);
    if (/[A-Za-z]/.test(token)) return token;
  }
}

export function linkOf(sb: Sandbox, itemId: number): LinkRow | undefined {
  return sb.db.prepare(`SELECT * FROM links WHERE item_id = ?`).get(itemId) as LinkRow | undefined;
}

/** The item's link, created (not accessible, no password, no expiry) when it has none. */
export function ensureLink(sb: Sandbox, itemId: number): LinkRow {
  const existing = linkOf(sb, itemId);
  if (existing) return existing;
  const insert = sb.db.prepare(
    `INSERT OR IGNORE INTO links (item_id, token, token_accessible, require_password, updated_at)
     VALUES (?, ?, 0, 0, ?)`,
  );
  // A clash of 144-bit tokens will not happen; the loop only guards the UNIQUE constraint
  // (OR IGNORE skips the row on a clash, and a new token is drawn).
  for (let attempt = 0; attempt < 5; attempt++) {
    insert.run(itemId, newLinkToken(), sb.clock.now());
    const created = linkOf(sb, itemId);
    if (created) return created;
  }
  throw new Error('could not create a unique link token');
}

export interface LinkJson {
  token: string;
  token_accessible: boolean;
  token_expires: boolean;
  token_expires_at: string | null;
  require_password: boolean;
  role_id: null;
  link: string;
  url: string;
}

export function serializeLink(link: LinkRow, item: ItemRow, viewer: User): LinkJson {
  const plural = item.kind === 'file' ? 'files' : 'folders';
  return {
    token: link.token,
    token_accessible: link.token_accessible === 1,
    token_expires: link.expires_at !== null,
    token_expires_at:
      link.expires_at === null ? null : formatInZone(link.expires_at, viewer.time_zone),
    require_password: link.require_password === 1,
    role_id: null,
    link: `/${plural}/${link.token}`,
    url: `/${plural}/${item.id}/link`,
  };
}

/** Whether the link currently opens its content (accessible and not expired). */
export function linkIsOpen(sb: Sandbox, link: LinkRow): boolean {
  return (
    link.token_accessible === 1 && (link.expires_at === null || link.expires_at > sb.clock.now())
  );
}

/** The link with `token` whose item is of `kind`, with the item, or undefined. */
export function linkByToken(
  sb: Sandbox,
  kind: 'folder' | 'file',
  token: string,
): { link: LinkRow; item: ItemRow } | undefined {
  const link = sb.db.prepare(`SELECT * FROM links WHERE token = ?`).get(token) as
    LinkRow | undefined;
  if (!link) return undefined;
  const item = sb.db
    .prepare(`SELECT * FROM items WHERE id = ? AND kind = ?`)
    .get(link.item_id, kind) as ItemRow | undefined;
  return item ? { link, item } : undefined;
}

/**
 * The value of the cookie that proves a visitor gave a link's password: an HMAC of the token and
 * the stored password hash, so a new password (or a new token) invalidates old cookies.
 */
export function passwordProof(sb: Sandbox, link: LinkRow): string {
  return createHmac('sha256', sb.secret)
    .update(`share-password\n${link.token}\n${link.password_hash ?? ''}`)
    .digest('base64url');
}

export function checkPasswordProof(
  sb: Sandbox,
  link: LinkRow,
  cookie: string | undefined,
): boolean {
  if (!cookie || !link.password_hash) return false;
  return safeEqual(cookie, passwordProof(sb, link));
}
