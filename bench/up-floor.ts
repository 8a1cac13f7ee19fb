import { spawn } from 'node:child_process';
import {
  closeSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { Pool } from 'undici';
import { exitOf, spawnSandbox } from '../src/service/child';
import { IgnoreRules } from '../src/main/sync/detect-local/ignore';
import { CACHE_DIR } from '../src/main/sync/paths';
import { median } from './lib';
import { builtCli } from './cli-build';
// The engine's own small work queue: a scheduler, nothing of the engine's requests or checks.
import { drain } from '../src/main/sync/pool';
import type { FloorTarget } from './mirror-floor';

// The request floor of an up: a local folder sent into an empty workspace with the minimum
// requests any client needs (one POST per folder, parents first; one multipart POST per file),
// issued by a bare undici loop (no journal, no hash, no checks) at a fixed concurrency. A folder
// is listed when its own folder exists on the service, so the loop goes as deep as it is wide.
// Symlinks and special files are skipped, as the engine does; `skip` leaves out what it ignores.

export interface UpFloorResult {
  ms: number;
  requests: number;
  folders: number;
  files: number;
  bytes: number;
  /** Requests the service refused (a name it takes for another's): their subtree is skipped. */
  refused: number;
}

export interface UpFloorOptions {
  concurrency?: number;
  /** Paths (relative, '/'-separated) not to send, and not to descend into. */
  skip?: (rel: string, isDir: boolean) => boolean;
}

/** Bodies up to this are read at once; larger ones are streamed from the file. */
const SMALL = 1024 * 1024;
const CHUNK = 64 * 1024;

type Task =
  | { kind: 'list'; rel: string; id: number }
  | { kind: 'mkdir'; rel: string; parentId: number }
  | { kind: 'upload'; rel: string; parentId: number };

/** Sends `dir` into the (empty) workspace's root folder; resolves when all of it is there. */
export async function floorUp(
  t: FloorTarget,
  dir: string,
  opts: UpFloorOptions = {},
): Promise<UpFloorResult> {
  const concurrency = opts.concurrency ?? 8;
  const pool = new Pool(t.baseUrl, { connections: concurrency });
  const auth = `Bearer ${t.token}`;
  const r: UpFloorResult = { ms: 0, requests: 0, folders: 0, files: 0, bytes: 0, refused: 0 };
  const post = async (
    urlPath: string,
    body: string | Buffer | Readable,
    headers: Record<string, string>,
  ): Promise<unknown> => {
    r.requests++;
    const res = await pool.request({
      method: 'POST',
      path: urlPath,
      headers: { authorization: auth, ...headers },
      body,
    });
    const text = await res.body.text();
    if (res.statusCode === 422 || res.statusCode === 409) {
      r.refused++;
      return null;
    }
    if (res.statusCode >= 300) throw new Error(`floor: POST ${urlPath}: ${res.statusCode} ${text}`);
    return JSON.parse(text) as unknown;
  };
  try {
    const started = performance.now();
    r.requests++;
    const rootRes = await pool.request({
      method: 'GET',
      path: `/workspaces/${t.workspaceId}/folders`,
      headers: { authorization: auth },
    });
    const root = (await rootRes.body.json()) as { items: { folder: { id: number } }[] };
    const rootId = root.items[0]!.folder.id;
    const abs = (rel: string) => path.join(dir, ...rel.split('/'));
    await drain<Task>([{ kind: 'list', rel: '', id: rootId }], concurrency, async (task, push) => {
      if (task.kind === 'list') {
        for (const d of readdirSync(abs(task.rel), { withFileTypes: true })) {
          const rel = task.rel === '' ? d.name : `${task.rel}/${d.name}`;
          if (!d.isDirectory() && !d.isFile()) continue;
          if (opts.skip?.(rel, d.isDirectory())) continue;
          push({ kind: d.isDirectory() ? 'mkdir' : 'upload', rel, parentId: task.id });
        }
      } else if (task.kind === 'mkdir') {
        const name = path.posix.basename(task.rel);
        const made = (await post(
          `/workspaces/${t.workspaceId}/folders/${task.parentId}/folders`,
          JSON.stringify({ filename: name }),
          { 'content-type': 'application/json' },
        )) as { folder?: { id: number }; id?: number } | null;
        if (!made) return;
        r.folders++;
        push({ kind: 'list', rel: task.rel, id: made.folder?.id ?? made.id! });
      } else {
        const size = statSync(abs(task.rel)).size;
        const ok = await post(`/folders/${task.parentId}/files`, ...multipart(abs(task.rel), size));
        if (!ok) return;
        r.files++;
        r.bytes += size;
      }
    });
    r.ms = Math.round(performance.now() - started);
    return r;
  } finally {
    await pool.close();
  }
}

/** A one-file multipart body (as the client sends it) and its headers. */
function multipart(file: string, size: number): [Buffer | Readable, Record<string, string>] {
  const boundary = `----UpFloor${Math.random().toString(16).slice(2)}`;
  // RFC 5987: what encodeURIComponent leaves as is but an attr-char is not.
  const name = encodeURIComponent(path.basename(file)).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"; ` +
      `filename*=UTF-8''${name}\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const headers = {
    'content-type': `multipart/form-data; boundary=${boundary}`,
    'content-length': String(head.length + size + tail.length),
  };
  if (size <= SMALL) return [Buffer.concat([head, readFileSync(file), tail]), headers];
  const body = Readable.from(
    (function* () {
      yield head;
      const fd = openSync(file, 'r');
      try {
        for (let pos = 0; pos < size;) {
          const buf = Buffer.allocUnsafe(Math.min(CHUNK, size - pos));
          const n = readSync(fd, buf, 0, buf.length, pos);
          if (n === 0) break;
          pos += n;
          yield buf.subarray(0, n);
        }
      } finally {
        closeSync(fd);
      }
      yield tail;
    })(),
  );
  return [body, headers];
}

/**
 * The engine's `sync --once` up of `dir` into an empty workspace (the CLI, as a person runs it,
 * in a process of its own): its wall time and peak RSS (`/usr/bin/time -f %M`).
 */
export async function engineUp(
  t: FloorTarget,
  dir: string,
): Promise<{ ms: number; peakRssMb: number; output: string }> {
  const work = mkdtempSync(path.join(tmpdir(), 'workspace-up-engine-'));
  const timeFile = path.join(work, 'time');
  try {
    const started = performance.now();
    const child = spawn(
      '/usr/bin/time',
      ['-f', '%M', '-o', timeFile, ...(await builtCli())].concat(
        ['sync', '--server', t.baseUrl, '--workspace', String(t.workspaceId), '--dir', dir],
        // The folder holds the tree before its first sync: merging it in is asked for.
        ['--state', path.join(work, 'state'), '--once', '--merge'],
      ),
      {
        cwd: path.resolve(import.meta.dirname, '..'),
        env: { ...process.env, WORKSPACE_SYNC_TOKEN: t.token },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const { code } = await exitOf(child);
    const ms = Math.round(performance.now() - started);
    // Exit 1 is a pass that completed with problems (a name the service takes for another's).
    if (code !== 0 && code !== 1) throw new Error(`the engine's up failed (${code}): ${output}`);
    const peakRssMb = Math.round(Number(readFileSync(timeFile, 'utf8').trim()) / 1024);
    return { ms, peakRssMb, output };
  } finally {
    rmSync(work, { recursive: true, force: true });
    rmSync(path.join(dir, CACHE_DIR), { recursive: true, force: true });
  }
}

