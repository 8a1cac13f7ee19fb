import { randomBytes } from 'node:crypto';
import { fitName } from '../names';

// The temporary name an item takes on the service while another takes its name: a swap or a
// rotation of names (a cycle of renames), or a new folder whose name a moving item holds.

/** ` (moving 1a2b3c)`: the mark of a temporary name, before the extension. */
const TAG = / \(moving [0-9a-f]{6}\)(?=\.[^.]*$|$)/;

/**
 * `Docs (moving 1a2b3c)`, `a (moving 1a2b3c).txt`: unlike any name a person gives, free for its
 * first few seconds (3 random bytes), and within the service's limit and this computer's (the
 * stem shortened before its mark by whole characters, `fitName`, when it would not fit).
 */
export function provisionalName(name: string, kind: 'folder' | 'file'): string {
  return fitName(name, ` (moving ${randomBytes(3).toString('hex')})`, kind);
}

/** A GLOB that finds the temporary names (and a few more, which `isProvisional` tells apart). */
export const PROVISIONAL_GLOB = '* (moving [0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f])*';

/** Whether the service's name of an item is a temporary one (a step aside left unfinished). */
export const isProvisional = (name: string): boolean => TAG.test(name);
