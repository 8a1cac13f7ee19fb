import type { ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Pool } from 'undici';
import { spawnSandbox, type SandboxProcess } from '../src/service/child';
import { sandboxStats, type Benchmark, type Figures, type SandboxStats } from './lib';
import { countTree } from './mirror-util';
import { generateScaleData } from './scale-generate';
import {
  bytesBelow,
  census,
  diskFloor,
  floorMirrorSubtrees,
  floorUpload,
  killGroup,
  runCli,
  ScaleTimeout,
  type CliRun,
} from './scale-util';
import { builtCli } from './cli-build';
import { CliChild, topRoutes, waitUntil } from './traffic-util';

// The sync client at scale (issue 25): generated workspaces of 100,000 and 1,000,000 entries
// (10,000 and 100,000 folders), written straight into the sandbox's database (scale-generate.ts),
// and a copy of the real /usr/share uploaded through the API. Every client is the real CLI
// (`workspace-sync sync --json`) in a child process under /usr/bin/time (its peak resident
// memory, tsx's loader included); the sandbox runs in a child of its own; requests are the
// sandbox's own counters (/_sandbox/stats) before and after each run, by route.
//
// Per size (`<figure>_<size>`, size 100k, 1m or usr_share):
// - mirror: `sync --once` into an empty folder (ms, peak), against the request floor at the same
//   concurrency (a bare undici loop: every listing, then archives of subtrees of at most 2,500
//   files side by side, scale-util.ts), interleaved: floor, mirror (and again for 100k: best of
//   2; best of 1 for 1m and usr_share). The request floor writes nothing to disk: beside it,
//   `disk_floor_ms`, the mirrored tree written again by a bare loop (scale-util.ts `diskFloor`),
//   and `mirror_vs_floor_and_disk`, the mirror against the two together.
// - scan: a restart, `sync --once` again on the mirrored folder, nothing changed (ms, peak, and
//   `once_requests` its requests in all, by route in `once_routes`).
// - idle_requests: requests of one idle poll of a continuous `sync --poll 2` on the mirrored
//   folder and journal, counted by the sandbox over IDLE_POLLS polls once it is idle (a poll:
//   requests after a quiet second), divided by the polls.
// - journal_mb and bytes_per_entry: the journal's files after the mirror, and per entry.
// - usr_share also: `up` (the copy uploaded by `sync --once` into the empty workspace) against
//   its floor (each folder created, each file sent as one multipart POST, same concurrency).
// At the end, the large files' figures of bench/scale-large.ts when that module exists.
//
// SCALE_SIZES=100k,usr_share,1m,large picks the parts (all by default); SCALE_TIMEOUT_MIN caps
// each CLI run (default 30 min, 60 for 1m). A part that fails or runs out of time is reported as
// a figure (`error_<size>`) and the others still run. Progress goes to stderr. Everything lives
// in one temporary directory, removed at the end, failure or not.

const CONCURRENCY = 8;
const POLL_S = 2;
const IDLE_POLLS = 5;
const SEED = 20_250_125;
const SOURCE = '/usr/share';
const ALL_PARTS = ['100k', 'usr_share', '1m', 'large'] as const;
/** `10k`: a quick check of the bench itself, only when asked for. */
const KNOWN_PARTS = [...ALL_PARTS, '10k'] as const;
type Part = (typeof KNOWN_PARTS)[number];

const GENERATED = {
  '10k': { folders: 1_000, files: 9_000, runs: 1 },
  '100k': { folders: 10_000, files: 90_000, runs: 2 },
  '1m': { folders: 100_000, files: 900_000, runs: 1 },
} as const;

/** The goals of issue 25, printed beside the figures as `goal_<figure>`. */
const GOALS: Record<string, number> = {
  mirror_peak_rss_mb_1m: 400,
  mirror_vs_floor_1m: 1.2,
  scan_ms_1m: 30_000,
  scan_peak_rss_mb_1m: 400,
  idle_requests_1m: 1,
  scan_peak_rss_mb_100k: 150,
  idle_requests_100k: 1,
  mirror_peak_rss_mb_usr_share: 200,
  mirror_vs_floor_usr_share: 1.2,
  up_peak_rss_mb_usr_share: 200,
  up_vs_floor_usr_share: 1.2,
  idle_requests_usr_share: 1,
};

