// The name rules of every volume (Windows, macOS, Linux) are one table, and their encoding and
// decoding are read side by side here: apart, a rule and its inverse could drift.
/**
 * Local names for remote names.
 *
 * The service accepts names this disk cannot hold (`a:b` on Windows, `CON`, a trailing dot, a
 * control character from a lenient server…). Every remote name gets a deterministic local name
 * by a character-level encoding after rclone's `lib/encoder`: each character the volume cannot
 * hold is replaced by a look-alike "substitute" character, and a literal occurrence of a
 * substitute in the remote name is escaped with U+201B (‛) so that decoding is unambiguous.
 *
 * Substitutes on every profile (posix and win32):
 *
 * | remote                         | local                                                   |
 * | ------------------------------ | ------------------------------------------------------- |
 * | U+0000–U+001F                  | U+2400–U+241F (Control Pictures: ␀ … ␟)                 |
 * | U+007F (DEL)                   | U+2421 (␡)                                              |
 * | `/`                            | U+FF0F (／)                                             |
 * | `\`                            | U+FF3C (＼), see below why on posix too                 |
 * | a lone surrogate U+D800–U+DFFF | U+F0000–U+F07FF (plane-15 private use), see below       |
 * | the name `.` / `..`            | `．` / `．．` (U+FF0E)                                  |
 * | the empty name                 | `‛` (a lone escape character, which nothing else gives) |
 *
 * Additionally on win32:
 *
 * | remote                              | local                                                    |
 * | ----------------------------------- | -------------------------------------------------------- |
 * | `<` `>` `:` `"` `\|` `?` `*`         | fullwidth: U+FF1C U+FF1E U+FF1A U+FF02 U+FF5C U+FF1F U+FF0A |
 * | the trailing run of dots and spaces | `.` → U+FF0E (．), space → U+2420 (␠)                    |
 * | a reserved device name              | its third character in fullwidth: `CON.txt` → `COＮ.txt` |
 *
 * Reserved device names: CON, PRN, AUX, NUL, COM0–COM9, LPT0–LPT9, COM¹ COM² COM³, LPT¹ LPT² LPT³,
 * CONIN$ and CONOUT$, in any case, alone or followed by an extension (`con.txt`, `NUL.tar.gz`)
 * or by spaces before it (`CON .txt`): "the stem" below is the part before the first `.`, without
 * trailing spaces. The scheme always replaces the THIRD character of the stem (the last letter
 * of the three-letter prefix: N, N, X, L, M, T) by its fullwidth form, so `CON.txt` → `COＮ.txt`,
 * `Aux` → `Auｘ`, `com1` → `coｍ1`, `LPT²` → `LPＴ²` (a superscript digit has no fullwidth form,
 * which is why it is not the last character). The decoder maps an unescaped fullwidth third
 * character back when the stem it gives is a reserved name; a remote name that literally has such
 * a fullwidth character there (`COＮ.txt`) gets it escaped (`CO‛Ｎ.txt`).
 *
 * Escaping: the escape character itself and every substitute that is ACTIVE on the profile are
 * escaped wherever they occur literally in the remote name: on posix U+2400–U+241F, U+2421,
 * U+FF0F, U+FF3C, U+F0000–U+F07FF and U+201B; on win32 also U+FF1C U+FF1E U+FF1A U+FF02 U+FF5C
 * U+FF1F U+FF0A, U+FF0E and U+2420. Other characters are never escaped, so a Japanese `：` stays
 * as is on posix. The two positional substitutes are escaped only where they would be read as
 * substitutes: U+FF0E on posix when the whole name is `．` or `．．`, a fullwidth third character
 * of a would-be reserved stem on win32.
 *
 * Two choices beyond the brief, both to keep every encoded name accepted by `checkName` of
 * `shared/paths` (through which the engine joins local paths) and storable on a real disk:
 * - `\` is encoded on posix too: `checkName` refuses it everywhere (a name holding one becomes a
 *   separator when the tree is copied to Windows), so a remote `a\b` would otherwise never sync;
 * - an unpaired surrogate (JSON allows `"\ud800"`) cannot reach a disk intact through Node (it
 *   becomes U+FFFD), so it is mapped to a private-use code point and back.
 *
 * Length: a name longer than 255 UTF-8 bytes (posix) or 255 UTF-16 code units (win32) after
 * encoding is shortened to `<stem truncated>~<first 8 hex of sha256(remote name)><ext>`, where
 * `<ext>` is the part from the last `.` when 1–16 characters follow it and it is not the whole
 * name. The stem is cut between whole characters (never inside a surrogate pair nor between the
 * escape character and what it escapes). Shortened names are NOT decodable: the engine must keep
 * the remote name ↔ local name mapping in its journal, as it does for the disambiguated names
 * of `mapChildren` (`a (2).txt`).
 *
 * `decodeName` is total: it decodes any local name, including one a person created; a name that
 * was not produced by `encodeName` may decode to a name that encodes differently (a user's file
 * `a␀b` on posix decodes to `a\0b`). Check `encodeName(decodeName(n)) === n` before trusting it.
 */
