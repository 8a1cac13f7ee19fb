import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BlobStore } from './blobs';
import { Clock } from './clock';
import type { Sandbox, SandboxConfig } from './context';
import { openDb } from './db';
import { FaultInjector, parseFaults } from './faults';
import { createHttpServer, listen } from './server';
import { seedSandbox, type SeedKind, type SeededUser } from './seed';

export interface SandboxOptions {
  port?: number;
  host?: string;
  /** 'demo': users and a demo workspace; 'empty': users and an empty one; 'none': nothing. */
  seed?: SeedKind;
  /** Where the database and blobs live; a temporary directory removed on close by default. */
  dataDir?: string;
  basePath?: string;
  faults?: string;
  /** The move extensions; false is `--no-extensions`. */
  extensions?: boolean;
  accessTokenTtlSeconds?: number;
  maxUploadBytes?: number;
  /** Each refresh grant retires its refresh token and answers a new one (default false). */
  rotateRefreshTokens?: boolean;
  /** Every link that is on needs a password (`--link-password-required`; default false). */
  linkPasswordRequired?: boolean;
}

export interface RunningSandbox {
  baseUrl: string;
  /** The seeded workspace (0 with seed 'none'). */
  workspaceId: number;
  clientId: string;
  clientSecret: string;
  users: SeededUser[];
  /** Request counts by "METHOD /route/template" since start (or the last resetStats). */
  stats(): Record<string, number>;
  resetStats(): void;
  /** Replaces the fault settings, e.g. "fail=0.2,seed=3"; "" clears them. */
  setFaults(spec: string): void;
  advanceClock(seconds: number): void;
  /** The internals, for tests that need to look behind the API. */
  readonly sandbox: Sandbox;
  close(): Promise<void>;
}

export const SANDBOX_CLIENT_ID = 'workspace-sync';
export const SANDBOX_CLIENT_SECRET = 'sandbox-secret';

function normalizeBasePath(p: string | undefined): string {
  if (!p || p === '/') return '';
  const trimmed = '/' + p.replace(/^\/+|\/+$/g, '');
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(trimmed)) throw new Error(`invalid base path: ${p}`);
  return trimmed;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const ownsDir = !options.dataDir;
  const dir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'workspace-sandbox-')));
  // A data folder named for the first time is made, as `--data` promises.
  if (options.dataDir) await mkdir(dir, { recursive: true });
  const config: SandboxConfig = {
    basePath: normalizeBasePath(options.basePath),
    extensions: options.extensions ?? true,
    clientId: SANDBOX_CLIENT_ID,
    clientSecret: SANDBOX_CLIENT_SECRET,
    accessTokenTtlMs: (options.accessTokenTtlSeconds ?? 3600) * 1000,
    maxUploadBytes: options.maxUploadBytes ?? 5 * 1024 ** 3,
    rotateRefreshTokens: options.rotateRefreshTokens ?? false,
    linkPasswordRequired: options.linkPasswordRequired ?? false,
  };
  const faults = new FaultInjector();
  if (options.faults) faults.set(parseFaults(options.faults));
  const db = openDb(path.join(dir, 'sandbox.db'));
  const blobs = new BlobStore(path.join(dir, 'blobs'));
  await blobs.init();
  const sb: Sandbox = {
    db,
    clock: new Clock(),
    blobs,
    faults,
    config,
    secret: randomBytes(32),
    stats: new Map(),
  };
  let server: Server | undefined;
  try {
    const seeded = await seedSandbox(sb, options.seed ?? 'demo');
    server = createHttpServer(sb);
    const origin = await listen(server, options.host ?? '127.0.0.1', options.port ?? 0);
    const s = server;
    let closed = false;
    return {
      baseUrl: origin + config.basePath,
      workspaceId: seeded.workspaceId,
      clientId: config.clientId,
      clientSecret: config.clientSecret,
      users: seeded.users,
      sandbox: sb,
      stats: () => Object.fromEntries(sb.stats),
      resetStats: () => sb.stats.clear(),
      setFaults: (spec) => faults.set(parseFaults(spec)),
      advanceClock: (seconds) => sb.clock.advance(seconds * 1000),
      async close() {
        if (closed) return;
        closed = true;
        await new Promise<void>((resolve) => {
          s.close(() => resolve());
          s.closeAllConnections();
        });
        db.close();
        if (ownsDir) await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    server?.close();
    db.close();
    if (ownsDir) await rm(dir, { recursive: true, force: true });
    throw err;
  }
}
