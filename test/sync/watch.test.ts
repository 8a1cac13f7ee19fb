import { spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { IgnoreRules } from '../../src/main/sync/detect-local/ignore';
import { englishOf } from '../../src/shared/i18n';
import {
  watchLocal,
  type LocalWatcher,
  type WatchOptions,
} from '../../src/main/sync/detect-local/watch';
import type { ChildLine } from './watch-child';

// The watcher on a real folder. Nothing waits for time to pass: each step waits (under the test's
// timeout) until the folders it must touch have been reported.

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempRoot(): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'watch-test-')));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  return root;
}

/** Each batch from onChange, and a way to wait for folders to show up in them. */
class Reports {
  readonly batches: Set<string>[] = [];
  private waiters: { from: number; dirs: string[]; resolve: () => void }[] = [];

  readonly onChange = (dirs: Set<string>): void => {
    this.batches.push(dirs);
    this.waiters = this.waiters.filter((w) => !this.check(w));
  };

  /** Everything reported so far, in any batch. */
  all(): Set<string> {
    return new Set(this.batches.flatMap((b) => [...b]));
  }

  /** Resolves once every one of `dirs` has been reported after `mark()` returned `from`. */
  until(from: number, dirs: string[]): Promise<void> {
    return new Promise((resolve) => {
      const waiter = { from, dirs, resolve };
      if (!this.check(waiter)) this.waiters.push(waiter);
    });
  }

  mark(): number {
    return this.batches.length;
  }

  private check(w: { from: number; dirs: string[]; resolve: () => void }): boolean {
    const seen = new Set(this.batches.slice(w.from).flatMap((b) => [...b]));
    if (!w.dirs.every((d) => seen.has(d))) return false;
    w.resolve();
    return true;
  }
}

async function start(
  root: string,
  options: Partial<WatchOptions> = {},
): Promise<{ watcher: LocalWatcher; reports: Reports; warnings: string[] }> {
  const reports = new Reports();
  const warnings: string[] = [];
  const rules = IgnoreRules.of(['build/']);
  const watcher = await watchLocal({
    root,
    ignore: (rel, isDir) => rules.ignores(rel, isDir),
    onChange: reports.onChange,
    onWarning: (message) => warnings.push(englishOf(message)),
    ...options,
  });
  cleanups.push(() => watcher.close());
  return { watcher, reports, warnings };
}

const write = (root: string, rel: string, data = 'x') => writeFileSync(path.join(root, rel), data);
const mkdir = (root: string, rel: string) => mkdirSync(path.join(root, rel), { recursive: true });

describe('watchLocal', () => {
  it('reports the folders whose listing changed: mkdir -p, new files, edits', async () => {
    const root = tempRoot();
    mkdir(root, 'pre');
    write(root, 'pre/old.txt', 'old');
    mkdir(root, 'files');
    const { reports, watcher } = await start(root);
    expect(reports.batches).toEqual([]); // nothing from the initial scan
    expect([...watcher.polled]).toEqual([]);

    let from = reports.mark();
    mkdir(root, 'a/b/c');
    await reports.until(from, ['', 'a', 'a/b', 'a/b/c']);

    // Into folders watched from the start: chokidar reports a new folder before it watches it.
    from = reports.mark();
    write(root, 'files/f.txt');
    write(root, 'top.txt');
    await reports.until(from, ['files', '']);

    from = reports.mark();
    appendFileSync(path.join(root, 'pre/old.txt'), ' and more');
    await reports.until(from, ['pre']);

    for (const batch of reports.batches) expect(batch.size).toBeGreaterThan(0);
  });

  it('reports a folder moved across parents: both parents and both places', async () => {
    const root = tempRoot();
    mkdir(root, 'from/moved/inner');
    write(root, 'from/moved/inner/f.txt');
    mkdir(root, 'to');
    const { reports } = await start(root);

    renameSync(path.join(root, 'from/moved'), path.join(root, 'to/moved'));
    await reports.until(0, ['from', 'from/moved', 'to', 'to/moved']);
  });

  it('reports a removed tree: its parent and the folder itself', async () => {
    const root = tempRoot();
    mkdir(root, 'keep/gone/deep');
    write(root, 'keep/gone/deep/f.txt');
    write(root, 'keep/gone/g.txt');
    const { reports } = await start(root);

    rmSync(path.join(root, 'keep/gone'), { recursive: true });
    await reports.until(0, ['keep', 'keep/gone']);
  });

  it('never reports ignored files and folders on their own', async () => {
    const root = tempRoot();
    mkdir(root, 'ign');
    mkdir(root, 'marker');
    const { reports } = await start(root);

    write(root, 'ign/x.tmp');
    write(root, 'ign/.DS_Store');
    write(root, 'ign/.ds_store');
    write(root, 'ign/~$doc.docx');
    mkdir(root, 'ign/build/deep'); // `build/` from the user's rules
    write(root, 'ign/build/out.o');
    // The markers come after, in another folder; twice, to leave stragglers every chance.
    write(root, 'marker/one.txt');
    await reports.until(0, ['marker']);
    const from = reports.mark();
    write(root, 'marker/two.txt');
    await reports.until(from, ['marker']);

    const seen = reports.all();
    expect(seen.has('ign')).toBe(false);
    expect([...seen].filter((d) => d.startsWith('ign/'))).toEqual([]);
  });

  it("never reports the engine's cache folder, whatever the ignore rules say", async () => {
    const root = tempRoot();
    mkdir(root, 'marker');
    const { reports } = await start(root, { ignore: () => false });

    mkdir(root, '.workspace-sync-cache/partial');
    write(root, '.workspace-sync-cache/partial/file.bin');
    write(root, 'marker/one.txt');
    await reports.until(0, ['marker']);
    const from = reports.mark();
    write(root, 'marker/two.txt');
    await reports.until(from, ['marker']);

    const seen = reports.all();
    expect(seen.has('')).toBe(false);
    expect([...seen].filter((d) => d.startsWith('.workspace-sync-cache'))).toEqual([]);
  });

  it('reports changes to the ignore file (the engine reloads the rules then)', async () => {
    const root = tempRoot();
    write(root, '.workspace-sync-ignore', '*.log\n');
    const { reports } = await start(root);

    appendFileSync(path.join(root, '.workspace-sync-ignore'), 'build/\n');
    await reports.until(0, ['']);
  });

  it('with usePolling, reports the same way', async () => {
    const root = tempRoot();
    mkdir(root, 'p');
    write(root, 'p/old.txt', 'old');
    const { reports } = await start(root, { usePolling: true, pollIntervalMs: 50 });

    mkdir(root, 'p/q/r');
    await reports.until(0, ['p', 'p/q', 'p/q/r']);
    const from = reports.mark();
    appendFileSync(path.join(root, 'p/old.txt'), ' and more');
    await reports.until(from, ['p']);
  });

  it('stops reporting once closed', async () => {
    const root = tempRoot();
    const { watcher, reports } = await start(root);
    await watcher.close();
    const before = reports.mark();
    write(root, 'after-close.txt');
    // A second, live watcher sees the next change; the closed one must have stayed silent.
    const live = await start(root);
    write(root, 'seen.txt');
    await live.reports.until(0, ['']);
    expect(reports.batches.length).toBe(before);
  });
});

