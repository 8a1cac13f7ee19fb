import type { ServiceClient } from '../../api/client';
import { ApiError, ProtocolError } from '../../api/errors';
import type { Journal } from '../../journal/journal';
import { drain } from '../pool';
import { listFolder, type RemoteItem, type Walk } from '../remote';

export interface WalkOptions {
  concurrency: number;
  signal?: AbortSignal;
  /** Called as each folder's complete listing is staged (tests count what is held meanwhile). */
  onListed?: (folderId: number, children: RemoteItem[]) => void;
  /** A folder whose listing was refused, or could not be read: nothing below it is judged. */
  onRefused?: (folderId: number, err: ApiError, remotePath: string) => void;
}

/**
 * The full walk: every folder of the workspace listed, `concurrency` listings in flight, each
 * listing written to the journal's staging tables as it arrives (`journal.walk.listed`) instead
 * of a view in memory: a walk of a million items holds only the folders still to list. Whatever
 * the journal has that the walk did not stage is gone, except below a folder left unlisted.
 */
export async function walkRemote(
  client: ServiceClient,
  rootId: number,
  journal: Journal,
  opts: WalkOptions,
): Promise<Walk> {
  const walk: Walk = { rootId, unlisted: new Set() };
  // Every folder is listed once: a server that lists a folder inside itself, or inside its own
  // subtree, or in two places, would otherwise send the walk round that loop forever. The
  // staging table's key refuses a folder met twice (no set of every folder id here).
  journal.walk.reset(rootId);
  // Folders not synced here (selective sync) are neither staged nor listed: nothing below one
  // is planned, and the requests are saved. Their place is noted (a rename there keeps them out,
  // and the local pass knows where their name is taken); they count as unlisted, so that a
  // record of one still here (not applied yet) is not judged gone.
  const excluded = journal.selection.ids();
  let seq = 0;
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
          journal.walk.drop(folderId);
          return;
        }
        // Refused, or an answer that cannot be a listing (past its size cap, a page repeated
        // forever, the wrong shape): that folder alone is left as it is, the rest goes on.
        const unreadable =
          err instanceof ApiError && err.kind === 'protocol' && folderId !== rootId;
        if (err instanceof ApiError && (err.kind === 'forbidden' || unreadable)) {
          walk.unlisted.add(folderId);
          opts.onRefused?.(folderId, err, pathOf(journal, rootId, folderId));
          return;
        }
        throw err;
      }
      if (excluded.size > 0) {
        const out = children.filter((c) => c.kind === 'folder' && excluded.has(c.id));
        for (const c of out) {
          journal.selection.notePlace(c.id, folderId, c.name);
          walk.unlisted.add(c.id);
        }
        if (out.length > 0) children = children.filter((c) => !out.includes(c));
      }
      const twice = journal.walk.listed(folderId, ++seq, children);
      if (twice) {
        throw new ProtocolError(
          'GET /folders/:id',
          '',
          `lists the folder "${twice.name}" (id ${twice.id}) again inside folder ${folderId}, a loop in the tree`,
        );
      }
      for (const child of children) if (child.kind === 'folder') push(child.id);
      opts.onListed?.(folderId, children);
    },
    opts.signal,
  );
  return walk;
}

/** A folder's path on the service as the walk has seen it (a tree: each folder listed once). */
function pathOf(journal: Journal, rootId: number, folderId: number): string {
  const names: string[] = [];
  for (let id = folderId; id !== rootId;) {
    const item = journal.walk.item(id);
    if (!item) break;
    names.unshift(item.name);
    id = item.parentId;
  }
  return names.join('/');
}
