// What each file manager's entry of ours says, in every language of the catalog, and the id
// that finds it again: "Copy Workspace Sync link", "Copy link with options…" (issue 42), and
// files on demand's four (issue 41).
// integrate.ts and thunar-uca.ts write them.
import { english, LANGUAGES, translator, type MessageKey } from '../../shared/i18n';

export interface MenuEntry {
  /** Names the entry's files and Thunar's unique-id, so they are found again. */
  id: string;
  label: MessageKey;
  tooltip: MessageKey;
  icon: string;
  /** The Dolphin service menu's action. */
  action: string;
  /** Several selected items in one run (else the entry shows for one item only). */
  many: boolean;
  /**
   * A submenu, where the manager has them by file (Nautilus: a folder of scripts; Dolphin:
   * X-KDE-Submenu, which gathers the entries of every file that names it).
   */
  submenu?: string;
}

export const COPY_LINK: MenuEntry = {
  id: 'workspace-sync-copy-link',
  label: 'integrate.menuLabel',
  tooltip: 'integrate.menuTooltip',
  icon: 'insert-link',
  action: 'copyWorkspaceSyncLink',
  many: false,
};

/**
 * Beside it (issue 42): the item's link options, in the app a small window, headless `cli ui`'s
 * page at the item's link panel: a password, an expiry, on or off, people.
 */
export const LINK_OPTIONS: MenuEntry = {
  id: 'workspace-sync-link-options',
  label: 'integrate.optionsLabel',
  tooltip: 'integrate.optionsTooltip',
  icon: 'emblem-shared',
  action: 'workspaceSyncLinkOptions',
  many: false,
};

/** `workspace-sync files ACTION` from a menu: each entry, its action. */
export const FILE_ACTIONS = ['download', 'pin', 'unpin', 'free'] as const;
export type FileAction = (typeof FILE_ACTIONS)[number];

const FILE_ICONS: Record<FileAction, string> = {
  download: 'folder-download',
  pin: 'emblem-favorite',
  unpin: 'edit-clear',
  free: 'edit-delete',
};

export const FILE_ENTRIES: Record<FileAction, MenuEntry> = Object.fromEntries(
  FILE_ACTIONS.map((a) => [
    a,
    {
      id: `workspace-sync-files-${a}`,
      label: `integrate.files.${a}`,
      tooltip: `integrate.files.${a}Tooltip`,
      icon: FILE_ICONS[a],
      action: `workspaceSyncFiles${a[0]!.toUpperCase()}${a.slice(1)}`,
      many: true,
      submenu: 'Workspace Sync',
    } satisfies MenuEntry,
  ]),
) as Record<FileAction, MenuEntry>;

export const labelOf = (entry: MenuEntry) => english.t(entry.label);
export const tooltipOf = (entry: MenuEntry) => english.t(entry.tooltip);

/**
 * The label and tooltip in each other language of the catalog: the key files (`Name[de]=`) and
 * uca.xml (`xml:lang`) carry them all, and the file manager shows the one of its own locale, so
 * the entry follows the desktop's language without being written again. (A Nautilus script's
 * label is its file name: one language, English, so that --uninstall always finds it.)
 */
export const translated = (entry: MenuEntry) =>
  LANGUAGES.filter((lang) => lang !== 'en').map((lang) => ({
    lang,
    label: translator(lang).t(entry.label),
    tooltip: translator(lang).t(entry.tooltip),
  }));

export const MENU_LABEL = labelOf(COPY_LINK);
export const ENTRY_ID = COPY_LINK.id;
