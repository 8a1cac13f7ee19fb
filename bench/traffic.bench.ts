import type { ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Pool } from 'undici';
import { parseDetail } from '../src/shared/detail';
import { spawnSandbox, type SandboxProcess } from '../src/service/child';
import { sandboxStats, type Benchmark, type Figures, type SandboxStats } from './lib';
import {
  between,
  CliChild,
  CONTENT_ROUTES,
  CountingProxy,
  hashOf,
  localPaths,
  Timeout,
  topRoutes,
  waitUntil,
} from './traffic-util';

// The requests that real traffic makes the sync client send, everything over HTTP against a
// sandbox child process, every client the real CLI (`workspace-sync sync --json`) in a child
// process of its own:
//
// 1. Bulk upload: A uploads a copy of /usr/share/doc with `sync --once` (a colleague's bulk
//    upload through the API, so the service records an event per folder and file) while B runs
//    continuously on an empty folder of the same workspace. What B spends until it has the
//    tree, and then on each idle poll.
// 2. Fresh walk: C syncs the workspace into an empty folder with `--once`: the baseline any
//    client pays to learn the tree, to which B's catching up is compared.
// 3. Unchanged `--once`: A again, nothing changed anywhere.
// 4. Burst: 1,500 folders created through the API at once while B runs, all with the same
//    event time (the sandbox's clock held: createBurst): what B spends until it has them, and
//    then on each idle poll.
//
// Who is counted: B talks to the sandbox through a counting proxy of its own (CountingProxy),
// so its requests are told apart from A's while both work; C and A (phases 2 and 3) run alone
// and are counted by the sandbox's own counters (/_sandbox/stats). In B's idle windows, where B
// runs alone, the two counts are compared (`proxy_matches_stats`).
//
// How polls are counted: B's --json lines cannot tell (an idle poll that finds nothing changes
// no status, so it prints no line), and a poll is not one `GET /activity` either (a poll that
// finds work may read the feed several times, once per pass of its round). A poll is a round of
// the engine's loop, which then sleeps its poll interval without a request: the proxy counts a
// poll each time a request arrives after at least 0.6 of the interval with nothing in flight.
// Idle windows run from one such quiet moment to another, IDLE_POLLS polls later.
//
// Figures: `bulk_upload_ms` is A's --once from spawn to exit. `converge_after_bulk_ms` runs from
// A's exit to the first look (every SAMPLE_MS) at B's folder that finds the service's tree (0,
// with a note, when B had it before A's --once ended); `converge_after_*_requests` are B's
// requests from the end of A's upload (or just before the burst) to the first quiet moment
// after B has it, downloads and archives apart (any client needs them); B's polls while the
// upload ran are `requests_during_bulk` (one request each). `converge_ratio` compares
// `converge_after_bulk_requests` with C's fresh walk, counted the same way.
//
// Everything lives in one temporary directory, removed at the end, failure or not; every child
// is killed at the end; every wait has a deadline. A wait of B's that passes its deadline (an
// engine that re-walks the tree on every poll chases a bulk upload for minutes) is reported as
// a figure ("timeout after 300 s ...") instead of failing the bench.

const SOURCE = '/usr/share/doc';
const POLL_S = 2;
const IDLE_POLLS = 5;
const BURST = 1_500;
const BURST_CONNECTIONS = 64;
/** How often B's tree is looked at while it catches up. */
const SAMPLE_MS = 500;

const START_MS = 120_000;
const UPLOAD_MS = 300_000;
const CONVERGE_MS = 300_000;
const IDLE_MS = 150_000;
const WALK_MS = 300_000;
const ONCE_MS = 120_000;

const GOAL_IDLE_REQUESTS_PER_POLL = 1;
const GOAL_ONCE_IDLE_REQUESTS = 3;
const GOAL_CONVERGE_RATIO = 1.0;

const round2 = (x: number) => Math.round(x * 100) / 100;
const seconds = (ms: number) => Math.round(ms / 100) / 10;
const execFileAsync = promisify(execFile);

interface User {
  id: number;
  email: string;
  token: string;
}

