import { stat } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from './common';

/**
 * Checks that `--dir` can be a folder before anything is created: the folder itself or its
 * nearest existing ancestor must be a folder. Otherwise creating it fails deep inside with a raw
 * `EEXIST: file already exists, mkdir` (the path is a file) or ENOTDIR (an ancestor is one).
 * Links are followed, as creating the folder would.
 */
export async function checkSyncDir(dir: string, given: string, command: string): Promise<void> {
  for (let p = dir; ; p = path.dirname(p)) {
    let isDir: boolean;
    try {
      isDir = (await stat(p)).isDirectory();
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // Missing (or under a file, which the loop reaches next): look at the parent.
      if ((code === 'ENOENT' || code === 'ENOTDIR') && path.dirname(p) !== p) continue;
      // Anything else (no permission to look) is for the sync to report in its own words.
      return;
    }
    if (isDir) return;
    throw new UsageError(
      p === dir
        ? `--dir ${given} is a file, not a folder`
        : `--dir ${given} cannot be a folder: ${p} is a file`,
      command,
    );
  }
}
