import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

// The renderer only: main and preload are bundled by esbuild (scripts/build.mjs).
export default defineConfig({
  root: fileURLToPath(new URL('./src/renderer', import.meta.url)),
  base: './',
  build: {
    outDir: fileURLToPath(new URL('./out/renderer', import.meta.url)),
    emptyOutDir: true,
    target: 'chrome140',
    rollupOptions: {
      onwarn(warning, warn) {
        // TanStack Query marks its modules "use client" for React Server Components; a plain
        // client bundle has nothing to preserve, so the notice is noise.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
});
