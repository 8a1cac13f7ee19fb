// Names that fit a volume's 255: the length as the strictest volume counts it, and a name with
// something added to it (a number, a conflict's mark) shortened between whole characters.
import { MAX_NAME_LENGTH } from '../../shared/paths';
import { defaultProfile, type VolumeProfile } from './volume';

/** Longest local name: UTF-8 bytes on posix, UTF-16 code units on win32. */
export const MAX_LOCAL_NAME_LENGTH = MAX_NAME_LENGTH;

/** Prefixed to a literal substitute (or to itself) in an encoded name. */
export const ESCAPE_CHAR = '\u201B';

const MAX_EXTENSION_CHARS = 16;

/**
 * Length as the strictest common volume counts it: ext4 and APFS count UTF-8 bytes, NTFS UTF-16
 * code units, each up to 255. Both limits hold on every profile, so that a synced tree stays
 * valid when the folder is copied to another system (and a profile forced for tests or by the
 * user never yields a name the disk refuses).
 */
export function localNameLength(name: string, _profile: VolumeProfile): number {
  return Math.max(name.length, Buffer.byteLength(name, 'utf8'));
}

/** The name's code points, an escape character and the one it escapes kept together. */
export function tokens(name: string): string[] {
  const chars = Array.from(name);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i] ?? '';
    const next = chars[i + 1];
    if (char === ESCAPE_CHAR && next !== undefined) {
      out.push(char + next);
      i++;
    } else {
      out.push(char);
    }
  }
  return out;
}

/** The longest prefix of `text`, cut between tokens, whose length is at most `budget`. */
export function truncate(text: string, budget: number, profile: VolumeProfile): string {
  let out = '';
  let used = 0;
  for (const token of tokens(text)) {
    const size = localNameLength(token, profile);
    if (used + size > budget) break;
    out += token;
    used += size;
  }
  return out;
}

/** The extension kept by shortening and disambiguation: from the last `.`, 1–16 chars after it. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return '';
  const count = Array.from(name.slice(dot + 1)).length;
  return count >= 1 && count <= MAX_EXTENSION_CHARS ? name.slice(dot) : '';
}

/**
 * `name` with `insert` put before its extension for a file (`a (conflict …).txt`), at the end
 * for a folder, the stem cut between whole characters (never inside a multi-byte character, a
 * surrogate pair, nor between an escape and what it escapes) so that the whole fits the volume:
 * 255 UTF-8 bytes and 255 UTF-16 units (`localNameLength`). The one way the engine makes a name
 * from a person's (conflict copies, numbered names, the trash's, provisional names): a name that
 * fits as it is made would otherwise pass 255 bytes once something is added to it, and the disk
 * (or `joinUnderRoot`) refuses it. Made names that stay free keep a number in `insert`.
 */
export function fitName(
  name: string,
  insert: string,
  kind: 'folder' | 'file',
  profile: VolumeProfile = defaultProfile(),
): string {
  const ext = kind === 'file' ? extensionOf(name) : '';
  const stem = name.slice(0, name.length - ext.length);
  const tail = insert + ext;
  return truncate(stem, MAX_LOCAL_NAME_LENGTH - localNameLength(tail, profile), profile) + tail;
}

/**
 * `candidate` with ` (n)` inserted: before the extension for a file (`a (2).txt`), at the end
 * for a folder (`a.txt (2)`); the stem is shortened when the result would be too long.
 */
export function disambiguate(
  candidate: string,
  kind: 'folder' | 'file',
  n: number,
  profile: VolumeProfile,
): string {
  return fitName(candidate, ` (${n})`, kind, profile);
}
