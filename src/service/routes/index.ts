import type { Sandbox, User } from '../context';
import type { Router } from '../http';
import { registerComments } from './comments';
import { registerEvents } from './events';
import { registerFiles } from './files';
import { registerFolders } from './folders';
import { registerHooks } from './hooks';
import { registerInvitations } from './invitations';
import { registerLinks } from './links';
import { registerOAuth } from './oauth';
import { registerSharedPages } from './shared-pages';
import { registerWorkspaces } from './workspaces';

/** Every route of the sandbox. Order matters only where two templates could match one path. */
export function registerRoutes(router: Router<User>, sb: Sandbox): void {
  registerHooks(router, sb);
  registerOAuth(router, sb);
  registerWorkspaces(router, sb);
  registerFolders(router, sb);
  registerFiles(router, sb);
  registerComments(router, sb);
  registerLinks(router, sb);
  registerSharedPages(router, sb);
  registerEvents(router, sb);
  registerInvitations(router, sb);
}
