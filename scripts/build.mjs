// Builds the targets: main and the engine host (ESM, Node), preload (CommonJS: sandboxed preloads cannot be
// ESM) with esbuild, and the renderer with Vite. `--watch` rebuilds on change.
import * as esbuild from 'esbuild';
import { build as viteBuild } from 'vite';
import { rm } from 'node:fs/promises';

const watch = process.argv.includes('--watch');

/** @type {esbuild.BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  sourcemap: true,
  // Dependencies ship in the package (native modules cannot be bundled).
  packages: 'external',
  external: ['electron'],
  logLevel: 'info',
};

const targets = [
  { ...common, entryPoints: ['src/main/index.ts'], outfile: 'out/main/index.js', format: 'esm' },
  // The engine host, started by main in a utility process.
  {
    ...common,
    entryPoints: ['src/main/host/index.ts'],
    outfile: 'out/main/host.js',
    format: 'esm',
  },
  {
    ...common,
    entryPoints: ['src/preload/index.ts'],
    outfile: 'out/preload/index.cjs',
    format: 'cjs',
  },
];

await rm('out', { recursive: true, force: true });
if (watch) {
  for (const t of targets) await (await esbuild.context(t)).watch();
  await viteBuild({ configFile: 'vite.config.ts', build: { watch: {} } });
} else {
  await Promise.all(targets.map((t) => esbuild.build(t)));
  await viteBuild({ configFile: 'vite.config.ts', logLevel: 'warn' });
}
