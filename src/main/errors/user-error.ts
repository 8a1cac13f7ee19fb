import { redact } from '../api/errors';
import { englishOf, wordsOf, type Translator, type Words } from '../../shared/i18n';
import { WordedError } from '../../shared/worded-error';

export { wordsOf, type Words } from '../../shared/i18n';

/** The command's name, for messages that tell a person what to run (`workspace-sync login …`). */
export const PROGRAM = 'workspace-sync';

/**
 * A failure whose message is complete for a person (what happened, what to do): shown as is,
 * by the CLI on one line (exit 1) and by the app in a notification.
 */
export class UserError extends WordedError {
  constructor(message: string | Words) {
    super(message);
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

/**
 * A path as a sentence can hold it: a name too long for the system is the usual reason it is
 * said at all, so each name is cut to a readable start and the whole to its last part.
 */
export function shortPath(p: string): string {
  const cut = p
    .split('/')
    .map((name) => (name.length > 40 ? `${name.slice(0, 32)}…` : name))
    .join('/');
  return cut.length > 160 ? `…${cut.slice(-159)}` : cut;
}

/**
 * Words for a system error Node gives with its code and the whole path (`ENAMETOOLONG: name too
 * long, mkdir '/…'`), where no layer said it in words: a state folder, a token file.
 */
function systemWords(err: unknown): Words | undefined {
  if (!(err instanceof Error)) return undefined;
  const { code, path } = err as NodeJS.ErrnoException;
  if (code === 'ENAMETOOLONG') {
    // A name past 255 bytes, else the whole path past the system's limit.
    const name = (path ?? '').split('/').some((n) => Buffer.byteLength(n) > 255);
    const key = name ? 'error.nameTooLong' : 'error.pathTooLong';
    return { key, params: { path: shortPath(path ?? '') } };
  }
  return undefined;
}

/** An error's one line in a language: its words when it has them, else `messageOf`. */
export function sayError(tr: Translator, err: unknown): string {
  const words = wordsOf(err) ?? systemWords(err);
  return words ? oneLine(tr.say(words)) : messageOf(err);
}

/** An error's message for one line of output: no secrets, no line breaks. */
export function messageOf(err: unknown): string {
  const said = systemWords(err);
  const text = said ? englishOf(said) : err instanceof Error ? err.message : String(err);
  return oneLine(text) || 'unknown error';
}
