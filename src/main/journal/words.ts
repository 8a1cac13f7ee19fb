import { isWords, type WireWords } from '../../shared/i18n';

/**
 * A sentence kept as data in the journal (schema part 9): a catalog key and its parameters, as
 * JSON. Read back leniently: a row from before (null) or one that does not parse is said by its
 * English message alone, never a failure to open the journal.
 */
export function wordsColumn(words: WireWords | undefined): string | null {
  return words ? JSON.stringify(words) : null;
}

export function parseWords(text: string | null | undefined): WireWords | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    return isWords(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
