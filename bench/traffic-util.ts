import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { exitOf } from '../src/service/child';

// Pieces of the traffic benchmark (traffic.bench.ts): deadlines, a counting proxy that tells one
// client's requests (and polls) apart from everyone else's, the real CLI in a child process, and
// snapshots of a local tree.

const repoRoot = path.resolve(import.meta.dirname, '..');

/** A wait that passed its deadline: the phase reports it as a figure instead of failing. */
export class Timeout extends Error {
  constructor(
    readonly what: string,
    readonly ms: number,
  ) {
    super(`${what}: not within ${Math.round(ms / 1000)} s`);
    this.name = 'Timeout';
  }
}

/**
 * Calls `check` every `everyMs` until it returns something other than undefined/false, and
 * resolves with that; rejects with Timeout after `ms`. `check` may throw to fail at once.
 */
export async function waitUntil<T>(
  what: string,
  ms: number,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  everyMs = 100,
): Promise<T> {
  const deadline = performance.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (performance.now() >= deadline) throw new Timeout(what, ms);
    await sleep(everyMs);
  }
}

/** The two routes that carry content, which any client needs: counted apart. */
export const CONTENT_ROUTES = new Set(['GET /download/:id', 'GET /folders/:id/archive']);

/**
 * `METHOD /path` with numeric segments as `:id` and no trailing slash: the sandbox's own route
 * templates for every route a sync client uses (`GET /folders/:id`, `GET /activity`...).
 */
export function routeOf(method: string, url: string): string {
  const pathname = (url.split('?')[0] ?? '/').replace(/\/+$/, '') || '/';
  const segments = pathname.split('/').map((s) => (/^\d+$/.test(s) ? ':id' : s));
  return `${method} ${segments.join('/')}`;
}

/** Requests by route, largest first, the first `n` as one short line. */
export function topRoutes(routes: ReadonlyMap<string, number> | Record<string, number>, n = 5) {
  const entries = routes instanceof Map ? [...routes] : Object.entries(routes);
  const sorted = entries.filter(([, c]) => c > 0).sort((a, b) => b[1] - a[1]);
  const shown = sorted.slice(0, n).map(([route, c]) => `${route} ${c}`);
  if (sorted.length > n) {
    shown.push(`${sorted.length - n} more ${sorted.slice(n).reduce((s, [, c]) => s + c, 0)}`);
  }
  return shown.join(', ') || '(none)';
}

export interface Tally {
  total: number;
  routes: Map<string, number>;
  /** Polls begun (see CountingProxy). */
  polls: number;
  at: number;
}

/** What happened between two snapshots. */
export function between(a: Tally, b: Tally): Tally & { content: number; other: number } {
  const routes = new Map<string, number>();
  for (const [route, n] of b.routes) {
    const d = n - (a.routes.get(route) ?? 0);
    if (d > 0) routes.set(route, d);
  }
  const content = [...routes].reduce((s, [r, n]) => s + (CONTENT_ROUTES.has(r) ? n : 0), 0);
  const total = b.total - a.total;
  return {
    total,
    routes,
    polls: b.polls - a.polls,
    at: b.at - a.at,
    content,
    other: total - content,
  };
}

const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'upgrade'];

function forwardable(headers: IncomingHttpHeaders | Record<string, unknown>) {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined || HOP_BY_HOP.includes(k) || k === 'host') continue;
    out[k] = Array.isArray(v) ? v.map(String) : String(v);
  }
  return out;
}

/**
 * A reverse proxy on 127.0.0.1 in front of the sandbox for one client, counting that client's
 * requests by route: the sandbox's own counters add up every user, and a client measured while
 * others work (an upload, a burst) needs its own.
 *
 * Polls: a client that runs continuously sleeps its poll interval between rounds and makes no
 * request meanwhile, while inside a round its requests follow each other closely. So a request
 * that arrives after at least `quietMs` with nothing in flight begins a poll (a round), and the
 * client is "quiet" (between two rounds) once nothing has been in flight for `quietMs`.
 */
export class CountingProxy {
  private total = 0;
  private readonly routes = new Map<string, number>();
  private polls = 0;
  private inFlight = 0;
  private lastDone = -Infinity;

  private constructor(
    private readonly server: Server,
    private readonly upstream: Pool,
    readonly quietMs: number,
  ) {}

  static async start(target: string, quietMs: number): Promise<CountingProxy> {
    const upstream = new Pool(target, { connections: 32 });
    const server = createServer({ keepAliveTimeout: 30_000, requestTimeout: 0 });
    const proxy = new CountingProxy(server, upstream, quietMs);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => proxy.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  snapshot(): Tally {
    return {
      total: this.total,
      routes: new Map(this.routes),
      polls: this.polls,
      at: performance.now(),
    };
  }

  /** Nothing in flight for `quietMs`: the client sleeps between two polls. */
  quiet(): boolean {
    return this.inFlight === 0 && performance.now() - this.lastDone >= this.quietMs;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    await this.upstream.close().catch(() => {});
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    if (this.quiet()) this.polls++;
    this.inFlight++;
    this.total++;
    const route = routeOf(req.method ?? 'GET', req.url ?? '/');
    this.routes.set(route, (this.routes.get(route) ?? 0) + 1);
    const abort = new AbortController();
    let done = false;
    res.once('close', () => {
      if (!res.writableFinished) abort.abort();
      if (done) return;
      done = true;
      this.inFlight--;
      this.lastDone = performance.now();
    });
    const length = req.headers['content-length'];
    const hasBody =
      (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
    if (!hasBody) req.resume();
    this.upstream
      .request({
        method: (req.method ?? 'GET') as 'GET',
        path: req.url ?? '/',
        headers: forwardable(req.headers),
        body: hasBody ? req : undefined,
        signal: abort.signal,
      })
      .then(async (up) => {
        res.writeHead(up.statusCode, forwardable(up.headers));
        await pipeline(up.body, res);
      })
      .catch((err: unknown) => {
        if (res.headersSent) {
          res.destroy();
          return;
        }
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: `proxy: ${(err as Error).message}` }));
      });
  }
}

