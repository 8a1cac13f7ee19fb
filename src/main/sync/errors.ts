import type { Words } from '../../shared/i18n';
import { WordedError } from '../../shared/worded-error';

/**
 * A failure that stops the engine until a person acts: signed out, the sync folder moved or
 * replaced, the journal unreadable. `kind` is stable for programs (the CLI's exit message, the
 * UI's call to action); `message` says what happened and what to do.
 */
export class SyncFatalError extends WordedError {
  override readonly name = 'SyncFatalError';
  constructor(
    readonly kind:
      | 'signed-out'
      | 'root-changed'
      | 'root-missing'
      | 'workspace-gone'
      | 'journal'
      | 'mass-delete'
      // A chosen folder that cannot be one (folder-check.ts).
      | 'folder'
      // Another process runs an engine on the pair (its door is held: loop/door.ts).
      | 'busy',
    message: string | Words,
  ) {
    super(message);
  }
}

/**
 * A `syncOnce` that failed for a reason of this computer (a full disk): the words for a person,
 * not the errno. The original error is its `cause`.
 */
export class SyncPassError extends WordedError {
  override readonly name = 'SyncPassError';
  constructor(
    readonly kind: string,
    message: string | Words,
    options?: { cause: unknown },
  ) {
    super(message, options);
  }
}

/**
 * A person's action on a conflict or a problem that cannot be done as asked: `stale` when the
 * files changed since (look again), `gone` when it is chosen already, `invalid` otherwise.
 * One line, for the window.
 */
export class AttentionError extends WordedError {
  override readonly name = 'AttentionError';
  constructor(
    readonly kind: 'stale' | 'gone' | 'invalid',
    message: string | Words,
  ) {
    super(message);
  }
}
