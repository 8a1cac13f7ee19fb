import { fail } from '../errors';
import { checkLocalFolder, listLocalFolders } from '../pick-folder';
import type { HandlerContext, HandlersOf } from './context';

/** This computer's folders: the folder picker's list, a pair's folder checked before it is added. */
export function localHandlers(ctx: HandlerContext): HandlersOf<'local'> {
  return {
    'local.listFolders': (p) => listLocalFolders(p.dir, { home: ctx.home, ...p }),
    'local.checkFolder': (p) =>
      checkLocalFolder(p.dir, {
        home: ctx.home,
        taken: (dir) => ctx.pairs.overlapping(dir),
        appDirs: ctx.pairs.appDirs(),
        ignorePatterns: ctx.pairs.ignorePatterns(),
      }),
    // The desktop's main process answers this one with the OS's dialog before it gets here.
    'local.chooseFolder': () => fail('unsupported', { key: 'backend.noSystemDialog' }),
    'local.chooseZipFile': () => fail('unsupported', { key: 'backend.noSaveDialog' }),
  };
}
