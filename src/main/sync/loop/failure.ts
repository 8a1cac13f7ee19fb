import { ApiError } from '../../api/errors';
import { SyncFatalError } from '../errors';
import { localErrorWords } from '../local-error';
import { englishOf, type Words } from '../../../shared/i18n';

const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);

export interface Failure {
  kind: string;
  /** In English, for logs and `--json`; `words` the same as data, when the engine wrote it. */
  message: string;
  words?: Words;
  /** Worth trying again by itself later (the service down, a full disk being cleaned). */
  transient: boolean;
  fatal: SyncFatalError | null;
  /** The message for a single pass (`sync --once`), which does not try again by itself. */
  onceMessage?: Words;
}

/**
 * Sorts an error into what the engine does with it and what the person is told. `root`, the sync
 * folder, names the disk that is full.
 */
export function describeFailure(err: unknown, root?: string): Failure {
  if (err instanceof SyncFatalError) {
    return { kind: err.kind, message: err.message, ...wordsIn(err), transient: false, fatal: err };
  }
  if (err instanceof ApiError) {
    if (err.kind === 'not-authenticated') {
      const words: Words = { key: 'engine.signedOut' };
      const fatal = new SyncFatalError('signed-out', words);
      return { kind: 'signed-out', message: fatal.message, words, transient: false, fatal };
    }
    if (err.kind === 'network' || err.kind === 'rate-limited' || err.retryable) {
      return {
        kind: 'offline',
        message: err.message,
        ...wordsIn(err),
        transient: true,
        fatal: null,
      };
    }
    return { kind: err.kind, message: err.message, ...wordsIn(err), transient: true, fatal: null };
  }
  const code = (err as NodeJS.ErrnoException | null)?.code;
  // A body cut off mid-stream surfaces as undici's or the socket's own error, not an ApiError.
  if (code && (code.startsWith('UND_ERR') || NETWORK_CODES.has(code))) {
    const words: Words = { key: 'engine.connectionBroke', params: { code } };
    return { kind: 'offline', message: englishOf(words), words, transient: true, fatal: null };
  }
  if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL') {
    // The journal lives in the state folder, perhaps on another disk than the sync folder.
    const where: Words | string =
      code === 'SQLITE_FULL'
        ? { key: 'engine.journalDisk' }
        : root !== undefined
          ? root
          : { key: 'engine.syncFolder' };
    const words: Words = { key: 'engine.diskFull', params: { where } };
    return {
      kind: 'disk-full',
      message: englishOf(words),
      words,
      onceMessage: { key: 'engine.diskFullOnce', params: { where } },
      transient: true,
      fatal: null,
    };
  }
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    const words: Words = { key: 'engine.localAccess', params: { code } };
    return { kind: 'local-access', message: englishOf(words), words, transient: true, fatal: null };
  }
  // Another error of this computer's: said by its code, naming the item in the sync folder
  // (never "ENOTDIR: not a directory, open '/home/…'").
  const local = localErrorWords(err, root);
  if (local)
    return {
      kind: 'internal',
      message: englishOf(local),
      words: local,
      transient: true,
      fatal: null,
    };
  const message = err instanceof Error ? err.message : String(err);
  return { kind: 'internal', message, transient: true, fatal: null };
}

/**
 * What the status says while the engine waits to try again: said once per failure (a full disk
 * has no countdown: the line would change at every retry, and it resumes by itself anyway).
 */
export function retryMessage(failure: Failure, waitMs: number): Words | string {
  const seconds = Math.ceil(waitMs / 1000);
  if (failure.kind === 'offline') return { key: 'engine.retryOffline', params: { seconds } };
  if (failure.kind === 'disk-full') return failure.words ?? failure.message;
  // An error's own text (not the engine's words) stays as it was written.
  const problem = failure.words ?? failure.message;
  const trimmed = typeof problem === 'string' ? problem.replace(/[.\s]+$/, '') : problem;
  return { key: 'engine.retryAfter', params: { problem: trimmed, seconds } };
}

/** Whether a failure is this computer's (a full disk, a folder that cannot be written). */
export function isLocalFailure(failure: Failure): boolean {
  return failure.kind === 'disk-full' || failure.kind === 'local-access';
}

/** The words an error carries (ApiError, SyncFatalError), as a Failure's. */
const wordsIn = (err: ApiError | SyncFatalError): { words?: Words } =>
  err.words ? { words: err.words } : {};
