// Builds the targets (build-targets.mjs): main and the engine host (ESM, Node), preload (CommonJS:
// sandboxed preloads cannot be ESM) with esbuild, and the renderer with Vite. `--watch` rebuilds
// on change.
import * as esbuild from 'esbuild';
import { build as viteBuild } from 'vite';
import { rm } from 'node:fs/promises';
import { targets } from './build-targets.mjs';

const watch = process.argv.includes('--watch');

await rm('out', { recursive: true, force: true });
if (watch) {
  for (const t of targets) await (await esbuild.context(t)).watch();
  await viteBuild({ configFile: 'vite.config.ts', build: { watch: {} } });
} else {
  await Promise.all(targets.map((t) => esbuild.build(t)));
  await viteBuild({ configFile: 'vite.config.ts', logLevel: 'warn' });
}
