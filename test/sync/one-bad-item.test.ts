import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/service/sandbox';
import { TempDirs, clientFor, openPair, remoteTree, tokenOf } from './harness';

// One bad item never blocks the rest: a name that is not valid UTF-8, a download cut short. Each
// becomes a problem for that item (reason in words, tried again later) while the rest syncs.

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

/** `dir/<bytes>`: a path whose last name is raw bytes (not necessarily valid UTF-8). */
const rawPath = (dir: string, ...bytes: number[][]) =>
  Buffer.concat([Buffer.from(dir), ...bytes.flatMap((b) => [Buffer.from('/'), Buffer.from(b)])]);

describe('a local name that is not valid UTF-8', () => {
  it.runIf(process.platform === 'linux')(
    'is a problem naming it as shown, and the rest syncs',
    async () => {
      const sb = await startSandbox({ seed: 'empty' });
      try {
        const owner = sb.users.find((u) => u.role === 'Administrator')!;
        const dir = path.join(dirs.make(), 'Workspace');
        mkdirSync(path.join(dir, 'docs'), { recursive: true });
        writeFileSync(path.join(dir, 'a.txt'), 'a');
        writeFileSync(path.join(dir, 'docs', 'b.txt'), 'b');
        // docs/f\xffo.txt, and a folder \xfe\xfe holding a file.
        writeFileSync(rawPath(path.join(dir, 'docs'), [0x66, 0xff, 0x6f, 0x2e, 0x74]), 'bad');
        mkdirSync(rawPath(dir, [0xfe, 0xfe]));
        writeFileSync(rawPath(dir, [0xfe, 0xfe], [0x63]), 'inside');

        const pair = await openPair(sb, clientFor(sb.baseUrl, tokenOf(owner)), dirs, { dir });
        try {
          await pair.engine.syncOnce();
          expect([...remoteTree(sb).keys()].sort()).toEqual(['a.txt', 'docs', 'docs/b.txt']);
          const problems = pair.engine.status().problems;
          expect(problems.map((p) => [p.path, p.reason]).sort()).toEqual([
            ['docs/f\uFFFDo.t', 'name'],
            ['\uFFFD\uFFFD', 'name'],
          ]);
          for (const p of problems) expect(p.message).toMatch(/not valid UTF-8.*rename it/);
          expect(problems.find((p) => p.path === '\uFFFD\uFFFD')!.message).toContain(
            'nothing in it is synced',
          );

          // Still there at the next full scan, and nothing else changes.
          await pair.engine.syncOnce();
          expect(pair.engine.status().problems).toHaveLength(2);
          expect(remoteTree(sb).size).toBe(3);
        } finally {
          await pair.close();
        }
      } finally {
        await sb.close();
      }
    },
  );
});
