import { lstatSync, readdirSync, type Dirent, type Stats } from 'node:fs';
import path from 'node:path';
import { checkName } from '../../../shared/paths';
import type { ItemKind } from '../../../shared/item-kind';
import type { Words } from '../../../shared/i18n';
import type { LocalRoot } from '../local';
import { isItemError, itemErrorWords } from '../local-error';
import { CACHE_DIR, joinPath } from '../paths';

/** A file or folder found on disk, with the identity and facts the journal compares. */
export interface LocalEntry {
  path: string;
  name: string;
  kind: ItemKind;
  dev: number;
  ino: number;
  /** 0 for a folder. */
  size: number;
  mtimeMs: number;
  /** A file written to in the last moments: present, but not uploaded until it is quiet (still being written). */
  stillWriting: boolean;
}

/**
 * What a scan saw: `entries` holds every child of each folder listed (but those `onEntry` took),
 * each after the entry of its folder when that was listed too. The folders listed are not kept
 * (a million-entry tree has a hundred thousand): `onListed` sees each one.
 */
export interface LocalScan {
  complete: boolean;
  /** How many folders were listed. */
  listed: number;
  entries: Map<string, LocalEntry>;
  /** Folders that could not be read: nothing below them is judged gone. */
  unreadable: Set<string>;
  /** When the soonest file still being written will be quiet (epoch ms), or null. */
  writeQuietAt: number | null;
  /**
   * Entries whose names cannot be synced from here (a backslash, a control character), or that
   * this computer cannot look at (`words`: a path past PATH_MAX, no permission on it).
   */
  badNames: { path: string; problem: string; words?: Words }[];
}

export interface ScanOptions {
  ignores: (rel: string, isDir: boolean) => boolean;
  /** Whether to list a sub-folder found on the way (a full scan lists all of them). */
  descend: (entry: LocalEntry) => boolean;
  /** A file changed less than this long ago is still being written. */
  writeQuietMs: number;
  now?: number;
  /**
   * Sees each entry as it is found; true when it was reconciled there and then, and need not
   * be kept in `entries` (so that a scan of an unchanged tree holds almost nothing).
   */
  onEntry?: (entry: LocalEntry) => boolean;
  /**
   * Called once all the children of a listed folder were seen; `whole` false when one could not
   * be looked at (its path past PATH_MAX, no permission): what the folder held is not known.
   */
  onListed?: (dir: string, whole: boolean) => void;
}

/** Entries between two yields to the event loop: a 100,000-entry scan must not freeze the app. */
const YIELD_EVERY = 2000;

/**
 * Lists folders of the sync root (each given folder, and the sub-folders `descend` accepts),
 * recording for every file and folder its identity (device + inode), size and mtime. Symlinks
 * and special files are not synced and are skipped; ignored names are never reported.
 */
export async function scanLocal(
  local: LocalRoot,
  dirs: Iterable<string>,
  complete: boolean,
  opts: ScanOptions,
): Promise<LocalScan> {
  const now = opts.now ?? Date.now();
  const scan: LocalScan = {
    complete,
    listed: 0,
    entries: new Map(),
    unreadable: new Set(),
    writeQuietAt: null,
    badNames: [],
  };
  // Shallowest on top: every entry comes after the entry of its folder (planLocal relies on it).
  const depth = (p: string) => (p === '' ? 0 : p.split('/').length);
  // Each folder is listed once: one given is listed as given, not again when a listing above it
  // descends there (only the given ones are remembered, not every folder listed).
  const given = new Set(dirs);
  const stack = [...given].sort((a, b) => depth(b) - depth(a));
  let sinceYield = 0;
  while (stack.length > 0) {
    const dir = stack.pop()!;
    let names: Dirent[];
    try {
      names = readdirSync(local.abs(dir), { withFileTypes: true });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // Gone since it was reported: its parent's listing tells what happened to it.
      if (code !== 'ENOENT' && code !== 'ENOTDIR') scan.unreadable.add(dir);
      continue;
    }
    scan.listed++;
    // Each entry's absolute path is its folder's and its name: checked once per folder.
    const dirAbs = local.abs(dir);
    const under = dirAbs.endsWith(path.sep) ? dirAbs : dirAbs + path.sep;
    const undecodable = undecodableNames(dirAbs, names);
    const subdirs: string[] = [];
    /** An entry could not be looked at: what the folder held is not judged from this listing. */
    let whole = true;
    for (const d of names) {
      const entry = lookAt(local, scan, opts, now, dir, d, under, undecodable);
      if (entry === false) {
        whole = false;
        continue;
      }
      if (entry === null) continue;
      if (!opts.onEntry?.(entry)) scan.entries.set(entry.path, entry);
      if (entry.kind === 'folder' && !given.has(entry.path) && opts.descend(entry)) {
        subdirs.push(entry.path);
      }
      if (++sinceYield >= YIELD_EVERY) {
        sinceYield = 0;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    // A listing with an entry left out does not tell what is gone: a synced item there stays.
    opts.onListed?.(dir, whole);
    if (!whole) scan.unreadable.add(dir);
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]!);
  }
  return scan;
}

