import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import type { User } from '../src/service/context';
import { exitOf } from '../src/service/child';
import { uploadFile } from '../src/service/routes/files';
import { createFolder } from '../src/service/routes/folders';
import { startSandbox } from '../src/service/sandbox';
import { builtCli } from './cli-build';
import type { Figures } from './lib';
import { countTree } from './mirror-util';
import { contentRequests, percentile, round2, serve, type Served } from './ondemand-util';
import { cliEnv, runCli } from './scale-util';

// The files-on-demand benchmark's actions on single files and folders (ondemand.bench.ts):
// open-to-ready of a 1 MB placeholder (`files open`, as a double-click runs it) against `curl`
// of the same file, and `files free` of a folder of many files. One workspace, made through the
// sandbox's own operations (its routes' code without HTTP): `Open` of OPENS files of 1 MB,
// `Free` of FREE small files; mirrored in full by the real CLI (`sync --once`), then `Free`
// freed (timed), then `Open` freed (not timed) and each of its placeholders opened in turn.

const MiB = 1024 * 1024;
const CURL = '/usr/bin/curl';
const CONCURRENT_UPLOADS = 16;
const LIMIT_MS = 30 * 60_000;

export interface FilesSpec {
  /** Placeholders of 1 MB opened one by one (the p95's sample). */
  opens: number;
  /** Files in the folder freed at once. */
  free: number;
}

async function generate(dataDir: string, spec: FilesSpec): Promise<void> {
  const inproc = await startSandbox({ seed: 'empty', dataDir });
  try {
    const sb = inproc.sandbox;
    const owner = sb.db
      .prepare(`SELECT * FROM users WHERE id = ?`)
      .get(inproc.users[0]!.id) as User;
    const root = (
      sb.db
        .prepare(`SELECT root_folder_id FROM workspaces WHERE id = ?`)
        .get(inproc.workspaceId) as {
        root_folder_id: number;
      }
    ).root_folder_id;
    const open = createFolder(sb, owner, root, 'Open').id;
    const free = createFolder(sb, owner, root, 'Free').id;
    const jobs: (() => Promise<unknown>)[] = [];
    for (let i = 0; i < spec.opens; i++) {
      jobs.push(() =>
        uploadFile(sb, owner, open, `Big ${i}.bin`, Readable.from([randomBytes(MiB)])),
      );
    }
    for (let i = 0; i < spec.free; i++) {
      const body = Buffer.from(`file ${i} of the folder freed at once\n`);
      jobs.push(() => uploadFile(sb, owner, free, `File ${i}.txt`, Readable.from([body])));
    }
    // One transaction (the operations' own become savepoints): nothing else writes meanwhile.
    sb.db.exec('BEGIN');
    try {
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENT_UPLOADS }, async () => {
          while (next < jobs.length) await jobs[next++]!();
        }),
      );
      sb.db.exec('COMMIT');
    } catch (err) {
      if (sb.db.inTransaction) sb.db.exec('ROLLBACK');
      throw err;
    }
  } finally {
    await inproc.close();
  }
}

/** `workspace-sync ARGS` (the built CLI) under /usr/bin/time; throws unless it exits 0. */
async function cli(s: Served, args: string[], live: Set<ChildProcess>) {
  const run = await runCli(args, LIMIT_MS, live, s.token);
  if (run.code !== 0) throw new Error(`workspace-sync ${args[0]} ${args[1]}: ${run.tail}`);
  return run;
}

/** An opener in a folder of its own (`xdg-open`, put first on PATH) that writes the time it was
 * handed a file, and that file, into `stamp`. */
export interface FakeOpener {
  bin: string;
  stamp: string;
}

export function fakeOpener(base: string): FakeOpener {
  const bin = path.join(base, 'bin');
  mkdirSync(bin, { recursive: true });
  const stamp = path.join(base, 'opened');
  writeFileSync(
    path.join(bin, 'xdg-open'),
    `#!/bin/sh\nprintf '%s %s' "$(date +%s%3N)" "$1" > '${stamp}'\n`,
  );
  chmodSync(path.join(bin, 'xdg-open'), 0o755);
  return { bin, stamp };
}

/**
 * `files open PLACEHOLDER` as the desktop's handler runs it, with `opener` first on PATH: ready
 * is when the opener is handed the file, downloaded (`size` bytes, if given) and its placeholder
 * gone.
 * Returns the milliseconds from the start of the command.
 */
