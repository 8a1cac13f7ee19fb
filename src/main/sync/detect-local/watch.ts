import { lstatSync, type Stats } from 'node:fs';
import path from 'node:path';
import type { FSWatcher, watch as chokidarWatch } from 'chokidar';
import { englishOf, type Words } from '../../../shared/i18n';
import { CACHE_DIR, parentOf } from '../paths';
import { silentLogger, type Logger } from '../ports';
import { DirTreeWatcher, type NativeSink, type NativeWatcher } from './dir-watch';
import { RecursiveWatcher } from './recursive-watch';

export interface WatchOptions {
  /** Absolute path of the sync root. */
  root: string;
  ignore: (rel: string, isDir: boolean) => boolean;
  /**
   * Called with a batch of relative paths ('/'-separated; '' = the root) of the folders whose
   * listing changed (the parent folder of each added/changed/removed file or folder, plus the
   * folder itself for addDir/unlinkDir). Batched: collected for `debounceMs` (default 25) after
   * the first event.
   */
  onChange: (dirs: Set<string>) => void;
  /** A clear message for the person (e.g. the ENOSPC fallback). */
  onWarning: (message: Words | string) => void;
  log?: Logger;
  debounceMs?: number;
  /** Force polling for everything (tests, network drives). */
  usePolling?: boolean;
  /** How often polled folders are looked at (default 1000). */
  pollIntervalMs?: number;
}

export interface LocalWatcher {
  /** Subtrees (relative) that fell back to polling. */
  readonly polled: ReadonlySet<string>;
  close(): Promise<void>;
}

/**
 * Resolves once the whole tree is watched, including any subtree that fell back to polling
 * meanwhile (and the first look of its polling); what was there before is not reported.
 *
 * Natively, Linux watches each folder once (`dir-watch.ts`: inotify reports a folder's children
 * by name), macOS and Windows the root recursively (`recursive-watch.ts`). chokidar only polls:
 * when asked (network drives, tests) and for the subtrees that get no inotify watch (ENOSPC).
 */
export async function watchLocal(opts: WatchOptions): Promise<LocalWatcher> {
  // Loaded when a watch starts, not with the module: a CLI command that watches nothing (files,
  // status, link) does not pay for it.
  const { watch } = await import('chokidar');
  const watcher = new Watcher(opts, watch);
  await watcher.started;
  return watcher;
}

type ChokidarWatch = typeof chokidarWatch;

const DIR_EVENTS = new Set(['addDir', 'unlinkDir']);
const REPORTED_EVENTS = new Set(['add', 'change', 'unlink', ...DIR_EVENTS]);

interface Poller {
  watcher: FSWatcher;
  /** Settles on the poller's 'ready', or when it is closed before that. */
  ready: Promise<void>;
  settle: () => void;
}

class Watcher implements LocalWatcher {
  readonly polled = new Set<string>();
  readonly started: Promise<void>;
  private readonly log: Logger;
  private readonly native: { ready: Promise<void>; close(): void | Promise<void> };
  private readonly pollers = new Map<string, Poller>();
  private pollersStarted = 0;
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private warnedLimit = false;
  private readonly interval: number;
  private readonly warned = new Set<string>();

  constructor(
    private readonly opts: WatchOptions,
    private readonly watch: ChokidarWatch,
  ) {
    this.log = opts.log ?? silentLogger;
    this.interval = opts.pollIntervalMs ?? 1000;
    this.native = opts.usePolling ? this.pollTree(opts.root) : this.watchNative();
    this.started = this.start();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.pending.clear();
    const pollers = [...this.pollers.values()];
    this.pollers.clear();
    for (const poller of pollers) poller.settle();
    await Promise.all([this.native.close(), ...pollers.map((p) => p.watcher.close())]);
  }

  private async start(): Promise<void> {
    await this.native.ready;
    if (this.opts.usePolling) await this.firstLook();
    // Fallbacks start while the native crawl runs (its ENOSPC errors come before it is ready);
    // until they are ready, a change in their subtree could pass for part of their initial scan.
    for (let seen = -1; seen !== this.pollersStarted;) {
      seen = this.pollersStarted;
      await Promise.all([...this.pollers.values()].map((p) => p.ready));
    }
  }

