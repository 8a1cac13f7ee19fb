import type { ServiceClient } from '../api/client';
import { ApiError } from '../api/errors';
import type { Journal } from '../journal/journal';
import type { EventRef } from './feed';
import { emptyView, fromFile, type RemoteView } from './remote';
import { listFolder, type Listing } from './walk';

export interface Resolution {
  view: RemoteView;
  /** Why the events could not be resolved (then a full walk is the answer), or null. */
  walk: string | null;
  requests: number;
}

/** Requests one resolution may make before a full walk is the cheaper answer. */
const MAX_REQUESTS = 2000;

/**
 * Turns events into a partial view of the remote tree by re-reading only what they name: a file
 * by its metadata, a folder by listing the folder that holds it. Items that left a listed folder
 * are looked up too, and folders the journal does not know are placed through the ancestry their
 * children carry. What stays unplaced (a new, empty folder somewhere) asks for a full walk.
 */
export async function resolveEvents(
  client: ServiceClient,
  journal: Journal,
  rootId: number,
  refs: readonly EventRef[],
  concurrency: number,
): Promise<Resolution> {
  const view = emptyView(rootId, false);
  let requests = 0;
  let walk: string | null = null;
  const listings = new Map<number, Promise<Listing | null>>();
  const queue: { kind: 'folder' | 'file'; id: number }[] = refs.map((r) => ({
    kind: r.kind,
    id: r.id,
  }));

  /** Lists a folder once; null when it is gone. Items that left it are queued for a look. */
  const list = (folderId: number): Promise<Listing | null> => {
    let p = listings.get(folderId);
    if (!p) {
      p = (async () => {
        requests++;
        let listing: Listing;
        try {
          listing = await listFolder(client, folderId);
        } catch (err) {
          if (err instanceof ApiError && err.kind === 'not-found' && folderId !== rootId) {
            return null;
          }
          throw err;
        }
        view.listed.add(folderId);
        const present = new Set<number>();
        for (const child of listing.children) {
          view.items.set(child.id, child);
          present.add(child.id);
        }
        for (const child of journal.children(folderId)) {
          if (!present.has(child.remoteId)) queue.push({ kind: child.kind, id: child.remoteId });
        }
        return listing;
      })();
      listings.set(folderId, p);
    }
    return p;
  };

  const contains = async (folderId: number, id: number) =>
    (await list(folderId))?.children.some((c) => c.id === id) ?? false;

  /** Places every folder of `chain` (root first) under its parent, listing where needed. */
  const placeChain = async (chain: readonly number[]): Promise<boolean> => {
    if (chain[0] !== rootId) return false;
    for (let i = 1; i < chain.length; i++) {
      const id = chain[i]!;
      const parent = chain[i - 1]!;
      const seen = view.items.get(id);
      if (seen ? seen.parentId === parent : journal.get(id)?.remoteParentId === parent) continue;
      if (!(await contains(parent, id))) return false;
    }
    return true;
  };

  const resolveFile = async (id: number) => {
    requests++;
    let file;
    try {
      file = await client.getFile(id);
    } catch (err) {
      if (err instanceof ApiError && err.kind === 'not-found') {
        view.gone.add(id);
        return;
      }
      throw err;
    }
    view.items.set(id, fromFile(file));
    if (!(await placeChain(file.ancestor_ids ?? []))) walk ??= `file ${id} could not be placed`;
  };

  const resolveFolder = async (id: number) => {
    if (id === rootId) return;
    const parentId = view.items.get(id)?.parentId ?? journal.get(id)?.remoteParentId;
    if (parentId !== undefined && (await contains(parentId, id))) return;
    // Not where it was: moved, deleted, or new. The ancestry its children carry says where.
    const listing = await list(id);
    if (listing === null) {
      view.gone.add(id);
      return;
    }
    if (listing.chain && (await placeChain(listing.chain))) return;
    walk ??= `folder ${id} could not be placed`;
  };

  const done = new Set<string>();
  while (queue.length > 0 && walk === null) {
    const batch = queue.splice(0, concurrency).filter((ref) => {
      const key = `${ref.kind}:${ref.id}`;
      if (done.has(key)) return false;
      done.add(key);
      return true;
    });
    await Promise.all(
      batch.map((r) => (r.kind === 'file' ? resolveFile(r.id) : resolveFolder(r.id))),
    );
    if (requests > MAX_REQUESTS) walk = 'too many changes to look up one by one';
  }
  // An item seen in a listing is not gone, whatever an earlier look said.
  for (const id of view.items.keys()) view.gone.delete(id);
  return { view, walk, requests };
}
