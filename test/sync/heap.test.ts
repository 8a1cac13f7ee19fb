import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';

// The engine's processes keep V8's heap near what is live (src/main/core/heap.ts). Checked in a
// child of its own: the flags are the process's, and this one's heap is vitest's.

const repoRoot = path.resolve(import.meta.dirname, '../..');

/** The young generation's size after a burst of short-lived objects, in KiB. */
function youngAfterBurst(keep: boolean): number {
  const script = `
    ${keep ? "const { keepHeapNearLive } = await import('./src/main/core/heap.ts'); keepHeapNearLive();" : ''}
    const v8 = await import('node:v8');
    const kept = [];
    for (let i = 0; i < 2e6; i++) {
      const o = { i, s: 'x' + i, a: [i, i] };
      if (i % 50 === 0) kept.push(o);
      if (kept.length > 5000) kept.shift();
    }
    const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    console.log(Math.round(young.space_size / 1024));
  `;
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', script],
    { cwd: repoRoot, encoding: 'utf8' },
  );
  return Number(out.trim().split('\n').at(-1));
}

it('keeps the young generation from growing while objects die young', () => {
  // By default V8 doubled it up to 32 MB of semi-spaces: ~15 MB of a 100k restart scan's peak.
  expect(youngAfterBurst(false)).toBeGreaterThanOrEqual(8 * 1024);
  expect(youngAfterBurst(true)).toBeLessThanOrEqual(4 * 1024);
});
