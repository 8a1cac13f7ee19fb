import { ApiError } from '../../api/errors';
import { SyncFatalError } from '../errors';

const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);

export interface Failure {
  kind: string;
  message: string;
  /** Worth trying again by itself later (the service down, a full disk being cleaned). */
  transient: boolean;
  fatal: SyncFatalError | null;
}

/** Sorts an error into what the engine does with it and what the person is told. */
export function describeFailure(err: unknown): Failure {
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
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return {
      kind: 'disk-full',
      message: 'The disk is full: free some space; syncing goes on by itself.',
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
