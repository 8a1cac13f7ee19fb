import type { FolderEntry, ServiceClient } from '../api/client';
import { ApiError, ProtocolError } from '../api/errors';
import type { FileItem } from '../api/schemas';
import type { JournalItem, RemoteItem } from '../journal/journal';

// Declared with the journal (a full walk stages it as its row); the engine names it from here.
export type { RemoteItem };

/**
 * What the remote side looks like, as far as this pass has seen: `items` were observed;
 * every child of a folder in `listed` is in `items`; `gone` were confirmed deleted (or no longer
 * visible). `complete` says that everything not observed is gone (a full walk).
 */
export interface RemoteView {
  rootId: number;
  complete: boolean;
  items: Map<number, RemoteItem>;
  listed: Set<number>;
  gone: Set<number>;
  /** Folders whose listing was refused or failed: nothing below them is judged gone. */
  unlisted: Set<number>;
}

/** What a full walk leaves besides the journal's staging tables: the few folders it could not list. */
export interface Walk {
  rootId: number;
  /** Folders whose listing was refused or failed: nothing below them is judged gone. */
  unlisted: Set<number>;
}

/**
 * What the planner reads of the service's side: a view in memory (the feed's few items), or a
 * full walk's staging tables read a folder at a time. `gone` says an item not observed is gone.
 */
export interface ViewSource {
  rootId: number;
  complete: boolean;
  item(id: number): RemoteItem | undefined;
  childrenOf(parentId: number): Iterable<RemoteItem>;
  listed(folderId: number): boolean;
  gone(id: number): boolean;
}

/** A view in memory as the planner reads it; `gone` is the view's and what `complete` implies. */
export function memorySource(view: RemoteView, gone: ReadonlySet<number>): ViewSource {
  let byParent: Map<number, RemoteItem[]> | null = null;
  return {
    rootId: view.rootId,
    complete: view.complete,
    item: (id) => view.items.get(id),
    childrenOf: (parentId) => {
      if (!byParent) {
        byParent = new Map();
        for (const item of view.items.values()) {
          let kids = byParent.get(item.parentId);
          if (!kids) byParent.set(item.parentId, (kids = []));
          kids.push(item);
        }
      }
      return byParent.get(parentId) ?? [];
    },
    listed: (id) => view.listed.has(id),
    gone: (id) => gone.has(id),
  };
}

export function emptyView(rootId: number, complete: boolean): RemoteView {
  return {
    rootId,
    complete,
    items: new Map(),
    listed: new Set(),
    gone: new Set(),
    unlisted: new Set(),
  };
}

/** A listing entry as a RemoteItem; the parent is the folder that was listed. */
export function fromEntry(entry: FolderEntry, parentId: number): RemoteItem {
  const f = entry.kind === 'folder' ? entry.folder : entry.file;
  return {
    id: f.id,
    kind: entry.kind,
    parentId,
    name: f.filename,
    size: f.size ?? 0,
    updatedAt: f.updated_at,
  };
}

/** A file's metadata (GET /files/:id) as a RemoteItem: its parent is the last ancestor. */
export function fromFile(file: FileItem): RemoteItem {
  const parentId = file.ancestor_ids?.at(-1);
  if (parentId === undefined) {
    throw new ProtocolError('GET /files/:id', 'ancestor_ids', 'is missing or empty');
  }
  return {
    id: file.id,
    kind: 'file',
    parentId,
    name: file.filename,
    size: file.size,
    updatedAt: file.updated_at,
  };
}

/** The journal's remote-side fields for an item as the service shows it. */
export function remoteFields(item: RemoteItem) {
  return {
    remoteId: item.id,
    kind: item.kind,
    remoteParentId: item.parentId,
    remoteName: item.name,
    remoteSize: item.kind === 'file' ? item.size : null,
    remoteUpdatedAt: item.updatedAt,
  };
}

/** The item as the journal last saw it on the service. */
export function asRemote(j: JournalItem): RemoteItem {
  return {
    id: j.remoteId,
    kind: j.kind,
    parentId: j.remoteParentId,
    name: j.remoteName,
    size: j.remoteSize ?? 0,
    updatedAt: j.remoteUpdatedAt ?? '',
  };
}

// The one remote folder lister: every stage that reads a folder of the service reads it here.

export interface Listing {
  children: RemoteItem[];
  /** The folder's own ancestry, root first and the folder last (from its children's
   * `ancestor_ids`); null when it has no children or the server does not say. */
  chain: number[] | null;
}

/** Lists one folder completely, page after page. */
export async function listFolder(client: ServiceClient, folderId: number): Promise<Listing> {
  const children: RemoteItem[] = [];
  let chain: number[] | null = null;
  for await (const entry of client.folderContents(folderId)) {
    if (chain === null) {
      const ancestors =
        entry.kind === 'folder' ? entry.folder.ancestor_ids : entry.file.ancestor_ids;
      if (ancestors && ancestors.at(-1) === folderId) chain = ancestors;
    }
    children.push(fromEntry(entry, folderId));
  }
  return { children, chain };
}

/** The first child of a folder that `match` accepts, reading no further page than needed. */
export async function findInFolder(
  client: ServiceClient,
  folderId: number,
  match: (item: RemoteItem) => boolean,
): Promise<RemoteItem | null> {
  for await (const entry of client.folderContents(folderId)) {
    const item = fromEntry(entry, folderId);
    if (match(item)) return item;
  }
  return null;
}

/** Whether a folder is still there (folders have no metadata read: a listing answers 404). */
export async function folderExists(client: ServiceClient, folderId: number): Promise<boolean> {
  try {
    const pages = client.folderContents(folderId);
    await pages.next();
    await pages.return(undefined);
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.kind === 'not-found') return false;
    throw err;
  }
}