/** This process's inotify watches: one `inotify` line each in the fdinfo of an inotify descriptor. */
function inotifyWatches(): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    let link: string;
    try {
      link = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue; // the descriptor of the listing itself, closed meanwhile
    }
    if (link !== 'anon_inode:inotify') continue;
    const info = readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8');
    count += info.split('\n').filter((line) => line.startsWith('inotify')).length;
  }
  return count;
}

describe.runIf(process.platform === 'linux')(
  'watching on Linux: one inotify watch per folder',
  () => {
    it('watches 200 folders of 100 files each with about 200 watches, and still sees a deep edit', async () => {
      const root = tempRoot();
      for (let i = 0; i < 20; i++) {
        for (let j = 0; j < 10; j++) {
          // 20 folders at the top, 180 below them: 200 folders and the root.
          const dir = j === 0 ? `d${i}` : `d${i}/s${j}`;
          mkdir(root, dir);
          for (let k = 0; k < 100; k++) write(root, `${dir}/f${k}.txt`, `${dir} ${k}`);
        }
      }
      const before = inotifyWatches();
      const { reports, watcher } = await start(root);
      const folders = 200 + 1;
      // chokidar took one per file as well (20,201 here).
      expect(inotifyWatches() - before).toBeLessThanOrEqual(folders + 5);
      expect([...watcher.polled]).toEqual([]);

      appendFileSync(path.join(root, 'd19/s9/f99.txt'), ' and more');
      await reports.until(0, ['d19/s9']);
      // A folder made deep inside is watched in turn.
      let from = reports.mark();
      mkdir(root, 'd19/s9/new');
      await reports.until(from, ['d19/s9', 'd19/s9/new']);
      from = reports.mark();
      write(root, 'd19/s9/new/f.txt');
      await reports.until(from, ['d19/s9/new']);
      expect(inotifyWatches() - before).toBeLessThanOrEqual(folders + 1 + 5);
    });

    it('lets go of a folder moved out of the root, and watches one made again under a gone name', async () => {
      const root = tempRoot();
      const outside = tempRoot();
      mkdir(root, 'leaving/a/b');
      mkdir(root, 'again/old');
      mkdir(root, 'marker');
      const before = inotifyWatches();
      const { reports } = await start(root);
      expect(inotifyWatches() - before).toBe(7);

      renameSync(path.join(root, 'leaving'), path.join(outside, 'leaving'));
      await reports.until(0, ['', 'leaving']);
      expect(inotifyWatches() - before).toBe(4);
      // What happens out there is no business of this watcher: the marker comes after it.
      let from = reports.mark();
      write(outside, 'leaving/a/b/f.txt');
      write(outside, 'leaving/a/g.txt');
      write(root, 'marker/one.txt');
      await reports.until(from, ['marker']);
      expect(reports.all().has('leaving/a/b')).toBe(false);
      expect(reports.all().has('leaving/a')).toBe(false);

      // Removed and made again before the watcher hears of it: the new folder is the one watched.
      from = reports.mark();
      rmSync(path.join(root, 'again'), { recursive: true });
      mkdir(root, 'again');
      await reports.until(from, ['', 'again']);
      from = reports.mark();
      mkdir(root, 'again/fresh');
      await reports.until(from, ['again', 'again/fresh']);
      from = reports.mark();
      write(root, 'again/fresh/f.txt');
      await reports.until(from, ['again/fresh']);
    });
  },
);

