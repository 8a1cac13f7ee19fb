import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../src/main/sync/ports';

// Helpers shared by the mirror benchmark and its engine child process.

/** What the engine child is given (one JSON argument). */
export interface EngineArgs {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  token: string;
  email: string;
  workspaceId: number;
  dir: string;
  stateDir: string;
}

/** The line the engine child prints. */
export interface EngineLine {
  ms: number;
  /** Milliseconds from the start of syncOnce to the first status of each state. */
  reached: Record<string, number>;
  /** Resident memory before syncOnce (the process with its modules loaded). */
  start_rss_mb: number;
  summary: Record<string, unknown>;
  peak_rss_mb: number;
  /** CPU time (user and system) of the syncOnce. */
  cpu_ms?: number;
  problems: number;
  log: LogDigest;
}

/** The engine's log, digested: how often each message came, and the first warnings/errors. */
export interface LogDigest {
  counts: Record<string, number>;
  /** e.g. "full walk (first sync)". */
  walks: string[];
  warnings: string[];
}

export function recordingLogger(): { log: Logger; digest: LogDigest } {
  const digest: LogDigest = { counts: {}, walks: [], warnings: [] };
  const note = (level: string, message: string, fields?: Record<string, unknown>) => {
    const key = `${level}: ${message}`;
    digest.counts[key] = (digest.counts[key] ?? 0) + 1;
    if (message === 'full walk' || message === 'events need a full walk') {
      digest.walks.push(`${message} (${String(fields?.reason ?? '?')})`);
    }
    if ((level === 'warn' || level === 'error') && digest.warnings.length < 10) {
      digest.warnings.push(`${message} ${JSON.stringify(fields ?? {})}`.slice(0, 300));
    }
  };
  return {
    digest,
    log: {
      debug: () => {},
      info: (m, f) => note('info', m, f),
      warn: (m, f) => note('warn', m, f),
      error: (m, f) => note('error', m, f),
    },
  };
}

/** Folders and files below `root` (recursively), the engine's cache folder left out. */
export async function countTree(
  root: string,
  skip = '.workspace-sync-cache',
): Promise<{ folders: number; files: number }> {
  let folders = 0;
  let files = 0;
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const cache = path.join(root, skip);
  for (const e of entries) {
    const parent = e.parentPath;
    if (parent === cache || parent.startsWith(cache + path.sep)) continue;
    if (parent === root && e.name === skip) continue;
    if (e.isDirectory()) folders++;
    else if (e.isFile()) files++;
  }
  return { folders, files };
}
