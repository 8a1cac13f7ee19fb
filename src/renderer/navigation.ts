import type { ItemKind } from '../shared/app-api';

export type View = 'status' | 'browse' | 'activity' | 'workspaces' | 'trash' | 'settings' | 'about';

/** An item picked in Browse (or opened from an event), shown in the item panel. */
export interface SelectedItem {
  kind: ItemKind;
  id: number;
  name: string;
}

/** Where Browse is: a workspace, a folder in it (null: its root), and the item in the panel. */
export interface BrowseTarget {
  workspaceId: number | null;
  folderId: number | null;
  selected: SelectedItem | null;
}

export interface Navigate {
  (view: View): void;
  (view: 'browse', target: BrowseTarget): void;
  /** A workspace's members: a page of Workspaces (the sidebar keeps Workspaces current). */
  (view: 'members', workspaceId: number): void;
}