export async function openOne(
  placeholder: string,
  size: number | undefined,
  state: string,
  opener: FakeOpener,
  token: string,
  live: Set<ChildProcess>,
): Promise<number> {
  const env = cliEnv(token);
  env.PATH = `${opener.bin}:${env.PATH ?? ''}`;
  const argv = [...(await builtCli()), 'files', 'open', placeholder, '--state', state];
  const started = Date.now();
  const child = spawn(argv[0]!, argv.slice(1), { env, stdio: ['ignore', 'ignore', 'pipe'] });
  live.add(child);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const { code } = await exitOf(child);
  live.delete(child);
  if (code !== 0) throw new Error(`files open ${placeholder} exited ${code}: ${stderr.trim()}`);
  const real = placeholder.slice(0, -'.wsync'.length);
  if (existsSync(placeholder) || (size !== undefined && statSync(real).size !== size)) {
    throw new Error(`files open ${placeholder}: the file is not there in full`);
  }
  const said = readFileSync(opener.stamp, 'utf8');
  const at = said.slice(0, said.indexOf(' '));
  const file = said.slice(said.indexOf(' ') + 1);
  if (file !== real) throw new Error(`the opener was handed ${file}, not ${real}`);
  return Number(at) - started;
}

/** A continuous `sync` of the pair, once it is up to date; `stop` ends it as Ctrl+C does. */
async function startSync(
  args: string[],
  token: string,
  live: Set<ChildProcess>,
): Promise<{ stop: () => Promise<void> }> {
  const argv = [...(await builtCli()), ...args];
  const child = spawn(argv[0]!, argv.slice(1), {
    env: cliEnv(token),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = exitOf(child);
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const o = JSON.parse(line) as { type?: string; state?: string; lastSyncAt?: unknown };
      if (o.type === 'status' && o.state === 'idle' && o.lastSyncAt) resolve();
    });
    void exited.then(() => reject(new Error(`sync exited early: ${stderr.trim()}`)));
  });
  return {
    stop: async () => {
      child.kill('SIGINT');
      await exited;
      live.delete(child);
    },
  };
}