import { createHash } from 'node:crypto';
import { checkName } from '../../shared/paths';
import {
  disambiguate,
  ESCAPE_CHAR,
  extensionOf,
  localNameLength,
  MAX_LOCAL_NAME_LENGTH,
  tokens,
  truncate,
} from './name-length';
import { foldName, type VolumeProfile } from './volume';

// The volume's kind and the fitting of names to its length live beside this (volume.ts,
// name-length.ts); their vocabulary is said here too, where the engine looks for names.
export { defaultProfile, foldName, probeVolume, serviceKey, type VolumeProfile } from './volume';
export {
  disambiguate,
  ESCAPE_CHAR,
  extensionOf,
  fitName,
  localNameLength,
  MAX_LOCAL_NAME_LENGTH,
} from './name-length';

export interface ChildName {
  id: number;
  name: string;
  kind: 'folder' | 'file';
  /** The local name this item already has in the journal, if any. */
  keep?: string;
  /**
   * `keep` is a recorded mapping (a local name the service changed when it was sent, `a／b` for
   * `a-b`): kept even though it is not an encoding of the remote name.
   */
  pinned?: boolean;
}

const DOT_SUBSTITUTE = '\uFF0E';
const SPACE_SUBSTITUTE = '\u2420';
const FULLWIDTH_OFFSET = 0xfee0;
const LONE_SURROGATE_BASE = 0xf0000;
/** Index, in code points, of the stem character replaced in a reserved device name. */
const RESERVED_INDEX = 2;
const HASH_LENGTH = 8;

/** Characters only Windows refuses (`/`, `\` and the controls are refused everywhere). */
const WIN32_ONLY_CHARS = new Set(['<', '>', ':', '"', '|', '?', '*']);
const RESERVED_STEM = /^(?:CON|PRN|AUX|NUL|CONIN\$|CONOUT\$|(?:COM|LPT)[0-9\u00B9\u00B2\u00B3])$/i;
const LONE_SURROGATE = /\p{Cs}/u;

const isWin = (profile: VolumeProfile): boolean => profile.flavor === 'win32';
const cp = (char: string): number => char.codePointAt(0) ?? 0;

/** The substitute of a character on every profile, if it has one. */
function commonSubstitute(char: string): string | undefined {
  const c = cp(char);
  if (c <= 0x1f) return String.fromCharCode(0x2400 + c);
  if (c === 0x7f) return '\u2421';
  if (char === '/' || char === '\\') return String.fromCharCode(c + FULLWIDTH_OFFSET);
  if (c >= 0xd800 && c <= 0xdfff) return String.fromCodePoint(LONE_SURROGATE_BASE + c - 0xd800);
  return undefined;
}

/** The substitute of a character anywhere in the name (the positional ones are not here). */
function substitute(char: string, win: boolean): string | undefined {
  const common = commonSubstitute(char);
  if (common !== undefined || !win) return common;
  return WIN32_ONLY_CHARS.has(char) ? String.fromCharCode(cp(char) + FULLWIDTH_OFFSET) : undefined;
}

/** The original of an unescaped character of an encoded name, when it is an active substitute. */
function original(char: string, win: boolean): string | undefined {
  const c = cp(char);
  if (c >= 0x2400 && c <= 0x241f) return String.fromCharCode(c - 0x2400);
  if (c === 0x2421) return '\u007f';
  if (c === 0xff0f || c === 0xff3c) return String.fromCharCode(c - FULLWIDTH_OFFSET);
  if (c >= LONE_SURROGATE_BASE && c < LONE_SURROGATE_BASE + 0x800) {
    return String.fromCharCode(0xd800 + c - LONE_SURROGATE_BASE);
  }
  if (!win) return undefined;
  if (char === DOT_SUBSTITUTE) return '.';
  if (char === SPACE_SUBSTITUTE) return ' ';
  const ascii = fromFullwidth(char);
  return ascii !== undefined && WIN32_ONLY_CHARS.has(ascii) ? ascii : undefined;
}

