import { spawn, type ChildProcess } from 'node:child_process';
import {
  closeSync,
  createReadStream,
  mkdirSync,
  openSync,
  renameSync,
  utimesSync,
  writeSync,
} from 'node:fs';
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { Pool } from 'undici';
import { exitOf } from '../src/service/child';
import { drain } from '../src/main/sync/pool';
import { builtCli } from './cli-build';

// Pieces of the scale benchmark (scale.bench.ts): the real CLI in a child under /usr/bin/time
// (its peak resident memory), the size of a folder, a census of a local tree, and the request
// floor of an upload.

const repoRoot = path.resolve(import.meta.dirname, '..');

/** A CLI run that passed its deadline: how far it got, and its peak memory until then. */
export class ScaleTimeout extends Error {
  constructor(
    readonly what: string,
    readonly ms: number,
    readonly lastProgress = '',
    readonly peakRssMb = 0,
  ) {
    super(`timeout after ${Math.round(ms / 1000)} s: ${what}`);
  }
}

/** The peak resident memory so far (VmHWM) of the process `time` runs, MB; 0 if unknown. */
async function peakOfChildOf(pid: number): Promise<number> {
  try {
    const kids = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8');
    const child = kids.trim().split(/\s+/)[0];
    if (!child) return 0;
    const status = await readFile(`/proc/${child}/status`, 'utf8');
    const kb = Number(/^VmHWM:\s+(\d+)/m.exec(status)?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return 0;
  }
}

/**
 * The environment of a child CLI: no WORKSPACE_SYNC_* variable from this machine, a keychain
 * service of its own and a session bus that leads nowhere; the token in WORKSPACE_SYNC_TOKEN,
 * never in the arguments (`ps` shows those to every user of the machine).
 */
export function cliEnv(token?: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('WORKSPACE_SYNC_')) env[k] = v;
  }
  env.WORKSPACE_SYNC_KEYCHAIN_SERVICE = `Workspace Sync scale bench ${process.pid}`;
  env.DBUS_SESSION_BUS_ADDRESS = 'unix:path=/nonexistent/workspace-sync-bench-no-bus';
  if (token !== undefined) env.WORKSPACE_SYNC_TOKEN = token;
  return env;
}

export interface CliRun {
  code: number | null;
  ms: number;
  /** Peak resident memory of the CLI's process (/usr/bin/time's %M), MB. */
  peakRssMb: number;
  /** The last `summary` JSON line. */
  summary: Record<string, unknown> | undefined;
  /** The last few non-progress JSON lines and stderr, for an error message. */
  tail: string;
}

/**
 * `workspace-sync ARGS --json` (the built CLI, bench/cli-build.ts) under /usr/bin/time, in a
 * process group of its own so that a deadline kills the CLI too, not only `time`.
 */
export async function runCli(
  args: string[],
  ms: number,
  live: Set<ChildProcess>,
  token: string,
  onProgress?: (line: string) => void,
) {
  const child = spawn('/usr/bin/time', ['-f', 'SCALE_TIME %M', ...(await builtCli()), ...args], {
    cwd: repoRoot,
    env: cliEnv(token),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  live.add(child);
  const started = performance.now();
  const lines: Record<string, unknown>[] = [];
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-8000)));
  let lastProgress = '';
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (!line.startsWith('{')) return;
    try {
      const json = JSON.parse(line) as Record<string, unknown>;
      if (json.type === 'progress')
        lastProgress = `items ${JSON.stringify(json.items)}, bytes ${JSON.stringify(json.bytes)}`;
      else lines.push(json);
      if (lines.length > 200) lines.splice(0, 100);
    } catch {
      // not a line of ours
    }
  });
  // Every 30 s: how far it got and its peak so far (a run past its deadline has no %M).
  let peakSoFar = 0;
  const sampler = setInterval(() => {
    void peakOfChildOf(child.pid ?? 0).then((p) => {
      peakSoFar = Math.max(peakSoFar, p);
      onProgress?.(`${lastProgress || 'no progress yet'}; peak ${peakSoFar} MB so far`);
    });
  }, 30_000);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
  const r = await Promise.race([exitOf(child), late]);
  clearTimeout(timer);
  clearInterval(sampler);
  if (r === 'late') {
    peakSoFar = Math.max(peakSoFar, await peakOfChildOf(child.pid ?? 0));
    killGroup(child);
    await exitOf(child);
    live.delete(child);
    const what = `workspace-sync ${args.join(' ')}`;
    throw new ScaleTimeout(what.slice(0, 300), ms, lastProgress, peakSoFar);
  }
  live.delete(child);
  const elapsed = performance.now() - started;
  const timeLine = stderr.split('\n').findLast((l) => l.startsWith('SCALE_TIME '));
  const peakKb = Number(timeLine?.split(' ')[1] ?? NaN);
  const tail = [
    ...lines.slice(-3).map((l) => JSON.stringify(l).slice(0, 400)),
    stderr
      .replace(/SCALE_TIME.*$/m, '')
      .trim()
      .slice(-800),
  ].join(' | ');
  return {
    code: r.code,
    ms: Math.round(elapsed),
    peakRssMb: Math.round(peakKb / 1024),
    summary: lines.findLast((l) => l.type === 'summary'),
    tail,
  } satisfies CliRun;
}

