import { appendFileSync, lstatSync, mkdirSync, renameSync } from 'node:fs';
import { cp, rm } from 'node:fs/promises';
import path from 'node:path';
import { fitName } from './names';
import type { Trash } from './ports';

const exists = (p: string) => lstatSync(p, { throwIfNoEntry: false }) !== undefined;

/**
 * The CLI's trash: a folder (in the state directory) where removals land under a time-stamped
 * folder per run, with their path relative to the sync root, content intact; a second removal of
 * the same path gets a numbered name (`a (2).txt`), never replaces the first. The app uses the
 * same folder (the window's Trash view lists and restores from it, backend/trash.ts).
 *
 * With `records` given, every item put is recorded in `<batch>.jsonl` in the records folder (one
 * `TrashRecord` a line; outside the trash, which holds only what was trashed): the trash's layout
 * alone cannot say which pair's folder an item came from, and a restore must put it back there.
 */
export class FolderTrash implements Trash {
  private readonly batch = new Date().toISOString().replace(/[:.]/g, '-');
  /**
   * Folders this run made in the trash: freeing 10,000 files puts them into a few folders, and
   * each call on the disk counts (the calls are synchronous for the same reason: one trip through
   * the thread pool per call cost more than the call).
   */
  private readonly made = new Set<string>();

  constructor(
    readonly dir: string,
    private readonly records?: { root: string; dir: string },
  ) {}

  async put(absPath: string, relPath: string): Promise<void> {
    const first = path.join(this.dir, this.batch, ...relPath.split('/'));
    const name = path.basename(first);
    const kind = lstatSync(absPath).isDirectory() ? 'folder' : 'file';
    let dest = first;
    // `a (2).txt`, shortened to fit when the name was long already (a 255-byte name).
    for (let n = 2; exists(dest); n++) {
      dest = path.join(path.dirname(first), fitName(name, ` (${n})`, kind));
    }
    await this.move(absPath, dest);
    if (!this.records) return;
    const record: TrashRecord = {
      trashed: path.relative(this.dir, dest).split(path.sep).join('/'),
      root: this.records.root,
      relPath,
      kind,
      at: new Date().toISOString(),
    };
    // After the move: a record names only what is in the trash (a failed move records nothing).
    const file = path.join(this.records.dir, `${this.batch}.jsonl`);
    const line = JSON.stringify(record) + '\n';
    try {
      appendFileSync(file, line);
    } catch (err) {
      // The first record, or its folder removed meanwhile (the window emptied the trash).
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      mkdirSync(this.records.dir, { recursive: true });
      appendFileSync(file, line);
    }
  }

  private async move(absPath: string, dest: string): Promise<void> {
    this.folder(path.dirname(dest));
    try {
      renameSync(absPath, dest);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && exists(absPath)) {
        // A folder made earlier was removed meanwhile (emptied from the window): made again.
        mkdirSync(path.dirname(dest), { recursive: true });
        renameSync(absPath, dest);
        return;
      }
      if (code !== 'EXDEV') throw err;
      // Another volume: copy everything first, and remove the original only once it is safe.
      await cp(absPath, dest, { recursive: true, preserveTimestamps: true, errorOnExist: true });
      await rm(absPath, { recursive: true });
    }
  }

  private folder(dir: string): void {
    if (this.made.has(dir)) return;
    mkdirSync(dir, { recursive: true });
    this.made.add(dir);
  }
}

/** One item the trash holds, as recorded beside its batch. */
export interface TrashRecord {
  /** Its place in the trash, relative to the trash folder, '/'-separated. */
  trashed: string;
  /** The sync root it was moved out of. */
  root: string;
  /** Its path relative to that root when it was moved. */
  relPath: string;
  kind: 'file' | 'folder';
  /** When it was moved (ISO 8601). */
  at: string;
}
