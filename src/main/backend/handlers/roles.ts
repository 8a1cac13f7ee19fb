import type { SignedIn } from '../accounts';
import type { FolderIndex } from '../folders';

/** The user's role in a workspace. */
export async function roleIn(s: SignedIn, workspaceId: number): Promise<string | null> {
  return (await s.client.getWorkspace(workspaceId)).effective_role ?? null;
}

/** The user's role in the workspace holding an item. */
export async function roleForItem(
  s: SignedIn,
  folders: FolderIndex,
  kind: 'folder' | 'file',
  itemId: number,
): Promise<string | null> {
  let workspaceId: number;
  if (kind === 'file') {
    const file = await s.client.getFile(itemId);
    workspaceId =
      file.workspace_id ?? (await folders.workspaceOf(file.ancestor_ids?.[0] ?? itemId));
  } else {
    workspaceId = await folders.workspaceOf(itemId);
  }
  return roleIn(s, workspaceId);
}
