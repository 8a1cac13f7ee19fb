import type { Sandbox, User } from '../context';
import type { CommentRow, ItemRow } from '../db';
import { recordEvent } from '../events';
import { HttpError, unwrap, type Router } from '../http';
import { itemFor, kindOf, pageOf, pageWindow } from '../model';
import { can } from '../roles';
import { formatInZone } from '../time';

const PER_PAGE = 30;
export const MAX_COMMENT = 10_000;

type CommentWithAuthor = CommentRow & { user_name: string; item_id: number; item_kind: string };

export interface CommentJson {
  id: number;
  user_id: number;
  discussion_id: number;
  body: string;
  updated_at: string;
  user_name: string;
  owner_type: 'folder' | 'file';
  owner_id: number;
}

const SELECT_COMMENT = `SELECT c.*, u.name AS user_name, d.item_id AS item_id, i.kind AS item_kind
  FROM comments c
  JOIN discussions d ON d.id = c.discussion_id
  JOIN items i ON i.id = d.item_id
  JOIN users u ON u.id = c.user_id`;

export function serializeComment(row: CommentWithAuthor, viewer: User): CommentJson {
  return {
    id: row.id,
    user_id: row.user_id,
    discussion_id: row.discussion_id,
    body: row.body,
    updated_at: formatInZone(row.updated_at, viewer.time_zone),
    user_name: row.user_name,
    owner_type: row.item_kind === 'file' ? 'file' : 'folder',
    owner_id: row.item_id,
  };
}

/** The discussion of an item, created on first use (one per item). */
function discussionOf(sb: Sandbox, itemId: number): number {
  sb.db.prepare(`INSERT OR IGNORE INTO discussions (item_id) VALUES (?)`).run(itemId);
  const row = sb.db.prepare(`SELECT id FROM discussions WHERE item_id = ?`).get(itemId) as {
    id: number;
  };
  return row.id;
}

function commentBody(raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim() === '') {
    throw HttpError.validation('body', "can't be blank");
  }
  if (raw.length > MAX_COMMENT) {
    throw HttpError.validation('body', `is too long (maximum is ${MAX_COMMENT} characters)`);
  }
  return raw;
}

/** The comment as the event quotes it: one line, at most 100 characters (escaped by recordEvent). */
function excerpt(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return `"${line.length > 100 ? line.slice(0, 99) + '…' : line}"`;
}

function eventItem(item: ItemRow) {
  return { kind: item.kind, id: item.id, name: item.filename };
}

/** Creates a comment on a folder or file (Creator and above). */
export function addComment(
  sb: Sandbox,
  user: User,
  kind: 'folder' | 'file',
  itemId: number,
  body: string,
): CommentJson {
  const { item, workspace, role } = itemFor(sb, user, itemId, kind);
  if (!can.comment(role)) throw HttpError.forbidden('Your role does not allow comments');
  const text = commentBody(body);
  const now = sb.clock.now();
  const id = sb.db.transaction(() => {
    const discussionId = discussionOf(sb, item.id);
    const result = sb.db
      .prepare(
        `INSERT INTO comments (discussion_id, user_id, body, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?)`,
      )
      .run(discussionId, user.id, text, now, now);
    recordEvent(sb, {
      workspace: { id: workspace.id, name: workspace.name },
      actor: user,
      verb: 'create',
      predicate: 'commented on',
      item: eventItem(item),
      complement: excerpt(text),
    });
    return Number(result.lastInsertRowid);
  })();
  const row = sb.db.prepare(`${SELECT_COMMENT} WHERE c.id = ?`).get(id) as CommentWithAuthor;
  return serializeComment(row, user);
}

/** The comments of an item, oldest first, one page of them. */
export function listComments(
  sb: Sandbox,
  user: User,
  kind: 'folder' | 'file',
  itemId: number,
  offset: number,
  perPage = PER_PAGE,
) {
  const { item } = itemFor(sb, user, itemId, kind);
  const rows = sb.db
    .prepare(`${SELECT_COMMENT} WHERE d.item_id = ? ORDER BY c.created_at, c.id LIMIT ? OFFSET ?`)
    .all(item.id, perPage, offset) as CommentWithAuthor[];
  const { total } = sb.db
    .prepare(
      `SELECT count(*) AS total FROM comments c JOIN discussions d ON d.id = c.discussion_id
       WHERE d.item_id = ?`,
    )
    .get(item.id) as { total: number };
  const items = rows.map((r) => ({ comment: serializeComment(r, user) }));
  return pageOf(items, total, offset, perPage);
}

/** Deletes a comment: its author may, and Moderators and above may delete anyone's. */
export function deleteComment(
  sb: Sandbox,
  user: User,
  kind: 'folder' | 'file',
  itemId: number,
  commentId: number,
): void {
  const { item, workspace, role } = itemFor(sb, user, itemId, kind);
  const row = sb.db
    .prepare(`${SELECT_COMMENT} WHERE c.id = ? AND d.item_id = ?`)
    .get(commentId, item.id) as CommentWithAuthor | undefined;
  if (!row) throw HttpError.notFound('Comment not found');
  if (row.user_id !== user.id && !can.deleteAnyComment(role)) {
    throw HttpError.forbidden("Only a Moderator or above may delete someone else's comment");
  }
  sb.db.transaction(() => {
    sb.db.prepare(`DELETE FROM comments WHERE id = ?`).run(row.id);
    recordEvent(sb, {
      workspace: { id: workspace.id, name: workspace.name },
      actor: user,
      verb: 'delete',
      predicate: 'deleted a comment on',
      item: eventItem(item),
    });
  })();
}

export function registerComments(router: Router<User>, sb: Sandbox): void {
  router.add('POST', '/:item/:item_id/comments', async ({ user, params, body }) => {
    const b = unwrap(await body(), 'comment');
    const kind = kindOf(params.item!);
    // Visibility first (404), then role (403), then the body (422).
    const { role } = itemFor(sb, user, Number(params.item_id), kind);
    if (!can.comment(role)) throw HttpError.forbidden('Your role does not allow comments');
    const comment = addComment(sb, user, kind, Number(params.item_id), commentBody(b.body));
    return { status: 201, json: { comment } };
  });

  router.add('GET', '/:item/:item_id/comments', async ({ user, params, query, body }) => {
    const { offset, perPage } = pageWindow(query, await body(), PER_PAGE);
    const page = listComments(
      sb,
      user,
      kindOf(params.item!),
      Number(params.item_id),
      offset,
      perPage,
    );
    return { status: 200, json: page };
  });

  router.add('DELETE', '/:item/:item_id/comments/:id', ({ user, params }) => {
    deleteComment(sb, user, kindOf(params.item!), Number(params.item_id), Number(params.id));
    return { status: 204 };
  });
}
