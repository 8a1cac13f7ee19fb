import { browseHandlers } from '../browse';
import { memberHandlers } from '../members';
import { accountHandlers } from './accounts';
import { activityHandlers } from './activity';
import { appHandlers } from './app';
import { commentHandlers } from './comments';
import type { HandlerContext, Handlers } from './context';
import { folderHandlers } from './folders';
import { linkHandlers } from './links';
import { localHandlers } from './local';
import { pairHandlers } from './pairs';
import { selectionHandlers } from './selection';
import { settingsHandlers } from './settings';
import { trashHandlers } from './trash';
import { workspaceHandlers } from './workspaces';

export type { HandlerContext, Handlers } from './context';

/** The whole handler table: each namespace's file, and Browse's and People's (browse, members). */
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
    ...memberHandlers({ session: ctx.account }),
    ...browseHandlers(ctx),
  };
}
