// What the "Copy Workspace Sync link" entry says, in every language of the catalog, and the id
// that finds it again: one for every file manager's entry (integrate.ts, thunar-uca.ts).
import { english, LANGUAGES, translator } from '../../shared/i18n';

export const MENU_LABEL = english.t('integrate.menuLabel');
export const TOOLTIP = english.t('integrate.menuTooltip');
/**
 * The label and tooltip in each other language of the catalog: the key files (`Name[de]=`) and
 * uca.xml (`xml:lang`) carry them all, and the file manager shows the one of its own locale, so
 * the entry follows the desktop's language without being written again. (A Nautilus script's
 * label is its file name: one language, English, so that --uninstall always finds it.)
 */
export const TRANSLATED = LANGUAGES.filter((lang) => lang !== 'en').map((lang) => ({
  lang,
  label: translator(lang).t('integrate.menuLabel'),
  tooltip: translator(lang).t('integrate.menuTooltip'),
}));
export const ICON = 'insert-link';
/** Names our entries (file names, the Thunar action's unique-id), so they are found again. */
export const ENTRY_ID = 'workspace-sync-copy-link';
