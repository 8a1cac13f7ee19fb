import { lstatSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { NativeSink, NativeWatcher } from './dir-watch';

/**
 * macOS and Windows: one recursive watch of the root (FSEvents, ReadDirectoryChangesW), which
 * reports every change below it by path at no cost per folder or file.
 */
export class RecursiveWatcher implements NativeWatcher {
  readonly ready = Promise.resolve();
  private readonly watcher: FSWatcher | null = null;
  private closed = false;

  constructor(
    private readonly root: string,
    private readonly sink: NativeSink,
  ) {
    try {
      this.watcher = watch(root, { recursive: true, persistent: true }, (_event, filename) =>
        this.onEvent(filename),
      );
      this.watcher.on('error', (error: unknown) => {
        if (!this.closed) this.sink.failed(error);
      });
    } catch (error) {
      this.sink.failed(error);
    }
  }

  close(): void {
    this.closed = true;
    this.watcher?.close();
  }

  private onEvent(filename: string | Buffer | null): void {
    if (this.closed) return;
    if (filename === null) {
      this.sink.changed('');
      return;
    }
    const rel = filename.toString().split(path.sep).join('/');
    const names = rel.split('/');
    // What is inside a left-out folder is not watched elsewhere either.
    for (let i = 1; i < names.length; i++) {
      if (this.sink.skips(names.slice(0, i).join('/'), true)) return;
    }
    const stats = lstatSync(path.join(this.root, rel), { throwIfNoEntry: false });
    const isDir = stats?.isDirectory() ?? false;
    if (this.sink.skips(rel, isDir)) return;
    names.pop();
    this.sink.changed(names.join('/'));
    // A path gone may have been a folder: listing it again finds it gone, at no cost.
    if (isDir || !stats) this.sink.changed(rel);
  }
}
