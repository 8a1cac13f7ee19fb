import { ApiError } from '../../api/errors';
import { SyncFatalError } from '../errors';

const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);

export interface Failure {
  kind: string;
  message: string;
  /** Worth trying again by itself later (the service down, a full disk being cleaned). */
  transient: boolean;
  fatal: SyncFatalError | null;
  /** The message for a single pass (`sync --once`), which does not try again by itself. */
  onceMessage?: string;
}

/**
 * Sorts an error into what the engine does with it and what the person is told. `root`, the sync
 * folder, names the disk that is full.
 */
export function describeFailure(err: unknown, root?: string): Failure {
  if (err instanceof SyncFatalError) {
    return { kind: err.kind, message: err.message, transient: false, fatal: err };
  }
  if (err instanceof ApiError) {
    if (err.kind === 'not-authenticated') {
      const fatal = new SyncFatalError(
        'signed-out',
        'You are signed out: sign in again to continue syncing.',
      );
      return { kind: 'signed-out', message: fatal.message, transient: false, fatal };
    }
    if (err.kind === 'network' || err.kind === 'rate-limited' || err.retryable) {
      return { kind: 'offline', message: err.message, transient: true, fatal: null };
    }
    return { kind: err.kind, message: err.message, transient: true, fatal: null };
  }
  const code = (err as NodeJS.ErrnoException | null)?.code;
  // A body cut off mid-stream surfaces as undici's or the socket's own error, not an ApiError.
  if (code && (code.startsWith('UND_ERR') || NETWORK_CODES.has(code))) {
    return {
      kind: 'offline',
      message: `The connection to the service broke (${code}).`,
      transient: true,
      fatal: null,
    };
  }
  if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL') {
    // The journal lives in the state folder, perhaps on another disk than the sync folder.
    const where =
      code === 'SQLITE_FULL' ? "the sync's journal" : root !== undefined ? root : 'the sync folder';
    return {
      kind: 'disk-full',
      message: `The disk holding ${where} is full: free some space; syncing resumes by itself.`,
      onceMessage: `The disk holding ${where} is full: free some space, then sync again.`,
      transient: true,
      fatal: null,
    };
  }
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return {
      kind: 'local-access',
      message: `The sync folder cannot be written (${code}): check its permissions.`,
      transient: true,
      fatal: null,
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { kind: 'internal', message, transient: true, fatal: null };
}

/**
 * What the status says while the engine waits to try again: said once per failure (a full disk
 * has no countdown: the line would change at every retry, and it resumes by itself anyway).
 */
export function retryMessage(failure: Failure, waitMs: number): string {
  const seconds = Math.ceil(waitMs / 1000);
  if (failure.kind === 'offline') return `Offline: trying again in ${seconds} s`;
  if (failure.kind === 'disk-full') return failure.message;
  return `${failure.message.replace(/[.\s]+$/, '')}: trying again in ${seconds} s`;
}

/** Whether a failure is this computer's (a full disk, a folder that cannot be written). */
export function isLocalFailure(failure: Failure): boolean {
  return failure.kind === 'disk-full' || failure.kind === 'local-access';
}
