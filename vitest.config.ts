import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Vitest starts the longest files first only when its cache knows their durations (in
// node_modules/.vite); a clean clone, as CI's, has none, and vitest then starts the largest files
// first. The soak's file is small and by far the longest (about 4 minutes of a 9-minute run):
// started last, it would run alone at the end. So these start first, longest first (durations
// of `npm test` on the 2-core machine, late 2026); a file not listed keeps vitest's order.
const LONGEST = [
  'test/soak/soak.test.ts',
  'test/sync/bandwidth.test.ts',
  'test/window/browse-native.test.ts',
  'test/sync/conflict-races.test.ts',
  'test/cli/cli.test.ts',
  'test/cli/store-file.test.ts',
  'test/window/list-cut.test.ts',
  'test/tooling/no-keytar.test.ts',
  'test/sync/crash.test.ts',
  'test/sync/long-names.test.ts',
  'test/window/window.test.ts',
  'test/os/integrate.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const rank = (f: TestSpecification) => {
      const i = LONGEST.indexOf(path.relative(root, f.moduleId).split(path.sep).join('/'));
      return i < 0 ? LONGEST.length : i;
    };
    return sorted
      .map((file, order) => ({ file, order, rank: rank(file) }))
      .sort((a, b) => a.rank - b.rank || a.order - b.order)
      .map((x) => x.file);
  }
}

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