/** One JSON line of `sync --json`, with when it came. */
export interface CliLine {
  at: number;
  json: Record<string, unknown>;
}

/**
 * The environment of a child CLI: no WORKSPACE_SYNC_* variable from this machine, a keychain
 * service of its own, and a session bus that leads nowhere, so that a child never touches the
 * person's keyring; the token in WORKSPACE_SYNC_TOKEN, never in the arguments (`ps` shows those
 * to every user of the machine).
 */
function cliEnv(token: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('WORKSPACE_SYNC_')) env[k] = v;
  }
  env.WORKSPACE_SYNC_KEYCHAIN_SERVICE = `Workspace Sync traffic bench ${process.pid}`;
  env.DBUS_SESSION_BUS_ADDRESS = 'unix:path=/nonexistent/workspace-sync-bench-no-bus';
  env.WORKSPACE_SYNC_TOKEN = token;
  return env;
}

/**
 * `workspace-sync ARGS` (node --import tsx src/dev/cli.ts) as a child of its own, from the
 * repository root, its JSON lines collected as they come. It is in `live` until it exits.
 */
export class CliChild {
  readonly lines: CliLine[] = [];
  readonly startedAt = performance.now();
  endedAt: number | null = null;
  private stderr = '';
  private readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: string | null }>;

  constructor(
    readonly label: string,
    args: string[],
    token: string,
    live: Set<ChildProcess>,
    /** The program and its first arguments (the CLI under tsx unless given, e.g. the built one). */
    command: string[] = [process.execPath, '--import', 'tsx', 'src/dev/cli.ts'],
  ) {
    this.child = spawn(command[0]!, [...command.slice(1), ...args], {
      cwd: repoRoot,
      env: cliEnv(token),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    live.add(this.child);
    this.child.stderr!.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString()).slice(-4000);
    });
    createInterface({ input: this.child.stdout! }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      try {
        this.lines.push({
          at: performance.now(),
          json: JSON.parse(line) as Record<string, unknown>,
        });
      } catch {
        // not a line of ours
      }
    });
    this.exited = exitOf(this.child).then((r) => {
      this.endedAt = performance.now();
      live.delete(this.child);
      return r;
    });
  }

  get running(): boolean {
    return this.endedAt === null;
  }

  /** How it ended or what it said last, for an error message. */
  describe(): string {
    const last = this.lines
      .filter((l) => l.json.type !== 'progress')
      .slice(-2)
      .map((l) => JSON.stringify(l.json).slice(0, 300));
    return `${this.label}: ${this.running ? 'still running' : `exited (${this.child.exitCode ?? this.child.signalCode})`}; last lines ${last.join(' ') || '(none)'}; stderr ${this.stderr.trim().slice(-600) || '(none)'}`;
  }

  /** The first line from index `from` on that `pred` accepts; fails if the child exits first. */
  waitForLine(
    what: string,
    pred: (json: Record<string, unknown>) => boolean,
    ms: number,
    from = 0,
  ): Promise<CliLine> {
    return waitUntil(`${this.label}: ${what}`, ms, () => {
      const found = this.lines.slice(from).find((l) => pred(l.json));
      if (found) return found;
      if (!this.running) throw new Error(`${what}: ${this.describe()}`);
      return undefined;
    });
  }

  /** Waits for the exit (a --once run); a deadline passed kills it and rejects with Timeout. */
  async finished(ms: number): Promise<{ code: number | null; ms: number }> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), ms);
    });
    const r = await Promise.race([this.exited, timedOut]);
    clearTimeout(timer);
    if (r === 'timeout') {
      await this.kill();
      throw new Timeout(`${this.label} did not finish`, ms);
    }
    return { code: r.code, ms: this.endedAt! - this.startedAt };
  }

  /** The last `summary` line (after --once). */
  summary(): Record<string, unknown> | undefined {
    return this.lines.findLast((l) => l.json.type === 'summary')?.json;
  }

  /** SIGTERM (it finishes its current step and exits), SIGKILL after `ms`. */
  async stop(ms = 30_000): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), ms);
    });
    const r = await Promise.race([this.exited, late]);
    clearTimeout(timer);
    if (r === 'late') await this.kill();
  }

  async kill(): Promise<void> {
    if (this.running) this.child.kill('SIGKILL');
    await this.exited;
  }
}

/** The engine's own cache folder at the sync root: not part of the tree. */
const CACHE = '.workspace-sync-cache';

/**
 * The folders and files below `root` as sorted `d:path` / `f:path` strings (no sizes), the
 * engine's cache left out; symlinks and other kinds are `o:path`.
 */
export async function localPaths(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const out: string[] = [];
  for (const e of entries) {
    const rel = path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/');
    if (rel === CACHE || rel.startsWith(CACHE + '/')) continue;
    out.push(`${e.isDirectory() ? 'd' : e.isFile() ? 'f' : 'o'}:${rel}`);
  }
  return out.sort();
}

export function hashOf(paths: readonly string[]): string {
  const h = createHash('sha256');
  for (const p of paths) h.update(p + '\n');
  return h.digest('hex');
}
