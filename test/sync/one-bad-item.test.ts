import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { askWalk } from '../../src/main/sync/loop/context';
import { PARTIAL_DIR } from '../../src/main/sync/paths';
import { startSandbox } from '../../src/service/sandbox';
import { TempDirs, clientFor, localTree, openPair, range, remoteTree, tokenOf } from './harness';
import { startStandIn } from './stand-in';

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

describe('a download whose Content-Length exceeds its body', () => {
  it('is a problem for that file, the other 44 are placed, and it resumes later', async () => {
    const sb = await startSandbox({ seed: 'empty' });
    const owner = sb.users.find((u) => u.role === 'Administrator')!;
    // The service's files, put there by another computer.
    const source = path.join(dirs.make(), 'Workspace');
    mkdirSync(path.join(source, 'many'), { recursive: true });
    for (const i of range(44)) writeFileSync(path.join(source, 'many', `f${i}.txt`), `file ${i}`);
    const big = Buffer.alloc(300_000, 'x');
    writeFileSync(path.join(source, 'many', 'cut.bin'), big);
    const uploader = await openPair(sb, clientFor(sb.baseUrl, tokenOf(owner)), dirs, {
      dir: source,
    });
    await uploader.engine.syncOnce();
    await uploader.close();
    const cutId = sb.sandbox.db
      .prepare(`SELECT id FROM items WHERE filename = 'cut.bin'`)
      .pluck()
      .get() as number;

    // A server that says 300,000 bytes, sends 100,000 and ends the connection; no archives.
    let cutting = true;
    const ranges: (string | undefined)[] = [];
    const standIn = await startStandIn(sb.baseUrl, {
      answer: (req, res, url) => {
        if (/\/folders\/\d+\/archive$/.test(url.pathname)) {
          res.writeHead(501).end();
          return true;
        }
        if (url.pathname.endsWith(`/download/${cutId}`)) ranges.push(req.headers.range);
        if (!cutting || !url.pathname.endsWith(`/download/${cutId}`)) return false;
        res.writeHead(200, {
          'content-type': 'application/octet-stream',
          'content-length': big.length,
        });
        res.write(big.subarray(0, 100_000), () => res.destroy());
        return true;
      },
    });
    const pair = await openPair(
      { baseUrl: standIn.baseUrl, workspaceId: sb.workspaceId },
      clientFor(standIn.baseUrl, tokenOf(owner), { maxAttempts: 1 }),
      dirs,
    );
    try {
      const summary = await pair.engine.syncOnce();
      expect(summary.filesDownloaded).toBe(44);
      const tree = localTree(pair.dir);
      for (const i of range(44)) expect(tree.has(`many/f${i}.txt`)).toBe(true);
      expect(tree.has('many/cut.bin')).toBe(false);
      const problems = pair.engine.status().problems;
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatchObject({ path: 'many/cut.bin', remoteId: cutId });
      expect(problems[0]!.message).toMatch(/cut off after .* tried again/);
      // What came is kept, to be resumed.
      const part = path.join(pair.dir, PARTIAL_DIR, `${cutId}.part`);
      expect(statSync(part).size).toBe(100_000);

      // The next walk (every 10 minutes) tries again, from where it was cut.
      cutting = false;
      askWalk(pair.journal, 'the test');
      await pair.engine.syncOnce();
      expect(ranges.at(-1)).toBe('bytes=100000-');
      expect(readFileSync(path.join(pair.dir, 'many', 'cut.bin')).equals(big)).toBe(true);
      expect(pair.engine.status().problems).toEqual([]);
    } finally {
      await pair.close();
      await standIn.close();
      await sb.close();
    }
  });
});