/** Lines from the child, and a way to wait for one; fails if the child ends first. */
class ChildLines {
  readonly lines: ChildLine[] = [];
  private waiters: { test: (line: ChildLine) => boolean; resolve: (line: ChildLine) => void }[] =
    [];
  private ended: Error | null = null;
  private rejectAll: ((error: Error) => void)[] = [];

  add(line: ChildLine): void {
    this.lines.push(line);
    this.waiters = this.waiters.filter((w) => !(w.test(line) && (w.resolve(line), true)));
  }

  end(error: Error): void {
    this.ended = error;
    for (const reject of this.rejectAll) reject(error);
  }

  /** The first line from `from` on that passes `test`. */
  until(from: number, test: (line: ChildLine) => boolean): Promise<ChildLine> {
    const found = this.lines.slice(from).find(test);
    if (found) return Promise.resolve(found);
    if (this.ended) return Promise.reject(this.ended);
    return new Promise((resolve, reject) => {
      this.waiters.push({ test, resolve });
      this.rejectAll.push(reject);
    });
  }
}

const CHILD = path.join(import.meta.dirname, 'watch-child.ts');
const WATCH_LIMIT = 40;

describe('out of inotify watches (ENOSPC)', () => {
  it.runIf(process.platform === 'linux')(
    'falls back to polling the folders that got no watch, with a message naming the setting',
    async () => {
      // Fails here, rather than skipping, when user namespaces are not available.
      const probe = spawnSync('unshare', ['-Ur', 'true'], { encoding: 'utf8' });
      expect(probe.status, `unshare -Ur: ${probe.stderr}`).toBe(0);

      const root = tempRoot();
      for (let i = 0; i < 20; i++) {
        for (let j = 0; j < 4; j++) {
          mkdir(root, `top${i}/sub${j}`);
          write(root, `top${i}/sub${j}/f.txt`);
        }
      }
      // A user namespace of its own gets its own (lowered) limit of inotify watches.
      const script = `echo ${WATCH_LIMIT} > /proc/sys/user/max_inotify_watches && exec "$0" --import tsx "$1" "$2"`;
      const child = spawn('unshare', ['-Ur', 'sh', '-c', script, process.execPath, CHILD, root], {
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      cleanups.push(async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill();
        await exited;
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const lines = new ChildLines();
      createInterface({ input: child.stdout }).on('line', (text) => {
        lines.add(JSON.parse(text) as ChildLine);
      });
      child.once('exit', (code) => lines.end(new Error(`child exited (${code}): ${stderr}`)));

      const ready = await lines.until(0, (l) => l.type === 'ready');
      if (ready.type !== 'ready') throw new Error('unreachable');
      const warnings = lines.lines.filter((l) => l.type === 'warning');
      expect(warnings).toHaveLength(1);
      const warning = warnings[0]!;
      if (warning.type !== 'warning') throw new Error('unreachable');
      expect(warning.message).toContain('fs.inotify.max_user_watches');
      expect(warning.message).toContain('inotify');

      // 101 folders and 80 files against 40 watches: many fell back, none inside another one that did.
      const polled = ready.polled;
      expect(polled.length).toBeGreaterThan(0);
      for (const p of polled) {
        for (const q of polled) {
          if (p !== q) expect(p === '' || q.startsWith(`${p}/`)).toBe(false);
        }
      }

      // In a polled subtree: a new file, an edit deep down, new folders.
      const target = polled.find((p) => !p.includes('/')) ?? polled[0]!;
      const deep = target.includes('/') ? target : `${target}/sub0`;
      const reported = (dirs: string[]) => (l: ChildLine) =>
        l.type === 'change' && dirs.every((d) => l.dirs.includes(d));
      let from = lines.lines.length;
      write(root, `${target}/new.txt`);
      await lines.until(from, reported([target]));

      from = lines.lines.length;
      appendFileSync(path.join(root, deep, 'f.txt'), ' and more');
      await lines.until(from, reported([deep]));

      from = lines.lines.length;
      mkdir(root, `${target}/fresh/inner`);
      const seen = new Set<string>();
      await lines.until(from, (l) => {
        if (l.type === 'change') l.dirs.forEach((d) => seen.add(d));
        return [target, `${target}/fresh`, `${target}/fresh/inner`].every((d) => seen.has(d));
      });

      child.stdin.end();
      expect(await exited).toBe(0);
    },
  );
});
