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
  },
});