/** `curl -o` of one file's content to disk: the floor of an open, a process and a request. */
async function curlOne(s: Served, id: number, out: string): Promise<number> {
  const started = performance.now();
  const child = spawn(
    CURL,
    [
      '-sS',
      '-f',
      '-o',
      out,
      '-H',
      `Authorization: Bearer ${s.token}`,
      `${s.baseUrl}/download/${id}`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const { code } = await exitOf(child);
  const ms = performance.now() - started;
  if (code !== 0 || statSync(out).size !== MiB) throw new Error(`curl of ${id} exited ${code}`);
  return ms;
}

/** The ids of the files of a folder, by name. */
async function filesOf(s: Served, folderId: number): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (let offset: number | null = 0; offset !== null;) {
    const res = await s.hooks.request({
      method: 'GET',
      path: `/folders/${folderId}?offset=${offset}`,
      headers: { authorization: `Bearer ${s.token}` },
    });
    const page = (await res.body.json()) as {
      items: ({ file: { id: number; filename: string } } | { folder: unknown })[];
      next_offset: number | null;
    };
    for (const e of page.items) if ('file' in e) ids.set(e.file.filename, e.file.id);
    offset = page.next_offset;
  }
  return ids;
}

async function folderIdOf(s: Served, name: string): Promise<number> {
  const auth = { authorization: `Bearer ${s.token}` };
  const ws = await s.hooks.request({
    method: 'GET',
    path: `/workspaces/${s.workspaceId}/folders`,
    headers: auth,
  });
  const rootId = ((await ws.body.json()) as { items: { folder: { id: number } }[] }).items[0]!
    .folder.id;
  const res = await s.hooks.request({ method: 'GET', path: `/folders/${rootId}`, headers: auth });
  const page = (await res.body.json()) as {
    items: { folder?: { id: number; filename: string } }[];
  };
  const found = page.items.find((e) => e.folder?.filename === name)?.folder;
  if (!found) throw new Error(`no folder ${name} at the top of the workspace`);
  return found.id;
}

/** Open-to-ready and freeing, in one workspace under `base`; figures into `out`. */
export async function filesFigures(
  base: string,
  spec: FilesSpec,
  live: Set<ChildProcess>,
  progress: (m: string) => void,
  out: Figures,
): Promise<void> {
  const dataDir = path.join(base, 'data');
  mkdirSync(dataDir, { recursive: true });
  let t = performance.now();
  progress(`files: generating ${spec.opens} files of 1 MB and ${spec.free} small files`);
  await generate(dataDir, spec);
  out.files_generate_ms = Math.round(performance.now() - t);
  const s = await serve(dataDir);
  try {
    const dir = path.join(base, 'dir');
    const state = path.join(base, 'state');
    mkdirSync(state, { recursive: true });
    const common = ['--state', state];
    progress('files: mirroring in full');
    const mirror = await cli(
      s,
      [
        'sync',
        '--server',
        s.baseUrl,
        '--workspace',
        String(s.workspaceId),
        '--dir',
        dir,
        ...common,
        '--once',
        '--json',
      ],
      live,
    );
    out.files_mirror_ms = mirror.ms;
    const freeDir = path.join(dir, 'Free');
    const before = await countTree(freeDir);
    if (before.files !== spec.free)
      throw new Error(`Free holds ${before.files} files, not ${spec.free}`);

    // (c) Freeing a folder of spec.free files at once.
    progress(`files: freeing ${spec.free} files`);
    await s.resetStats();
    const freed = await cli(s, ['files', 'free', freeDir, ...common], live);
    const freeStats = await s.readStats();
    const names = await readdir(freeDir);
    const placeholders = names.filter((n) => n.endsWith('.wsync')).length;
    if (placeholders !== spec.free || names.length !== spec.free) {
      throw new Error(
        `after free: ${placeholders} placeholders of ${names.length} entries in Free`,
      );
    }
    Object.assign(out, {
      free_folder_files: spec.free,
      free_folder_ms: freed.ms,
      free_folder_peak_rss_mb: freed.peakRssMb,
      free_folder_requests: freeStats.total,
      free_folder_content_requests: contentRequests(freeStats),
    });
    progress(`files: freed in ${freed.ms} ms`);

    // (b) Open-to-ready of each 1 MB placeholder, interleaved with curl of the same file.
    await cli(s, ['files', 'free', path.join(dir, 'Open'), ...common], live);
    const opener = fakeOpener(base);
    const ids = await filesOf(s, await folderIdOf(s, 'Open'));
    const opens: number[] = [];
    const curls: number[] = [];
    t = performance.now();
    await s.resetStats();
    for (let i = 0; i < spec.opens; i++) {
      const name = `Big ${i}.bin`;
      opens.push(
        await openOne(path.join(dir, 'Open', `${name}.wsync`), MiB, state, opener, s.token, live),
      );
      curls.push(await curlOne(s, ids.get(name)!, path.join(base, 'curl.bin')));
    }
    const openStats = await s.readStats();
    Object.assign(out, {
      open_1mb_p50_ms: Math.round(percentile(opens, 50)),
      open_1mb_p95_ms: Math.round(percentile(opens, 95)),
      open_1mb_max_ms: Math.round(Math.max(...opens)),
      open_runs: spec.opens,
      curl_1mb_p50_ms: Math.round(percentile(curls, 50)),
      curl_1mb_p95_ms: Math.round(percentile(curls, 95)),
      open_vs_curl_p95: round2(percentile(opens, 95) / percentile(curls, 95)),
      open_requests_per_open: round2(
        (openStats.total - spec.opens) / spec.opens, // curl's own request left out
      ),
      open_pair_entries: spec.opens + spec.free + 2,
    });
    progress(`files: ${spec.opens} opens in ${Math.round(performance.now() - t)} ms`);

    // (b') The same while a sync runs the pair (the app, or a `sync` unit: how a desktop has it):
    // `files open` asks the running engine at the pair's door, which downloads it in one round.
    await cli(s, ['files', 'free', path.join(dir, 'Open'), ...common], live);
    const syncArgs = ['sync', '--server', s.baseUrl, '--workspace', String(s.workspaceId)];
    const running = await startSync(
      [...syncArgs, '--dir', dir, ...common, '--json'],
      s.token,
      live,
    );
    try {
      const byDoor: number[] = [];
      await s.resetStats();
      for (let i = 0; i < spec.opens; i++) {
        const name = `Big ${i}.bin`;
        byDoor.push(
          await openOne(path.join(dir, 'Open', `${name}.wsync`), MiB, state, opener, s.token, live),
        );
      }
      Object.assign(out, {
        open_1mb_running_p50_ms: Math.round(percentile(byDoor, 50)),
        open_1mb_running_p95_ms: Math.round(percentile(byDoor, 95)),
      });
    } finally {
      await running.stop();
    }
  } finally {
    await s.close();
  }
}