/**
 * One entry of a folder's listing, looked at: null when it is not one to sync (a bad name,
 * reported; ignored; neither file nor folder), false when it could not be looked at (said as a
 * problem of its own: what its folder held is then not judged from this listing).
 */
function lookAt(
  local: LocalRoot,
  scan: LocalScan,
  opts: ScanOptions,
  now: number,
  dir: string,
  d: Dirent,
  under: string,
  undecodable: Map<string, number>,
): LocalEntry | null | false {
  const rel = joinPath(dir, d.name);
  if (dir === '' && d.name === CACHE_DIR) return null;
  const left = undecodable.get(d.name);
  if (left) {
    // Node shows such a name with U+FFFD in place of its bad bytes: that string names no
    // file (or another one), so it is reported, never opened or sent.
    undecodable.set(d.name, left - 1);
    if (!opts.ignores(rel, d.isDirectory()))
      scan.badNames.push({
        path: rel,
        problem: d.isDirectory() ? 'encoding-folder' : 'encoding',
      });
    return null;
  }
  const check = checkName(d.name, local.flavor);
  if (!check.ok) {
    // Such a name would become a separator (or worse) elsewhere: reported, never sent.
    if (!opts.ignores(rel, d.isDirectory()))
      scan.badNames.push({ path: rel, problem: check.problem });
    return null;
  }
  const isDir = d.isDirectory();
  if (!isDir && !d.isFile()) return null;
  if (opts.ignores(rel, isDir)) return null;
  let st: Stats | undefined;
  try {
    st = lstatSync(under + d.name, { throwIfNoEntry: false });
  } catch (err) {
    // This entry's problem, not the scan's: its path too long for this computer (a tree
    // deeper than PATH_MAX), no permission to look at it. Said once, for what is below too.
    if (!isItemError(err)) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    // Looked at, not changed: no permission here is the folder's (no search right).
    const said: Words =
      code === 'EACCES' || code === 'EPERM'
        ? { key: 'engine.fs.noLook', params: { path: rel } }
        : itemErrorWords(err, rel);
    const words: Words = isDir ? { key: 'engine.fs.subtree', params: { problem: said } } : said;
    scan.badNames.push({ path: rel, problem: 'local', words });
    return false;
  }
  if (!st || (!st.isDirectory() && !st.isFile())) return null;
  const entry: LocalEntry = {
    path: rel,
    name: d.name,
    kind: st.isDirectory() ? 'folder' : 'file',
    dev: st.dev,
    ino: st.ino,
    size: st.isDirectory() ? 0 : st.size,
    mtimeMs: st.mtimeMs,
    stillWriting: false,
  };
  // A time slightly ahead (clocks differ; a download keeps the service's time) counts as
  // written just now: without a quiet time, nothing waits for it.
  const age = Math.max(0, now - st.mtimeMs);
  if (entry.kind === 'file' && age < opts.writeQuietMs && st.mtimeMs <= now + 1000) {
    entry.stillWriting = true;
    const at = now - age + opts.writeQuietMs;
    scan.writeQuietAt = scan.writeQuietAt === null ? at : Math.min(scan.writeQuietAt, at);
  }
  return entry;
}

/**
 * Names in `abs` that are not valid UTF-8, as Node shows them (bad bytes as U+FFFD), with how
 * many entries show that way. Only a listing that shows U+FFFD is read again as bytes: a real
 * U+FFFD in a valid name is not one of them.
 */
function undecodableNames(abs: string, names: readonly Dirent[]): Map<string, number> {
  const found = new Map<string, number>();
  if (!names.some((d) => d.name.includes('\uFFFD'))) return found;
  let raw: Buffer[];
  try {
    raw = readdirSync(abs, { encoding: 'buffer' });
  } catch {
    return found;
  }
  for (const bytes of raw) {
    const shown = bytes.toString('utf8');
    if (!Buffer.from(shown, 'utf8').equals(bytes)) found.set(shown, (found.get(shown) ?? 0) + 1);
  }
  return found;
}
