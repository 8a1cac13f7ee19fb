import type { ChildProcess } from 'node:child_process';
import { existsSync, watch } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { ServiceClient } from '../src/main/api/client';
import { openSession } from '../src/main/api/oauth';
import { openSync, type OpenSync } from '../src/main/sync/loop/open';
import { exitOf, spawnSandbox, type SandboxProcess } from '../src/service/child';
import type { User } from '../src/service/context';
import { startSandbox } from '../src/service/sandbox';
import {
  median,
  runJsonChild,
  sandboxStats,
  type Benchmark,
  type Figures,
  type SandboxStats,
} from './lib';
import { floorMirror, type FloorResult } from './mirror-floor';
import { generateTree, prng, type GeneratedTree } from './mirror-generate';
import { countTree, recordingLogger, type EngineArgs, type EngineLine } from './mirror-util';

// The sync engine's initial mirror of a large workspace against the request floor (the fewest
// requests any client needs, issued by a bare undici loop at the same concurrency), the cost of
// an idle poll at 1k and 10k folders (and at 1k again once the engine has a burst of folders
// created through the API), and how soon a remote rename lands locally in continuous
// mode. The sandbox serves a generated workspace from its own process; the mirror runs in a
// child process of its own (its memory measured alone). Everything lives in one temporary
// directory, removed at the end, failure or not.

const FOLDERS = 10_000;
const FILES = 20_000;
const SMALL_FOLDERS = 1_000;
const SMALL_FILES = 2_000;
const CONCURRENCY = 8;
const IDLE_CALLS = 5;
const POLL_INTERVAL_MS = 1_000;
const RENAMES = 25;
const LAND_TIMEOUT_MS = 10_000;
/** Folders created through the API at once in the 1k workspace before the idle polls again. */
const BURST = 300;
/** syncOnce calls the engine may take to have the burst's folders. */
const BURST_PASSES = 5;
const SEED = 20_240_611;

const ENGINE_FILE = path.join(import.meta.dirname, 'mirror-engine.ts');

const round2 = (x: number) => Math.round(x * 100) / 100;
const seconds = (ms: number) => Math.round(ms / 100) / 10;

/** Requests by route, largest first, as one short line. */
function routes(stats: SandboxStats): string {
  return Object.entries(stats.requests)
    .sort((a, b) => b[1] - a[1])
    .map(([route, n]) => `${route} ${n}`)
    .join(', ');
}

