import { opendir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { LocalFolderCheck, LocalFolders } from '../../shared/app-api';
import {
  countUploads,
  FOLDER_CHECK_MS,
  lookAtSyncFolder,
  SyncFatalError,
  withinDeadline,
} from '../engine';
import { fail, failWith } from './errors';
import { englishOf, wordsOf, type Words } from '../../shared/i18n';

// The folder picker the backend serves to the browser window (the app uses the OS's dialog),
// and the look at a chosen folder before `pairs.add`. The picker shows only the home folder's
// tree: a web page on 127.0.0.1 has no business reading the rest of the disk, and a person's
// sync folder belongs there. Every file system call is fs/promises (libuv's pool, off the
// event loop) under the folder check's deadline.

const FULL_PATH: Words = { key: 'backend.fullPath' };

/** A check's problem: its English (older readers, logs) and its words (the window's language). */
const problem = (words: Words | null): Pick<LocalFolderCheck, 'problem' | 'words'> =>
  words ? { problem: englishOf(words), words } : { problem: null };

/** Folders listed at most; the listing says when there were more. */
export const MAX_FOLDERS = 500;
/**
 * Entries looked at at most (files included). A folder's files come in no order of the disk's
 * choosing, so a bound low enough to cut among them hides the folders behind them (20,000 did:
 * a folder whose first 20,000 entries were files showed no subfolder). Reading names and types
 * costs about a second per million, so only a folder of millions is cut (and says so).
 */
const MAX_SCANNED = 2_000_000;

/** `~` and `~/…` (or `~\…`) under `home`; any other path as given. */
export function expandHome(dir: string, home: string): string {
  if (dir === '~') return home;
  if (dir.startsWith('~/') || dir.startsWith('~' + path.sep)) return path.join(home, dir.slice(2));
  return dir;
}

const within = (p: string, dir: string) =>
  p === dir || p.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep);

/** The absolute path a person typed (`~` expanded), or a one-line refusal. */
export function absoluteOf(dir: string, home: string): string {
  const expanded = expandHome(dir.trim(), home);
  if (!path.isAbsolute(expanded)) fail('invalid', FULL_PATH);
  return path.resolve(expanded);
}

const codeOf = (err: unknown): string =>
  typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : '';

/** A failed look at `shown`, in one line (never an errno). */
function listFailure(err: unknown, shown: string): never {
  if (err instanceof SyncFatalError) return failWith('offline', err);
  switch (codeOf(err)) {
    case 'ENOENT':
      return fail('not-found', { key: 'backend.notExists', params: { path: shown } });
    case 'ENOTDIR':
      return fail('invalid', { key: 'backend.isFile', params: { path: shown } });
    case 'EACCES':
    case 'EPERM':
      return fail('forbidden', { key: 'backend.permission', params: { path: shown } });
    default:
      return fail('invalid', { key: 'backend.cannotList', params: { path: shown } });
  }
}

/** The nearest of `p` and its parents that exists, no higher than `top`. */
async function nearestExistingUnder(p: string, top: string): Promise<string> {
  let at = p;
  while (at !== top && within(at, top)) {
    const found = await stat(at).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (found) return at;
    at = path.dirname(at);
  }
  return top;
}

/**
 * The subfolders of `dir` (`~` expanded), which must be the home folder or under it, also once
 * links are followed. Names only, sorted as a person reads them, hidden ones (dot names) left
 * out unless asked for, at most MAX_FOLDERS. A link is listed when it leads to a folder inside
 * home; one leading out of home is left out. With `nearest`, a folder that does not exist yet
 * (the default `~/Workspace Sync/Q3`) lists its nearest existing parent instead.
 */