/**
 * `npx tsx bench/up-floor.ts DIR [ROUNDS]`: the floor and the engine, each into a fresh empty
 * sandbox, one after the other in each round (ratios side by side on a noisy machine). Prints
 * one JSON line. DIR must be a copy: the engine writes its cache folder into it (removed after).
 */
async function main(): Promise<void> {
  const dir = path.resolve(process.argv[2] ?? '');
  const rounds = Number(process.argv[3] ?? 1);
  const rules = IgnoreRules.load(dir);
  const skip = (rel: string, isDir: boolean) => rel === CACHE_DIR || rules.ignores(rel, isDir);
  const floors: UpFloorResult[] = [];
  const engines: { ms: number; peakRssMb: number }[] = [];
  for (let i = 0; i < rounds; i++) {
    for (const side of ['floor', 'engine'] as const) {
      const sandbox = await spawnSandbox(['--seed', 'empty']);
      try {
        const t: FloorTarget = {
          baseUrl: sandbox.info.base_url,
          token: sandbox.info.users[0]!.token,
          workspaceId: sandbox.info.workspace_id,
        };
        if (side === 'floor') floors.push(await floorUp(t, dir, { skip }));
        else engines.push(await engineUp(t, dir));
      } finally {
        await sandbox.stop();
      }
      console.error(side, side === 'floor' ? floors.at(-1) : engines.at(-1));
    }
  }
  const floorMs = median(floors.map((f) => f.ms));
  const engineMs = median(engines.map((e) => e.ms));
  console.log(
    JSON.stringify({
      floor_ms: floorMs,
      engine_ms: engineMs,
      engine_over_floor: Math.round((engineMs / floorMs) * 100) / 100,
      floor_runs_ms: floors.map((f) => f.ms).join(' / '),
      engine_runs_ms: engines.map((e) => e.ms).join(' / '),
      engine_peak_rss_mb: Math.max(...engines.map((e) => e.peakRssMb)),
      floor_requests: floors[0]!.requests,
      floor_folders: floors[0]!.folders,
      floor_files: floors[0]!.files,
      floor_refused: floors[0]!.refused,
      floor_mb: Math.round(floors[0]!.bytes / 1024 / 1024),
    }),
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
