import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ServiceClient } from '../../src/main/api/client';
import { openSession } from '../../src/main/api/oauth';
import type { Tokens } from '../../src/main/api/session';
import type { SyncEngine } from '../../src/main/sync/loop/engine';
import type { VolumeProfile } from '../../src/main/sync/names';
import { openSync, type OpenSync, type OpenSyncOptions } from '../../src/main/sync/loop/open';
import { CACHE_DIR } from '../../src/main/sync/paths';
import type { Logger } from '../../src/main/sync/ports';
import type { RunningSandbox } from '../../src/service/sandbox';
import type { SeededUser } from '../../src/service/seed';
import type { SyncSummary } from '../../src/shared/sync-status';

/** Temporary directories made by a test, removed by `cleanup`. */
export class TempDirs {
  private dirs: string[] = [];
  make(prefix = 'wsync-'): string {
    const dir = mkdtempSync(path.join(tmpdir(), prefix));
    this.dirs.push(dir);
    return dir;
  }
  cleanup(): void {
    for (const d of this.dirs.splice(0)) {
      try {
        rmSync(d, { recursive: true, force: true });
      } catch (err) {
        // A tree moved deeper than PATH_MAX (a folder moved into a deep one) cannot be removed
        // by paths; GNU rm walks it through opened folders.
        if ((err as NodeJS.ErrnoException).code !== 'ENAMETOOLONG') throw err;
        execFileSync('rm', ['-rf', '--', d]);
      }
    }
  }
}

export function clientFor(
  baseUrl: string,
  tokens: Tokens,
  retry: { maxAttempts?: number; maxTotalMs?: number } = { maxAttempts: 3, maxTotalMs: 2000 },
): ServiceClient {
  const { transport } = openSession({
    baseUrl,
    clientId: 'workspace-sync',
    clientSecret: 'sandbox-secret',
    tokens,
    transport: { retry },
  });
  return new ServiceClient(transport);
}

export const tokenOf = (user: SeededUser): Tokens => ({ accessToken: user.token });

export interface Pair extends OpenSync {
  dir: string;
  state: string;
}

/** The engine's log on stderr (WSYNC_TEST_LOG=1), when a test needs explaining. */
export const stderrLogger: Logger = {
  debug: (m, f) => console.error('debug', m, JSON.stringify(f)),
  info: (m, f) => console.error('info', m, JSON.stringify(f)),
  warn: (m, f) => console.error('warn', m, JSON.stringify(f)),
  error: (m, f) => console.error('error', m, JSON.stringify(f)),
};

export async function openPair(
  sb: { baseUrl: string; workspaceId: number },
  client: ServiceClient,
  dirs: TempDirs,
  opts: {
    dir?: string;
    state?: string;
    profile?: VolumeProfile;
    pollIntervalMs?: number;
    fullWalkIntervalMs?: number;
    concurrency?: number;
    language?: OpenSyncOptions['language'];
    tuning?: OpenSyncOptions['tuning'];
  } = {},
): Promise<Pair> {
  const dir = opts.dir ?? path.join(dirs.make(), 'Workspace');
  const state = opts.state ?? dirs.make('wsync-state-');
  const pair = await openSync({
    client,
    server: sb.baseUrl,
    user: 'test',
    workspaceId: sb.workspaceId,
    dir,
    stateDir: state,
    pollIntervalMs: opts.pollIntervalMs ?? 20,
    fullWalkIntervalMs: opts.fullWalkIntervalMs,
    profile: opts.profile,
    concurrency: opts.concurrency,
    language: opts.language,
    // Tests write whole files before they sync: nothing needs time to settle.
    tuning: { writeQuietMs: 0, ...opts.tuning },
    log: process.env.WSYNC_TEST_LOG ? stderrLogger : undefined,
  });
  return { ...pair, dir, state };
}

/** Every folder (as 'dir') and file (as its sha256) below `dir`, by relative path. */
export function localTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (rel: string) => {
    for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel === '' ? e.name : `${rel}/${e.name}`;
      if (child === CACHE_DIR) continue;
      // Past PATH_MAX (a folder moved into a deep one took its tree along) no path reaches it:
      // it cannot exist here as far as anyone by path can tell, and the engine says so.
      if (pastPathMax(path.join(dir, child))) continue;
      if (e.isDirectory()) {
        out.set(child, 'dir');
        visit(child);
      } else {
        out.set(child, sha(readFileSync(path.join(dir, child))));
      }
    }
  };
  visit('');
  return out;
}

/** Whether a path is too long for a system call on Linux (PATH_MAX, 4,096 bytes with its NUL). */
export const pastPathMax = (abs: string) => Buffer.byteLength(abs) + 1 > 4096;

export const sha = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** The workspace as the sandbox holds it: folders as 'dir', files as the sha256 of their blob. */
export function remoteTree(sb: RunningSandbox, workspaceId = sb.workspaceId): Map<string, string> {
  const db = sb.sandbox.db;
  const root = db
    .prepare(`SELECT root_folder_id FROM workspaces WHERE id = ?`)
    .pluck()
    .get(workspaceId);
  const rows = db
    .prepare(
      `WITH RECURSIVE t(id, kind, path, blob) AS (
         SELECT id, kind, filename, blob FROM items WHERE parent_id = ?
         UNION ALL SELECT i.id, i.kind, t.path || '/' || i.filename, i.blob
           FROM items i JOIN t ON i.parent_id = t.id WHERE t.kind = 'folder'
       ) SELECT kind, path, blob FROM t`,
    )
    .all(root) as { kind: string; path: string; blob: string | null }[];
  return new Map(rows.map((r) => [r.path, r.kind === 'folder' ? 'dir' : (r.blob ?? sha(''))]));
}

/** Resolves after the first `settled` event for which `check` holds (continuous mode). */
export function settledUntil(
  engine: SyncEngine,
  check: (summary: SyncSummary) => boolean,
): Promise<SyncSummary> {
  return new Promise((resolve) => {
    const on = (summary: SyncSummary) => {
      if (!check(summary)) return;
      engine.off('settled', on);
      resolve(summary);
    };
    engine.on('settled', on);
  });
}

export function statusUntil(engine: SyncEngine, state: string): Promise<void> {
  return new Promise((resolve) => {
    const on = (s: { state: string }) => {
      if (s.state !== state) return;
      engine.off('status', on);
      resolve();
    };
    engine.on('status', on);
  });
}

export const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** The requests `work` makes, by route, as the sandbox counts them. */
export async function requestsOf(
  sb: { resetStats(): void; stats(): Record<string, number> },
  work: () => Promise<unknown>,
): Promise<Record<string, number>> {
  sb.resetStats();
  await work();
  return sb.stats();
}