  /**
   * Polling compares each path with a first look that fs.watchFile takes just after chokidar's
   * 'ready'; a change made before that look would never be seen. One interval is ample for it.
   */
  private firstLook(): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, this.interval).unref());
  }

  private watchNative(): NativeWatcher {
    const sink: NativeSink = {
      changed: (rel) => this.changed(rel),
      skips: (rel, isDir) => isEngineCache(rel) || (rel !== '' && this.opts.ignore(rel, isDir)),
      failed: (error) => this.onError(error),
    };
    return process.platform === 'linux'
      ? new DirTreeWatcher(this.opts.root, sink)
      : new RecursiveWatcher(this.opts.root, sink);
  }

  private pollTree(abs: string): { ready: Promise<void>; close(): Promise<void> } {
    const watcher = this.watchTree(abs);
    const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
    return { ready, close: () => watcher.close() };
  }

  /** A polling chokidar watcher of `abs` and its subtree. */
  private watchTree(abs: string): FSWatcher {
    const watcher = this.watch(abs, {
      ignoreInitial: true,
      followSymlinks: false,
      alwaysStat: false,
      // The engine waits for files to be quiet and rescans the folders itself: no atomic or
      // write-finish delays.
      atomic: false,
      awaitWriteFinish: false,
      usePolling: true,
      interval: this.interval,
      binaryInterval: this.interval,
      ignored: (p: string, stats?: Stats) => this.isIgnored(p, stats),
    });
    watcher.on('all', (event: string, p: string) => this.report(event, p));
    watcher.on('error', (error: unknown) => this.onError(error));
    return watcher;
  }

  private isIgnored(abs: string, stats: Stats | undefined): boolean {
    const rel = this.toRel(abs);
    if (rel === null || rel === '') return false;
    if (isEngineCache(rel)) return true;
    if (stats) return this.opts.ignore(rel, stats.isDirectory());
    // chokidar asks again with stats before it watches or reports a path, so when it does not
    // know the type yet, only what is ignored either way can be left out.
    return this.opts.ignore(rel, false) && this.opts.ignore(rel, true);
  }

  private report(event: string, abs: string): void {
    if (this.closed || !REPORTED_EVENTS.has(event)) return;
    const rel = this.toRel(abs);
    if (rel === null || isEngineCache(rel)) return;
    if (rel !== '') this.changed(parentOf(rel));
    if (DIR_EVENTS.has(event)) this.changed(rel);
  }

  /** Collects a folder whose listing changed, for the next batch. */
  private changed(rel: string): void {
    if (this.closed) return;
    this.pending.add(rel);
    this.timer ??= setTimeout(() => this.flush(), this.opts.debounceMs ?? 25);
  }

  private flush(): void {
    this.timer = undefined;
    const dirs = this.pending;
    this.pending = new Set();
    if (this.closed || dirs.size === 0) return;
    try {
      this.opts.onChange(dirs);
    } catch (error) {
      // Thrown from a timer it would end the process; the next report still gets through.
      this.log.error('The handler of local changes failed', { error: String(error) });
    }
  }

  private onError(error: unknown): void {
    if (this.closed) return;
    const err = error as Partial<NodeJS.ErrnoException> | undefined;
    if (err?.code === 'ENOSPC') {
      this.pollInstead(typeof err.path === 'string' ? err.path : this.opts.root);
      return;
    }
    // The watcher's own error text is a parameter: it says it as it was written.
    const words: Words = {
      key: 'engine.watchProblem',
      params: { error: err?.message ?? String(error) },
    };
    const message = englishOf(words);
    this.log.warn(message, { code: err?.code, path: err?.path });
    if (this.warned.has(message)) return;
    this.warned.add(message);
    this.opts.onWarning(words);
  }

  /**
   * The OS had no inotify watch left for the folder `abs`. Everything watched natively before
   * keeps working; what fails from here on is polled, each failing folder with its subtree.
   */
  private pollInstead(abs: string): void {
    const rel = this.toRel(abs) ?? '';
    const isDir = lstatSync(abs, { throwIfNoEntry: false })?.isDirectory() ?? false;
    const subtree = isDir || rel === '' ? rel : parentOf(rel);
    if ([...this.polled].some((p) => isInside(subtree, p))) return;
    if (!this.warnedLimit) {
      this.warnedLimit = true;
      const where: Words | string = subtree === '' ? { key: 'engine.syncFolder' } : `"${subtree}"`;
      const words: Words = { key: 'engine.watchLimit', params: { where } };
      this.log.warn(englishOf(words), { subtree });
      this.opts.onWarning(words);
    } else {
      this.log.info('Out of inotify watches: polling another folder', { subtree });
    }
    let settle = () => {};
    const ready = new Promise<void>((resolve) => (settle = resolve));
    const watcher = this.watchTree(this.toAbs(subtree));
    watcher.once('ready', () => {
      void this.firstLook().then(() => {
        // Pollers inside this subtree keep looking until this one has taken over.
        if (this.pollers.get(subtree)?.watcher === watcher) {
          for (const p of [...this.polled]) {
            if (p !== subtree && isInside(p, subtree)) this.stopPolling(p);
          }
        }
        settle();
      });
    });
    this.pollers.set(subtree, { watcher, ready, settle });
    this.polled.add(subtree);
    this.pollersStarted++;
  }

  private stopPolling(subtree: string): void {
    const poller = this.pollers.get(subtree);
    this.pollers.delete(subtree);
    this.polled.delete(subtree);
    if (!poller) return;
    poller.settle();
    poller.watcher.close().catch((error: unknown) => {
      this.log.warn('Closing a polling watcher failed', { subtree, error: String(error) });
    });
  }

  /** '/'-separated, relative to the root ('' for the root), or null if outside it. */
  private toRel(abs: string): string | null {
    const rel = path.relative(this.opts.root, abs);
    if (rel === '') return '';
    if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return null;
    return rel.split(path.sep).join('/');
  }

  private toAbs(rel: string): string {
    return path.join(this.opts.root, ...rel.split('/'));
  }
}

/** Whether `rel` is `folder` or inside it. */
function isInside(rel: string, folder: string): boolean {
  return folder === '' || rel === folder || rel.startsWith(`${folder}/`);
}

function isEngineCache(rel: string): boolean {
  return isInside(rel, CACHE_DIR);
}