/** Whether a literal occurrence of `char` must be escaped (positional cases aside). */
function needsEscape(char: string, win: boolean): boolean {
  return char === ESCAPE_CHAR || original(char, win) !== undefined;
}

function toFullwidth(char: string): string {
  const c = cp(char);
  return c >= 0x21 && c <= 0x7e ? String.fromCharCode(c + FULLWIDTH_OFFSET) : char;
}

function fromFullwidth(char: string): string | undefined {
  const c = cp(char);
  return c >= 0xff01 && c <= 0xff5e ? String.fromCharCode(c - FULLWIDTH_OFFSET) : undefined;
}

/** The part Windows compares with the device names: before the first `.`, trailing spaces off. */
function stemOf(chars: readonly string[]): string[] {
  let end = chars.indexOf('.');
  if (end < 0) end = chars.length;
  while (end > 0 && chars[end - 1] === ' ') end--;
  return chars.slice(0, end);
}

function isReservedStem(stem: readonly string[]): boolean {
  return RESERVED_STEM.test(stem.join(''));
}

/** Whether the stem would be a device name with its third character taken out of fullwidth. */
function isFullwidthReservedStem(stem: readonly string[]): boolean {
  const third = stem[RESERVED_INDEX];
  const ascii = third === undefined ? undefined : fromFullwidth(third);
  if (ascii === undefined) return false;
  const plain = [...stem];
  plain[RESERVED_INDEX] = ascii;
  return isReservedStem(plain);
}

function shortHash(remoteName: string): string {
  return createHash('sha256').update(remoteName, 'utf8').digest('hex').slice(0, HASH_LENGTH);
}

/** Whether `name` can be used as is as one path component on this profile. */
export function isValidLocalName(name: string, profile: VolumeProfile): boolean {
  // Empty, `.`, `..`, NUL, `/` and `\`, controls and DEL, `:` on win32, over 255 code units.
  if (!checkName(name, profile.flavor).ok) return false;
  if (localNameLength(name, profile) > MAX_LOCAL_NAME_LENGTH) return false;
  // Node writes a lone surrogate as U+FFFD: the name on disk would not be this name.
  if (LONE_SURROGATE.test(name)) return false;
  if (!isWin(profile)) return true;
  for (const char of name) if (WIN32_ONLY_CHARS.has(char)) return false;
  if (name.endsWith('.') || name.endsWith(' ')) return false;
  return !isReservedStem(stemOf(Array.from(name)));
}

/** The encoding before the length rule: one token per code point of the remote name. */
function encodeTokens(remoteName: string, win: boolean): string[] {
  if (remoteName === '') return [ESCAPE_CHAR];
  if (remoteName === '.') return [DOT_SUBSTITUTE];
  if (remoteName === '..') return [DOT_SUBSTITUTE, DOT_SUBSTITUTE];
  const chars = Array.from(remoteName);
  if (remoteName === DOT_SUBSTITUTE || remoteName === DOT_SUBSTITUTE + DOT_SUBSTITUTE) {
    return chars.map((char) => ESCAPE_CHAR + char);
  }
  let trailing = chars.length;
  let reserved: 'substitute' | 'escape' | undefined;
  if (win) {
    while (trailing > 0 && (chars[trailing - 1] === '.' || chars[trailing - 1] === ' ')) {
      trailing--;
    }
    const stem = stemOf(chars);
    if (isReservedStem(stem)) reserved = 'substitute';
    else if (isFullwidthReservedStem(stem)) reserved = 'escape';
  }
  return chars.map((char, i) => {
    if (i === RESERVED_INDEX && reserved !== undefined) {
      return reserved === 'substitute' ? toFullwidth(char) : ESCAPE_CHAR + char;
    }
    if (i >= trailing) return char === '.' ? DOT_SUBSTITUTE : SPACE_SUBSTITUTE;
    const sub = substitute(char, win);
    if (sub !== undefined) return sub;
    return needsEscape(char, win) ? ESCAPE_CHAR + char : char;
  });
}

/** Character-level encoding of a remote name into a valid local name. Unchanged when the name is already valid and holds no character that needs escaping. Always valid on the profile. */
export function encodeName(remoteName: string, profile: VolumeProfile): string {
  const encoded = encodeTokens(remoteName, isWin(profile)).join('');
  if (localNameLength(encoded, profile) <= MAX_LOCAL_NAME_LENGTH) return encoded;
  const ext = extensionOf(encoded);
  const tail = `~${shortHash(remoteName)}${ext}`;
  const stem = encoded.slice(0, encoded.length - ext.length);
  return truncate(stem, MAX_LOCAL_NAME_LENGTH - localNameLength(tail, profile), profile) + tail;
}