const round2 = (x: number) => Math.round(x * 100) / 100;
const mb = (bytes: number) => round2(bytes / 1024 ** 2);
const execFileAsync = promisify(execFile);

const benchStart = performance.now();
function progress(message: string): void {
  const s = ((performance.now() - benchStart) / 1000).toFixed(0);
  process.stderr.write(`[scale +${s}s] ${message}\n`);
}

function parts(): Part[] {
  const asked = process.env.SCALE_SIZES?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!asked) return [...ALL_PARTS];
  const unknown = asked.filter((s) => !(KNOWN_PARTS as readonly string[]).includes(s));
  if (unknown.length > 0) {
    throw new Error(
      `SCALE_SIZES: unknown ${unknown.join(', ')} (known: ${KNOWN_PARTS.join(', ')})`,
    );
  }
  return asked as Part[];
}

function timeoutMs(part: Part): number {
  const min = Number(process.env.SCALE_TIMEOUT_MIN ?? (part === '1m' ? 60 : 30));
  return min * 60_000;
}

/** A sandbox child on `dataDir` with its counters, and the owner's identity. */
interface Served {
  sandbox: SandboxProcess;
  hooks: Pool;
  baseUrl: string;
  token: string;
  workspaceId: number;
  resetStats: () => Promise<void>;
  readStats: () => Promise<SandboxStats>;
}

async function serve(dataDir: string, owned: Set<() => Promise<void>>): Promise<Served> {
  const sandbox = await spawnSandbox(['--data', dataDir, '--seed', 'empty']);
  const hooks = new Pool(sandbox.info.base_url, { connections: 2 });
  const close = async () => {
    await hooks.close().catch(() => {});
    await sandbox.stop();
  };
  owned.add(close);
  const { reset, read } = sandboxStats(hooks);
  return {
    sandbox,
    hooks,
    baseUrl: sandbox.info.base_url,
    token: sandbox.info.users[0]!.token,
    workspaceId: sandbox.info.workspace_id,
    resetStats: reset,
    readStats: read,
  };
}

/** Requests by route, largest first. */
const routes = (stats: SandboxStats, n = 6) => topRoutes(stats.requests, n);

/** The journal files of a state directory (the database, its WAL and shared memory). */
async function journalBytes(stateDir: string): Promise<number> {
  const dir = path.join(stateDir, 'journals');
  return existsSync(dir) ? bytesBelow(dir) : 0;
}

/**
 * Polls of a lone client told apart in the sandbox's counters: requests that start after at
 * least `quietMs` without any begin a new poll. Sampled by the caller (every 100 ms).
 */
class PollCounter {
  last: { polls: number; stats: SandboxStats } | null = null;
  private polls = 0;
  private quietSince = performance.now();
  private total = -1;

  constructor(
    private readonly read: () => Promise<SandboxStats>,
    private readonly quietMs: number,
  ) {}

  async sample(): Promise<{ polls: number; stats: SandboxStats }> {
    const stats = await this.read();
    const now = performance.now();
    if (this.total >= 0 && stats.total > this.total) {
      if (now - this.quietSince >= this.quietMs) this.polls++;
      this.quietSince = now;
    } else if (this.total < 0) this.quietSince = now;
    this.total = stats.total;
    this.last = { polls: this.polls, stats };
    return this.last;
  }
}

interface Expected {
  folders: number;
  files: number;
}

/**
 * Mirror (interleaved with the floor), restart scan and idle polls of one workspace: the
 * figures common to every size, named `<figure>_<size>`.
 */
