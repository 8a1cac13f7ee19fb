import { cp, lstat, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { fitName } from './names';
import type { Trash } from './ports';

const exists = (p: string) =>
  lstat(p).then(
    () => true,
    () => false,
  );

/**
 * The CLI's trash: a folder (in the state directory) where removals land under a time-stamped
 * folder per run, with their path relative to the sync root, content intact; a second removal of
 * the same path gets a numbered name (`a (2).txt`), never replaces the first. The app uses the
 * OS trash.
 */
export class FolderTrash implements Trash {
  private readonly batch = new Date().toISOString().replace(/[:.]/g, '-');

  constructor(readonly dir: string) {}

  async put(absPath: string, relPath: string): Promise<void> {
    const first = path.join(this.dir, this.batch, ...relPath.split('/'));
    const name = path.basename(first);
    const kind = (await lstat(absPath)).isDirectory() ? 'folder' : 'file';
    let dest = first;
    // `a (2).txt`, shortened to fit when the name was long already (a 255-byte name).
    for (let n = 2; await exists(dest); n++) {
      dest = path.join(path.dirname(first), fitName(name, ` (${n})`, kind));
    }
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
