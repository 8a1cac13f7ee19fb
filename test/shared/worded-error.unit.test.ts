import { describe, expect, it } from 'vitest';
import { ForbiddenError, NotFoundError } from '../../src/main/api/errors';
import { CliError, UsageError } from '../../src/main/cli/common';
import { sayError, UserError } from '../../src/main/errors/user-error';
import { swapped, SwapError } from '../../src/main/sync/confined';
import { CutShortError, VerificationError } from '../../src/main/sync/download';
import { AttentionError, SyncFatalError, SyncPassError } from '../../src/main/sync/errors';
import { englishOf, translator, wordsOf, type Words } from '../../src/shared/i18n';
import { WordedError } from '../../src/shared/worded-error';

// The errors whose message is for a person share one base that carries words: given words, each
// keeps them (a German window or terminal says German) and its message is their English; given
// a string (known only in English), that string is its message. Before, each class had its own
// copy of that constructor.

const de = translator('de');
const WORDS: Words = { key: 'engine.swapped', params: { path: 'Docs/a.txt' } };
const ENGLISH = englishOf(WORDS);

/** Each class, made from words or from a string, and the name it gives itself. */
const MAKERS: [string, (m: string | Words) => Error][] = [
  ['SyncFatalError', (m) => new SyncFatalError('journal', m)],
  ['SyncPassError', (m) => new SyncPassError('disk-full', m)],
  ['AttentionError', (m) => new AttentionError('stale', m)],
  ['UserError', (m) => new UserError(m)],
  ['CliError', (m) => new CliError(m)],
  ['UsageError', (m) => new UsageError(m, 'sync')],
  ['SwapError', (m) => new SwapError(m)],
];

describe('one error base that carries words', () => {
  it('made from words: the words kept, the English as message, German where German is read', () => {
    for (const [name, make] of MAKERS) {
      const err = make(WORDS);
      expect(err, name).toBeInstanceOf(WordedError);
      expect(err.name).toBe(name);
      expect(err.message).toBe(ENGLISH);
      expect(wordsOf(err)).toEqual(WORDS);
      expect(sayError(de, err)).toBe(de.say(WORDS));
      expect(sayError(de, err)).not.toBe(ENGLISH);
    }
  });

  it('made from a string: the string is the message, and there are no words', () => {
    for (const [name, make] of MAKERS) {
      const err = make('The disk is full.');
      expect(err, name).toBeInstanceOf(WordedError);
      expect(err.message).toBe('The disk is full.');
      expect(wordsOf(err)).toBeUndefined();
      expect(sayError(de, err)).toBe('The disk is full.');
    }
  });

  it("the engine's own worded failures and the service client's errors share it", () => {
    const made: Error[] = [
      swapped('Docs'),
      new VerificationError(WORDS),
      new CutShortError(WORDS, 10),
      new NotFoundError('GET /folders/:id'),
      new ForbiddenError('GET /folders/:id', 'only moderators'),
    ];
    for (const err of made) {
      expect(err, err.name).toBeInstanceOf(WordedError);
      const words = wordsOf(err)!;
      expect(err.message).toBe(englishOf(words as Words));
      expect(sayError(de, err)).toBe(de.say(words));
    }
    expect(new CutShortError(WORDS, 10).gained).toBe(10);
    expect(new SyncPassError('disk-full', WORDS, { cause: 'errno' }).cause).toBe('errno');
  });
});
