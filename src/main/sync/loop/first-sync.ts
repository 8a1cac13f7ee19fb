import { opendir } from 'node:fs/promises';
import path from 'node:path';
import { checkName, type PathFlavor } from '../../../shared/paths';
import { IgnoreRules } from '../detect-local/ignore';
import { CACHE_DIR, joinPath } from '../paths';

// What a first sync of a folder would upload, counted before the pair exists (issue 39: a folder
// with files in it was merged into the workspace without a word). Counted as the engine's scan
// sees the folder: files and folders, not links or special files, not ignored names (the
// built-in ones, the settings' patterns, the folder's own ignore file), not names that cannot be
// synced, not the engine's own cache folder.

/** Counting stops here: past it the person is told "more than". */
export const UPLOAD_COUNT_LIMIT = 100_000;

/** Items a first sync would upload, at most `limit`; `more` when there were more. */
export interface UploadCount {
  count: number;
  more: boolean;
}

/**
 * Counts the items a first sync of `root` would upload (0 when it does not exist or cannot be
 * read: the sync itself says what is wrong then). Reads folders with fs/promises (libuv's pool),
 * so the event loop answers meanwhile.
 */
export async function countUploads(
  root: string,
  opts: { ignorePatterns?: readonly string[]; limit?: number; flavor?: PathFlavor } = {},
): Promise<UploadCount> {
  const limit = opts.limit ?? UPLOAD_COUNT_LIMIT;
  const flavor: PathFlavor = opts.flavor ?? (process.platform === 'win32' ? 'win32' : 'posix');
  const rules = IgnoreRules.load(root, opts.ignorePatterns ?? []);
  let count = 0;
  const stack = [''];
  while (stack.length > 0) {
    const rel = stack.pop()!;
    const dir = await opendir(path.join(root, ...rel.split('/')), { bufferSize: 256 }).catch(
      () => null,
    );
    if (!dir) continue;
    try {
      for await (const d of dir) {
        if (rel === '' && d.name === CACHE_DIR) continue;
        const isDir = d.isDirectory();
        if (!isDir && !d.isFile()) continue;
        if (!checkName(d.name, flavor).ok) continue;
        const child = joinPath(rel, d.name);
        if (rules.ignores(child, isDir)) continue;
        if (++count > limit) return { count: limit, more: true };
        if (isDir) stack.push(child);
      }
    } finally {
      await dir.close().catch(() => undefined);
    }
  }
  return { count, more: false };
}
