import { gather } from '../bounded';
import type { HandlerContext, HandlersOf } from './context';

/** Selective sync's choices: one folder's folders at a time (a pair's selection is pairs.*). */
export function selectionHandlers(ctx: HandlerContext): HandlersOf<'selection'> {
  return {
    'selection.folders': async (p) => {
      const s = await ctx.account(p);
      const root = (await s.client.getWorkspace(p.workspaceId)).root_folder_id;
      const at = p.folderId ?? root;
      const parentId = at === root ? null : at;
      // The folders only, read through the files beside them within the bound.
      const got = await gather(s.client.folderContents(at), (e) =>
        e.kind === 'folder' ? { id: e.folder.id, name: e.folder.filename, parentId } : null,
      );
      got.items.sort((a, b) => a.name.localeCompare(b.name, 'en'));
      return got;
    },
  };
}
