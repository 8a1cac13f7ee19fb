import { english, type Translator } from '../../shared/i18n';

/**
 * The main process's language (tray, notifications, dialogs): set by the app from the setting,
 * else the OS's (`app.getLocale()`). The adapters' functions take it as a default parameter, so
 * their tests pass a language of their own.
 */
let current: Translator = english;

export const mainLanguage = (): Translator => current;

export function setMainLanguage(tr: Translator): void {
  current = tr;
}
