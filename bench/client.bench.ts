import { Pool } from 'undici';
import { ServiceClient, collect } from '../src/main/api/client';
import { openSession } from '../src/main/api/oauth';
import { spawnSandbox } from '../src/service/child';
import type { Benchmark } from './lib';

// The client's cost per request: validated folder listings through ServiceClient against a
// bare undici.request loop that only parses the JSON, on the same sandbox (in its own process),
// interleaved round by round so that machine noise hits both alike.

const ITEMS = 50; // one page (60 per page)
const ROUNDS = 10;
const PER_ROUND = 300;
const CONCURRENCY = 8;

async function timed(count: number, one: () => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        next++;
        await one();
      }
    }),
  );
  return performance.now() - started;
}

const bench: Benchmark = {
  name: 'client',
  description: `validated listings of a ${ITEMS}-item folder through ServiceClient vs a bare undici.request loop, ${CONCURRENCY} concurrent, interleaved`,
  async run() {
    const sandbox = await spawnSandbox(['--port', '0', '--seed', 'empty']);
    const token = sandbox.info.users[0]!.token;
    const baseUrl = sandbox.info.base_url;
    const { transport } = openSession({
      baseUrl,
      clientId: sandbox.info.client_id,
      clientSecret: sandbox.info.client_secret,
      tokens: { accessToken: token },
    });
    const client = new ServiceClient(transport);
    const pool = new Pool(baseUrl, { connections: CONCURRENCY });
    try {
      const ws = sandbox.info.workspace_id;
      const folder = await client.createFolder(ws, null, 'Bench');
      for (let i = 0; i < ITEMS; i++) await client.createFolder(ws, folder.id, `Item ${i}`);
      const bare = async () => {
        const res = await pool.request({
          method: 'GET',
          path: `/folders/${folder.id}`,
          headers: { authorization: `Bearer ${token}` },
        });
        const json = (await res.body.json()) as { items: unknown[] };
        if (res.statusCode !== 200 || json.items.length !== ITEMS) throw new Error('bad listing');
      };
      const typed = async () => {
        const items = await collect(client.folderContents(folder.id));
        if (items.length !== ITEMS) throw new Error('bad listing');
      };
      await timed(200, bare);
      await timed(200, typed);
      let bareMs = 0;
      let clientMs = 0;
      for (let r = 0; r < ROUNDS; r++) {
        // Alternate which goes first, so neither always runs on a warmer machine.
        if (r % 2 === 0) {
          bareMs += await timed(PER_ROUND, bare);
          clientMs += await timed(PER_ROUND, typed);
        } else {
          clientMs += await timed(PER_ROUND, typed);
          bareMs += await timed(PER_ROUND, bare);
        }
      }
      const n = ROUNDS * PER_ROUND;
      return {
        overhead_ratio: Math.round((clientMs / bareMs) * 100) / 100,
        client_ms_per_request: Math.round((clientMs / n) * 1000) / 1000,
        bare_ms_per_request: Math.round((bareMs / n) * 1000) / 1000,
        requests_each: n,
      };
    } finally {
      await pool.close();
      await sandbox.stop();
    }
  },
};

export default bench;
