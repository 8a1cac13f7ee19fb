import { accountHandlers } from './accounts';
import { activityHandlers } from './activity';
import { appHandlers } from './app';
import { commentHandlers } from './comments';
import { editHandlers } from './edit';
import type { HandlerContext, Handlers } from './context';
import { fileHandlers } from './files';
import { folderHandlers } from './folders';
import { itemHandlers } from './items';
import { linkHandlers } from './links';
import { localHandlers } from './local';
import { memberHandlers } from './members';
import { pairHandlers } from './pairs';
import { selectionHandlers } from './selection';
import { settingsHandlers } from './settings';
import { syncedHandlers } from './synced';
import { trashHandlers } from './trash';
import { uploadHandlers } from './uploads';
import { workspaceHandlers } from './workspaces';

export type { HandlerContext, Handlers } from './context';

/** The whole handler table: one file per namespace of the API, each checked against it. */
export function makeHandlers(ctx: HandlerContext): Handlers {
  return {
    ...appHandlers(ctx),
    ...accountHandlers(ctx),
    ...pairHandlers(ctx),
    ...trashHandlers(ctx),
    ...workspaceHandlers(ctx),
    ...folderHandlers(ctx),
    ...commentHandlers(ctx),
    ...linkHandlers(ctx),
    ...activityHandlers(ctx),
    ...selectionHandlers(ctx),
    ...settingsHandlers(ctx),
    ...localHandlers(ctx),
    ...fileHandlers(ctx),
    ...itemHandlers(ctx),
    ...syncedHandlers(ctx),
    ...memberHandlers(ctx),
    ...editHandlers(ctx),
    ...uploadHandlers(ctx),
  };
}
