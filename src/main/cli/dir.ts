import { findExisting } from '../engine';
import { UsageError } from './common';

/**
 * Checks that `--dir` can be a folder before anything is created: the folder itself or its
 * nearest existing ancestor must be a folder. Otherwise creating it fails deep inside with a raw
 * `EEXIST: file already exists, mkdir` (the path is a file) or ENOTDIR (an ancestor is one).
 * Links are followed, as creating the folder would. Anything else (no permission to look) is for
 * the sync to report in its own words.
 */
export async function checkSyncDir(dir: string, given: string, command: string): Promise<void> {
  const found = await findExisting(dir).catch(() => null);
  if (!found || found.isDir) return;
  throw new UsageError(
    found.existing === dir
      ? { key: 'cli.err.dirIsFile', params: { dir: given } }
      : { key: 'cli.err.dirUnderFile', params: { dir: given, file: found.existing } },
    command,
  );
}
