import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmdirSync,
  type Stats,
} from 'node:fs';
import path from 'node:path';
import { WordedError } from '../../shared/worded-error';

// Writes and reads under the sync root that a racing local process cannot send outside it. A
// path is resolved again at every call, so a folder on it that is exchanged with a symlink to
// elsewhere (an atomic rename) between a check and the call redirects the call. Here folders are
// opened one component at a time without following links, and the call goes through the opened
// descriptor (Linux: /proc/self/fd/N/name names the folder that descriptor holds, wherever it is
// now — openat without native bindings). After a write the folder's path is checked again to
// still lead to that folder; if not, the write is undone and the item stops with a problem.

/** An item's folder was replaced or moved while it was being synced (perhaps by a link). */
export class SwapError extends WordedError {
  override readonly name = 'SwapError';
}

export const swapped = (rel: string): SwapError =>
  new SwapError({
    key: 'engine.swapped',
    params: { path: rel || { key: 'engine.theSyncFolder' } },
  });

/** Where descriptors can be named as folders; elsewhere only the checks before and after hold. */
const FD_DIR = process.platform === 'linux' && existsSync('/proc/self/fd') ? '/proc/self/fd' : null;

const DIR_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0);
/** No FIFO or device blocks the open: what was checked was a regular file. */
const FILE_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** What a folder of the chain was when it was opened. */
interface Link {
  abs: string;
  dev: number;
  ino: number;
}

/** An opened folder under the root, and the folders from the root down to it. */
export interface OpenDir {
  rel: string;
  /** -1 where descriptors cannot be named (the path is used, checked before and after). */
  fd: number;
  chain: Link[];
}

/** The most folders kept open within a pass. */
export const MAX_OPEN = 256;

const isGone = (err: unknown) =>
  ['ENOENT', 'ENOTDIR', 'ELOOP'].includes((err as NodeJS.ErrnoException).code ?? '');

/**
 * The folders of one sync root, opened without following links. Opened folders are kept until
 * `release` (a pass writes many files into few folders; each is opened once per pass).
 */
export class Confined {
  private readonly open = new Map<string, OpenDir>();
  /** Within a pass opened folders are kept for the next item; outside one, closed after each. */
  private keep = false;
  /** The root's real path: where the kernel says an opened folder is (see `holds`). */
  private readonly realRoot: string | null;

  constructor(
    private readonly root: string,
    private readonly abs: (rel: string) => string,
  ) {
    let real: string | null = null;
    try {
      real = FD_DIR ? realpathSync.native(root) : null;
    } catch {
      // Not there (yet): every check takes the chain, component by component.
    }
    this.realRoot = real;
  }