/** Kills a child started with `detached: true` and everything in its process group. */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/** Bytes of the regular files below `dir` (their apparent sizes). */
export async function bytesBelow(dir: string): Promise<number> {
  let n = 0;
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) n += (await lstat(path.join(e.parentPath, e.name))).size;
  }
  return n;
}

/** What a local tree really holds (the /usr/share copy). */
export interface Census {
  folders: number;
  files: number;
  symlinks: number;
  /** Sockets, fifos, devices. */
  others: number;
  bytes: number;
  /** Siblings whose names differ only by case (pairs). */
  caseClashes: number;
  /** Names with a character some volume refuses or maps: `\:*?"<>|`, a control character,
   * a trailing dot or space. */
  oddNames: number;
  /** Names that are not valid UTF-8 (shown with U+FFFD). */
  badUtf8: number;
  /** Names outside ASCII. */
  nonAscii: number;
  /** Folders (relative, '/'-separated, '' for the top) and files, for the upload floor. */
  folderList: string[];
  fileList: string[];
}

export async function census(root: string): Promise<Census> {
  const c: Census = {
    folders: 0,
    files: 0,
    symlinks: 0,
    others: 0,
    bytes: 0,
    caseClashes: 0,
    oddNames: 0,
    badUtf8: 0,
    nonAscii: 0,
    folderList: [''],
    fileList: [],
  };
  const walk = async (rel: string): Promise<void> => {
    const abs = rel === '' ? root : path.join(root, rel);
    const entries = await readdir(abs, { withFileTypes: true });
    const seen = new Set<string>();
    for (const e of entries) {
      const key = e.name.normalize('NFC').toLowerCase();
      if (seen.has(key)) c.caseClashes++;
      seen.add(key);
      // eslint-disable-next-line no-control-regex -- control characters are what is counted
      if (/[\\:*?"<>|\u0000-\u001f]|[. ]$/.test(e.name)) c.oddNames++;
      if (e.name.includes('\uFFFD')) c.badUtf8++;
      if (/[^\x20-\x7e]/.test(e.name)) c.nonAscii++;
      const child = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        c.folders++;
        c.folderList.push(child);
        await walk(child);
      } else if (e.isFile()) {
        c.files++;
        c.fileList.push(child);
        c.bytes += (await lstat(path.join(abs, e.name))).size;
      } else if (e.isSymbolicLink()) c.symlinks++;
      else c.others++;
    }
  };
  await walk('');
  return c;
}

export interface UpFloorResult {
  ms: number;
  requests: number;
  folders: number;
  files: number;
  bytes: number;
  /** Folders the service refused (a name taken by a sibling differing in case): their
   * subtrees are left out. */
  skippedFolders: number;
  /** Files that could not be read here, or that the service refused. */
  skippedFiles: number;
}

/**
 * The request floor of an upload: a bare undici loop at `concurrency` that creates each folder
 * (one POST, level by level: a folder needs its parent's id) and sends each file as one
 * streamed multipart POST read from disk. No journal, no hashing, no checks.
 */
export async function floorUpload(
  t: { baseUrl: string; token: string; workspaceId: number; rootId: number },
  root: string,
  tree: Pick<Census, 'folderList' | 'fileList'>,
  concurrency = 8,
): Promise<UpFloorResult> {
  const pool = new Pool(t.baseUrl, { connections: concurrency });
  const auth = { authorization: `Bearer ${t.token}` };
  let requests = 0;
  let bytes = 0;
  let skippedFolders = 0;
  let skippedFiles = 0;
  const ids = new Map<string, number>([['', t.rootId]]);
  const started = performance.now();
  try {
    const byDepth = new Map<number, string[]>();
    for (const f of tree.folderList) {
      if (f === '') continue;
      const d = f.split('/').length;
      byDepth.set(d, [...(byDepth.get(d) ?? []), f]);
    }
    for (const d of [...byDepth.keys()].sort((a, b) => a - b)) {
      await drain(byDepth.get(d)!, concurrency, async (rel) => {
        const parentId = ids.get(path.posix.dirname(rel) === '.' ? '' : path.posix.dirname(rel));
        if (parentId === undefined) return; // below a refused folder
        requests++;
        const res = await pool.request({
          method: 'POST',
          path: `/workspaces/${t.workspaceId}/folders/${parentId}/folders`,
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ filename: path.posix.basename(rel) }),
        });
        const text = await res.body.text();
        if (res.statusCode === 409 || res.statusCode === 422) {
          skippedFolders++;
          return;
        }
        if (res.statusCode >= 300)
          throw new Error(`floor: mkdir ${rel}: ${res.statusCode} ${text}`);
        ids.set(rel, (JSON.parse(text) as { folder: { id: number } }).folder.id);
      });
    }
    let files = 0;
    await drain(tree.fileList, concurrency, async (rel) => {
      const dir = path.posix.dirname(rel);
      const parentId = ids.get(dir === '.' ? '' : dir);
      if (parentId === undefined) return;
      const abs = path.join(root, rel);
      let size: number;
      try {
        size = (await lstat(abs)).size;
      } catch {
        skippedFiles++;
        return;
      }
      const name = path.posix.basename(rel);
      const boundary = `----ScaleFloor${requests}`;
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; ` +
          `filename="${name.replace(/[\r\n"\\]/g, (ch) => encodeURIComponent(ch))}"; ` +
          `filename*=UTF-8''${encodeURIComponent(name)}\r\n` +
          `Content-Type: application/octet-stream\r\n\r\n`,
      );
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      const source = createReadStream(abs);
      const opened = await new Promise<boolean>((resolve) => {
        source.once('open', () => resolve(true));
        source.once('error', () => resolve(false));
      });
      if (!opened) {
        skippedFiles++;
        return;
      }
      requests++;
      const res = await pool.request({
        method: 'POST',
        path: `/folders/${parentId}/files`,
        headers: {
          ...auth,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(head.length + size + tail.length),
        },
        body: Readable.from(
          (async function* () {
            yield head;
            yield* source;
            yield tail;
          })(),
        ),
      });
      const text = await res.body.text();
      if (res.statusCode === 409 || res.statusCode === 422) {
        skippedFiles++;
        return;
      }
      if (res.statusCode >= 300) throw new Error(`floor: upload ${rel}: ${res.statusCode} ${text}`);
      files++;
      bytes += size;
    });
    return {
      ms: Math.round(performance.now() - started),
      requests,
      folders: ids.size - 1,
      files,
      bytes,
      skippedFolders,
      skippedFiles,
    };
  } finally {
    await pool.close();
  }
}