export async function listLocalFolders(
  dir: string,
  opts: { home: string; hidden?: boolean; nearest?: boolean; timeoutMs?: number },
): Promise<LocalFolders> {
  const home = path.resolve(opts.home);
  const wanted = absoluteOf(dir, home);
  const outside = () =>
    fail('invalid', { key: 'backend.outsideHome', params: { path: dir.trim(), home } });
  if (!within(wanted, home)) outside();
  const work = async (): Promise<LocalFolders> => {
    const realHome = await realpath(home).catch((err: unknown) => listFailure(err, home));
    const at = opts.nearest ? await nearestExistingUnder(wanted, home) : wanted;
    const real = await realpath(at).catch((err: unknown) => listFailure(err, dir.trim()));
    if (!within(real, realHome)) outside();
    const folder = await opendir(at, { bufferSize: 1024 }).catch((err: unknown) =>
      listFailure(err, dir.trim()),
    );
    const names: string[] = [];
    let scanned = 0;
    let truncated = false;
    try {
      for await (const entry of folder) {
        if (++scanned > MAX_SCANNED || names.length >= MAX_FOLDERS) {
          truncated = true;
          break;
        }
        if (!opts.hidden && entry.name.startsWith('.')) continue;
        if (entry.isDirectory()) names.push(entry.name);
        else if (entry.isSymbolicLink()) {
          const target = path.join(at, entry.name);
          const to = await realpath(target).catch(() => null);
          if (!to || !within(to, realHome)) continue;
          if (
            await stat(to).then(
              (s) => s.isDirectory(),
              () => false,
            )
          )
            names.push(entry.name);
        }
      }
    } finally {
      // A break closes the folder itself; closing again after that rejects, harmlessly.
      await folder.close().catch(() => undefined);
    }
    const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
    names.sort(collator.compare);
    const crumbs = [{ name: path.basename(home) || home, path: home }];
    for (const part of path.relative(home, at).split(path.sep).filter(Boolean)) {
      crumbs.push({ name: part, path: path.join(crumbs[crumbs.length - 1]!.path, part) });
    }
    return {
      path: at,
      home,
      parent: at === home ? null : path.dirname(at),
      crumbs,
      folders: names.map((name) => ({ name, path: path.join(at, name) })),
      truncated,
    };
  };
  return withinDeadline(wanted, opts.timeoutMs ?? FOLDER_CHECK_MS, work());
}

/**
 * What is wrong with `dir` as a new pair's folder, as data: `problem` is one line, or null
 * when it can be used (it exists and is a writable folder, or can be created). `taken` says
 * which pair already syncs a folder inside or around the given path, if any.
 */
export async function checkLocalFolder(
  dir: string,
  opts: {
    home: string;
    taken: (dir: string) => Words | null;
    /** This app's own folders (state, settings), never a sync folder's place. */
    appDirs?: readonly string[];
    /** The settings' ignore patterns: what a first sync would leave out of its count. */
    ignorePatterns?: readonly string[];
    timeoutMs?: number;
  },
): Promise<LocalFolderCheck> {
  const expanded = expandHome(dir.trim(), path.resolve(opts.home));
  if (dir.trim() === '')
    return { dir: '', exists: false, ...problem({ key: 'backend.chooseFolder' }) };
  if (!path.isAbsolute(expanded)) return { dir: expanded, exists: false, ...problem(FULL_PATH) };
  const wanted = path.resolve(expanded);
  const lexical = opts.taken(wanted);
  if (lexical) return { dir: wanted, exists: false, ...problem(lexical) };
  try {
    const found = await lookAtSyncFolder(wanted, opts.timeoutMs, {
      home: opts.home,
      appDirs: opts.appDirs,
    });
    // Through a link, the folder may be another pair's after all.
    const real = found.real === wanted ? null : opts.taken(found.real);
    if (real || !found.exists) return { dir: wanted, exists: found.exists, ...problem(real) };
    // What adding it would merge into the workspace, asked about before pairs.add.
    const uploads = await countUploads(found.real, { ignorePatterns: opts.ignorePatterns });
    return { dir: wanted, exists: true, ...problem(null), uploads };
  } catch (err) {
    if (err instanceof SyncFatalError) {
      // The engine's words when it sends them (its folder check), else its English.
      const words = wordsOf(err);
      return { dir: wanted, exists: false, problem: err.message, ...(words ? { words } : {}) };
    }
    throw err;
  }
}
