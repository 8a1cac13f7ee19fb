import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../src/shared/i18n';
import { conflictName, conflictOriginal, isConflictCopy } from '../../src/main/sync/conflict-copy';

// A conflict copy is named in the engine's language when it is made (issue 39), and recognised
// in every language the app speaks: a folder synced in English, then in German, holds both.

const when = new Date(2026, 10, 29, 14, 30, 5);
const host = hostname().replace(/[^\p{L}\p{N}._-]/gu, '') || 'this computer';

describe('conflict copy names', () => {
  it('are made in the language asked, the same parts in the same order', () => {
    expect(conflictName('plan.txt', false, when)).toBe(
      `plan (conflict 2026-11-29 143005 ${host}).txt`,
    );
    expect(conflictName('plan.txt', false, when, 1, 'de')).toBe(
      `plan (Konfliktkopie 2026-11-29 143005 ${host}).txt`,
    );
    expect(conflictName('Docs', true, when, 3, 'de')).toBe(
      `Docs (Konfliktkopie 2026-11-29 143005 ${host}) 3`,
    );
  });

  it.each(LANGUAGES)(
    'are recognised when made in %s, back to the name they were made from',
    (lang) => {
      for (const [name, isFolder, n] of [
        ['plan.txt', false, 1],
        ['plan.txt', false, 2],
        ['Trail.', false, 1],
        ['notes.txt', true, 1],
        ['archive.tar.gz', false, 1],
        ['no extension', false, 4],
        ['(conflict) of mine.md', false, 1],
      ] as const) {
        const copy = conflictName(name, isFolder, when, n, lang);
        expect(isConflictCopy(copy), copy).toBe(true);
        expect(conflictOriginal(copy), copy).toBe(name);
      }
    },
  );

  it('recognises every language whatever language is in use, and nothing else', () => {
    expect(conflictOriginal('plan (conflict 2026-11-29 143005 vm).txt')).toBe('plan.txt');
    expect(conflictOriginal('plan (Konfliktkopie 2026-11-29 143005 vm) 2.txt')).toBe('plan.txt');
    expect(conflictOriginal('Docs (Konfliktkopie 2026-11-29 143005 dieser Computer)')).toBe('Docs');
    for (const name of [
      'plan.txt',
      'plan (2).txt',
      'plan (conflict).txt',
      'plan (Konfliktkopie).txt',
      'plan (conflict 2026-11-29 vm).txt',
      'plan (konfliktkopie 2026-11-29 143005 vm).txt',
      'plan (Konflikt 2026-11-29 143005 vm).txt',
      'plan (moving 2026-11-29 143005 vm).txt',
    ]) {
      expect(isConflictCopy(name), name).toBe(false);
    }
  });
});
