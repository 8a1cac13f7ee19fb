import path from 'node:path';
import { defineConfig } from 'vitest/config';
import LongestFirst from './test/sequencer';

export default defineConfig({
  // The Electron binary cannot run here: the main process's code is tested against a fake.
  resolve: {
    alias: { electron: path.resolve(import.meta.dirname, 'test/desktop/fake-electron.ts') },
  },
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    reporters: ['default', './test/summary-reporter.ts'],
    // The children's programs bundled, and the window built, once per run.
    globalSetup: ['./test/bundles.global-setup.ts'],
    // The longest files first, also in a clean clone (no durations cached).
    sequence: { sequencer: LongestFirst },
    // Most files wait on a sandbox over HTTP, a child process or Chromium, not on the CPU:
    // three at a time on two cores (vitest's default, one fewer than the cores, is one here).
    maxWorkers: 3,
    // Deadlines against a hang, not measures: with three files at a time a heavy test (a burst of
    // 1,500 changes, 200 watched folders, a run of CLI children) can take past 30 s.
    testTimeout: 90_000,
    hookTimeout: 90_000,
  },
});
