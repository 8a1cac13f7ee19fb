import { readIfAny, writeAtomically } from '../core/atomic-file';

/** A state file's text, or null when there is none yet. */
export const readStateFile = readIfAny;

/**
 * Writes `body` as JSON readable by this user only, atomically (core/atomic-file.ts): a crash
 * leaves the old file or the new one, never half of one.
 */
export function writeStateFile(file: string, body: unknown): Promise<void> {
  return writeAtomically(file, JSON.stringify(body, null, 2) + '\n', 0o600, 0o700);
}
