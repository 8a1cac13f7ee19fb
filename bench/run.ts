// `npm run -s bench -- [NAME ...]`: runs benchmarks from bench/*.bench.ts (all without NAME),
// prints a readable table per benchmark, and one JSON line of figures per benchmark, so that
// the last line of the output is always `{"bench": "NAME", ...figures}`.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Benchmark } from './lib';

const dir = import.meta.dirname;

async function available(): Promise<Map<string, string>> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.bench.ts')).sort();
  return new Map(files.map((f) => [f.slice(0, -'.bench.ts'.length), path.join(dir, f)]));
}

async function load(file: string): Promise<Benchmark> {
  const mod = (await import(pathToFileURL(file).href)) as { default?: Benchmark };
  if (!mod.default || typeof mod.default.run !== 'function') {
    throw new Error(`${file} does not export a default Benchmark`);
  }
  return mod.default;
}

async function main(): Promise<number> {
  const all = await available();
  const asked = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    console.log(`usage: npm run -s bench -- [NAME ...]\navailable: ${[...all.keys()].join(', ')}`);
    return 0;
  }
  const unknown = asked.filter((n) => !all.has(n));
  if (unknown.length > 0) {
    console.error(
      `unknown benchmark: ${unknown.join(', ')} (available: ${[...all.keys()].join(', ')})`,
    );
    return 2;
  }
  for (const name of asked.length > 0 ? asked : [...all.keys()]) {
    const bench = await load(all.get(name)!);
    console.log(`\n${bench.name}: ${bench.description}`);
    const started = performance.now();
    const figures = await bench.run();
    const seconds = (performance.now() - started) / 1000;
    console.table(Object.entries(figures).map(([figure, value]) => ({ figure, value })));
    console.log(`(${seconds.toFixed(1)} s)`);
    console.log(JSON.stringify({ bench: bench.name, ...figures }));
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exit(1);
  },
);
