/**
 * The one message catalog of every process (window, tray, notifications, engine statuses, CLI):
 * ICU MessageFormat strings per language (`en.ts`, `de.ts`), formatted by intl-messageformat,
 * whose plurals follow the CLDR rules of the language (Intl.PluralRules), not `n === 1`.
 *
 * A message crosses a process boundary as its key and parameters (`Words`), never as English:
 * the receiving side renders it in its own language (docs/ARCHITECTURE.md, Languages).
 */
import { IntlMessageFormat } from 'intl-messageformat';
import { de } from './de';
import { en, type MessageKey } from './en';
import { LANGUAGES, type Language } from './languages';

export type { MessageKey } from './en';
export { LANGUAGES, type Language } from './languages';

/**
 * A message's parameters: names, numbers (formatted in the language's way), and whole sentences
 * as data (said in the same language first: a failure's words inside "…: trying again in 5 s").
 */
export type Params = { readonly [name: string]: string | number | Words };

/** A sentence as data: what the engine puts in a status, for each reader to say in its language. */
export interface Words {
  key: MessageKey;
  params?: Params;
}

/** Words as they arrive from another process: any key (a newer peer's unknown one is said as itself). */
export interface WireWords {
  key: string;
  params?: { readonly [name: string]: string | number | WireWords };
}

/** The English text of words: what logs, `--json` and older readers get beside the words. */
export const englishOf = (words: Words | string): string =>
  typeof words === 'string' ? words : english.say(words);

/** Whether a value read from elsewhere (an error's field, a journal's JSON) is words. */
export function isWords(value: unknown): value is WireWords {
  return (
    typeof value === 'object' && value !== null && typeof (value as WireWords).key === 'string'
  );
}

/**
 * The words of an error that carries them (a UserError, an ApiError, an AppCallError): the one
 * way a failure's sentence reaches a person in their language. Undefined for an error known
 * only by its English text (a library's, the OS's).
 */
export function wordsOf(err: unknown): WireWords | undefined {
  if (!(err instanceof Error)) return undefined;
  const words = (err as { words?: unknown }).words;
  return isWords(words) ? words : undefined;
}

const catalogs: Record<Language, Readonly<Record<MessageKey, string>>> = { en, de };

/** The locale numbers and plurals follow: "2,000" in English, "2.000" in German. */
const LOCALES: Record<Language, string> = { en: 'en-US', de: 'de-DE' };

export interface Translator {
  readonly lang: Language;
  /** The BCP 47 locale for Intl formatters of this language. */
  readonly locale: string;
  t(key: MessageKey, params?: Params): string;
  /** A whole number as the language writes it. */
  count(n: number): string;
  /** A sentence sent as data; an unknown key (a newer engine's) is said as its key. */
  say(words: WireWords): string;
}

const made = new Map<Language, Translator>();

/** The translator of a language: messages compiled on first use and kept. */
export function translator(lang: Language): Translator {
  const known = made.get(lang);
  if (known) return known;
  const locale = LOCALES[lang];
  const catalog = catalogs[lang];
  const compiled = new Map<MessageKey, IntlMessageFormat>();
  const numbers = new Intl.NumberFormat(locale);
  const inCatalog = (key: string): key is MessageKey => Object.hasOwn(en, key);
  const format = (key: MessageKey, params?: WireWords['params']): string => {
    let message = compiled.get(key);
    if (!message) {
      // No rich-text tags: `<command>` in the CLI's help is text.
      message = new IntlMessageFormat(catalog[key], locale, undefined, { ignoreTag: true });
      compiled.set(key, message);
    }
    if (!params) return String(message.format());
    const flat: Record<string, string | number> = {};
    // A sentence inside another loses its full stop ("…permissions: trying again in 5 s").
    for (const [name, value] of Object.entries(params))
      flat[name] = typeof value === 'object' ? say(value).replace(/[.\s]+$/, '') : value;
    return String(message.format(flat));
  };
  // A key the catalog lacks (a newer peer's) is said as itself: no crash over a sentence.
  const say = (words: WireWords): string =>
    inCatalog(words.key) ? format(words.key, words.params) : words.key;
  const tr: Translator = {
    lang,
    locale,
    t: format,
    count: (n) => numbers.format(n),
    say,
  };
  made.set(lang, tr);
  return tr;
}

/** English: the default, and what tests and logs read. */
export const english: Translator = translator('en');

/** The language of a list of preferred locales ("de-AT", "de_DE.UTF-8"), English otherwise. */
export function pickLanguage(preferred: readonly (string | undefined)[]): Language {
  for (const tag of preferred) {
    if (!tag) continue;
    const primary = tag.toLowerCase().split(/[-_.@]/)[0];
    if ((LANGUAGES as readonly string[]).includes(primary ?? '')) return primary as Language;
    // The first language the person prefers decides: German after French is not wanted.
    return 'en';
  }
  return 'en';
}

/** The setting: a language, or 'system' for the OS's. */
export type LanguageSetting = 'system' | Language;

/** The language to use: the setting's, else the first of the system's preferred locales. */
export function resolveLanguage(
  setting: LanguageSetting | undefined,
  system: readonly (string | undefined)[],
): Language {
  return setting && setting !== 'system' ? setting : pickLanguage(system);
}

/**
 * Under plain Node (the CLI): the first of LC_ALL, LC_MESSAGES and LANG that is set decides, as
 * POSIX reads them ("C" is English); when none is, Intl's default locale.
 */
export function languageOfEnv(env: Readonly<Record<string, string | undefined>>): Language {
  const set = [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((v) => !!v);
  return pickLanguage([set ?? Intl.DateTimeFormat().resolvedOptions().locale]);
}