async function mirrorScanIdle(
  s: Served,
  size: string,
  workspaceId: number,
  expected: Expected | null,
  runs: number,
  base: string,
  limitMs: number,
  live: Set<ChildProcess>,
  out: Figures,
): Promise<{ dir: string }> {
  const f = (name: string, value: number | string | boolean) => (out[`${name}_${size}`] = value);
  const syncArgs = (server: string, dir: string, state: string, mode: string[]) => [
    'sync',
    '--server',
    server,
    '--workspace',
    String(workspaceId),
    '--dir',
    dir,
    '--state',
    state,
    ...mode,
    '--json',
  ];
  const floors: number[] = [];
  const mirrors: (CliRun & { stats: SandboxStats; dir: string; state: string })[] = [];
  for (let i = 1; i <= runs; i++) {
    progress(`${size}: floor ${i}/${runs}`);
    await s.resetStats();
    const floor = await floorMirrorSubtrees(
      { baseUrl: s.baseUrl, token: s.token, workspaceId },
      CONCURRENCY,
    );
    if (expected && floor.folders !== expected.folders) {
      throw new Error(`floor: found ${floor.folders} folders, expected ${expected.folders}`);
    }
    floors.push(floor.ms);
    f('floor_ms', Math.min(...floors));
    f('floor_requests', floor.requests);
    f('floor_list_ms', floor.listMs);
    f('floor_fetches', `${floor.archives} archives, ${floor.downloads} single downloads`);
    f('floor_mb', mb(floor.bytes));
    progress(`${size}: floor ${floor.ms} ms; mirror ${i}/${runs}`);
    const dir = path.join(base, `mirror-${i}`, 'dir');
    const state = path.join(base, `mirror-${i}`, 'state');
    await mkdir(state, { recursive: true });
    await s.resetStats();
    const run = await runCli(
      syncArgs(s.baseUrl, dir, state, ['--once']),
      limitMs,
      live,
      s.token,
      (p) => progress(`${size}: mirror ${i}: ${p}`),
    ).catch((err: unknown) => {
      // How far a mirror past its deadline got, and its peak until then (a lower bound).
      if (err instanceof ScaleTimeout) {
        f('mirror_ms', `timeout after ${Math.round(err.ms / 1000)} s`);
        f('mirror_progress_at_timeout', err.lastProgress);
        if (err.peakRssMb > 0) f('mirror_peak_rss_mb', err.peakRssMb);
      }
      throw err;
    });
    const stats = await s.readStats();
    if (run.code !== 0) throw new Error(`mirror ${i} exited ${run.code}: ${run.tail}`);
    mirrors.push({ ...run, stats, dir, state });
    progress(`${size}: mirror ${i} ${run.ms} ms, peak ${run.peakRssMb} MB`);
    if (i < runs) continue;
    const local = await countTree(dir);
    f('mirror_tree', `${local.folders} folders, ${local.files} files`);
    if (expected && (local.folders !== expected.folders || local.files !== expected.files)) {
      f(
        'mirror_incomplete',
        `${local.folders}/${expected.folders} folders, ${local.files}/${expected.files} files`,
      );
    }
  }
  const best = mirrors.reduce((a, b) => (b.ms < a.ms ? b : a));
  const last = mirrors[mirrors.length - 1]!;
  const floorMs = Math.min(...floors);
  f('mirror_ms', best.ms);
  f('floor_ms', floorMs);
  f('mirror_vs_floor', round2(best.ms / floorMs));
  // The request floor writes nothing: what writing the same tree alone costs here, measured
  // now (the same disk and moment), and the mirror against the two together.
  progress(`${size}: disk floor`);
  const disk = await diskFloor(last.dir, path.join(base, 'disk-floor'));
  f('disk_floor_ms', disk.ms);
  f('disk_floor_cpu_ms', disk.cpuMs);
  f('mirror_vs_floor_and_disk', round2(best.ms / (floorMs + disk.ms)));
  f('mirror_peak_rss_mb', Math.max(...mirrors.map((m) => m.peakRssMb)));
  f('mirror_requests', last.stats.total);
  f('mirror_routes', routes(last.stats));
  if (runs > 1) {
    f('mirror_runs_ms', mirrors.map((m) => m.ms).join(' / '));
    f('floor_runs_ms', floors.join(' / '));
  }
  const summary = last.summary ?? {};
  f('mirror_problems', Number(summary.problems ?? 0));

  const journal = await journalBytes(last.state);
  const here = expected ?? (await countTree(last.dir));
  const entries = here.folders + here.files;
  f('journal_mb', mb(journal));
  f('bytes_per_entry', Math.round(journal / Math.max(1, entries)));

  // A restart: the same --once on the mirrored folder, nothing changed anywhere.
  progress(`${size}: restart scan`);
  await s.resetStats();
  const scan = await runCli(
    syncArgs(s.baseUrl, last.dir, last.state, ['--once']),
    limitMs,
    live,
    s.token,
  );
  const scanStats = await s.readStats();
  if (scan.code !== 0) throw new Error(`the restart exited ${scan.code}: ${scan.tail}`);
  const work = ['filesDownloaded', 'foldersCreated', 'uploaded', 'remoteFoldersCreated'].reduce(
    (n, k) => n + Number(scan.summary?.[k] ?? 0),
    0,
  );
  f('scan_ms', scan.ms);
  f('scan_peak_rss_mb', scan.peakRssMb);
  f('once_requests', scanStats.total);
  f('once_routes', routes(scanStats));
  if (work > 0) f('scan_did_work', JSON.stringify(scan.summary));
  progress(`${size}: restart ${scan.ms} ms, peak ${scan.peakRssMb} MB; idle polls`);

  // Idle polls of a continuous sync of the same folder and journal, counted by the sandbox's
  // own counters (nothing else talks to it meanwhile). Not through a proxy: the journal belongs
  // to the server's address, and a client of the proxy's address synced the whole tree again
  // before its first idle poll (the 1M tree: 100,000 listings and every archive once more).
  const cli = new CliChild(
    `idle ${size}`,
    syncArgs(s.baseUrl, last.dir, last.state, ['--poll', String(POLL_S)]),
    s.token,
    live,
    await builtCli(),
  );
  try {
    await cli.waitForLine(
      'idle after its start',
      (j) => j.type === 'status' && j.state === 'idle',
      limitMs,
    );
    const polls = new PollCounter(s.readStats, POLL_S * 1000 * 0.5);
    const running = () => {
      if (!cli.running) throw new Error(`the continuous sync stopped: ${cli.describe()}`);
    };
    // From the first poll that starts after it went idle.
    await waitUntil('a first idle poll', limitMs, async () => {
      running();
      return (await polls.sample()).polls >= 1;
    });
    const from = polls.last!;
    await waitUntil(
      `${IDLE_POLLS} idle polls`,
      POLL_S * 1000 * IDLE_POLLS * 20 + limitMs / 10,
      async () => {
        running();
        return (await polls.sample()).polls - from.polls >= IDLE_POLLS;
      },
    );
    const to = polls.last!;
    const n = to.polls - from.polls;
    f('idle_requests', round2((to.stats.total - from.stats.total) / n));
    const byRoute = new Map<string, number>();
    for (const [r, k] of Object.entries(to.stats.requests)) {
      const d = k - (from.stats.requests[r] ?? 0);
      if (d > 0) byRoute.set(r, d);
    }
    f('idle_routes', `${n} polls: ${topRoutes(byRoute)}`);
  } finally {
    await cli.stop();
  }
  return { dir: last.dir };
}

