import type { Sandbox, User } from './context';
import { escapeHtml } from './http';

export type Verb = 'create' | 'upload' | 'read' | 'download' | 'update' | 'delete' | 'invite';
export const VERBS: readonly Verb[] = [
  'create',
  'upload',
  'read',
  'download',
  'update',
  'delete',
  'invite',
];

export interface EventObject {
  kind: 'folder' | 'file';
  id: number;
  name: string;
}

export interface EventInput {
  workspace: { id: number; name: string };
  /** null: someone with the link, not signed in. */
  actor: User | null;
  verb: Verb;
  /** The display verb, e.g. "renamed", "uploaded", "viewed". */
  predicate: string;
  /** The item acted on; absent when the workspace itself is. */
  item?: EventObject;
  /** Words between the predicate and the first object ("on the", "the"). */
  article?: string;
  complement?: string;
}

const LABEL = { folder: 'Folder', file: 'File' } as const;

function objectTag(href: string, name: string, label: string): string {
  return `<object><a href="${escapeHtml(href)}">${escapeHtml(name)}</a> ${label}</object>`;
}

/**
 * Builds the `detail` markup: `<subject>…</subject> <predicate>…</predicate> the
 * <object><a href="/workspaces/W/folders/ID">Name</a> Folder</object> <complement>…</complement>
 * in the <object><a href="/workspaces/W">WS</a> Workspace</object>`. Every name is escaped; the
 * first object names the item acted on.
 */
export function detailMarkup(e: EventInput): string {
  const ws = e.workspace;
  const subject = `<subject>${escapeHtml(e.actor ? e.actor.name : 'Someone with the link')}</subject>`;
  const predicate = `<predicate>${escapeHtml(e.predicate)}</predicate>`;
  const wsObject = objectTag(`/workspaces/${ws.id}`, ws.name, 'Workspace');
  const complement = e.complement ? ` <complement>${escapeHtml(e.complement)}</complement>` : '';
  // An empty article must not leave two spaces; names themselves are kept exactly as they are.
  const article = e.article ?? 'the';
  const lead = article ? `${subject} ${predicate} ${article} ` : `${subject} ${predicate} `;
  if (!e.item) return `${lead}${wsObject}${complement}`;
  const href = `/workspaces/${ws.id}/${e.item.kind}s/${e.item.id}`;
  const itemObject = objectTag(href, e.item.name, LABEL[e.item.kind]);
  return `${lead}${itemObject}${complement} in the ${wsObject}`;
}

export function recordEvent(sb: Sandbox, e: EventInput): number {
  const result = sb.db
    .prepare(
      `INSERT INTO events (workspace_id, user_id, verb, item_kind, item_id, detail, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      e.workspace.id,
      e.actor ? e.actor.id : null,
      e.verb,
      e.item ? e.item.kind : null,
      e.item ? e.item.id : null,
      detailMarkup(e),
      sb.clock.now(),
    );
  return Number(result.lastInsertRowid);
}
