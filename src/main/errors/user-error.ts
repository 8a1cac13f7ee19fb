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

/**
 * Text as a terminal shows it, never as it obeys it: a control character (ESC, BEL, a carriage
 * return, C1) in a name or a server's sentence is written as `\x1b` instead of being sent, so
 * that a hostile server or a file's name cannot recolour, rewrite or retitle the terminal.
 * Line breaks and tabs are kept (help text has them).
 */
export function printable(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g,
    (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}

/** One line of output: no secrets, no line breaks, no control characters. */
const oneLine = (text: string): string =>
  printable(
    redact(text)
      .replace(/\s*\n\s*/g, ' ')
      .trim(),
  );

/** An error's one line in a language: its words when it has them, else `messageOf`. */
export function sayError(tr: Translator, err: unknown): string {
  const words = wordsOf(err);
  return words ? oneLine(tr.say(words)) : messageOf(err);
}

/** An error's message for one line of output: no secrets, no line breaks. */
export function messageOf(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return oneLine(text) || 'unknown error';
}