const bench: Benchmark = {
  name: 'mirror',
  description:
    `initial mirror of ${FOLDERS} folders / ${FILES} files by the engine (child process) vs the ` +
    `request floor (bare undici, ${CONCURRENCY} in flight; best of 2, interleaved), idle polls ` +
    `at 1k/10k folders and at 1k after a burst of ${BURST} folder creations, remote rename → ` +
    `local path in continuous mode`,
  async run() {
    const base = await mkdtemp(path.join(tmpdir(), 'workspace-mirror-bench-'));
    const live = new Set<ChildProcess>();
    const engines = new Set<OpenSync>();
    let sandbox: SandboxProcess | undefined;
    let hooks: Pool | undefined;
    let abortRun: AbortController | undefined;
    const figures: Figures = {};
    try {
      // Generation: in process, through the sandbox's own operations, then served by a child.
      const dataDir = path.join(base, 'data');
      await mkdir(dataDir);
      let t = performance.now();
      const inproc = await startSandbox({ seed: 'empty', dataDir });
      let big: GeneratedTree;
      let small: GeneratedTree;
      try {
        const owner = inproc.sandbox.db
          .prepare(`SELECT * FROM users WHERE id = ?`)
          .get(inproc.users[0]!.id) as User;
        big = await generateTree(
          inproc.sandbox,
          owner,
          { folders: FOLDERS, files: FILES, seed: SEED },
          { workspaceId: inproc.workspaceId },
        );
        small = await generateTree(
          inproc.sandbox,
          owner,
          { folders: SMALL_FOLDERS, files: SMALL_FILES, seed: SEED + 1 },
          { name: 'Mirror 1k' },
        );
      } finally {
        await inproc.close();
      }
      const generateMs = performance.now() - t;

      t = performance.now();
      sandbox = await spawnSandbox(['--data', dataDir, '--seed', 'empty']);
      const sandboxStartMs = performance.now() - t;
      const info = sandbox.info;
      if (info.workspace_id !== big.workspaceId) {
        throw new Error(
          `the restarted sandbox names workspace ${info.workspace_id}, not ${big.workspaceId}`,
        );
      }
      const owner = info.users[0]!;
      const baseUrl = info.base_url;
      hooks = new Pool(baseUrl, { connections: 1 });
      const { reset: resetStats, read: readStats } = sandboxStats(hooks);

      const floor = async (tree: GeneratedTree, content: 'archive' | 'files') => {
        await resetStats();
        const r = await floorMirror(
          { baseUrl, token: owner.token, workspaceId: tree.workspaceId },
          content,
          CONCURRENCY,
        );
        const stats = await readStats();
        if (r.archiveShortBytes !== 0) {
          throw new Error(
            `floor: the archive announced ${r.archiveShortBytes} bytes more than it sent`,
          );
        }
        if (stats.total !== r.requests) {
          throw new Error(`floor: issued ${r.requests} requests, the sandbox saw ${stats.total}`);
        }
        if (r.folders !== tree.folders || r.nonEmptyFiles !== tree.nonEmptyFiles) {
          throw new Error(
            `floor: found ${r.folders} folders / ${r.nonEmptyFiles} non-empty files, expected ${tree.folders} / ${tree.nonEmptyFiles}`,
          );
        }
        return r;
      };

      interface Mirror {
        line: EngineLine;
        stats: SandboxStats;
        dir: string;
        stateDir: string;
      }
      let mirrors = 0;
      const mirror = async (tree: GeneratedTree, under = base): Promise<Mirror> => {
        const where = path.join(under, `mirror-${++mirrors}`);
        const dir = path.join(where, 'dir');
        const stateDir = path.join(where, 'state');
        await mkdir(stateDir, { recursive: true });
        await resetStats();
        const line = await runJsonChild<EngineLine>(
          'the engine child',
          [
            '--import',
            'tsx',
            ENGINE_FILE,
            JSON.stringify({
              baseUrl,
              clientId: info.client_id,
              clientSecret: info.client_secret,
              token: owner.token,
              email: owner.email,
              workspaceId: tree.workspaceId,
              dir,
              stateDir,
            } satisfies EngineArgs),
          ],
          live,
        );
        const stats = await readStats();
        const local = await countTree(dir);
        if (local.folders !== tree.folders || local.files !== tree.files) {
          throw new Error(
            `mirror ${mirrors}: the local tree has ${local.folders} folders / ${local.files} files, ` +
              `expected ${tree.folders} / ${tree.files} (summary ${JSON.stringify(line.summary)}, ` +
              `log ${JSON.stringify(line.log)})`,
          );
        }
        return { line, stats, dir, stateDir };
      };

      // Phase 1: interleaved so that noise hits both alike, after a warm-up of the sandbox.
      t = performance.now();
      await floor(small, 'archive');
      const floors: FloorResult[] = [];
      const runs: Mirror[] = [];
      floors.push(await floor(big, 'archive'));
      runs.push(await mirror(big));
      const floorFiles = await floor(big, 'files');
      runs.push(await mirror(big));
      floors.push(await floor(big, 'archive'));
      const mirrorPhaseMs = performance.now() - t;

      const best = runs.reduce((a, b) => (b.line.ms < a.line.ms ? b : a));
      const mirrorMs = best.line.ms;
      const floorMs = Math.min(...floors.map((f) => f.ms));
      Object.assign(figures, {
        mirror_ms: mirrorMs,
        floor_ms: floorMs,
        floor_files_ms: floorFiles.ms,
        mirror_vs_floor: round2(mirrorMs / floorMs),
        mirror_vs_floor_files: round2(mirrorMs / floorFiles.ms),
        mirror_requests: Math.max(...runs.map((r) => r.stats.total)),
        floor_requests: floors[0]!.requests,
        floor_files_requests: floorFiles.requests,
        mirror_peak_rss_mb: Math.max(...runs.map((r) => r.line.peak_rss_mb)),
        mirror_start_rss_mb: best.line.start_rss_mb,
        mirror_walk_ms: best.line.reached.syncing ?? -1,
        floor_list_ms: Math.min(...floors.map((f) => f.listMs)),
        mirror_runs_ms: runs.map((r) => r.line.ms).join(' / '),
        floor_runs_ms: floors.map((f) => f.ms).join(' / '),
        mirror_routes: routes(runs[0]!.stats),
        mirror_walks: runs[0]!.line.log.walks.join('; '),
        mirror_problems: Math.max(...runs.map((r) => r.line.problems)),
        archive_mb: round2(floors[0]!.bytes / 1024 ** 2),
      });
      // The same mirror into memory (tmpfs), when the machine has one: what the engine costs
      // apart from this disk's file creations, which the floor (no disk at all) never pays.
      if (existsSync('/dev/shm')) {
        const shm = await mkdtemp('/dev/shm/workspace-mirror-bench-');
        try {
          const inMemory = await mirror(big, shm);
          figures.mirror_tmpfs_ms = inMemory.line.ms;
          figures.mirror_vs_floor_tmpfs = round2(inMemory.line.ms / floorMs);
        } finally {
          await rm(shm, { recursive: true, force: true });
        }
      }
      const warnings = runs.flatMap((r) => r.line.log.warnings);
      if (warnings.length > 0) figures.mirror_warnings = warnings.slice(0, 3).join(' | ');

      // Phase 2: idle polls, the engine in this process on the journal of a mirror.
      t = performance.now();
      const smallMirror = await mirror(small);
      figures.mirror_1k_ms = smallMirror.line.ms;
      const open = async (tree: GeneratedTree, m: Mirror, pollIntervalMs?: number) => {
        const { transport } = openSession({
          baseUrl,
          clientId: info.client_id,
          clientSecret: info.client_secret,
          tokens: { accessToken: owner.token },
        });
        const { log, digest } = recordingLogger();
        const pair = await openSync({
          client: new ServiceClient(transport),
          server: baseUrl,
          user: owner.email,
          workspaceId: tree.workspaceId,
          dir: m.dir,
          stateDir: m.stateDir,
          log,
          pollIntervalMs,
        });
        const opened = { ...pair, digest };
        engines.add(opened);
        return opened;
      };
      const idle = async (label: string, tree: GeneratedTree, m: Mirror) => {
        const pair = await open(tree, m);
        try {
          await resetStats();
          const times: number[] = [];
          let requests = 0;
          let routesSeen = '';
          for (let i = 0; i < IDLE_CALLS; i++) {
            const started = performance.now();
            const summary = await pair.engine.syncOnce();
            times.push(performance.now() - started);
            const work =
              summary.foldersCreated +
              summary.filesDownloaded +
              summary.moved +
              summary.trashed +
              summary.conflicts;
            if (work > 0) {
              throw new Error(`idle ${label}: the engine found work: ${JSON.stringify(summary)}`);
            }
            if (i === 0) {
              const stats = await readStats();
              requests = stats.total;
              routesSeen = routes(stats);
            }
          }
          figures[`idle_requests_${label}`] = requests;
          figures[`idle_ms_${label}`] = round2(median(times));
          figures[`idle_routes_${label}`] = routesSeen;
          if (pair.digest.walks.length > 0) {
            figures[`idle_walks_${label}`] = pair.digest.walks.join('; ');
          }
        } finally {
          engines.delete(pair);
          await pair.close();
        }
      };
      await idle('1k', small, smallMirror);
      await idle('10k', big, runs[runs.length - 1]!);
      // The idle poll again once the engine has a burst of folders created through the API (a
      // poll should then cost what it cost before the burst).
      const burstNames = Array.from(
        { length: BURST },
        (_, i) => `Burst ${String(i + 1).padStart(4, '0')}`,
      );
      {
        const burstPool = new Pool(baseUrl, { connections: 32 });
        const started = performance.now();
        try {
          await Promise.all(
            burstNames.map(async (filename) => {
              const res = await burstPool.request({
                method: 'POST',
                path: `/workspaces/${small.workspaceId}/folders/${small.rootId}/folders`,
                headers: {
                  authorization: `Bearer ${owner.token}`,
                  'content-type': 'application/json',
                },
                body: JSON.stringify({ filename }),
              });
              const text = await res.body.text();
              if (res.statusCode >= 300) {
                throw new Error(`burst: creating ${filename}: ${res.statusCode} ${text}`);
              }
            }),
          );
        } finally {
          await burstPool.close();
        }
        figures.burst_ms_1k = Math.round(performance.now() - started);
        const pair = await open(small, smallMirror);
        try {
          for (let pass = 1; ; pass++) {
            await pair.engine.syncOnce();
            const here = new Set(await readdir(smallMirror.dir));
            if (burstNames.every((n) => here.has(n))) break;
            if (pass >= BURST_PASSES) {
              throw new Error(`the engine lacks the ${BURST} new folders after ${pass} passes`);
            }
          }
          await resetStats();
          for (let i = 0; i < IDLE_CALLS; i++) {
            const summary = await pair.engine.syncOnce();
            const work =
              summary.foldersCreated +
              summary.filesDownloaded +
              summary.moved +
              summary.trashed +
              summary.conflicts;
            if (work > 0) {
              throw new Error(
                `idle after the burst: the engine found work: ${JSON.stringify(summary)}`,
              );
            }
          }
          const stats = await readStats();
          figures.idle_requests_per_poll_after_burst_1k = round2(stats.total / IDLE_CALLS);
          figures.idle_routes_after_burst_1k = routes(stats);
        } finally {
          engines.delete(pair);
          await pair.close();
        }
      }
      const idlePhaseMs = performance.now() - t;

      // Phase 3: remote renames landing locally while the engine runs continuously.
      t = performance.now();
      const pair = await open(small, smallMirror, POLL_INTERVAL_MS);
      const latencies: number[] = [];
      let engineRequests = 0;
      let renameSeconds = 0;
      const puts = new Pool(baseUrl, { connections: 1 });
      let running: Promise<void> | undefined;
      try {
        const idleNow = new Promise<void>((resolve) => {
          const onStatus = (s: { state: string }) => {
            if (s.state !== 'idle') return;
            pair.engine.off('status', onStatus);
            resolve();
          };
          pair.engine.on('status', onStatus);
        });
        abortRun = new AbortController();
        let fatal: unknown = null;
        running = pair.engine.run(abortRun.signal).catch((err: unknown) => {
          fatal = err;
        });
        const first = new AbortController();
        await Promise.race([
          idleNow,
          running.then(() => Promise.reject(fatal ?? new Error('the engine stopped at once'))),
          sleep(30_000, null, { signal: first.signal }).then(() =>
            Promise.reject(new Error('continuous mode: the engine was not idle within 30 s')),
          ),
        ]).finally(() => first.abort());
        await resetStats();
        const rand = prng(SEED + 2);
        const order = [...small.sample];
        for (let i = order.length - 1; i > 0; i--) {
          const j = Math.floor(rand() * (i + 1));
          [order[i], order[j]] = [order[j]!, order[i]!];
        }
        const started = performance.now();
        for (let i = 0; i < RENAMES; i++) {
          await sleep(Math.floor(rand() * 1000));
          if (fatal) throw fatal;
          const folder = order[i]!;
          const parentRel = path.dirname(folder.path);
          const name = `Renamed ${i + 1} — ${path.basename(folder.path)}`;
          latencies.push(
            await renameAndWait(
              puts,
              owner.token,
              folder.id,
              name,
              path.join(smallMirror.dir, parentRel),
              path.join(smallMirror.dir, parentRel, name),
              () => fatal,
            ),
          );
        }
        renameSeconds = (performance.now() - started) / 1000;
        const stats = await readStats();
        engineRequests = stats.total - (stats.requests['PUT /folders/:id'] ?? 0);
        figures.continuous_routes = routes(stats);
        abortRun.abort();
        await running;
        if (fatal) throw fatal;
      } finally {
        // The engine finishes its current step before it stops: then its journal is closed.
        abortRun?.abort();
        await running;
        await puts.close();
        engines.delete(pair);
        await pair.close();
      }
      const after = await countTree(smallMirror.dir);
      if (after.folders !== small.folders + BURST || after.files !== small.files) {
        throw new Error(
          `after the renames the 1k tree has ${after.folders} folders / ${after.files} files`,
        );
      }
      const sorted = [...latencies].sort((a, b) => a - b);
      const rank = (p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
      Object.assign(figures, {
        poll_interval_ms: POLL_INTERVAL_MS,
        remote_to_local_p50_ms: Math.round(median(sorted)),
        remote_to_local_p95_ms: Math.round(rank(0.95)),
        remote_to_local_max_ms: Math.round(sorted[sorted.length - 1]!),
        remote_to_local_target_ms: POLL_INTERVAL_MS + 100,
        continuous_requests_per_s: round2(engineRequests / renameSeconds),
      });
      const continuousPhaseMs = performance.now() - t;

      Object.assign(figures, {
        tree: `${big.folders} folders (depth ${big.maxDepth}, ${big.emptyFolders} empty, ${big.pagedFolders} paged), ${big.files} files (${big.nonEmptyFiles} non-empty), ${round2(big.bytes / 1024 ** 2)} MB`,
        generate_s: seconds(generateMs),
        sandbox_start_s: seconds(sandboxStartMs),
        mirror_phase_s: seconds(mirrorPhaseMs),
        idle_phase_s: seconds(idlePhaseMs),
        continuous_phase_s: seconds(continuousPhaseMs),
      });
      return figures;
    } finally {
      abortRun?.abort();
      for (const pair of engines) await pair.close().catch(() => {});
      for (const child of live) {
        child.kill('SIGKILL');
        await exitOf(child);
      }
      await hooks?.close().catch(() => {});
      await sandbox?.stop();
      await rm(base, { recursive: true, force: true });
    }
  },
};

/**
 * Renames folder `id` through the API and resolves with the milliseconds from the PUT's answer
 * to the moment `expected` exists locally, watching `parentDir`; rejects after LAND_TIMEOUT_MS.
 */
function renameAndWait(
  pool: Pool,
  token: string,
  id: number,
  name: string,
  parentDir: string,
  expected: string,
  fatal: () => unknown,
): Promise<number> {
  return new Promise((resolve, reject) => {
    let answeredAt: number | null = null;
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const watcher = watch(parentDir);
    const finish = (err: unknown, ms?: number) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      watcher.close();
      if (err) reject(err instanceof Error ? err : new Error(String(err)));
      else resolve(ms!);
    };
    const check = () => {
      if (settled || answeredAt === null) return;
      if (existsSync(expected)) finish(null, performance.now() - answeredAt);
      else if (fatal()) finish(fatal());
    };
    watcher.on('change', check);
    watcher.on('error', (err) => finish(err));
    pool
      .request({
        method: 'PUT',
        path: `/folders/${id}`,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ filename: name }),
      })
      .then(async (res) => {
        const text = await res.body.text();
        if (res.statusCode !== 200)
          throw new Error(`PUT /folders/${id}: ${res.statusCode} ${text}`);
        answeredAt = performance.now();
        timer = setTimeout(
          () =>
            finish(
              new Error(
                `the rename of folder ${id} to ${JSON.stringify(name)} did not land locally within ${LAND_TIMEOUT_MS} ms`,
              ),
            ),
          LAND_TIMEOUT_MS,
        );
        check();
      })
      .catch((err: unknown) => finish(err));
  });
}

export default bench;
