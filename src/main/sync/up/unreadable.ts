// A local file that cannot be read is that file's problem, not the pass's: the other files go up.
import { englishOf, type Words } from '../../../shared/i18n';

/** Why a file cannot be read: the selector of `engine.unreadable`. */
export type UnreadableReason = 'denied' | 'locked' | 'not_plain' | 'io';

/** Why opening or reading a file here failed; null when it is not the file's fault. */
export function unreadableReason(err: unknown): UnreadableReason | null {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'denied';
    case 'EBUSY':
    case 'EAGAIN':
      // Windows: another program holds it open without sharing.
      return 'locked';
    case 'EISDIR':
    case 'ELOOP':
    case 'ENXIO':
      return 'not_plain';
    case 'EIO':
      return 'io';
    default:
      return null;
  }
}

/** The status line for a file that could not be read, as words and their English. */
export function unreadableWords(reason: UnreadableReason): { message: string; words: Words } {
  const words: Words = { key: 'engine.unreadable', params: { why: reason } };
  return { message: englishOf(words), words };
}