/** Archives hold at most this many files, as the engine's (SYNC.md: split past 2,500). */
const ARCHIVE_FILES = 2_500;

export interface MirrorFloorResult {
  ms: number;
  listMs: number;
  requests: number;
  folders: number;
  nonEmptyFiles: number;
  archives: number;
  downloads: number;
  bytes: number;
}

/**
 * The request floor of a mirror at scale: a bare undici loop at `concurrency` that lists every
 * folder (breadth first, page after page), then fetches the content as archives of the largest
 * subtrees of at most 2,500 files (a file alone by itself), side by side. One archive of the
 * root (mirror-floor.ts) is no floor at a million entries: the sandbox's zip writer (yazl)
 * looks for its next entry from the first one each time, so one archive costs the square of
 * its entries (the root of the 1M tree had sent 1.65 of 1.8 GB after 38 minutes).
 */
export async function floorMirrorSubtrees(
  t: { baseUrl: string; token: string; workspaceId: number },
  concurrency = 8,
  /** Only the listings: the floor of a mirror online only (files on demand), which fetches no content. */
  listOnly = false,
): Promise<MirrorFloorResult> {
  const pool = new Pool(t.baseUrl, { connections: concurrency });
  const headers = { authorization: `Bearer ${t.token}` };
  let requests = 0;
  const get = async (p: string) => {
    requests++;
    const res = await pool.request({ method: 'GET', path: p, headers });
    if (res.statusCode !== 200) {
      throw new Error(
        `floor: GET ${p}: ${res.statusCode} ${(await res.body.text()).slice(0, 200)}`,
      );
    }
    return res;
  };
  const consume = async (body: AsyncIterable<Buffer>) => {
    let n = 0;
    for await (const chunk of body) n += chunk.length;
    return n;
  };
  try {
    const started = performance.now();
    const rootRes = await get(`/workspaces/${t.workspaceId}/folders`);
    const rootId = ((await rootRes.body.json()) as { items: { folder: { id: number } }[] })
      .items[0]!.folder.id;
    // Discovery order: a folder before its subfolders.
    const order: number[] = [rootId];
    const subfolders = new Map<number, number[]>([[rootId, []]]);
    const files = new Map<number, number[]>([[rootId, []]]);
    await drain<[number, number]>([[rootId, 0]], concurrency, async ([id, offset], push) => {
      const res = await get(offset === 0 ? `/folders/${id}` : `/folders/${id}?offset=${offset}`);
      const page = (await res.body.json()) as {
        items: ({ folder: { id: number } } | { file: { id: number; size: number } })[];
        next_offset: number | null;
      };
      if (page.next_offset !== null) push([id, page.next_offset]);
      for (const entry of page.items) {
        if ('folder' in entry) {
          const child = entry.folder.id;
          order.push(child);
          subfolders.get(id)!.push(child);
          subfolders.set(child, []);
          files.set(child, []);
          push([child, 0]);
        } else if (entry.file.size > 0) files.get(id)!.push(entry.file.id);
      }
    });
    const listMs = performance.now() - started;
    const below = new Map<number, number>();
    for (let i = order.length - 1; i >= 0; i--) {
      const id = order[i]!;
      let n = files.get(id)!.length;
      for (const c of subfolders.get(id)!) n += below.get(c)!;
      below.set(id, n);
    }
    const jobs: string[] = [];
    const plan = (id: number) => {
      const n = below.get(id)!;
      if (n === 0) return;
      if (n <= ARCHIVE_FILES) {
        if (n > 1) return void jobs.push(`/folders/${id}/archive`);
        if (files.get(id)!.length === 1) return void jobs.push(`/download/${files.get(id)![0]!}`);
      } else for (const f of files.get(id)!) jobs.push(`/download/${f}`);
      for (const c of subfolders.get(id)!) plan(c);
    };
    if (!listOnly) plan(rootId);
    let bytes = 0;
    await drain(jobs, concurrency, async (p) => {
      const n = await consume((await get(p)).body);
      bytes += n;
    });
    return {
      ms: Math.round(performance.now() - started),
      listMs: Math.round(listMs),
      requests,
      folders: order.length - 1,
      nonEmptyFiles: below.get(rootId)!,
      archives: jobs.filter((j) => j.endsWith('/archive')).length,
      downloads: jobs.filter((j) => j.startsWith('/download/')).length,
      bytes,
    };
  } finally {
    await pool.close();
  }
}

