// What selective sync asks of the service and the journal to show and resolve folders: a
// folder's child folders, a folder by its path in the workspace, an excluded folder's path.
import type { ServiceClient } from '../api/client';
import type { ExcludedFolder, Journal } from '../journal/journal';
import { findInFolder, listFolder, type RemoteItem } from '../engine';

/** The folders in a folder of the workspace, by name. */
export async function childFolders(client: ServiceClient, folderId: number): Promise<RemoteItem[]> {
  const { children } = await listFolder(client, folderId);
  return children
    .filter((c) => c.kind === 'folder')
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
}

/** A folder of the workspace by its path ('Reports/2023', '/' separated), or null: none there. */
export async function folderAtPath(
  client: ServiceClient,
  rootId: number,
  remotePath: string,
): Promise<RemoteItem | null> {
  const names = remotePath.split('/').filter((n) => n !== '' && n !== '.');
  let found: RemoteItem | null = null;
  for (const name of names) {
    const parent: number = found?.id ?? rootId;
    found = await findInFolder(client, parent, (i) => i.kind === 'folder' && i.name === name);
    if (!found) return null;
  }
  return found;
}

/**
 * An excluded folder's path in the workspace, from its place as last seen through the synced
 * folders (and excluded ones) above it; null when it has not been seen yet.
 */
export function excludedPath(journal: Journal, rootId: number, e: ExcludedFolder): string | null {
  if (e.name === null || e.parentId === null) return null;
  const excluded = new Map(journal.selection.all().map((x) => [x.id, x]));
  const names = [e.name];
  for (let id = e.parentId, guard = 0; id !== rootId; guard++) {
    const j = journal.items.get(id);
    const x = excluded.get(id);
    const name = j?.remoteName ?? x?.name;
    const parent = j?.remoteParentId ?? x?.parentId;
    if (name == null || parent == null || guard > 4096) return null;
    names.unshift(name);
    id = parent;
  }
  return names.join('/');
}
