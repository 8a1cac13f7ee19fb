import type { ActivityEvent } from './app-api';

/**
 * An event by someone else on a signed-in account's workspaces (the service's `filter_self`),
 * as the engine host hands it to the desktop notifications.
 */
export interface OthersEvent {
  accountId: string;
  /** The workspace's name, when the event names one the account can see. */
  workspaceName: string | null;
  event: ActivityEvent;
}
