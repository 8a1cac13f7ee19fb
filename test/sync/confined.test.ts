import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { Confined, MAX_OPEN } from '../../src/main/sync/confined';

// The folders a pass keeps open are bounded: a pass over a large tree must not run out of
// descriptors (macOS allows 10,240 per process).

const root = mkdtempSync(path.join(tmpdir(), 'wsync-confined-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it.runIf(process.platform === 'linux')('keeps at most MAX_OPEN folders open within a pass', () => {
  const fds = () => readdirSync('/proc/self/fd').length;
  const confined = new Confined(root, (rel) => path.join(root, rel));
  confined.release(true);
  const before = fds();
  const n = MAX_OPEN + 200;
  for (let i = 0; i < n; i++) {
    confined.mkdir(`f${i}`);
    confined.mkdir(`f${i}/sub`); // opens f<i> and keeps it for the pass
  }
  expect(fds() - before).toBeLessThanOrEqual(MAX_OPEN + 1);
  // Still usable after the oldest were closed: reopened when needed.
  confined.mkdir('f0/again');
  expect(readdirSync(path.join(root, 'f0')).sort()).toEqual(['again', 'sub']);
  confined.release();
  expect(fds()).toBeLessThanOrEqual(before);
});

it.runIf(process.platform === 'linux')(
  'peeks through the folder it opened, never through a link swapped in at its path',
  () => {
    const base = mkdtempSync(path.join(tmpdir(), 'wsync-peek-'));
    try {
      const top = path.join(base, 'root');
      const outside = path.join(base, 'outside');
      mkdirSync(path.join(top, 'a'), { recursive: true });
      mkdirSync(outside);
      writeFileSync(path.join(outside, 'x.txt'), 'not ours');
      const confined = new Confined(top, (rel) => path.join(top, rel));
      confined.release(true);
      expect(confined.peek('a/x.txt')).toBeUndefined(); // opens a/ and keeps it for the pass
      // A racing process puts a link to elsewhere where the folder was.
      renameSync(path.join(top, 'a'), path.join(base, 'a-moved'));
      symlinkSync(outside, path.join(top, 'a'));
      expect(confined.peek('a/x.txt')).toBeUndefined();
      // The placement's rename through that folder then finds the swap and undoes itself.
      writeFileSync(path.join(top, 'tmp'), 'new');
      expect(() => confined.rename('tmp', 'a/y.txt')).toThrow(/changed while it was being synced/);
      expect(readdirSync(outside)).toEqual(['x.txt']);
      confined.release();
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  },
);