/** Inverse of encodeName: decodeName(encodeName(x, p), p) === x for every x whose encoding was not shortened (see length rule). */
export function decodeName(localName: string, profile: VolumeProfile): string {
  if (localName === ESCAPE_CHAR) return '';
  if (localName === DOT_SUBSTITUTE) return '.';
  if (localName === DOT_SUBSTITUTE + DOT_SUBSTITUTE) return '..';
  const win = isWin(profile);
  const chars: string[] = [];
  /** Per decoded character: it was neither escaped nor a substitute. */
  const plain: boolean[] = [];
  for (const token of tokens(localName)) {
    if (token.length > 1 && token.startsWith(ESCAPE_CHAR)) {
      chars.push(token.slice(ESCAPE_CHAR.length));
      plain.push(false);
      continue;
    }
    const orig = original(token, win);
    chars.push(orig ?? token);
    plain.push(orig === undefined);
  }
  if (win && plain[RESERVED_INDEX] === true && isFullwidthReservedStem(stemOf(chars))) {
    const ascii = fromFullwidth(chars[RESERVED_INDEX] ?? '');
    if (ascii !== undefined) chars[RESERVED_INDEX] = ascii;
  }
  return chars.join('');
}

/**
 * Whether `keep` is `candidate` or one of its disambiguated forms. Case counts (so that a
 * remote case-only rename reaches the disk); normalization does not where the volume ignores it.
 */
function isFormOf(
  keep: string,
  candidate: string,
  kind: ChildName['kind'],
  profile: VolumeProfile,
): boolean {
  const norm = (s: string) => (profile.normalizationInsensitive ? s.normalize('NFC') : s);
  const key = norm(keep);
  if (key === norm(candidate)) return true;
  for (const match of key.matchAll(/ \((\d{1,9})\)/g)) {
    const n = Number(match[1]);
    if (n >= 2 && norm(disambiguate(candidate, kind, n, profile)) === key) return true;
  }
  return false;
}

/**
 * Local names for all the children of one folder, deterministic whatever the input order.
 *
 * First the items (by ascending id) whose `keep` is valid, free (not in `reserved`, not taken
 * by an earlier item; compared folded) and still the encoding of their remote name or a
 * disambiguated form of it keep it, so an item already on disk is never renamed because a new
 * sibling arrived. Then the others (by ascending id) get `encodeName(name)`, or when its folded
 * form is taken `stem (2).ext` for a file / `name (2)` for a folder, then (3)… `reserved`
 * holds folded names that must not be used (it is folded again here, so plain names work too).
 * Throws on duplicate ids.
 */
export function mapChildren(
  children: readonly ChildName[],
  profile: VolumeProfile,
  reserved: ReadonlySet<string> = new Set(),
): Map<number, string> {
  const sorted = [...children].sort((a, b) => a.id - b.id);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]?.id === sorted[i - 1]?.id) {
      throw new Error(`mapChildren: duplicate child id ${sorted[i]?.id}`);
    }
  }
  const taken = new Set<string>();
  for (const name of reserved) taken.add(foldName(name, profile));
  const result = new Map<number, string>();
  const pending: { child: ChildName; candidate: string }[] = [];

  for (const child of sorted) {
    const candidate = encodeName(child.name, profile);
    const keep = child.keep;
    if (
      keep !== undefined &&
      isValidLocalName(keep, profile) &&
      !taken.has(foldName(keep, profile)) &&
      (child.pinned === true || isFormOf(keep, candidate, child.kind, profile))
    ) {
      taken.add(foldName(keep, profile));
      result.set(child.id, keep);
    } else {
      pending.push({ child, candidate });
    }
  }

  // The next suffix to try per candidate: every smaller one was taken and stays taken, so a
  // folder of many same-named children stays linear.
  const nextSuffix = new Map<string, number>();
  for (const { child, candidate } of pending) {
    const series = `${child.kind}\0${candidate}`;
    let n = nextSuffix.get(series) ?? 2;
    let name = candidate;
    while (taken.has(foldName(name, profile)) || !isValidLocalName(name, profile)) {
      name = disambiguate(candidate, child.kind, n, profile);
      n++;
    }
    if (name !== candidate) nextSuffix.set(series, n);
    taken.add(foldName(name, profile));
    result.set(child.id, name);
  }
  return result;
}