async function generated(
  size: keyof typeof GENERATED,
  base: string,
  live: Set<ChildProcess>,
  owned: Set<() => Promise<void>>,
  out: Figures,
): Promise<void> {
  const spec = GENERATED[size];
  const dataDir = path.join(base, 'data');
  await mkdir(dataDir, { recursive: true });
  progress(`${size}: generating ${spec.folders} folders, ${spec.files} files`);
  const tree = await generateScaleData(dataDir, {
    folders: spec.folders,
    files: spec.files,
    seed: SEED + spec.folders,
  });
  out[`generate_ms_${size}`] = tree.ms;
  out[`tree_${size}`] =
    `${tree.folders} folders (depth ${tree.maxDepth}, ${tree.emptyFolders} empty, ` +
    `${tree.pagedFolders} paged), ${tree.files} files (${tree.nonEmptyFiles} non-empty), ` +
    `${mb(tree.bytes)} MB`;
  progress(`${size}: generated in ${tree.ms} ms; starting the sandbox`);
  const s = await serve(dataDir, owned);
  if (s.workspaceId !== tree.workspaceId) throw new Error('the sandbox names another workspace');
  await mirrorScanIdle(
    s,
    size,
    tree.workspaceId,
    { folders: tree.folders, files: tree.files },
    spec.runs,
    base,
    timeoutMs(size),
    live,
    out,
  );
}

