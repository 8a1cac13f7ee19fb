import type { ServiceClient } from '../api/client';
import { ApiError } from '../api/errors';
import { drain } from './pool';
import { emptyView, fromEntry, type RemoteItem, type RemoteView } from './remote';

export interface WalkOptions {
  concurrency: number;
  signal?: AbortSignal;
  /** Called as each folder's complete listing arrives (the engine creates folders meanwhile). */
  onListed?: (folderId: number, children: RemoteItem[]) => void;
  /** A folder whose listing was refused: nothing below it is judged. */
  onRefused?: (folderId: number, err: ApiError) => void;
}

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

/**
 * The full walk: every folder of the workspace listed, `concurrency` listings in flight. The
 * result is a complete view: whatever the journal has that the walk did not see is gone, except
 * below a folder whose listing was refused.
 */
export async function walkRemote(
  client: ServiceClient,
  rootId: number,
  opts: WalkOptions,
): Promise<RemoteView> {
  const view = emptyView(rootId, true);
  await drain(
    [rootId],
    opts.concurrency,
    async (folderId, push) => {
      let children: RemoteItem[];
      try {
        children = (await listFolder(client, folderId)).children;
      } catch (err) {
        if (err instanceof ApiError && err.kind === 'not-found' && folderId !== rootId) {
          // Deleted while the walk ran: it is gone, with everything below it.
          view.items.delete(folderId);
          return;
        }
        if (err instanceof ApiError && err.kind === 'forbidden') {
          view.unlisted.add(folderId);
          opts.onRefused?.(folderId, err);
          return;
        }
        throw err;
      }
      view.listed.add(folderId);
      for (const child of children) {
        view.items.set(child.id, child);
        if (child.kind === 'folder') push(child.id);
      }
      opts.onListed?.(folderId, children);
    },
    opts.signal,
  );
  return view;
}
