import { cp, lstat, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Trash } from './ports';

const exists = (p: string) =>
  lstat(p).then(
    () => true,
    () => false,
  );

/**
 * The CLI's trash: a folder (in the state directory) where removals land under a time-stamped
 * folder per run, with their path relative to the sync root, content intact; a second removal of
 * the same path gets a numbered name, never replaces the first. The app uses the OS trash.
 */
export class FolderTrash implements Trash {
  private readonly batch = new Date().toISOString().replace(/[:.]/g, '-');

  constructor(readonly dir: string) {}

  async put(absPath: string, relPath: string): Promise<void> {
    const first = path.join(this.dir, this.batch, ...relPath.split('/'));
    let dest = first;
    for (let n = 2; await exists(dest); n++) dest = `${first} (${n})`;
    await mkdir(path.dirname(dest), { recursive: true });
    try {
      await rename(absPath, dest);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      // Another volume: copy everything first, and remove the original only once it is safe.
      await cp(absPath, dest, { recursive: true, preserveTimestamps: true, errorOnExist: true });
      await rm(absPath, { recursive: true });
    }
  }
}
