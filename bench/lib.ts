import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Pool } from 'undici';
import { exitOf } from '../src/service/child';

/** What every benchmark module in bench/ exports as default. */
export interface Benchmark {
  /** The name used on the command line: `npm run -s bench -- NAME`. */
  readonly name: string;
  readonly description: string;
  /** Runs the benchmark and returns its figures (numbers, or short strings for context). */
  run(): Promise<Figures>;
}

export type Figures = Record<string, number | string | boolean>;

/**
 * Runs `fn` in rounds until `minMs` has passed and returns operations per second.
 * Several rounds so that a JIT warm-up or one GC pause does not decide the figure.
 */
export function opsPerSecond(fn: () => void, minMs = 300): number {
  for (let i = 0; i < 1000; i++) fn(); // warm-up
  let ops = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < minMs) {
    for (let i = 0; i < 1000; i++) fn();
    ops += 1000;
    elapsed = performance.now() - start;
  }
  return Math.round((ops / elapsed) * 1000);
}

/**
 * Measures two candidates side by side, interleaved round by round so that machine noise
 * hits both alike; returns the median ops/s of each.
 */
export function sideBySide(
  a: () => void,
  b: () => void,
  rounds = 7,
  roundMs = 100,
): [number, number] {
  const ra: number[] = [];
  const rb: number[] = [];
  for (let r = 0; r < rounds; r++) {
    ra.push(opsPerSecond(a, roundMs));
    rb.push(opsPerSecond(b, roundMs));
  }
  return [median(ra), median(rb)];
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return NaN;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const repoRoot = path.resolve(import.meta.dirname, '..');

/**
 * Runs `node ARGS` from the repository root (a child whose memory or crash is its own) and
 * resolves with the last JSON line it printed. It is in `live` while it runs, so that a failing
 * bench can kill it.
 */
export async function runJsonChild<T>(
  what: string,
  args: string[],
  live: Set<ChildProcess>,
): Promise<T> {
  const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const { code, signal } = await exitOf(child);
  live.delete(child);
  const line = stdout
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('{'));
  if (code !== 0 || !line) {
    throw new Error(`${what} failed (${code ?? signal}): ${stderr.trim() || stdout}`);
  }
  return JSON.parse(line) as T;
}

/** The sandbox's request counters (`/_sandbox/stats`): the total and the count by route. */
export interface SandboxStats {
  total: number;
  requests: Record<string, number>;
}

/** Resets and reads the sandbox's request counters over `pool`. */
export function sandboxStats(pool: Pool) {
  return {
    reset: async (): Promise<void> => {
      const res = await pool.request({ method: 'DELETE', path: '/_sandbox/stats' });
      await res.body.dump();
      if (res.statusCode !== 204) throw new Error(`DELETE /_sandbox/stats: ${res.statusCode}`);
    },
    read: async (): Promise<SandboxStats> => {
      const res = await pool.request({ method: 'GET', path: '/_sandbox/stats' });
      if (res.statusCode !== 200) throw new Error(`GET /_sandbox/stats: ${res.statusCode}`);
      return (await res.body.json()) as SandboxStats;
    },
  };
}
