/**
 * A failure that stops the engine until a person acts: signed out, the sync folder moved or
 * replaced, the journal unreadable. `kind` is stable for programs (the CLI's exit message, the
 * UI's call to action); `message` says what happened and what to do.
 */
export class SyncFatalError extends Error {
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
      | 'folder',
    message: string,
  ) {
    super(message);
  }
}
