import path from 'node:path';
import { failOpen } from '../open-failed';
import { listTrash, restoreFromTrash, trashedPath } from '../trash';
import type { HandlerContext, HandlersOf } from './context';

/** The engines' trash and its records, in the state directory (sync/loop/open.ts). */
export function trashHandlers(ctx: HandlerContext): HandlersOf<'trash'> {
  const dirs: [string, string] = [
    path.join(ctx.stateDir, 'trash'),
    path.join(ctx.stateDir, 'trash-records'),
  ];
  return {
    'trash.list': () => listTrash(...dirs),
    'trash.restore': (p) => restoreFromTrash(...dirs, p.id),
    'trash.show': async (p) => {
      const file = await trashedPath(...dirs, p.id);
      try {
        await ctx.show(file);
      } catch (err) {
        ctx.log.warn('the file manager did not show it', { err });
        failOpen(err, file, 'item');
      }
      return null;
    },
  };
}