  /** Opens folder `rel` from the root down; a link or non-folder on the way is a swap. */
  dir(rel: string): OpenDir {
    const kept = this.open.get(rel);
    if (kept) {
      // Most recently used last: the oldest are closed first when too many are open.
      this.open.delete(rel);
      this.open.set(rel, kept);
      return kept;
    }
    const names = rel === '' ? [] : rel.split('/');
    // From the nearest folder above that is open already (itself opened from the root without
    // following links), not from the root again: a mirror places files in thousands of folders
    // (more than are kept open), and each opening from the root cost one call per level. Where
    // the folder above stands now is checked after each write as for any other (`holds`).
    const from = FD_DIR ? this.openAbove(names) : null;
    const start = from?.chain.length ?? 0;
    let fd = from
      ? from.fd
      : FD_DIR
        ? openSync(this.root, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0))
        : -1;
    /** The opened folder above is its holder's: never closed here. */
    let borrowed = from !== null;
    const chain: Link[] = from ? [...from.chain] : [];
    try {
      for (let i = start; i < names.length; i++) {
        const sub = names.slice(0, i + 1).join('/');
        const abs = this.abs(sub);
        let st: Stats;
        if (fd >= 0) {
          let next: number;
          try {
            next = openSync(`${FD_DIR}/${fd}/${names[i]}`, DIR_FLAGS);
          } catch (err) {
            if (isGone(err)) throw swapped(rel);
            throw err;
          }
          if (!borrowed) closeSync(fd);
          borrowed = false;
          fd = next;
          st = fstatSync(fd);
        } else {
          const l = lstatSync(abs, { throwIfNoEntry: false });
          if (!l?.isDirectory()) throw swapped(rel);
          st = l;
        }
        chain.push({ abs, dev: st.dev, ino: st.ino });
      }
    } catch (err) {
      if (fd >= 0 && !borrowed) closeSync(fd);
      throw err;
    }
    const d = { rel, fd, chain };
    this.open.set(rel, d);
    return d;
  }

  /** The nearest folder above `names` (the root excluded) that is open now, if any. */
  private openAbove(names: string[]): OpenDir | null {
    for (let i = names.length - 1; i > 0; i--) {
      const d = this.open.get(names.slice(0, i).join('/'));
      if (d && d.fd >= 0) return d;
    }
    return null;
  }

  /** The path of `name` in an opened folder, as the system calls should take it. */
  at(d: OpenDir, name: string): string {
    return d.fd >= 0 ? `${FD_DIR}/${d.fd}/${name}` : path.join(this.abs(d.rel), name);
  }

  /** Whether the folder's path still leads, through no link, to the folder that was opened. */
  holds(d: OpenDir): boolean {
    if (d.fd >= 0 && this.realRoot !== null) {
      // One call instead of one per level (a mirror checks every file it places, several times):
      // the kernel names where the opened folder is now, through its real parent folders, so a
      // name equal to the path we meant means that path leads to it through no link. Anything
      // else (moved, deleted, a root reached another way) is judged by the chain below.
      let now: string | null = null;
      try {
        now = readlinkSync(`${FD_DIR}/${d.fd}`);
      } catch {
        // Judged by the chain.
      }
      const meant = d.rel === '' ? this.realRoot : `${this.realRoot}/${d.rel}`;
      if (now === meant && !now.endsWith(' (deleted)')) return true;
    }
    for (const link of d.chain) {
      const st = lstatSync(link.abs, { throwIfNoEntry: false });
      if (!st?.isDirectory() || st.dev !== link.dev || st.ino !== link.ino) return false;
    }
    return true;
  }

  /**
   * The check before a write. Through a descriptor the write cannot leave the folder, and the
   * check after it undoes a move of the folder; by path, only a check just before narrows the
   * window in which a swap redirects the write.
   */
  private before(d: OpenDir): boolean {
    return d.fd >= 0 || this.holds(d);
  }

  /** Forgets an opened folder (after a swap: the next item opens it again). */
  drop(d: OpenDir): void {
    // Only the holder closes: a descriptor closed twice could close another's that took its number.
    if (this.open.get(d.rel) !== d) return;
    this.open.delete(d.rel);
    if (d.fd >= 0) closeSync(d.fd);
  }

  /** Starts a pass (`keep`: folders stay open until the next call) or ends one. */
  release(keep = false): void {
    for (const d of this.open.values()) if (d.fd >= 0) closeSync(d.fd);
    this.open.clear();
    this.keep = keep;
  }

  private doneWith(dirs: OpenDir[]): void {
    if (!this.keep) for (const d of dirs) this.drop(d);
    // A pass over a tree of 100,000 folders must not hold 100,000 descriptors (the limit is
    // 10,240 on macOS, often lower): past the bound the least recently used are closed. Every
    // operation here is synchronous, so none still uses a folder closed at its end.
    for (const d of this.open.values()) {
      if (this.open.size <= MAX_OPEN) break;
      this.drop(d);
    }
  }

  /**
   * Renames `from` to `to` (relative paths), each through its opened folder; undone (and a
   * SwapError) if either folder's path no longer leads to it afterwards.
   */
  rename(from: string, to: string): void {
    this.move(from, to, false);
  }

  /**
   * `rename`, and the facts of the item where it went, looked at through the opened folder
   * before that folder is checked: the check after the rename vouches for both (a placed file
   * is recorded with them, without a second look and check).
   */
  renameAndStat(from: string, to: string): Stats {
    const st = this.move(from, to, true);
    if (!st) throw swapped(to);
    return st;
  }

  private move(from: string, to: string, stat: boolean): Stats | undefined {
    const [fromDir, fromName] = split(from);
    const [toDir, toName] = split(to);
    const src = this.dir(fromDir);
    const dst = this.dir(toDir);
    try {
      if (!this.before(src) || !this.before(dst)) throw this.fail([src, dst], to);
      renameSync(this.at(src, fromName), this.at(dst, toName));
      const st = stat ? lstatSync(this.at(dst, toName), { throwIfNoEntry: false }) : undefined;
      if (this.holds(src) && this.holds(dst)) return st;
      // Put back where it came from, through the same descriptors: nothing stays where it went.
      if (src.fd >= 0) renameSync(this.at(dst, toName), this.at(src, fromName));
      throw this.fail([src, dst], to);
    } finally {
      this.doneWith([src, dst]);
    }
  }

  /** Makes folder `rel` in its opened parent; removed again (and a SwapError) after a swap. */
  mkdir(rel: string): void {
    const [dir, name] = split(rel);
    const parent = this.dir(dir);
    try {
      if (!this.before(parent)) throw this.fail([parent], rel);
      try {
        mkdirSync(this.at(parent, name));
      } catch (err) {
        // Not there when looked at by path, there through the folder: it changed meanwhile.
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw this.fail([parent], rel);
        throw err;
      }
      if (this.holds(parent)) return;
      if (parent.fd >= 0) rmdirSync(this.at(parent, name));
      throw this.fail([parent], rel);
    } finally {
      this.doneWith([parent]);
    }
  }

  /** The facts of the item at `rel`, looked at through its opened folder (no link followed). */
  lstat(rel: string): Stats | undefined {
    const [dir, name] = split(rel);
    const parent = this.dir(dir);
    try {
      const st = lstatSync(this.at(parent, name), { throwIfNoEntry: false });
      if (!this.holds(parent)) throw this.fail([parent], rel);
      return st;
    } finally {
      this.doneWith([parent]);
    }
  }

  /**
   * `lstat` without the check after it, for a caller whose next step through the same folder is
   * checked anyway (a placement's rename): what it tells is of the folder that was opened,
   * wherever that folder is now, never of a place a link leads to.
   */
  peek(rel: string): Stats | undefined {
    const [dir, name] = split(rel);
    const parent = this.dir(dir);
    if (parent.fd < 0) return this.lstat(rel);
    try {
      return lstatSync(this.at(parent, name), { throwIfNoEntry: false });
    } finally {
      this.doneWith([parent]);
    }
  }

  /**
   * Opens the regular file at `rel` for reading, once, without following a link, and only if it
   * is the file that was looked at (`seen`: same identity, size and time). The caller reads from
   * the descriptor and closes it.
   */
  openFile(rel: string, seen: Pick<Stats, 'dev' | 'ino' | 'size' | 'mtimeMs'>): number {
    const [dir, name] = split(rel);
    const parent = this.dir(dir);
    let fd: number;
    try {
      try {
        fd = openSync(this.at(parent, name), FILE_FLAGS);
      } catch (err) {
        if (isGone(err)) throw swapped(rel);
        throw err;
      }
      const st = fstatSync(fd);
      const same =
        st.isFile() &&
        st.dev === seen.dev &&
        st.ino === seen.ino &&
        st.size === seen.size &&
        st.mtimeMs === seen.mtimeMs;
      if (!same || !this.holds(parent)) {
        closeSync(fd);
        throw swapped(rel);
      }
      return fd;
    } finally {
      // Reads open one file per folder now and then: nothing of it is kept.
      this.drop(parent);
    }
  }

  private fail(dirs: OpenDir[], rel: string): SwapError {
    for (const d of dirs) this.drop(d);
    return swapped(rel);
  }
}

function split(rel: string): [string, string] {
  const i = rel.lastIndexOf('/');
  return i < 0 ? ['', rel] : [rel.slice(0, i), rel.slice(i + 1)];
}