async function usrShare(
  base: string,
  live: Set<ChildProcess>,
  owned: Set<() => Promise<void>>,
  out: Figures,
): Promise<void> {
  if (!existsSync(SOURCE)) throw new Error(`${SOURCE} is missing`);
  const size = 'usr_share';
  // The CLI keeps its cache folder at the top of the sync folder: it syncs a copy, never
  // /usr/share itself. cp -a keeps the links as links; a file this user cannot read stays
  // unreadable in the copy (cp says so and goes on).
  const src = path.join(base, 'share');
  progress(`usr_share: copying ${SOURCE}`);
  const copied = await execFileAsync('cp', ['-a', SOURCE, src], { maxBuffer: 64 << 20 }).then(
    () => '',
    (err: { stderr?: string }) => String(err.stderr ?? err),
  );
  if (copied) out.usr_share_copy_errors = copied.split('\n').filter(Boolean).length;
  const c = await census(src);
  Object.assign(out, {
    usr_share_folders: c.folders,
    usr_share_files: c.files,
    usr_share_symlinks: c.symlinks,
    usr_share_other_kinds: c.others,
    usr_share_mb: mb(c.bytes),
    usr_share_case_clashes: c.caseClashes,
    usr_share_odd_names: c.oddNames,
    usr_share_non_utf8_names: c.badUtf8,
    usr_share_non_ascii_names: c.nonAscii,
  });
  progress(`usr_share: ${c.folders} folders, ${c.files} files, ${c.symlinks} links`);

  const dataDir = path.join(base, 'data');
  await mkdir(dataDir, { recursive: true });
  const s = await serve(dataDir, owned);
  const limitMs = timeoutMs('usr_share');
  const call = async <T>(method: 'GET' | 'POST', p: string, body?: unknown): Promise<T> => {
    const res = await s.hooks.request({
      method,
      path: p,
      headers: {
        authorization: `Bearer ${s.token}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`${method} ${p}: ${res.statusCode} ${text}`);
    return JSON.parse(text) as T;
  };
  const rootOf = async (ws: number) =>
    (await call<{ items: { folder: { id: number } }[] }>('GET', `/workspaces/${ws}/folders`))
      .items[0]!.folder.id;

  // Up: the floor first, into a workspace of its own, then the CLI into the seeded one.
  const floorWs = (
    await call<{ workspace: { id: number } }>('POST', '/workspaces', {
      workspace: { name: 'Scale floor' },
    })
  ).workspace.id;
  progress('usr_share: up floor');
  await s.resetStats();
  const upFloor = await floorUpload(
    { baseUrl: s.baseUrl, token: s.token, workspaceId: floorWs, rootId: await rootOf(floorWs) },
    src,
    c,
    CONCURRENCY,
  );
  const upFloorStats = await s.readStats();
  progress(`usr_share: up floor ${upFloor.ms} ms; up`);
  await s.resetStats();
  const upState = path.join(base, 'up-state');
  const up = await runCli(
    [
      'sync',
      '--server',
      s.baseUrl,
      '--workspace',
      String(s.workspaceId),
      '--dir',
      src,
      '--state',
      upState,
      '--once',
      '--json',
    ],
    limitMs,
    live,
    s.token,
    (p) => progress(`usr_share: up: ${p}`),
  );
  const upStats = await s.readStats();
  progress(`usr_share: up ${up.ms} ms (exit ${up.code}), peak ${up.peakRssMb} MB`);
  const u = up.summary ?? {};
  Object.assign(out, {
    up_ms_usr_share: up.ms,
    up_floor_ms_usr_share: upFloor.ms,
    up_vs_floor_usr_share: round2(up.ms / upFloor.ms),
    up_peak_rss_mb_usr_share: up.peakRssMb,
    up_requests_usr_share: upStats.total,
    up_floor_requests_usr_share: upFloorStats.total,
    up_routes_usr_share: routes(upStats),
    up_summary_usr_share:
      `exit ${up.code}: ${String(u.remoteFoldersCreated)} folders created, ` +
      `${String(u.uploaded)} uploaded, ${String(u.problems)} problems, ${String(u.conflicts)} conflicts`,
    up_floor_sent_usr_share:
      `${upFloor.folders} folders, ${upFloor.files} files, ${mb(upFloor.bytes)} MB; ` +
      `${upFloor.skippedFolders} folders and ${upFloor.skippedFiles} files refused or unreadable`,
    up_journal_mb_usr_share: mb(await journalBytes(upState)),
  });
  if (up.code !== 0) out.up_exit_usr_share = up.tail.slice(0, 600);

  // Down: what the service now has, into an empty folder.
  await mirrorScanIdle(s, size, s.workspaceId, null, 1, base, limitMs, live, out);
}

const bench: Benchmark = {
  name: 'scale',
  description:
    'the real CLI at 100k and 1M generated entries and on a copy of /usr/share: mirror vs ' +
    'request floor, peak memory, restart scan, idle poll, journal size (SCALE_SIZES picks parts)',
  async run() {
    const chosen = parts();
    const out: Figures = { sizes: chosen.join(',') };
    const live = new Set<ChildProcess>();
    const owned = new Set<() => Promise<void>>();
    const top = await mkdtemp(path.join(tmpdir(), 'workspace-scale-bench-'));
    const started = performance.now();
    try {
      for (const part of chosen) {
        const t = performance.now();
        const base = path.join(top, part);
        await mkdir(base, { recursive: true });
        try {
          if (part === 'large') Object.assign(out, await largeFiles());
          else if (part === 'usr_share') await usrShare(base, live, owned, out);
          else await generated(part, base, live, owned, out);
        } catch (err) {
          out[`error_${part}`] =
            err instanceof ScaleTimeout
              ? `${err.message}${err.lastProgress ? ` (last progress ${err.lastProgress})` : ''}${err.peakRssMb ? `, peak ${err.peakRssMb} MB so far` : ''}`
              : String(err instanceof Error ? err.message : err).slice(0, 800);
          progress(`${part}: ${String(out[`error_${part}`])}`);
        } finally {
          for (const child of live) killGroup(child);
          live.clear();
          for (const close of owned) await close().catch(() => {});
          owned.clear();
          await rm(base, { recursive: true, force: true });
        }
        out[`part_s_${part}`] = Math.round((performance.now() - t) / 1000);
        progress(`${part}: done`);
      }
    } finally {
      for (const child of live) killGroup(child);
      for (const close of owned) await close().catch(() => {});
      await rm(top, { recursive: true, force: true });
    }
    out.total_s = Math.round((performance.now() - started) / 1000);
    return withGoals(out);
  },
};

/** The large-file figures of bench/scale-large.ts (another part of issue 25), when it exists. */
async function largeFiles(): Promise<Figures> {
  const file = path.join(import.meta.dirname, 'scale-large.ts');
  if (!existsSync(file)) return { large_files: 'not available' };
  progress('large files');
  const mod = (await import(pathToFileURL(file).href)) as {
    largeFileFigures?: () => Promise<Record<string, number | string>>;
  };
  if (typeof mod.largeFileFigures !== 'function') {
    return { large_files: 'not available (scale-large.ts exports no largeFileFigures)' };
  }
  return mod.largeFileFigures();
}

/** Each goal beside its figure, and the goals missed in one line. */
function withGoals(out: Figures): Figures {
  const figures: Figures = {};
  const missed: string[] = [];
  for (const [k, v] of Object.entries(out)) {
    figures[k] = v;
    const goal = GOALS[k];
    if (goal === undefined) continue;
    figures[`goal_${k}`] = goal;
    if (typeof v === 'number' && v > goal) missed.push(`${k} ${v} > ${goal}`);
  }
  for (const [k, goal] of Object.entries(GOALS)) {
    const size = k.slice(k.lastIndexOf('_') + 1);
    const measured = k in out;
    const asked = String(out.sizes)
      .split(',')
      .some((p) => k.endsWith(`_${p}`));
    if (!measured && asked) missed.push(`${k} not measured (goal ${goal}; ${size})`);
  }
  figures.goals_missed = missed.length > 0 ? missed.join('; ') : 'none';
  return figures;
}

export default bench;
