import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../src/shared/i18n';
import { formatPlaceholderText, placeholderText } from '../../src/main/sync/placeholder';

// A placeholder's text is filled into the catalog's message formatted once (placeholder.ts): it
// must be, to the byte, what the catalog formats for each file, since the journal knows a
// placeholder as ours by its text's hash and a stale one by its text (isStalePlaceholder).

const NAMES = [
  'report.pdf',
  "it's {name} {size, number} $& $1 '' x",
  '424,242 and 424.242 bytes',
  'Größe Übersicht 名前 😀.txt',
  '',
];
const SIZES = [0, 1, 999, 1000, 424_242, 1_234_567, 2 ** 40, 9_007_199_254_740_991];
const TIMES = ['2026-11-30T02:45:00.000Z', '', '{modified}'];

describe('placeholder text', () => {
  for (const lang of LANGUAGES) {
    it(`is what the catalog formats, for any name, size and time (${lang})`, () => {
      for (const name of NAMES) {
        for (const size of SIZES) {
          for (const updatedAt of TIMES) {
            const f = { name, size, updatedAt };
            expect(placeholderText(f, lang)).toBe(formatPlaceholderText(f, lang));
          }
        }
      }
    });
  }
});
