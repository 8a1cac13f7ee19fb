import { redact } from '../api/errors';
import { englishOf, wordsOf, type Translator, type Words } from '../../shared/i18n';

export { wordsOf, type Words } from '../../shared/i18n';

/** The command's name, for messages that tell a person what to run (`workspace-sync login …`). */
export const PROGRAM = 'workspace-sync';

/**
 * A failure whose message is complete for a person (what happened, what to do): shown as is,
 * by the CLI on one line (exit 1) and by the app in a notification.
 */
export class UserError extends Error {
  /** The message as data, for each reader's language (the CLI's LANG, the window's setting). */
  readonly words?: Words;
  constructor(message: string | Words) {
    super(englishOf(message));
    if (typeof message !== 'string') this.words = message;
    this.name = 'UserError';
  }
}

/** An error's one line in a language: its words when it has them, else `messageOf`. */
export function sayError(tr: Translator, err: unknown): string {
  const words = wordsOf(err);
  return words
    ? redact(tr.say(words))
        .replace(/\s*\n\s*/g, ' ')
        .trim()
    : messageOf(err);
}

/** An error's message for one line of output: no secrets, no line breaks. */
export function messageOf(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return (
    redact(text)
      .replace(/\s*\n\s*/g, ' ')
      .trim() || 'unknown error'
  );
}
