import { defineConfig } from 'vitest/config';
import base from './vitest.config';

// The fast tier (`npm run test:unit`): the deciders on in-memory journals and small temp folders,
// no sandbox and no process. `npm test` runs these too, once, through vitest.config.ts's include
// (test/**). Spread, not mergeConfig: that would append to the base's include, not replace it.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/**/*.unit.test.ts'],
    globalSetup: [], // no CLI children here
    testTimeout: 5_000,
    hookTimeout: 5_000,
  },
});
