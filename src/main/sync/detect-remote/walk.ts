import type { ServiceClient } from '../../api/client';
import { ApiError, ProtocolError } from '../../api/errors';
import { drain } from '../pool';
import { emptyView, listFolder, type RemoteItem, type RemoteView } from '../remote';

export interface WalkOptions {
  concurrency: number;
  signal?: AbortSignal;
  /** Called as each folder's complete listing arrives (the engine creates folders meanwhile). */
  onListed?: (folderId: number, children: RemoteItem[]) => void;
  /** A folder whose listing was refused, or could not be read: nothing below it is judged. */
  onRefused?: (folderId: number, err: ApiError, remotePath: string) => void;
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
  // Every folder is listed once: a server that lists a folder inside itself, or inside its own
  // subtree, or in two places, would otherwise send the walk round that loop forever.
  const queued = new Set<number>([rootId]);
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
        // Refused, or an answer that cannot be a listing (past its size cap, a page repeated
        // forever, the wrong shape): that folder alone is left as it is, the rest goes on.
        const unreadable =
          err instanceof ApiError && err.kind === 'protocol' && folderId !== rootId;
        if (err instanceof ApiError && (err.kind === 'forbidden' || unreadable)) {
          view.unlisted.add(folderId);
          opts.onRefused?.(folderId, err, pathOf(view, folderId));
          return;
        }
        throw err;
      }
      view.listed.add(folderId);
      for (const child of children) {
        if (child.kind === 'folder') {
          if (queued.has(child.id)) {
            throw new ProtocolError(
              'GET /folders/:id',
              '',
              `lists the folder "${child.name}" (id ${child.id}) again inside folder ${folderId}, a loop in the tree`,
            );
          }
          queued.add(child.id);
          push(child.id);
        }
        view.items.set(child.id, child);
      }
      opts.onListed?.(folderId, children);
    },
    opts.signal,
  );
  return view;
}

/** A folder's path on the service as the walk has seen it (a tree: each folder listed once). */
function pathOf(view: RemoteView, folderId: number): string {
  const names: string[] = [];
  for (let id = folderId; id !== view.rootId;) {
    const item = view.items.get(id);
    if (!item) break;
    names.unshift(item.name);
    id = item.parentId;
  }
  return names.join('/');
}
