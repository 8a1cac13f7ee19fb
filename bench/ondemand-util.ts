import { Pool } from 'undici';
import { spawnSandbox, type SandboxProcess } from '../src/service/child';
import { sandboxStats, type SandboxStats } from './lib';

// Pieces of the files-on-demand benchmark (ondemand.bench.ts): a sandbox child and its counters,
// the requests that sent content, percentiles, options.

/** A sandbox child on a data folder, its counters, and its first user's identity. */
export interface Served {
  sandbox: SandboxProcess;
  hooks: Pool;
  baseUrl: string;
  token: string;
  workspaceId: number;
  resetStats: () => Promise<void>;
  readStats: () => Promise<SandboxStats>;
  close: () => Promise<void>;
}

export async function serve(dataDir: string): Promise<Served> {
  const sandbox = await spawnSandbox(['--data', dataDir, '--seed', 'empty']);
  const hooks = new Pool(sandbox.info.base_url, { connections: 2 });
  const { reset, read } = sandboxStats(hooks);
  return {
    sandbox,
    hooks,
    baseUrl: sandbox.info.base_url,
    token: sandbox.info.users[0]!.token,
    workspaceId: sandbox.info.workspace_id,
    resetStats: reset,
    readStats: read,
    close: async () => {
      await hooks.close().catch(() => {});
      await sandbox.stop();
    },
  };
}

/** Requests that sent a file's content (single downloads and archives), in all. */
export const contentRequests = (stats: SandboxStats): number =>
  Object.entries(stats.requests)
    .filter(([route]) => /download|archive|zip/i.test(route))
    .reduce((n, [, k]) => n + k, 0);

/** The p-th percentile (0–100) by the nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export const round2 = (x: number): number => Math.round(x * 100) / 100;

/**
 * The value of `--name=VALUE` on the command line, if given (the `=` is needed: bench/run.ts
 * takes every word not starting with `-` for a benchmark's name).
 */
export function option(name: string, argv = process.argv): string | undefined {
  const a = argv.find((x) => x.startsWith(`--${name}=`));
  return a?.slice(name.length + 3);
}
