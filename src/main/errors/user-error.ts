import { redact } from '../api/errors';

/** The command's name, for messages that tell a person what to run (`workspace-sync login …`). */
export const PROGRAM = 'workspace-sync';

/**
 * A failure whose message is complete for a person (what happened, what to do): shown as is,
 * by the CLI on one line (exit 1) and by the app in a notification.
 */
export class UserError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UserError';
  }
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
