// The request of a move or rename on the service, and what its answer says: a server without
// moves (docs/SYNC.md) may have done only a rename where the item is.
import type { ServiceClient } from '../../api/client';
import type { Moves } from '../../api/moves';
import type { JournalItem } from '../../journal/journal';
import { fromFile, type RemoteItem } from '../remote';

/**
 * The request of a move or rename; `fell.back` when the server moves nothing (no move
 * support): then only a rename it made where the item is, as asked, is ours.
 */
export async function requestMove(
  ctx: { client: ServiceClient; moves: Moves },
  j: JournalItem,
  parentId: number,
  name: string,
  fell: { back: boolean },
): Promise<RemoteItem | null> {
  const { client, moves } = ctx;
  if (parentId === j.remoteParentId) {
    return j.kind === 'folder'
      ? toRemote(await client.renameFolder(j.remoteId, name), 'folder', parentId)
      : fromFile(await client.renameFile(j.remoteId, name));
  }
  const moved =
    j.kind === 'folder'
      ? await moves.moveFolder(j.remoteId, parentId, name !== j.remoteName ? name : undefined)
      : await moves.moveFile(j.remoteId, parentId, name !== j.remoteName ? name : undefined);
  if (!moved.supported) {
    fell.back = true;
    // A server that ignores the parent may have renamed it where it is, as asked: that
    // rename is ours (its event costs nothing), and the copy's check knows the name.
    // Anything more (another version) is not ours: it is left for the remote pass.
    const there = moved.item && toRemote(moved.item, j.kind, j.remoteParentId);
    const renamedOnly =
      there &&
      there.name === name &&
      name !== j.remoteName &&
      (j.kind === 'folder' || there.size === j.remoteSize);
    return renamedOnly ? there : null;
  }
  return toRemote(moved.item, j.kind, parentId);
}

/** An answer of the service as a remote item of the view. */
export function toRemote(
  answer: { id: number; filename: string; size?: number | null; updated_at: string },
  kind: 'folder' | 'file',
  parentId: number,
): RemoteItem {
  return {
    id: answer.id,
    kind,
    parentId,
    name: answer.filename,
    size: answer.size ?? 0,
    updatedAt: answer.updated_at,
  };
}