export interface DiskFloorResult {
  ms: number;
  /** CPU time of the loop (user + system): on this machine mostly the kernel's. */
  cpuMs: number;
  folders: number;
  files: number;
}

/**
 * The disk floor of a mirror: the tree at `src` written again at `dst` by a bare synchronous
 * loop, doing only what any careful client must (each folder made; each file created in a
 * cache folder, written, given its time, renamed into place), with no request, check or
 * journal. The request floor writes nothing; this says what the writing alone costs here.
 */
export async function diskFloor(src: string, dst: string): Promise<DiskFloorResult> {
  const folders: string[] = [];
  const files: [string, number][] = [];
  const list = async (rel: string): Promise<void> => {
    for (const e of await readdir(path.join(src, rel), { withFileTypes: true })) {
      if (rel === '' && e.name.startsWith('.')) continue; // the client's own cache and state
      const r = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        folders.push(r);
        await list(r);
      } else if (e.isFile()) files.push([r, (await lstat(path.join(src, r))).size]);
    }
  };
  await list('');
  const cache = path.join(dst, '.cache');
  mkdirSync(cache, { recursive: true });
  const block = Buffer.alloc(1 << 20, 0x61);
  const time = new Date(1_700_000_000_000);
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  for (const f of folders) mkdirSync(path.join(dst, f));
  files.forEach(([rel, size], i) => {
    const temp = path.join(cache, `${i}.part`);
    const fd = openSync(temp, 'w');
    try {
      for (let at = 0; at < size; at += block.length) {
        writeSync(fd, block, 0, Math.min(block.length, size - at));
      }
    } finally {
      closeSync(fd);
    }
    utimesSync(temp, time, time);
    renameSync(temp, path.join(dst, rel));
  });
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpu0);
  return {
    ms: Math.round(ms),
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    folders: folders.length,
    files: files.length,
  };
}
