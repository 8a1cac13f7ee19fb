import { access, constants, mkdir, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import type { Words } from '../../shared/i18n';
import { SyncFatalError } from './errors';
import { isSystemPath, isWithin, refusedFolder } from './folder-rules';

// The one check of a chosen sync folder (the window's pairs.add, the CLI's --dir, every engine
// start). It runs off the main thread (fs/promises runs on libuv's pool) under a deadline, and
// never uses a recursive mkdir: Node's recursive mkdir loops for ever where mkdir answers ENOENT
// under a parent that exists (/proc/self/x), which pinned a core and made the process deaf to
// SIGTERM. Missing folders are created one level at a time instead, each a single system call.

/** How long the whole check may take (a network share that stopped answering). */
export const FOLDER_CHECK_MS = 10_000;

/** Where a sync folder may be: the person's home and this app's state directory. */
export interface FolderPlaces {
  /** The home folder (default: this process's): itself refused, the folders in it a person's. */
  home?: string;
  /** This app's own folders (state, settings): no sync folder may hold one or be inside one. */
  appDirs?: readonly string[];
}

const under = (p: string, dir: string) => isWithin(p, dir, process.platform);

export { isSystemPath };

/** Refuses the folder (`folder`, said as the person gave it) with one of the catalog's lines. */
const refuse = (key: Words['key'], folder: string, params: Words['params'] = {}): never => {
  throw new SyncFatalError('folder', { key, params: { folder, ...params } });
};

/**
 * Refuses `real` (where the folder `wanted` really leads) by its place: the top of a disk, the
 * home folder itself, a tree of the operating system (folder-rules.ts), or this app's own state.
 */
export function refusePlace(real: string, wanted: string, places: FolderPlaces): void {
  const why = refusedFolder(real, { home: places.home ?? homedir() });
  // Through a link, the place it leads to is the one named (the link's own name says nothing).
  const shown = real === wanted ? wanted : real;
  if (why === 'root') refuse('engine.folder.root', shown);
  if (why === 'home') refuse('engine.folder.home', shown);
  if (why === 'system') {
    if (real === wanted) refuse('engine.folder.system', wanted);
    refuse('engine.folder.systemVia', wanted, { real });
  }
  for (const state of (places.appDirs ?? []).map((dir) => path.resolve(dir))) {
    if (under(real, state) || under(state, real))
      refuse('engine.folder.appData', wanted, { state });
  }
}

const codeOf = (err: unknown): string =>
  typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : '';

/** A failed file system call on `p`, as one line a person can act on (never an errno). */
function folderFailure(err: unknown, p: string): never {
  switch (codeOf(err)) {
    case 'EACCES':
    case 'EPERM':
      return refuse('engine.folder.denied', p);
    case 'ENOSPC':
    case 'EDQUOT':
      return refuse('engine.folder.full', p);
    case 'EROFS':
      return refuse('engine.folder.readOnly', p);
    case 'ENAMETOOLONG':
      return refuse('engine.folder.tooLong', p);
    case 'ELOOP':
      return refuse('engine.folder.loop', p);
    case 'ENOTDIR':
    case 'EEXIST':
      return refuse('engine.folder.isFile', p);
    default:
      return refuse('engine.folder.unusable', p);
  }
}

/**
 * The nearest of `p` and its parents that exists (whether a folder or not), and the names below
 * it that do not. Rejects with the system's error when a look fails otherwise (no permission).
 */
export async function findExisting(
  p: string,
): Promise<{ existing: string; missing: string[]; isDir: boolean }> {
  const missing: string[] = [];
  let existing = p;
  for (;;) {
    try {
      return { existing, missing, isDir: (await stat(existing)).isDirectory() };
    } catch (err) {
      const code = codeOf(err);
      const parent = path.dirname(existing);
      // ENOTDIR: a file on the way; its own stat (one level up) says so.
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || parent === existing) throw err;
      missing.unshift(path.basename(existing));
      existing = parent;
    }
  }
}

