/**
 * Path safety for names that come from the server.
 *
 * The server is not trusted to send names that are safe on this disk: a name may hold a
 * separator, be `..`, carry a NUL, or look like a drive (`C:`) on Windows. Every local path
 * the engine builds from remote names goes through `joinUnderRoot`, which refuses any name
 * that could climb out of the sync root instead of trying to repair it (repair is the job of
 * the name mapping, which records what it did).
 *
 * Pure string code on purpose: it runs in the renderer too, where `node:path` does not exist.
 */

export type PathFlavor = 'posix' | 'win32';

export type NameProblem =
  'empty' | 'dot' | 'dot-dot' | 'separator' | 'nul' | 'control' | 'drive-or-stream' | 'too-long';

export type NameCheck = { ok: true } | { ok: false; problem: NameProblem };

/** Longest name component, in UTF-16 code units, that any common local filesystem accepts. */
export const MAX_NAME_LENGTH = 255;

function hasControl(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/** Whether `name` is safe as one path component, i.e. cannot address anything but a child. */
export function checkName(name: string, flavor: PathFlavor = 'posix'): NameCheck {
  if (name.length === 0) return { ok: false, problem: 'empty' };
  if (name === '.') return { ok: false, problem: 'dot' };
  if (name === '..') return { ok: false, problem: 'dot-dot' };
  if (name.includes('\0')) return { ok: false, problem: 'nul' };
  // Backslash is a separator on Windows and, on POSIX, a name holding one becomes a
  // separator the moment the tree is copied to Windows: refuse it everywhere.
  if (name.includes('/') || name.includes('\\')) return { ok: false, problem: 'separator' };
  if (hasControl(name)) return { ok: false, problem: 'control' };
  // On Windows `C:` re-roots a path and `name:stream` writes an alternate data stream.
  if (flavor === 'win32' && name.includes(':')) return { ok: false, problem: 'drive-or-stream' };
  if (name.length > MAX_NAME_LENGTH) return { ok: false, problem: 'too-long' };
  return { ok: true };
}

export class UnsafePathError extends Error {
  override readonly name = 'UnsafePathError';
  constructor(
    readonly segment: string,
    readonly problem: NameProblem,
  ) {
    super(
      `Refusing unsafe name ${JSON.stringify(segment)} (${problem}): it could escape the sync root`,
    );
  }
}

function separatorOf(flavor: PathFlavor): string {
  return flavor === 'win32' ? '\\' : '/';
}

/**
 * Joins name components under `root`. Throws `UnsafePathError` for any component that is not
 * a plain child name, so the result is always `root` itself or strictly below it.
 * `root` is taken as given (the caller owns it); trailing separators are dropped.
 */
export function joinUnderRoot(
  root: string,
  segments: readonly string[],
  flavor: PathFlavor = 'posix',
): string {
  if (root.length === 0) throw new Error('joinUnderRoot: the root must not be empty');
  const sep = separatorOf(flavor);
  for (const segment of segments) {
    const check = checkName(segment, flavor);
    if (!check.ok) throw new UnsafePathError(segment, check.problem);
  }
  const base = trimTrailingSeparators(root, flavor);
  if (segments.length === 0) return base;
  return (base.endsWith(sep) ? base : base + sep) + segments.join(sep);
}

/** Splits a relative path (either separator on Windows) and joins it safely under `root`. */
export function resolveRelativeUnderRoot(
  root: string,
  relativePath: string,
  flavor: PathFlavor = 'posix',
): string {
  const segments = relativePath.split(flavor === 'win32' ? /[\\/]/ : '/').filter((s) => s !== '');
  if (
    relativePath.startsWith('/') ||
    (flavor === 'win32' && /^([a-zA-Z]:|\\)/.test(relativePath))
  ) {
    throw new UnsafePathError(relativePath, 'separator');
  }
  return joinUnderRoot(root, segments, flavor);
}

/** True when `candidate` is `root` or lies below it (lexically; symlinks are the caller's job). */
export function isInsideRoot(
  root: string,
  candidate: string,
  flavor: PathFlavor = 'posix',
): boolean {
  const sep = separatorOf(flavor);
  const fold = (p: string) => (flavor === 'win32' ? p.toLowerCase() : p);
  const r = fold(trimTrailingSeparators(root, flavor));
  const c = fold(trimTrailingSeparators(candidate, flavor));
  if (r === c) return true;
  const prefix = r.endsWith(sep) ? r : r + sep;
  if (!c.startsWith(prefix)) return false;
  // A lexical `..` below the root could still climb back out.
  const rest = c.slice(prefix.length).split(flavor === 'win32' ? /[\\/]/ : '/');
  return !rest.some((s) => s === '..' || s === '.');
}

function trimTrailingSeparators(p: string, flavor: PathFlavor): string {
  const re = flavor === 'win32' ? /[\\/]+$/ : /\/+$/;
  const trimmed = p.replace(re, '');
  // The filesystem root itself ("/" or "C:\") keeps its separator.
  if (trimmed === '') return flavor === 'win32' ? p.slice(0, 1) : '/';
  if (flavor === 'win32' && /^[a-zA-Z]:$/.test(trimmed)) return trimmed + '\\';
  return trimmed;
}
