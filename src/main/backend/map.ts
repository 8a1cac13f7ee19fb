// Service resources (src/main/api/schemas.ts) as the window's types (src/shared/app-api.ts):
// plain data, names the window reads, nothing it need not see (tokens of links stay in the URL).
import type {
  ActivityEvent,
  Comment,
  Entry,
  Link,
  Role,
  SyncPairStatus,
  Workspace,
} from '../../shared/app-api';
import { Role as RoleSchema } from '../../shared/app-api';
import { parseDetail } from '../../shared/detail';
import type { SyncStatus } from '../../shared/sync-status';
import type { FolderEntry } from '../api/client';
import type * as S from '../api/schemas';
import { withAttention } from './attention-state';
import { shareUrl } from '../links/share-url';

/** Roles from least to most powerful: the contract's enum lists them in that order. */
const RANK: readonly Role[] = RoleSchema.options;

/** Whether `role` is `least` or above; an unknown or missing role is below everything. */
export function atLeast(role: string | null | undefined, least: Role): boolean {
  const have = RANK.indexOf(role as Role);
  return have >= 0 && have >= RANK.indexOf(least);
}

// The service says rows/thumbnails; the window's views are list/grid.
const VIEW_OUT: Record<string, string> = { rows: 'list', thumbnails: 'grid' };
const VIEW_IN: Record<string, 'rows' | 'thumbnails'> = {
  list: 'rows',
  grid: 'thumbnails',
  rows: 'rows',
  thumbnails: 'thumbnails',
};

export function viewToService(view: string): 'rows' | 'thumbnails' | null {
  return Object.hasOwn(VIEW_IN, view) ? VIEW_IN[view]! : null;
}

export function workspaceOf(w: S.Workspace): Workspace {
  const view = w.default_view ?? null;
  return {
    id: w.id,
    name: w.name,
    color: w.background_color ?? null,
    defaultView: view === null ? null : (VIEW_OUT[view] ?? view),
    rootFolderId: w.root_folder_id,
    role: w.effective_role ?? null,
    isOwner: w.is_owner ?? false,
  };
}

export function entryOf(e: FolderEntry): Entry {
  const item = e.kind === 'folder' ? e.folder : e.file;
  return {
    kind: e.kind,
    id: item.id,
    name: item.filename,
    size: item.size ?? null,
    updatedAt: item.updated_at,
    hidden: item['hidden?'] ?? false,
    thumbnail: e.kind === 'file' && e.file.thumbnail != null,
  };
}

export function commentOf(
  c: S.Comment,
  me: { userId: number | null; role: string | null },
): Comment {
  const authorId = c.user_id ?? null;
  return {
    id: c.id,
    body: c.body,
    author: c.user_name ?? 'Someone',
    authorId,
    updatedAt: c.updated_at ?? null,
    mayDelete: (authorId !== null && authorId === me.userId) || atLeast(me.role, 'Moderator'),
  };
}

export const LINK_READ_ONLY = "Only Moderators and above can change a link's settings.";

export function linkOf(l: S.Link, server: string, role: string | null): Link {
  return {
    url: shareUrl(server, l.link),
    tokenAccessible: l.token_accessible,
    requirePassword: l.require_password,
    expiresAt: l.token_expires_at ?? null,
    readOnlyReason: atLeast(role, 'Moderator') ? null : LINK_READ_ONLY,
  };
}

/** Who the window is signed in as, to tell the person's own events. */
export interface Me {
  userId: number | null;
  name: string;
}

/**
 * How the service displays a `download` and a `read` (conventions.md: read displays as
 * "viewed"): the verbs a sync's own reading leaves. The event carries no verb field, and its
 * detail is the service's English.
 */
const READ_PREDICATES = new Set(['downloaded', 'viewed']);

/**
 * Whether the event is the person's own download or view. The service's events name the
 * person (`user_id`), not the device: a download made in the browser by the same person
 * counts too, which is why it is folded, not dropped. Without a known user id, the name.
 */
function isOwnRead(e: S.Event, subject: string, predicate: string, me: Me): boolean {
  if (!READ_PREDICATES.has(predicate.trim().toLowerCase())) return false;
  if (me.userId !== null && e.user_id != null) return e.user_id === me.userId;
  return me.name !== '' && subject === me.name;
}

/** An event, its markup parsed into plain text (never HTML: names arrive escaped and stay text). */
export function activityOf(e: S.Event, me?: Me): ActivityEvent {
  const d = parseDetail(e.detail);
  return {
    ...(me && isOwnRead(e, d.subject, d.predicate, me) ? { ownRead: true } : {}),
    id: e.id,
    at: e.updated_at,
    workspaceId: e.workspace_id ?? null,
    actorId: e.user_id ?? null,
    subject: d.subject,
    predicate: d.predicate,
    objects: d.objects.map((o) => ({
      text: o.text,
      label: o.label,
      kind: o.kind,
      id: o.id,
      workspaceId: o.workspaceId,
    })),
    complement: d.complement,
    text: d.text,
  };
}

/** The states a failure set: `lastError` is what they are about (kept after, not shown). */
const failing = new Set(['error', 'needs-attention', 'offline', 'gone']);

export function pairStatusOf(s: SyncStatus): SyncPairStatus {
  return withAttention({
    state: s.state,
    message: s.message,
    ...(s.words ? { words: s.words } : {}),
    items: { ...s.items },
    bytes: { ...s.bytes },
    current: s.current ? { ...s.current } : null,
    rate: s.rate ? { ...s.rate } : null,
    problems: s.problems.map((p) => ({
      path: p.path,
      reason: p.reason,
      message: p.message,
      ...(p.words ? { words: p.words } : {}),
      at: p.at,
      ...(p.key !== undefined ? { key: p.key } : {}),
      ...(p.dismissed ? { dismissed: true } : {}),
    })),
    conflicts: s.conflicts.map((c) => ({
      path: c.path,
      message: c.message,
      ...(c.words ? { words: c.words } : {}),
      at: c.at,
      ...(c.id !== undefined ? { id: c.id, copy: c.copy } : {}),
    })),
    lastSyncAt: s.lastSyncAt,
    backlog: s.backlog
      ? {
          changes: s.backlog.changes,
          reason: s.backlog.reason,
          ...(s.backlog.words ? { words: s.backlog.words } : {}),
        }
      : null,
    held: s.held ? { side: s.held.side, count: s.held.count, total: s.held.total } : null,
    error:
      failing.has(s.state) && s.lastError
        ? {
            kind: s.lastError.kind,
            message: s.lastError.message,
            ...(s.lastError.words ? { words: s.lastError.words } : {}),
          }
        : null,
  });
}
