// The esbuild targets of the app: what it ships besides the renderer (scripts/build.mjs builds
// them; test/tooling/shipped.test.ts checks what goes into them, e.g. never the sandbox).

/** @type {import('esbuild').BuildOptions} */
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

/** @type {import('esbuild').BuildOptions[]} */
export const targets = [
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
  // The headless CLI for plain Node (`node out/cli/index.js`; servers without a desktop): the
  // same client as the app's `--cli`, without tsx's compiler in the process (~50 MB less RSS).
  { ...common, entryPoints: ['src/main/cli/main.ts'], outfile: 'out/cli/index.js', format: 'esm' },
];
