// The shapes ServiceClient's calls take and answer (beside the service's own, in schemas.ts),
// and how a time and an event filter travel to the service.
import type { ItemKind } from '../../shared/item-kind';
import type { Event, FileItem, Folder } from './schemas';

export type FolderEntry = { kind: 'folder'; folder: Folder } | { kind: 'file'; file: FileItem };
export type ContentSort = 'alphabetical' | 'modified' | 'size' | 'type' | 'index';

export interface WorkspaceFields {
  name?: string;
  background_color?: string;
  data_room?: boolean;
  default_view?: 'rows' | 'thumbnails';
}

export interface EventFilters {
  workspaces?: number[];
  verbs?: ('create' | 'upload' | 'read' | 'download' | 'update' | 'delete' | 'invite')[];
  filterSelf?: boolean;
  actor?: number;
  /** Epoch milliseconds; sent as RFC 2822 with an explicit +0000 zone. */
  startTime?: number;
  endTime?: number;
  /** Events to skip (newest first): a window reading page by page starts where it left off. */
  offset?: number;
}

/** One page of List Folder Contents. */
export interface FolderPage {
  entries: FolderEntry[];
  /** `total_entries`: the folder's items (matching the query), on every page; null when not said. */
  total: number | null;
  /** The offset of the next page, or null at the end. */
  next: number | null;
}

/** One page of List all Events for a User. */
export interface EventsPage {
  events: Event[];
  /** `total_entries`: the events matching the filters, on every page; null when not said. */
  total: number | null;
  /** The offset of the next page, or null at the end. */
  next: number | null;
}

export function eventFilterBody(filters: EventFilters): Record<string, unknown> {
  const json: Record<string, unknown> = {};
  if (filters.workspaces) json.workspaces = filters.workspaces;
  if (filters.verbs) json.verbs = filters.verbs;
  if (filters.filterSelf !== undefined) json.filter_self = filters.filterSelf;
  if (filters.actor !== undefined) json.actor = filters.actor;
  if (filters.startTime !== undefined) json.start_time = rfc2822(filters.startTime);
  if (filters.endTime !== undefined) json.end_time = rfc2822(filters.endTime);
  return json;
}

export interface LinkChanges {
  token_accessible?: boolean;
  require_password?: boolean;
  password?: string;
  /** Epoch milliseconds, or null for no expiry (an extension). */
  expiresAt?: number | null;
}

/** Formats a time for the service: RFC 2822 with an explicit zone, never relying on the user's. */
export function rfc2822(ms: number): string {
  // toUTCString is this format with "GMT" (ECMA-262's Date.prototype.toUTCString): no library
  // loaded at every start of the CLI for it.
  return new Date(ms).toUTCString().replace(/ GMT$/, ' +0000');
}

/** An item's path segment: `folders` or `files`. */
export const segment = (kind: ItemKind) => (kind === 'folder' ? 'folders' : 'files');
