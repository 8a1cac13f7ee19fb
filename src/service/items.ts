import type { Statement } from 'better-sqlite3';
import type { ItemKind } from '../shared/item-kind';
import type { Sandbox, User } from './context';
import type { ItemRow, WorkspaceRow } from './db';
import { recordEvent, type Verb } from './events';
import { HttpError } from './http';
import { adjustFolderSizes, ancestorChain, itemFor, type ItemAccess } from './model';
import { nameKey, repairName } from './names';
import { can } from './roles';

// Shared machinery of the folder and file routes: prepared statements cached per sandbox (the
// listing is the hottest path of the service), access checks and event recording.

interface Statements {
  folderByKey: Statement<[number, string]>;
  fileByName: Statement<[number, string]>;
  byId: Statement<[number]>;
  /** Listing statements keyed by `sort|query?`. */
  lists: Map<string, Statement>;
  counts: Map<string, Statement>;
}

const cache = new WeakMap<Sandbox, Statements>();

/** The file's extension for the `type` sort: lower case, '' when there is none. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : '';
}

export function statements(sb: Sandbox): Statements {
  let s = cache.get(sb);
  if (s) return s;
  const db = sb.db;
  db.function('item_ext', { deterministic: true }, (name: unknown) =>
    typeof name === 'string' ? extensionOf(name) : '',
  );
  s = {
    folderByKey: db.prepare(
      `SELECT * FROM items WHERE parent_id = ? AND kind = 'folder' AND name_key = ?`,
    ),
    fileByName: db.prepare(
      `SELECT * FROM items WHERE parent_id = ? AND kind = 'file' AND filename = ?`,
    ),
    byId: db.prepare(`SELECT * FROM items WHERE id = ?`),
    lists: new Map(),
    counts: new Map(),
  };
  cache.set(sb, s);
  return s;
}

/** The item as `user` sees it: 404 when it does not exist or is not visible to them. */
export const accessItem = (sb: Sandbox, user: User, id: number, kind: ItemKind): ItemAccess =>
  itemFor(sb, user, id, kind);

/** Ids from the root down to `id` itself ([] for null). */
export const chainTo = ancestorChain;

/** Adds `delta` bytes to `folderId` and every folder above it. */
export const adjustSizes = adjustFolderSizes;

export function reload(sb: Sandbox, id: number): ItemRow {
  return statements(sb).byId.get(id) as ItemRow;
}

export function isUniqueViolation(err: unknown): boolean {
  return (
    typeof err === 'object' &&
    err !== null &&
    String((err as { code?: unknown }).code).startsWith('SQLITE_CONSTRAINT_UNIQUE')
  );
}

export const taken = (field = 'filename') => HttpError.validation(field, 'has already been taken');

export function itemEvent(
  sb: Sandbox,
  workspace: WorkspaceRow,
  user: User,
  verb: Verb,
  predicate: string,
  item: { kind: ItemKind; id: number; filename: string },
  complement?: string,
): void {
  recordEvent(sb, {
    workspace: { id: workspace.id, name: workspace.name },
    actor: user,
    verb,
    predicate,
    item: { kind: item.kind, id: item.id, name: item.filename },
    complement,
  });
}

/** `attachment; filename="ascii"; filename*=UTF-8''percent-encoded` (RFC 6266 / RFC 5987). */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase(),
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** Whether `user` may delete `item`: Collaborator and above anything, a Creator what they created. */
function mayDelete(access: ItemAccess, user: User): boolean {
  if (can.changeAnyItem(access.role)) return true;
  return can.create(access.role) && access.item.user_id === user.id;
}

/**
 * Renames and/or moves a folder or file. `parentId` is the move extension (`parent_id` for a
 * folder, `folder_id` for a file); callers drop it when the extensions are off. Collaborator
 * and above; the root folder cannot be renamed or moved (rename the workspace instead).
 */
export function renameOrMoveItem(
  sb: Sandbox,
  user: User,
  kind: ItemKind,
  id: number,
  changes: { filename?: string; parentId?: number },
): ItemRow {
  const access = accessItem(sb, user, id, kind);
  const { item, workspace, role } = access;
  if (!can.changeAnyItem(role)) {
    throw HttpError.forbidden(`Your role may not rename or move this ${kind}`);
  }
  const wantsRename = changes.filename !== undefined;
  const wantsMove = changes.parentId !== undefined && changes.parentId !== item.parent_id;
  if (!wantsRename && !wantsMove) return item;
  if (item.parent_id === null) {
    throw HttpError.validation(
      'base',
      "The workspace's root folder cannot be renamed or moved; rename the workspace instead",
    );
  }
  const parentField = kind === 'folder' ? 'parent_id' : 'folder_id';
  const name = wantsRename ? repairName(changes.filename) : item.filename;
  let target = item.parent_id;
  let oldParentName: string | undefined;
  if (wantsMove) {
    const dest = accessItem(sb, user, changes.parentId!, 'folder').item;
    if (dest.workspace_id !== item.workspace_id) {
      throw HttpError.validation(parentField, 'must be a folder of the same workspace');
    }
    if (kind === 'folder' && chainTo(sb, dest.id).includes(item.id)) {
      throw HttpError.validation(
        parentField,
        'cannot be the folder itself or one of its subfolders',
      );
    }
    target = dest.id;
    oldParentName = reload(sb, item.parent_id).filename;
  }
  const renamed = name !== item.filename;
  if (!renamed && !wantsMove) return item;
  const s = statements(sb);
  const key = nameKey(name);
  const clash =
    kind === 'folder'
      ? (s.folderByKey.get(target, key) as ItemRow | undefined)
      : (s.fileByName.get(target, name) as ItemRow | undefined);
  if (clash && clash.id !== item.id) throw taken();
  const now = sb.clock.now();
  try {
    sb.db.transaction(() => {
      sb.db
        .prepare(
          `UPDATE items SET filename = ?, name_key = ?, parent_id = ?, updated_at = ? WHERE id = ?`,
        )
        .run(name, key, target, now, item.id);
      if (wantsMove) {
        adjustSizes(sb, item.parent_id, -item.size);
        adjustSizes(sb, target, item.size);
      }
      const after = { kind, id: item.id, filename: name };
      if (renamed)
        itemEvent(sb, workspace, user, 'update', 'renamed', after, `from ${item.filename}`);
      if (wantsMove) {
        itemEvent(sb, workspace, user, 'update', 'moved', after, `from ${oldParentName}`);
      }
    })();
  } catch (err) {
    if (isUniqueViolation(err)) throw taken();
    throw err;
  }
  return reload(sb, item.id);
}

/** Deletes a folder (with everything below it) or a file. */
export function deleteItem(sb: Sandbox, user: User, kind: ItemKind, id: number): void {
  const access = accessItem(sb, user, id, kind);
  const { item, workspace } = access;
  if (item.parent_id === null) {
    throw HttpError.validation(
      'base',
      "The workspace's root folder cannot be deleted; delete the workspace instead",
    );
  }
  if (!mayDelete(access, user)) {
    throw HttpError.forbidden(
      can.create(access.role)
        ? `A Creator may delete only the ${kind}s they created`
        : `Your role may not delete this ${kind}`,
    );
  }
  sb.db.transaction(() => {
    adjustSizes(sb, item.parent_id, -item.size);
    itemEvent(sb, workspace, user, 'delete', 'deleted', item);
    // items.parent_id cascades: the whole subtree goes with the folder.
    sb.db.prepare(`DELETE FROM items WHERE id = ?`).run(item.id);
  })();
}
