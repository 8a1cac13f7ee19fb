import { randomBytes } from 'node:crypto';
import { MAX_NAME_LENGTH } from '../../../shared/paths';

// The temporary name an item takes on the service while another takes its name: a swap or a
// rotation of names (a cycle of renames), or a new folder whose name a moving item holds.

/** ` (moving 1a2b3c)`: the mark of a temporary name, before the extension. */
const TAG = / \(moving [0-9a-f]{6}\)(?=\.[^.]*$|$)/;

/**
 * `Docs (moving 1a2b3c)`, `a (moving 1a2b3c).txt`: unlike any name a person gives, free for its
 * first few seconds (3 random bytes), and within the service's limit (the name is shortened
 * before its mark, by whole characters, when it would not fit).
 */
export function provisionalName(name: string, kind: 'folder' | 'file'): string {
  const tag = ` (moving ${randomBytes(3).toString('hex')})`;
  const dot = name.lastIndexOf('.');
  const split = kind === 'file' && dot > 0;
  let stem = split ? name.slice(0, dot) : name;
  const ext = split ? name.slice(dot) : '';
  const room = MAX_NAME_LENGTH - tag.length - ext.length;
  if (stem.length > room) {
    const chars = Array.from(stem);
    while (chars.length > 0 && chars.join('').length > room) chars.pop();
    stem = chars.join('');
  }
  // An extension as long as the limit itself: the mark goes at the end of a shortened name.
  if (room < 1)
    return (
      Array.from(name)
        .slice(0, MAX_NAME_LENGTH - tag.length)
        .join('') + tag
    );
  return stem + tag + ext;
}

/** A GLOB that finds the temporary names (and a few more, which `isProvisional` tells apart). */
export const PROVISIONAL_GLOB = '* (moving [0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f])*';

/** Whether the service's name of an item is a temporary one (a step aside left unfinished). */
export const isProvisional = (name: string): boolean => TAG.test(name);
