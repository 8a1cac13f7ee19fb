import { createHash } from 'node:crypto';
import { createReadStream, lstatSync, realpathSync, type Stats } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import {
  checkName,
  isInsideRoot,
  resolveRelativeUnderRoot,
  type PathFlavor,
} from '../../shared/paths';
import type { Language } from '../../shared/i18n';
import type { JournalItem } from '../journal/journal';
import { Confined, SwapError } from './confined';
import { conflictName } from './conflict-copy';

/**
 * The longest path a system call takes, in bytes with its final NUL: Linux's PATH_MAX, macOS's;
 * Windows takes long paths (Node prefixes them).
 */
const PATH_MAX =
  process.platform === 'linux' ? 4096 : process.platform === 'darwin' ? 1024 : Infinity;

/** Folders a pass remembers as checked inside the root (see `contained`). */
const CONTAINED_KEPT = 4096;

/** The local identity and content facts the journal keeps of a file or folder. */
export interface LocalFacts {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

export const factsOf = (st: Stats): LocalFacts => ({
  dev: st.dev,
  ino: st.ino,
  size: st.isDirectory() ? 0 : st.size,
  mtimeMs: st.mtimeMs,
});

export async function hashFile(abs: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(abs), hash);
  return hash.digest('hex');
}

/**
 * The sync root on disk. Every path the engine touches is built here from a relative path of
 * local names, refused if it could leave the root (`..`, separators, drive letters), and its
 * folder's real path is checked to lie inside the root's (a folder replaced by a symlink to
 * elsewhere is refused, not followed).
 */
export class LocalRoot {
  readonly real: string;
  readonly flavor: PathFlavor;
  /** Writes and checked reads through folders opened without following links. */
  readonly confined: Confined;
  /** The words of the conflict copies made from now on (the engine's language, its setting). */
  language: Language = 'en';

  constructor(readonly root: string) {
    this.flavor = process.platform === 'win32' ? 'win32' : 'posix';
    this.real = realpathSync(root);
    this.confined = new Confined(root, (rel) => this.abs(rel));
  }

  abs(rel: string): string {
    if (rel === '') return this.root;
    const abs = resolveRelativeUnderRoot(this.root, rel, this.flavor);
    // Past PATH_MAX every call naming the path fails, but a write through opened folders
    // (confined.ts) would not: the item would be placed, then out of reach of all the rest.
    if (abs.length * 3 >= PATH_MAX && Buffer.byteLength(abs, 'utf8') >= PATH_MAX) {
      throw Object.assign(new Error(`ENAMETOOLONG: name too long, '${abs}'`), {
        code: 'ENAMETOOLONG',
        syscall: 'open',
        path: abs,
      });
    }
    return abs;
  }

  /**
   * Whether every name of `rel` is one the engine may use as a path (`checkName`): a problem's
   * path may hold a name that is not (`budget\v2.txt`, refused when the folder was listed),
   * which only a listing, never a path, can look at.
   */
  canName(rel: string): boolean {
    return rel.split('/').every((name) => checkName(name, this.flavor).ok);
  }

  stat(rel: string): Stats | undefined {
    try {
      return lstatSync(this.abs(rel), { throwIfNoEntry: false });
    } catch (err) {
      // A file where a folder of the path was (replaced here): nothing is at the path.
      if ((err as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
      throw err;
    }
  }

  /**
   * Folders checked by assertContained during this pass, the latest few thousand: a pass over a
   * million entries writes into 100,000 folders, mostly one after the other.
   */
  private contained = new Set<string>();

  /** Forgets the folders checked so far: each pass checks again what it writes through. */
  newPass(): void {
    this.contained.clear();
    this.confined.release(true);
  }

  /** Closes the folders the pass opened. */
  endPass(): void {
    this.confined.release();
  }

  /** Throws unless the folder that holds `rel` really is inside the root (no symlink escape). */
  assertContained(rel: string): void {
    const dir = path.dirname(this.abs(rel));
    if (this.contained.has(dir)) return;
    const real = realpathSync.native(dir);
    if (!isInsideRoot(this.real, real, this.flavor)) {
      // `dir` is the link inside the sync folder (the person's own path), not where it leads.
      throw new SwapError({ key: 'engine.leadsOutside', params: { dir } });
    }
    if (this.contained.size >= CONTAINED_KEPT) this.contained.clear();
    this.contained.add(dir);
  }

  /**
   * Creates the folder `rel` and whichever of its parents are missing, one level at a time, each
   * checked to be inside the root before it is made. Returns the folders it created, topmost
   * first; something other than a folder in the way is left for the caller to meet.
   */
  ensureFolder(rel: string): string[] {
    if (rel === '') return [];
    const st = this.stat(rel);
    if (st) return [];
    const made = this.ensureFolder(path.posix.dirname(rel) === '.' ? '' : path.posix.dirname(rel));
    this.assertContained(rel);
    this.confined.mkdir(rel);
    return [...made, rel];
  }

  /** Whether the item on disk is still what the journal recorded (by identity, else content). */
  async unchanged(j: JournalItem, st: Stats | undefined): Promise<boolean> {
    if (!st) return false;
    if (j.kind === 'folder') return st.isDirectory();
    if (!st.isFile() || st.size !== j.size) return false;
    if (st.ino === j.ino && st.mtimeMs === j.mtimeMs) return true;
    return j.hash !== null && (await hashFile(this.abs(j.localPath))) === j.hash;
  }

  /**
   * Renames whatever is at `rel` to a free conflict name beside it, in the language of the
   * moment; returns the new relative path.
   */
  moveAside(rel: string, isFolder: boolean): string {
    const slash = rel.lastIndexOf('/');
    const dir = slash < 0 ? '' : rel.slice(0, slash);
    const name = rel.slice(slash + 1);
    const now = new Date();
    let candidate = conflictName(name, isFolder, now, 1, this.language);
    for (let n = 2; this.stat(dir === '' ? candidate : `${dir}/${candidate}`); n++) {
      candidate = conflictName(name, isFolder, now, n, this.language);
    }
    const to = dir === '' ? candidate : `${dir}/${candidate}`;
    this.assertContained(to);
    this.confined.rename(rel, to);
    return to;
  }
}
