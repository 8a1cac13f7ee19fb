import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ServiceClient } from '../src/main/api/client';
import { openSession } from '../src/main/api/oauth';
import { readHashed } from '../src/main/sync/file-read';
import { spawnSandbox } from '../src/service/child';
import { median, runJsonChild, type Benchmark } from './lib';
import type { ChildArgs, ChildLine } from './throttle-child';

// The transfer limits' memory: a 200 MB file down and up through the engine's own paths, each in
// a process of its own (its peak RSS is its alone), at 50 MB/s and without a limit, interleaved
// round by round. A throttle that buffered instead of holding the socket back would hold what the
// server sent ahead of the limit: up to the whole file.

const SIZE = 200 * 1000 * 1000;
const LIMIT_KBPS = 50_000;
const ROUNDS = 2;
const CHILD = path.join(import.meta.dirname, 'throttle-child.ts');

const bench: Benchmark = {
  name: 'throttle',
  description: `a ${SIZE / 1e6} MB download and upload at ${LIMIT_KBPS / 1000} MB/s vs no limit: peak RSS of each transfer's process, and the rate held`,
  async run() {
    const sandbox = await spawnSandbox(['--port', '0', '--seed', 'empty']);
    const dir = await mkdtemp(path.join(tmpdir(), 'wsync-throttle-bench-'));
    const live = new Set<ChildProcess>();
    try {
      const { info } = sandbox;
      const token = info.users[0]!.token;
      const { transport } = openSession({
        baseUrl: info.base_url,
        clientId: info.client_id,
        clientSecret: info.client_secret,
        tokens: { accessToken: token },
      });
      const client = new ServiceClient(transport);
      const source = path.join(dir, 'source.bin');
      const out = await open(source, 'w');
      for (let at = 0; at < SIZE; at += 10e6) await out.write(randomBytes(10e6));
      await out.close();
      const folder = await client.createFolder(info.workspace_id, null, 'Bench');
      const fd = await open(source, 'r');
      const file = await client.uploadFile(
        folder.id,
        'big.bin',
        () => readHashed(fd.fd, SIZE, () => {}),
        SIZE,
      );
      await fd.close();

      const runs: Record<string, ChildLine[]> = {};
      const one = async (direction: 'up' | 'down', kbps: number) => {
        const args: ChildArgs = {
          baseUrl: info.base_url,
          clientId: info.client_id,
          clientSecret: info.client_secret,
          token,
          direction,
          kbps,
          file: direction === 'up' ? source : path.join(dir, 'down.part'),
          size: SIZE,
          id: direction === 'up' ? folder.id : file.id,
        };
        const line = await runJsonChild<ChildLine>(
          'a transfer',
          ['--import', 'tsx', CHILD, JSON.stringify(args)],
          live,
        );
        (runs[`${direction}_${kbps === 0 ? 'free' : 'limited'}`] ??= []).push(line);
      };
      for (let round = 0; round < ROUNDS; round++) {
        await one('down', 0);
        await one('down', LIMIT_KBPS);
        await one('up', 0);
        await one('up', LIMIT_KBPS);
      }
      const figures: Record<string, number> = { limit_kbps: LIMIT_KBPS, size_mb: SIZE / 1e6 };
      for (const [key, lines] of Object.entries(runs)) {
        figures[`${key}_peak_rss_mb`] = median(lines.map((l) => l.maxRssMb));
        figures[`${key}_kbps`] = median(lines.map((l) => l.kbps));
      }
      return figures;
    } finally {
      for (const c of live) c.kill();
      await sandbox.stop();
      await rm(dir, { recursive: true, force: true });
    }
  },
};

export default bench;
