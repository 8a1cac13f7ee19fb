import path from 'node:path';
import type { Words } from '../../shared/i18n';
import { UnsafePathError } from '../../shared/paths';

// This computer's errors in words: a Node file system error ("EACCES: permission denied, open
// '/home/…'") is English, names an absolute path, and means little to a person. Said instead by
// its code, naming the item by its path in the sync folder.

const KEYS: Readonly<Record<string, Words['key']>> = {
  EACCES: 'engine.fs.denied',
  EPERM: 'engine.fs.denied',
  ENOSPC: 'engine.fs.full',
  EDQUOT: 'engine.fs.full',
  EROFS: 'engine.fs.readOnly',
  ENAMETOOLONG: 'engine.fs.tooLong',
  EBUSY: 'engine.fs.busy',
  EISDIR: 'engine.fs.notFolder',
  ENOTDIR: 'engine.fs.notFolder',
  ENOTEMPTY: 'engine.fs.exists',
  EEXIST: 'engine.fs.exists',
  ELOOP: 'engine.fs.loop',
  EMFILE: 'engine.fs.tooMany',
  ENFILE: 'engine.fs.tooMany',
  ENOENT: 'engine.fs.missing',
  EIO: 'engine.fs.io',
};

/**
 * Where an error happened, as a status may show it: the path relative to the sync folder `root`
 * (its own absolute path for the folder itself, which the person chose), or only the last name
 * of a path outside it (the engine's state folder): never an absolute path elsewhere.
 */
export function shownPath(abs: string | undefined, root: string | undefined): string {
  if (root === undefined) return abs === undefined ? '' : path.basename(abs);
  if (abs === undefined) return root;
  const rel = path.relative(root, abs);
  if (rel === '') return root;
  if (rel.startsWith('..') || path.isAbsolute(rel)) return path.basename(abs);
  return rel.split(path.sep).join('/');
}

/** The words for a file system error (by its `code`), or null when it is not one. */
export function localErrorWords(err: unknown, root?: string): Words | null {
  const e = err as Partial<NodeJS.ErrnoException> | null;
  const code = typeof e?.code === 'string' ? e.code : undefined;
  // A system call's error: it has a syscall and an errno code (E…), unlike a library's.
  if (!code || !/^E[A-Z0-9]+$/.test(code) || typeof e?.syscall !== 'string') return null;
  const where = shownPath(typeof e.path === 'string' ? e.path : undefined, root);
  const key = KEYS[code];
  return key
    ? { key, params: { path: where } }
    : { key: 'engine.fs.other', params: { code, path: where } };
}

/**
 * Errors of this computer's that concern one item, not the disk or the pass: its path too long
 * (PATH_MAX), a name the volume will not hold, no permission on it, something of the other kind
 * or in use at its place. The item (and what is below it) is a problem; the rest syncs. A full
 * disk, a read-only volume or too many open files are not: every item would meet them.
 */
const ITEM_CODES = new Set([
  'ENAMETOOLONG',
  'EILSEQ',
  'EINVAL',
  'EACCES',
  'EPERM',
  'ENOTDIR',
  'EISDIR',
  'ELOOP',
  'EBUSY',
]);

/** Whether `err` concerns one item only (see ITEM_CODES), or is a name joinUnderRoot refused. */
export function isItemError(err: unknown): boolean {
  if (err instanceof UnsafePathError) return true;
  const e = err as Partial<NodeJS.ErrnoException> | null;
  return typeof e?.code === 'string' && typeof e.syscall === 'string' && ITEM_CODES.has(e.code);
}

/** An item error in words, naming the item by `rel`, its path in the sync folder. */
export function itemErrorWords(err: unknown, rel: string): Words {
  if (err instanceof UnsafePathError) {
    // Names are mapped before they are joined: only a name made too long gets here, in practice.
    const kind = err.problem.replace(/-/g, '_');
    return { key: 'engine.badName', params: { kind, problem: err.problem } };
  }
  const words = localErrorWords(err);
  const code = String((err as NodeJS.ErrnoException).code);
  // The item's own path, not the one the call named (perhaps a 4 KB one, or a temporary file's).
  return words?.key === 'engine.fs.other' || !words
    ? { key: 'engine.fs.other', params: { code, path: rel } }
    : { key: words.key, params: { path: rel } };
}
