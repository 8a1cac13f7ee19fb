import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The README's systemd user unit is what people copy to run a sync for months: systemd itself
// checks it (`systemd-analyze verify`; Debian's systemd package, installed by .ci/run), with the
// program it starts replaced by one that exists here.

const repoRoot = path.resolve(import.meta.dirname, '../..');

describe("the README's systemd unit", () => {
  it('is a unit systemd accepts without a warning, running `workspace-sync sync`', async () => {
    const readme = await readFile(path.join(repoRoot, 'README.md'), 'utf8');
    const unit = /```ini\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(unit, 'an ```ini block in README.md').toBeDefined();
    expect(unit).toMatch(
      /^ExecStart=\/usr\/bin\/workspace-sync sync --server \S+ --workspace \d+ --dir \S+$/m,
    );
    const dir = await mkdtemp(path.join(tmpdir(), 'unit-'));
    try {
      const file = path.join(dir, 'workspace-sync.service');
      await writeFile(file, unit!.replace('/usr/bin/workspace-sync', '/bin/true'));
      const run = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' });
      expect(run.error, 'systemd-analyze (Debian: apt-get install systemd)').toBeUndefined();
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