/** The nearest existing folder of `p`, in one line when a file is in the way or a look fails. */
async function nearestExisting(p: string): Promise<{ existing: string; missing: string[] }> {
  const found = await findExisting(p).catch((err: unknown) => folderFailure(err, p));
  if (!found.isDir) refuse('engine.folder.isFileOnPath', found.existing);
  return found;
}

async function examine(
  wanted: string,
  create: boolean,
  places: FolderPlaces,
): Promise<string | null> {
  const { existing, missing } = await nearestExisting(wanted);
  // Where the path really leads: a symbolic link to /proc is refused like /proc itself.
  let real = await realpath(existing).catch((err: unknown) => folderFailure(err, existing));
  refusePlace(path.join(real, ...missing), wanted, places);
  if (missing.length > 0 && !create) return null;
  for (const name of missing) {
    real = path.join(real, name);
    try {
      await mkdir(real);
    } catch (err) {
      // Made meanwhile by someone else is fine, as long as it is a folder.
      if (codeOf(err) !== 'EEXIST') folderFailure(err, real);
      const st = await stat(real).catch((e: unknown) => folderFailure(e, real));
      if (!st.isDirectory()) folderFailure(err, real);
    }
  }
  const final = await realpath(wanted).catch((err: unknown) => folderFailure(err, wanted));
  refusePlace(final, wanted, places);
  return final;
}

/**
 * Checks a chosen sync folder and creates it (and missing parents) when `create` is set.
 * Resolves with its real path, or null when it is missing and `create` is not set (the engine
 * then says what its journal knows). Rejects with a SyncFatalError of kind `folder` whose message
 * is one line: a system folder, a file in the way, no permission, a full or read-only disk, or
 * no answer within `timeoutMs`.
 */
export async function checkSyncFolder(
  dir: string,
  opts: { create: boolean; timeoutMs?: number } & FolderPlaces,
): Promise<string | null> {
  const wanted = path.resolve(dir);
  refusePlace(wanted, wanted, opts);
  return withinDeadline(
    wanted,
    opts.timeoutMs ?? FOLDER_CHECK_MS,
    examine(wanted, opts.create, opts),
  );
}

/**
 * `work` on the folder `p`, or a SyncFatalError of kind `folder` once `timeoutMs` has passed
 * (a disk or network share that stopped answering leaves the call pending on libuv's pool; the
 * person gets an answer meanwhile).
 */
export async function withinDeadline<T>(
  p: string,
  timeoutMs: number,
  work: Promise<T>,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new SyncFatalError('folder', {
            key: 'engine.folder.noAnswer',
            params: { folder: p, seconds: Math.round(timeoutMs / 1000) },
          }),
        ),
      timeoutMs,
    );
    timer.unref();
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** What a look before adding a pair found: where the folder leads, and whether it exists. */
export interface FolderLook {
  /** The real path (through links) the folder has or would have once created. */
  real: string;
  exists: boolean;
}

/**
 * The same check as `checkSyncFolder`, before anything is created (the window asks while the
 * person is still choosing), plus whether the folder, or its nearest existing parent where it
 * would be created, can be written to. Resolves with what it found, or rejects with the same
 * one-line SyncFatalError.
 */
export async function lookAtSyncFolder(
  dir: string,
  timeoutMs = FOLDER_CHECK_MS,
  places: FolderPlaces = {},
): Promise<FolderLook> {
  const wanted = path.resolve(dir);
  refusePlace(wanted, wanted, places);
  return withinDeadline(wanted, timeoutMs, look(wanted, places));
}

async function look(wanted: string, places: FolderPlaces): Promise<FolderLook> {
  const { existing, missing } = await nearestExisting(wanted);
  const real = await realpath(existing).catch((err: unknown) => folderFailure(err, existing));
  const final = path.join(real, ...missing);
  refusePlace(final, wanted, places);
  // access(W_OK) answers EROFS for a read-only mount even to root, whose writes chmod allows.
  await access(real, constants.W_OK | constants.X_OK).catch((err: unknown) =>
    folderFailure(err, missing.length > 0 ? wanted : existing),
  );
  return { real: final, exists: missing.length === 0 };
}
