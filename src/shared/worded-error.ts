import { englishOf, type Words } from './i18n';

/**
 * The one base of the errors whose message is for a person (a UserError, an ApiError, the
 * engine's SyncFatalError, an AttentionError, ...). Given words (an i18n key and its
 * parameters), it keeps them for each reader to say in its own language (`wordsOf`, `sayError`)
 * and its `message` is their English, for logs and older readers; given a string (a text known
 * only in English: a library's, the system's), that string is the message and it has no words.
 */
export class WordedError extends Error {
  /** The message as data, for each reader's language (absent: only the English is known). */
  readonly words?: Words;
  constructor(message: string | Words, options?: ErrorOptions) {
    super(englishOf(message), options);
    if (typeof message !== 'string') this.words = message;
  }
}
