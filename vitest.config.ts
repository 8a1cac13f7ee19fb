import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The Electron binary cannot run here: the main process's code is tested against a fake.
  resolve: {
    alias: { electron: path.resolve(import.meta.dirname, 'test/desktop/fake-electron.ts') },
  },
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    reporters: ['default', './test/summary-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
