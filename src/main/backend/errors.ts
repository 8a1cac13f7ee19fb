import type { z } from 'zod';
import { AppCallError, type AppError } from '../../shared/app-api';
import { ApiError, redact } from '../api/errors';
import { SyncFatalError } from '../engine';
import { englishOf, wordsOf, type Words } from '../../shared/i18n';

/** Throws a typed error for the window: a kind to branch on and words a person can act on. */
export function fail(kind: AppError['kind'], message: string | Words): never {
  throw new AppCallError(typeof message === 'string' ? { kind, message } : appError(kind, message));
}

/** A refusal as the window gets it: its English beside its words. */
export const appError = (kind: AppError['kind'], words: Words): AppError => ({
  kind,
  message: englishOf(words),
  words,
});

/**
 * Throws another layer's refusal (the engine's, the keychain's) for the window: its words when
 * it carries them, so the window says it in its own language, else its English.
 */
export function failWith(kind: AppError['kind'], err: Error): never {
  const words = wordsOf(err);
  throw new AppCallError(
    words ? { kind, message: err.message, words } : { kind, message: err.message },
  );
}

/** Zod's complaints about parameters, as one sentence naming the fields. */
export function describeIssues(method: string, error: z.ZodError): Words {
  const parts = error.issues.slice(0, 5).map((issue) => {
    const where = issue.path.length > 0 ? issue.path.map(String).join('.') : 'parameters';
    return `${where}: ${issue.message}`;
  });
  // Zod's own text stays English: this is a programmer's mistake, not the person's.
  return { key: 'backend.invalidRequest', params: { method, issues: parts.join('; ') } };
}

const GENERIC_WORDS: Words = { key: 'backend.generic' };
const GENERIC = englishOf(GENERIC_WORDS);

/**
 * Any failure, as an AppError. The api layer's typed errors carry messages written for people
 * (and scrubbed of registered secrets); anything else is an internal error whose message may
 * hold paths, stacks or worse, so the window gets a generic sentence and the log the rest.
 */
export function toAppError(err: unknown): AppError {
  const words = wordsOf(err);
  const made = wordless(err);
  if (!words) return made;
  // An error with words was written for a person (a sign-in refused, a folder that cannot be one).
  return made.message === GENERIC
    ? { kind: 'invalid', message: redact(err instanceof Error ? err.message : ''), words }
    : { ...made, words };
}

function wordless(err: unknown): AppError {
  if (err instanceof AppCallError) return { kind: err.error.kind, message: redact(err.message) };
  if (err instanceof ApiError) {
    const message = redact(err.message);
    switch (err.kind) {
      case 'not-authenticated':
        return { kind: 'not-authenticated', message };
      case 'forbidden':
        return { kind: 'forbidden', message };
      case 'not-found':
        return { kind: 'not-found', message };
      case 'validation':
        // A name already taken is a conflict the person resolves by choosing another.
        return { kind: /already|taken|exists/i.test(message) ? 'conflict' : 'invalid', message };
      case 'network':
      case 'proxy':
      case 'outcome-unknown':
      case 'rate-limited':
      case 'server':
        return { kind: 'offline', message };
      case 'insecure':
        return { kind: 'invalid', message };
      case 'protocol':
        return { kind: 'internal', message };
    }
  }
  if (err instanceof SyncFatalError) {
    const kind = err.kind === 'signed-out' ? 'not-authenticated' : 'invalid';
    return { kind, message: redact(err.message) };
  }
  return { kind: 'internal', message: GENERIC, words: GENERIC_WORDS };
}
