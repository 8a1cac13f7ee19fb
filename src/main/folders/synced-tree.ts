import {
  readJournalMeta,
  readSyncedChildren,
  readSyncedItem,
  type SyncedItemRow,
} from '../journal/read-only';

// The synced tree as a pair's journal last recorded it, read without the engine (read-only, the
// engine may be writing beside it): Browse shows it when the service cannot be reached, and
// finds a synced item's local path by its service id.

export type { SyncedItemRow };

/** The workspace's root folder id the journal synced, or null before its first pass. */
export function syncedRoot(journal: string): number | null {
  const raw = readJournalMeta(journal).get('root_folder_id');
  const id = raw === undefined ? NaN : Number(raw);
  return Number.isInteger(id) ? id : null;
}

export function syncedItem(journal: string, remoteId: number): SyncedItemRow | null {
  return readSyncedItem(journal, remoteId);
}

const byName = (a: SyncedItemRow, b: SyncedItemRow) =>
  a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || a.remoteId - b.remoteId;
const extOf = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
};

/** The service's orders (its listing's ORDER BY), so offline Browse reads the same way. */
const ORDERS = {
  alphabetical: byName,
  modified: (a: SyncedItemRow, b: SyncedItemRow) =>
    (b.updatedAt ?? '').localeCompare(a.updatedAt ?? '') || byName(a, b),
  size: (a: SyncedItemRow, b: SyncedItemRow) => (b.size ?? 0) - (a.size ?? 0) || byName(a, b),
  type: (a: SyncedItemRow, b: SyncedItemRow) =>
    extOf(a.name).localeCompare(extOf(b.name)) || byName(a, b),
} as const;

/**
 * A page of a synced folder's children, filtered by a part of the name and sorted, folders first
 * as the service lists them; `reversed` turns each kind round, folders still first.
 */
export function listSynced(
  journal: string,
  folderId: number,
  opts: {
    query: string;
    sort: keyof typeof ORDERS;
    reversed?: boolean;
    offset: number;
    limit: number;
  },
): { items: SyncedItemRow[]; nextOffset: number | null; total: number } {
  const query = opts.query.trim().toLowerCase();
  const way = opts.reversed ? -1 : 1;
  const folderFirst = (a: SyncedItemRow, b: SyncedItemRow) =>
    (a.kind === 'folder' ? 0 : 1) - (b.kind === 'folder' ? 0 : 1);
  const rows = readSyncedChildren(journal, folderId)
    .filter((r) => query === '' || r.name.toLowerCase().includes(query))
    .sort((a, b) => folderFirst(a, b) || way * ORDERS[opts.sort](a, b));
  const items = rows.slice(opts.offset, opts.offset + opts.limit);
  const end = opts.offset + items.length;
  return { items, nextOffset: end < rows.length ? end : null, total: rows.length };
}

/** The folders from below the root down to `folderId` (the root is not an item of the journal). */
export function syncedPath(journal: string, folderId: number): { id: number; name: string }[] {
  const out: { id: number; name: string }[] = [];
  let at = readSyncedItem(journal, folderId);
  // Bounded: a damaged journal with a loop in its parents does not hang the window.
  for (let depth = 0; at && depth < 1000; depth++) {
    out.unshift({ id: at.remoteId, name: at.name });
    at = readSyncedItem(journal, at.parentId);
  }
  return out;
}
