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