/** JSON requests to the sandbox as a user (or none, for the test hooks). */
class Api {
  constructor(private readonly pool: Pool) {}

  async call<T>(method: string, path: string, token: string | null, body?: unknown): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        const res = await this.pool.request({
          method: method as 'GET',
          path,
          headers: {
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await res.body.text();
        if (res.statusCode >= 300) {
          throw new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 300)}`);
        }
        return (text ? JSON.parse(text) : null) as T;
      } catch (err) {
        // A kept-alive connection the sandbox closed meanwhile: once more, on a new one.
        const code = (err as { code?: string }).code;
        if (attempt === 1 && code === 'UND_ERR_SOCKET' && method !== 'POST') continue;
        throw err;
      }
    }
  }
}

type Listing = { items: ({ folder: Named } | { file: Named & { size: number } })[] } & {
  next_offset?: number | null;
};
interface Named {
  id: number;
  filename: string;
}

async function eachLimit<T>(items: T[], n: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
}

/** The workspace as the service has it: `d:path` / `f:path` (sorted) and each file's size. */
async function listService(api: Api, token: string, rootId: number) {
  const paths: string[] = [];
  const sizes = new Map<string, number>();
  let level = [{ id: rootId, rel: '' }];
  while (level.length > 0) {
    const next: { id: number; rel: string }[] = [];
    await eachLimit(level, 8, async (folder) => {
      for (let offset = 0; ;) {
        const page = await api.call<Listing>(
          'GET',
          `/folders/${folder.id}${offset ? `?offset=${offset}` : ''}`,
          token,
        );
        for (const item of page.items) {
          const it = 'folder' in item ? item.folder : item.file;
          const rel = folder.rel ? `${folder.rel}/${it.filename}` : it.filename;
          if ('folder' in item) {
            paths.push(`d:${rel}`);
            next.push({ id: it.id, rel });
          } else {
            paths.push(`f:${rel}`);
            sizes.set(rel, item.file.size);
          }
        }
        if (page.items.length === 0 || page.next_offset == null) break;
        offset = page.next_offset;
      }
    });
    level = next;
  }
  return { paths: paths.sort(), sizes };
}

/** Files of `root` whose size differs from the service's (or that are missing). */
async function sizeMismatches(root: string, sizes: Map<string, number>): Promise<string[]> {
  const bad: string[] = [];
  for (const [rel, size] of sizes) {
    const st = await stat(path.join(root, rel)).catch(() => null);
    if (!st || st.size !== size) bad.push(rel);
  }
  return bad;
}

/** Samples a local tree in the background: when it first had each shape (hash of its paths). */
class TreeSampler {
  private readonly samples: { at: number; hash: string; count: number }[] = [];
  private stopped = false;
  private readonly loop: Promise<void>;

  constructor(private readonly root: string) {
    this.loop = this.run();
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const paths = existsSync(this.root) ? await localPaths(this.root).catch(() => null) : [];
      if (paths) {
        this.samples.push({ at: performance.now(), hash: hashOf(paths), count: paths.length });
      }
      await sleep(SAMPLE_MS);
    }
  }

  /** When the tree was first seen with this hash. */
  firstMatch(hash: string): number | undefined {
    return this.samples.find((s) => s.hash === hash)?.at;
  }

  lastCount(): number {
    return this.samples[this.samples.length - 1]?.count ?? 0;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
  }
}

const isIdle = (j: Record<string, unknown>) => j.type === 'status' && j.state === 'idle';

/** A status line that says B cannot go on by itself. */
const isStuck = (j: Record<string, unknown>) =>
  j.type === 'status' && j.state === 'needs-attention';

/** A Timeout as a figure ("timeout after 300 s: what was awaited (extra)"); rethrows the rest. */
function timeoutText(err: unknown, extra = ''): string {
  if (!(err instanceof Timeout)) throw err;
  return `timeout after ${Math.round(err.ms / 1000)} s: ${err.what}${extra ? ` (${extra})` : ''}`;
}

const bench: Benchmark = {
  name: 'traffic',
  description:
    `requests the real CLI sends on real traffic: B (--poll ${POLL_S}) while A uploads a copy of ` +
    `${SOURCE}, then idle; a fresh --once walk (C) as the baseline; A's unchanged --once; ` +
    `B during and after a burst of ${BURST} folder creations`,
  async run() {
    if (!existsSync(SOURCE)) throw new Error(`${SOURCE} is missing: the bulk upload copies it`);
    const base = await mkdtemp(path.join(tmpdir(), 'workspace-traffic-bench-'));
    const live = new Set<ChildProcess>();
    const clis: CliChild[] = [];
    let sandbox: SandboxProcess | undefined;
    let pool: Pool | undefined;
    let proxy: CountingProxy | undefined;
    let sampler: TreeSampler | undefined;
    const out: Figures = {};
    const notes: string[] = [];
    let statsAgree = true;
    try {
      const dataDir = path.join(base, 'data');
      await mkdir(dataDir);
      sandbox = await spawnSandbox(['--data', dataDir, '--seed', 'empty']);
      const baseUrl = sandbox.info.base_url;
      pool = new Pool(baseUrl, { connections: 8 });
      const api = new Api(pool);
      const { reset: resetStats, read: readStats } = sandboxStats(pool);
      const cli = (label: string, args: string[], token: string) => {
        const c = new CliChild(label, args, token, live);
        clis.push(c);
        return c;
      };

      // Set-up: two users, A's workspace, B invited as a Collaborator (accepted at once: B is a
      // sandbox user).
      const newUser = (name: string, email: string) =>
        api.call<User>('POST', '/_sandbox/users', null, {
          name,
          email,
          password: 'traffic-bench-password',
        });
      const a = await newUser('Ann Traffic', 'ann@traffic.test');
      const b = await newUser('Ben Traffic', 'ben@traffic.test');
      const ws = await api.call<{ workspace: { id: number } }>('POST', '/workspaces', a.token, {
        workspace: { name: 'Traffic' },
      });
      const workspaceId = ws.workspace.id;
      const rootId = (
        await api.call<{ items: { folder: { id: number } }[] }>(
          'GET',
          `/workspaces/${workspaceId}/folders`,
          a.token,
        )
      ).items[0]!.folder.id;
      await api.call('POST', `/workspaces/${workspaceId}/invitations`, a.token, {
        invitation: { emails: b.email, role_name: 'Collaborator' },
      });
      const seen = await api.call<{ workspace: { effective_role?: string } }>(
        'GET',
        `/workspaces/${workspaceId}`,
        b.token,
      );
      if (seen.workspace.effective_role !== 'Collaborator') {
        throw new Error(`B's role is ${seen.workspace.effective_role}, not Collaborator`);
      }

      // A's folder: a copy of /usr/share/doc as it is, symlinks removed from the copy (cp -r
      // follows none; the copy is of plain folders and files only).
      const aDir = path.join(base, 'a');
      await execFileAsync('cp', ['-r', '--no-dereference', SOURCE, aDir]);
      let symlinks = 0;
      for (const e of await readdir(aDir, { recursive: true, withFileTypes: true })) {
        if (!e.isDirectory() && !e.isFile()) {
          await unlink(path.join(e.parentPath, e.name));
          symlinks++;
        }
      }
      const source = await localPaths(aDir);
      const bulkFolders = source.filter((p) => p.startsWith('d:')).length;
      const bulkFiles = source.filter((p) => p.startsWith('f:')).length;
      let bulkBytes = 0;
      for (const p of source) {
        if (p.startsWith('f:')) bulkBytes += (await stat(path.join(aDir, p.slice(2)))).size;
      }

      const sync = (server: string, dir: string, state: string, mode: string[]) => [
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
      // A's folder holds the copy before its first sync: merging it into the workspace is asked for.
      const aArgs = sync(baseUrl, aDir, path.join(base, 'a-state'), ['--once', '--merge']);
      const bDir = path.join(base, 'b');

      proxy = await CountingProxy.start(baseUrl, POLL_S * 1000 * 0.6);
      const bProxy = proxy;
      const bArgs = sync(proxy.url, bDir, path.join(base, 'b-state'), ['--poll', String(POLL_S)]);
      let bProc = cli('B', bArgs, b.token);

      /**
       * A moment between two of B's polls, once `ready` says so: B's tally and the sandbox's
       * counters there (B is the only client at work whenever the two are compared).
       */
      const quietPoint = async (what: string, ms: number, ready: () => boolean = () => true) => {
        const deadline = performance.now() + ms;
        for (;;) {
          await waitUntil(what, Math.max(0, deadline - performance.now()), () => {
            if (!bProc.running) throw new Error(`${what}: ${bProc.describe()}`);
            return ready() && bProxy.quiet();
          });
          const tally = bProxy.snapshot();
          const stats = await readStats();
          if (bProxy.snapshot().total === tally.total && bProxy.quiet()) return { tally, stats };
        }
      };

      /**
       * B alone for IDLE_POLLS polls: requests per poll (B's count, checked against the
       * sandbox's), or what was seen by the deadline.
       */
      const idleWindow = async (label: string) => {
        const what = `B idle for ${IDLE_POLLS} polls (${label})`;
        const started = performance.now();
        const first = bProxy.snapshot();
        let from: Awaited<ReturnType<typeof quietPoint>> | undefined;
        try {
          from = await quietPoint(what, IDLE_MS);
          const start = from.tally.polls;
          const to = await quietPoint(
            what,
            Math.max(0, IDLE_MS - (performance.now() - started)),
            () => bProxy.snapshot().polls - start >= IDLE_POLLS,
          );
          const d = between(from.tally, to.tally);
          const statsTotal = to.stats.total - from.stats.total;
          if (statsTotal !== d.total) {
            statsAgree = false;
            notes.push(`${label}: the proxy counted ${d.total}, the sandbox ${statsTotal}`);
          }
          return {
            perPoll: round2(d.total / d.polls) as number | string,
            polls: `${d.polls} polls, ${d.total} requests in ${seconds(d.at)} s`,
            routes: topRoutes(d.routes),
          };
        } catch (err) {
          if (!(err instanceof Timeout)) throw err;
          const d = between(from?.tally ?? first, bProxy.snapshot());
          const seen = from
            ? `${d.polls} polls began, ${d.total} requests`
            : `B was never quiet for ${bProxy.quietMs} ms; ${d.total} requests`;
          return {
            perPoll: `timeout after ${Math.round(IDLE_MS / 1000)} s (${seen})`,
            polls: seen,
            routes: topRoutes(d.routes),
          };
        }
      };

      // Phase 1: the bulk upload, B running from before it.
      await bProc.waitForLine('up to date on the empty workspace', isIdle, START_MS);
      await quietPoint('B quiet after its first sync', START_MS);
      const beforeBulk = bProxy.snapshot();
      sampler = new TreeSampler(bDir);
      const aProc = cli('A (bulk upload)', aArgs, a.token);
      const upload = await aProc.finished(UPLOAD_MS);
      const aEnd = performance.now();
      // B's polls while the upload still runs (one request each) are reported on their own:
      // converging is what B does once the bulk upload is over.
      const atEnd = bProxy.snapshot();
      const during = between(beforeBulk, atEnd);
      const aSummary = aProc.summary();
      if (upload.code !== 0 || !aSummary) {
        throw new Error(`the bulk upload failed: ${aProc.describe()}`);
      }
      const service = await listService(api, a.token, rootId);
      const serviceHash = hashOf(service.paths);
      const onService = new Set(service.paths);
      const notOnService = source.filter((p) => !onService.has(p));
      if (notOnService.length > 0) {
        notes.push(
          `${notOnService.length} of A's paths are not on the service after its upload, e.g. ${notOnService.slice(0, 3).join(', ')}`,
        );
      }
      Object.assign(out, {
        bulk_folders: bulkFolders,
        bulk_files: bulkFiles,
        bulk_mb: round2(bulkBytes / 1024 ** 2),
        bulk_symlinks_skipped: symlinks,
        bulk_upload_ms: Math.round(upload.ms),
        bulk_upload_summary: `${String(aSummary.remoteFoldersCreated)} folders created, ${String(aSummary.uploaded)} uploaded, ${String(aSummary.problems)} problems, ${String(aSummary.conflicts)} conflicts`,
      });

      let bConverged = false;
      try {
        const completeAt = await waitUntil(
          `B has the whole tree (${service.paths.length} items)`,
          CONVERGE_MS,
          () => {
            if (!bProc.running) throw new Error(`B stopped: ${bProc.describe()}`);
            const stuck = bProc.lines.find((l) => isStuck(l.json));
            if (stuck) throw new Error(`B is stuck: ${JSON.stringify(stuck.json).slice(0, 400)}`);
            return sampler!.firstMatch(serviceHash);
          },
          200,
        );
        const converged = await quietPoint('B quiet after it has the tree', CONVERGE_MS);
        const d = between(atEnd, converged.tally);
        bConverged = true;
        const wrong = await sizeMismatches(bDir, service.sizes);
        if (wrong.length > 0) {
          notes.push(
            `B: ${wrong.length} files differ in size, e.g. ${wrong.slice(0, 3).join(', ')}`,
          );
        }
        if (completeAt < aEnd) {
          notes.push(
            `B had the whole tree ${seconds(aEnd - completeAt)} s before A's --once ended`,
          );
        }
        Object.assign(out, {
          converge_after_bulk_ms: Math.max(0, Math.round(completeAt - aEnd)),
          converge_after_bulk_requests: d.other,
          requests_during_bulk: during.other,
          top_routes_during_bulk: topRoutes(during.routes),
          converge_after_bulk_download_requests: d.content,
          top_routes_converge_bulk: topRoutes(d.routes),
        });
      } catch (err) {
        const now = between(beforeBulk, bProxy.snapshot());
        const text = timeoutText(
          err,
          `B has ${sampler.lastCount()} of ${service.paths.length} items`,
        );
        Object.assign(out, {
          converge_after_bulk_ms: text,
          converge_after_bulk_requests: `${text}: ${now.other} so far`,
          converge_after_bulk_download_requests: now.content,
          top_routes_converge_bulk: topRoutes(now.routes),
        });
      } finally {
        await sampler.stop();
        sampler = undefined;
      }
      if (bConverged) {
        const idle = await idleWindow('after bulk');
        Object.assign(out, {
          idle_requests_per_poll_after_bulk: idle.perPoll,
          idle_polls_after_bulk: idle.polls,
          top_routes_idle_bulk: idle.routes,
        });
      } else {
        out.idle_requests_per_poll_after_bulk = 'not measured: B did not converge';
      }
      await bProc.stop();

      // Phase 2: a fresh client's walk, alone (B stopped, A done): the sandbox's counters.
      const cDir = path.join(base, 'c');
      await resetStats();
      const cProc = cli(
        'C (fresh walk)',
        sync(baseUrl, cDir, path.join(base, 'c-state'), ['--once']),
        a.token,
      );
      const walk = await cProc.finished(WALK_MS);
      const walkStats: SandboxStats = await readStats();
      if (walk.code !== 0) throw new Error(`the fresh walk failed: ${cProc.describe()}`);
      if (hashOf(await localPaths(cDir)) !== serviceHash) {
        notes.push(`C's tree differs from the service's`);
      }
      const walkContent = Object.entries(walkStats.requests)
        .filter(([r]) => CONTENT_ROUTES.has(r))
        .reduce((s, [, n]) => s + n, 0);
      const walkRequests = walkStats.total - walkContent;
      const listings = walkStats.requests['GET /folders/:id'] ?? 0;
      if (listings > 2 * (bulkFolders + 1)) {
        notes.push(
          `C listed ${listings} folders for ${bulkFolders + 1}: it walked the tree about ${Math.round(listings / (bulkFolders + 1))} times`,
        );
      }
      Object.assign(out, {
        walk_requests: walkRequests,
        walk_download_requests: walkContent,
        walk_ms: Math.round(walk.ms),
        top_routes_walk: topRoutes(walkStats.requests),
      });

      // Phase 3: A again, nothing changed anywhere, alone.
      await resetStats();
      const a2 = cli('A (unchanged)', aArgs, a.token);
      const again = await a2.finished(ONCE_MS);
      const onceStats = await readStats();
      if (again.code !== 0) throw new Error(`A's second --once failed: ${a2.describe()}`);
      const s2 = a2.summary() ?? {};
      const work = ['uploaded', 'remoteFoldersCreated', 'filesDownloaded', 'foldersCreated'].reduce(
        (n, k) => n + Number(s2[k] ?? 0),
        0,
      );
      if (work > 0) notes.push(`A's unchanged --once did work: ${JSON.stringify(s2)}`);
      Object.assign(out, {
        once_idle_requests: onceStats.total,
        top_routes_once_idle: topRoutes(onceStats.requests, 8),
        once_idle_ms: Math.round(again.ms),
      });

      // Phase 4: the burst, B running again on its folder and journal.
      bProc = cli('B (burst)', bArgs, b.token);
      let bReady = false;
      try {
        const first = bProc.lines.length;
        await bProc.waitForLine('up to date again', isIdle, CONVERGE_MS, first);
        await quietPoint('B quiet before the burst', IDLE_MS);
        bReady = true;
      } catch (err) {
        out.converge_after_burst_requests = `B was not up to date: ${timeoutText(err)}`;
      }
      if (bReady) {
        const beforeBurst = bProxy.snapshot();
        const burst = await createBurst(api, baseUrl, a.token, workspaceId, rootId);
        const burstEnd = performance.now();
        let landed = false;
        try {
          const landedAt = await waitUntil(
            `B has the ${BURST} new folders`,
            CONVERGE_MS,
            async () => {
              if (!bProc.running) throw new Error(`B stopped: ${bProc.describe()}`);
              const names = new Set(await readdir(bDir));
              return burst.names.every((n) => names.has(n)) ? performance.now() : undefined;
            },
            200,
          );
          const converged = await quietPoint('B quiet after the burst', CONVERGE_MS);
          const d = between(beforeBurst, converged.tally);
          landed = true;
          Object.assign(out, {
            converge_after_burst_ms: Math.round(landedAt - burstEnd),
            converge_after_burst_requests: d.other,
            top_routes_converge_burst: topRoutes(d.routes),
          });
        } catch (err) {
          const now = between(beforeBurst, bProxy.snapshot());
          const text = timeoutText(err);
          Object.assign(out, {
            converge_after_burst_ms: text,
            converge_after_burst_requests: `${text}: ${now.other} so far`,
            top_routes_converge_burst: topRoutes(now.routes),
          });
        }
        // The burst's events read back as A, with B quiet (or not converged) meanwhile.
        const span = await burstSpan(api, a.token, workspaceId, burst.ids, burst.startedAt);
        Object.assign(out, {
          burst_events: span.events,
          burst_span_s: span.spanS,
          burst_wall_ms: Math.round(burst.ms),
          burst_clock_held: true,
        });
        if (landed) {
          const idle = await idleWindow('after burst');
          Object.assign(out, {
            idle_requests_per_poll_after_burst: idle.perPoll,
            idle_polls_after_burst: idle.polls,
            top_routes_idle_burst: idle.routes,
          });
        } else {
          out.idle_requests_per_poll_after_burst = 'not measured: B did not converge';
        }
      }
      await bProc.stop();

      const convergeRatio =
        typeof out.converge_after_bulk_requests === 'number'
          ? round2(out.converge_after_bulk_requests / walkRequests)
          : 'not measured';
      // The headline figures beside their goals, then each phase's details.
      const figures: Figures = {
        idle_requests_per_poll_after_bulk: out.idle_requests_per_poll_after_bulk!,
        idle_requests_per_poll_after_burst:
          out.idle_requests_per_poll_after_burst ?? 'not measured',
        goal_idle_requests_per_poll: GOAL_IDLE_REQUESTS_PER_POLL,
        once_idle_requests: out.once_idle_requests!,
        goal_once_idle_requests: GOAL_ONCE_IDLE_REQUESTS,
        converge_ratio: convergeRatio,
        goal_converge_ratio: GOAL_CONVERGE_RATIO,
        converge_after_bulk_requests: out.converge_after_bulk_requests!,
        walk_requests: walkRequests,
      };
      for (const [k, v] of Object.entries(out)) if (!(k in figures)) figures[k] = v;
      figures.poll_s = POLL_S;
      figures.proxy_matches_stats = statsAgree;
      if (notes.length > 0) figures.notes = notes.join(' | ');
      return figures;
    } finally {
      await sampler?.stop();
      for (const c of clis) await c.kill();
      for (const child of live) child.kill('SIGKILL');
      await proxy?.close().catch(() => {});
      await pool?.close().catch(() => {});
      if (sandbox) {
        const stopped = sandbox.stop();
        if ((await Promise.race([stopped, sleep(10_000)])) === undefined) {
          sandbox.child.kill('SIGKILL');
          await stopped;
        }
      }
      await rm(base, { recursive: true, force: true });
    }
  },
};

/**
 * Creates BURST folders at the root as `token`'s user, all at once over BURST_CONNECTIONS
 * connections, with the sandbox's clock held (POST /_sandbox/clock {"hold": true}): every event
 * of the burst gets the same time, as on a service fast enough to make them all within one
 * second, which this machine's sandbox cannot promise while the clients run beside it (1,500
 * folders took it 0.6-2.3 s here). The wall time is reported beside.
 */
async function createBurst(
  api: Api,
  baseUrl: string,
  token: string,
  workspaceId: number,
  rootId: number,
) {
  const burstPool = new Pool(baseUrl, { connections: BURST_CONNECTIONS });
  const names = Array.from({ length: BURST }, (_, i) => `Burst ${String(i + 1).padStart(4, '0')}`);
  const held = await api.call<{ now: string; held: boolean }>('POST', '/_sandbox/clock', null, {
    hold: true,
  });
  if (!held.held) throw new Error('the sandbox did not hold its clock');
  try {
    const burstApi = new Api(burstPool);
    const t = performance.now();
    const created = await Promise.all(
      names.map((filename) =>
        burstApi.call<{ folder: { id: number } }>(
          'POST',
          `/workspaces/${workspaceId}/folders/${rootId}/folders`,
          token,
          { filename },
        ),
      ),
    );
    return {
      names,
      ids: new Set(created.map((c) => c.folder.id)),
      ms: performance.now() - t,
      startedAt: Date.parse(held.now),
    };
  } finally {
    await api.call('POST', '/_sandbox/clock', null, { hold: false });
    await burstPool.close();
  }
}

/** Reads the burst's events back from the feed: how many, and the span of their times. */
async function burstSpan(
  api: Api,
  token: string,
  workspaceId: number,
  ids: Set<number>,
  startedAt: number,
) {
  const times: number[] = [];
  for (let offset = 0; times.length < ids.size;) {
    const page = await api.call<{
      items: { event: { updated_at: string; detail: string } }[];
      total_entries?: number;
    }>(
      'GET',
      `/activity/?workspaces[]=${workspaceId}&verbs[]=create${offset ? `&offset=${offset}` : ''}`,
      token,
    );
    if (page.items.length === 0) break;
    let older = false;
    for (const { event } of page.items) {
      const at = Date.parse(event.updated_at);
      if (at < startedAt - 5_000) older = true;
      const target = parseDetail(event.detail).objects[0];
      if (target?.kind === 'folder' && target.id !== null && ids.has(target.id)) times.push(at);
    }
    if (older) break;
    offset += page.items.length;
  }
  if (times.length === 0) return { events: 0, spanS: 'no events found' as const };
  return {
    events: times.length,
    spanS: (Math.max(...times) - Math.min(...times)) / 1000,
  };
}

export default bench;
