import { hostname } from 'node:os';
import { LANGUAGES, translator, type Language } from '../../shared/i18n';
import { fitName } from './names';

/**
 * A conflict copy's name: `plan (conflict 2026-11-23 121500 host).txt` in English,
 * `plan (Konfliktkopie 2026-11-23 121500 host).txt` in German (`engine.conflictCopyName`). A copy
 * is named in the engine's language when it is made and never renamed after; so a folder holds
 * copies of every language it was synced in, and whatever recognises one knows them all.
 */

/** "2026-11-23 121500": the local time of a conflict, sortable and valid in any file name. */
function stamp(now: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return (
    `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())} ` +
    `${p(now.getHours())}${p(now.getMinutes())}${p(now.getSeconds())}`
  );
}

/**
 * `name (conflict 2026-11-23 121500 host).ext`, its words in `lang`: the name a kept local copy
 * is given, `n` (2, 3…) after the parenthesis when that one is taken. The stem is shortened to
 * keep it within 255 bytes (`fitName`): a 255-byte name in a conflict gets a copy too.
 */
export function conflictName(
  name: string,
  isFolder: boolean,
  now = new Date(),
  n = 1,
  lang: Language = 'en',
): string {
  const tr = translator(lang);
  const host = hostname().replace(/[^\p{L}\p{N}._-]/gu, '') || tr.t('engine.conflictCopyHost');
  const words = tr.t('engine.conflictCopyName', { when: stamp(now), host });
  const insert = ` (${words})${n > 1 ? ` ${n}` : ''}`;
  return fitName(name, insert, isFolder ? 'folder' : 'file');
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One language's words as a pattern: the time as it is written, the host anything but `)`. */
function wordsPattern(message: string): string {
  return message
    .split(/(\{when\}|\{host\})/)
    .map((part) =>
      part === '{when}'
        ? '\\d{4}-\\d{2}-\\d{2} \\d{6}'
        : part === '{host}'
          ? '[^)]*'
          : escape(part),
    )
    .join('');
}

/**
 * A conflict copy's name in any language the app speaks: the stem (group 1), the insert, its
 * number when one was taken, and the extension (group 2).
 */
const COPY = new RegExp(
  `^(.*) \\((?:${LANGUAGES.map((lang) => wordsPattern(messageOf(lang))).join('|')})\\)(?: \\d+)?(\\.[^.]*)?$`,
  'su',
);

/** The catalog's words of `lang`, as written (not formatted: the parameters stay in braces). */
function messageOf(lang: Language): string {
  return translator(lang).t('engine.conflictCopyName', { when: '{when}', host: '{host}' });
}

/**
 * The name a conflict copy was made from (`plan.txt` of `plan (Konfliktkopie … vm) 2.txt`), in
 * whichever language it was named; undefined for a name that is no conflict copy. A stem the
 * copy's name shortened stays short.
 */
export function conflictOriginal(name: string): string | undefined {
  const m = COPY.exec(name);
  return m ? (m[1] ?? '') + (m[2] ?? '') : undefined;
}

/** Whether `name` is a conflict copy's, in any language the app speaks. */
export const isConflictCopy = (name: string): boolean => conflictOriginal(name) !== undefined;
