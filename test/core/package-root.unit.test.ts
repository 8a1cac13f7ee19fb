import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/main/core/package-root';

// The app finds its own files from wherever its code runs: src/ through tsx, out/ bundled, a
// test run's bundle, each at another depth below the package.

const repoRoot = path.resolve(import.meta.dirname, '../..');
const tmp = mkdtempSync(path.join(tmpdir(), 'ws-package-root-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('packageRoot', () => {
  it('finds the app from its sources and from a bundle at any depth', () => {
    expect(packageRoot(path.join(repoRoot, 'src/main/core'))).toBe(repoRoot);
    expect(packageRoot(path.join(repoRoot, 'out/cli'))).toBe(repoRoot);
    expect(packageRoot(path.join(repoRoot, 'out/test-run-x'))).toBe(repoRoot);
  });

  it("passes over another package's package.json, and says null outside the app", () => {
    const other = path.join(tmp, 'node_modules', 'other');
    mkdirSync(other, { recursive: true });
    writeFileSync(path.join(other, 'package.json'), JSON.stringify({ name: 'other' }));
    writeFileSync(path.join(tmp, 'package.json'), '{ not json');
    expect(packageRoot(other)).toBeNull();
    expect(packageRoot(path.join(repoRoot, 'node_modules', 'vitest'))).toBe(repoRoot);
  });
});
