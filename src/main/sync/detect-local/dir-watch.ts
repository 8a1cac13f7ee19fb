import { lstatSync, watch, type FSWatcher, type Stats } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** What a native watcher tells the local watcher (`watch.ts`), in paths relative to the root. */
export interface NativeSink {
  /** The listing of this folder changed ('' = the root). */
  changed(rel: string): void;
  /** Whether this path is left out: neither watched nor reported (the engine's cache too). */
  skips(rel: string, isDir: boolean): boolean;
  /** fs.watch failed for this folder: ENOSPC sends it to polling, anything else is a warning. */
  failed(error: unknown): void;
}

/** A watcher of the native kind for the platform; resolves `ready` once it watches the tree. */
export interface NativeWatcher {
  readonly ready: Promise<void>;
  close(): void;
}

/** A watched folder: its own watch, and its watched subfolders by name. */
interface Folder {
  watcher: FSWatcher | null;
  kids: Map<string, Folder> | null;
}

/**
 * Linux: one inotify watch per folder, as Nextcloud's client and watchdog do. A folder's watch
 * reports its children's changes by name, so files cost nothing: a million entries in 100,000
 * folders take 100,000 watches and a small object each, where chokidar took a watch and a few
 * objects per file (4.5 GB and every watch of the machine). Folders found later (made, moved in)
 * are watched as they are reported; a folder gone has its watches closed with its subtree.
 */
export class DirTreeWatcher implements NativeWatcher {
  readonly ready: Promise<void>;
  private readonly top: Folder = { watcher: null, kids: null };
  private closed = false;

  constructor(
    private readonly root: string,
    private readonly sink: NativeSink,
  ) {
    this.ready = this.crawl('', false);
  }

  close(): void {
    this.closed = true;
    closeTree(this.top);
  }

  /**
   * Watches `rel` and every folder below it not yet watched: each folder's watch starts before it
   * is listed, so a subfolder made meanwhile is either listed or reported. `announce`: report each
   * folder newly watched (one made or moved in while running) as changed, with its parent.
   */
  private async crawl(rel: string, announce: boolean): Promise<void> {
    const queue = [rel];
    for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
      if (this.closed) return;
      const fresh = this.watchOne(next);
      // The folder asked for may be watched already (a nameless event): still list it.
      if (!fresh && !(next === rel && this.isWatched(rel))) continue;
      if (announce && fresh) {
        if (next !== '') this.sink.changed(parentOfRel(next));
        this.sink.changed(next);
      }
      let entries;
      try {
        entries = await readdir(this.abs(next), { withFileTypes: true });
      } catch {
        continue; // gone or unreadable: its parent's watch reports what happens to it
      }
      // A symbolic link to a folder is not a directory here: links are never followed.
      for (const entry of entries) {
        if (!entry.isDirectory()) continue;
        const kid = joinRel(next, entry.name);
        if (!this.sink.skips(kid, true)) queue.push(kid);
      }
    }
  }

  /** Starts the watch of `rel`; false if it is watched already, its parent no longer is, or it failed. */
  private watchOne(rel: string): boolean {
    const { parent, name } = this.place(rel);
    if (!parent) return false;
    if (rel !== '' && parent.kids?.has(name)) return false;
    if (rel === '' && this.top.watcher) return false;
    let watcher: FSWatcher;
    try {
      watcher = watch(this.abs(rel), { persistent: true }, (event, filename) =>
        this.onEvent(rel, event, filename),
      );
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Past PATH_MAX (a tree nested hundreds deep): the scan says so, as the folder's problem.
      if (code !== 'ENOENT' && code !== 'ENOTDIR' && code !== 'ENAMETOOLONG') {
        this.sink.failed(error);
      }
      return false;
    }
    watcher.on('error', (error: unknown) => {
      if (!this.closed) this.sink.failed(error);
    });
    if (rel === '') {
      this.top.watcher = watcher;
    } else {
      parent.kids ??= new Map();
      parent.kids.set(name, { watcher, kids: null });
    }
    return true;
  }

  private onEvent(dir: string, event: string, filename: string | Buffer | null): void {
    if (this.closed) return;
    if (filename === null) {
      // No name (the kernel's queue overflowed): the folder and any new subfolder.
      this.sink.changed(dir);
      void this.crawl(dir, true);
      return;
    }
    // A folder's own removal or move comes with its own name: its parent's watch reports it too.
    const rel = joinRel(dir, filename.toString());
    let stats: Stats | undefined;
    try {
      stats = lstatSync(this.abs(rel), { throwIfNoEntry: false });
    } catch {
      // Past PATH_MAX, or not to be looked at: its folder is listed again, which says why.
      stats = undefined;
    }
    const isDir = stats?.isDirectory() ?? false;
    const node = this.find(rel);
    if (this.sink.skips(rel, isDir) && !node) return;
    this.sink.changed(dir);
    // Gone, or a folder renamed onto this name (or removed and made again): the watches of the
    // subtree follow the old folder, so they are closed and the new one crawled. A rename of a
    // folder already watched (its creation reported after its parent's crawl watched it) costs a
    // crawl of a folder just made.
    if (node && (!isDir || event === 'rename')) {
      this.sink.changed(rel);
      this.unwatch(rel);
    }
    if (isDir && !this.sink.skips(rel, true) && !this.find(rel)) void this.crawl(rel, true);
  }

  /** Stops watching `rel` and everything below it. */
  private unwatch(rel: string): void {
    const { parent, name } = this.place(rel);
    const node = parent?.kids?.get(name);
    if (!parent || !node) return;
    parent.kids?.delete(name);
    closeTree(node);
  }

  private isWatched(rel: string): boolean {
    return rel === '' ? this.top.watcher !== null : this.find(rel) !== undefined;
  }

  private find(rel: string): Folder | undefined {
    const { parent, name } = this.place(rel);
    return parent?.kids?.get(name);
  }

  /** The watched parent of `rel` (undefined if not watched) and its last name. */
  private place(rel: string): { parent: Folder | undefined; name: string } {
    if (rel === '') return { parent: this.top, name: '' };
    const names = rel.split('/');
    const name = names.pop()!;
    let parent: Folder | undefined = this.top;
    for (const n of names) parent = parent?.kids?.get(n);
    return { parent, name };
  }

  private abs(rel: string): string {
    return rel === '' ? this.root : path.join(this.root, ...rel.split('/'));
  }
}

function closeTree(node: Folder): void {
  const stack = [node];
  for (let n = stack.pop(); n; n = stack.pop()) {
    n.watcher?.close();
    n.watcher = null;
    if (n.kids) stack.push(...n.kids.values());
    n.kids = null;
  }
}

const joinRel = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);
const parentOfRel = (rel: string) => {
  const i = rel.lastIndexOf('/');
  return i < 0 ? '' : rel.slice(0, i);
};
