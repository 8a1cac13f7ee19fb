import { spawnSandbox } from '../src/service/child';
import { Pool } from 'undici';
import { median, type Benchmark } from './lib';

// Folder listings through the sandbox over real HTTP. The sandbox runs in a child process so
// that the client and the server each have their own core, as with the app and a real service.

const WARM_UP = 500;
const COUNT = 5000;
const CONCURRENCY = 8;
const SUBFOLDERS = 100;

const bench: Benchmark = {
  name: 'sandbox',
  description: `GET /folders/:id of a folder with ${SUBFOLDERS} subfolders, ${CONCURRENCY} concurrent keep-alive connections, sandbox in a child process`,
  async run() {
    const sandbox = await spawnSandbox(
      ['--port', '0', '--seed', 'empty'],
      process.env.BENCH_PROF ? ['--cpu-prof', '--cpu-prof-dir=bench-results/cpuprof'] : [],
    );
    const s = {
      baseUrl: sandbox.info.base_url,
      workspaceId: sandbox.info.workspace_id,
      token: sandbox.info.users.find((u) => u.role === 'Administrator')!.token,
    };
    const pool = new Pool(s.baseUrl, { connections: CONCURRENCY });
    try {
      const headers = {
        authorization: `Bearer ${s.token}`,
        'content-type': 'application/json',
      };
      const call = async (method: 'GET' | 'POST', p: string, json?: unknown) => {
        const res = await pool.request({
          method,
          path: p,
          headers,
          body: json === undefined ? undefined : JSON.stringify(json),
        });
        const text = await res.body.text();
        if (res.statusCode >= 300) throw new Error(`${method} ${p}: ${res.statusCode} ${text}`);
        return JSON.parse(text) as Record<string, unknown>;
      };

      const root = (await call('GET', `/workspaces/${s.workspaceId}/folders`)) as {
        items: { folder: { id: number } }[];
      };
      const rootId = root.items[0]!.folder.id;
      const parent = (await call('POST', `/workspaces/${s.workspaceId}/folders/${rootId}/folders`, {
        filename: 'Bench',
      })) as { folder: { id: number } };
      const folderId = parent.folder.id;
      for (let i = 0; i < SUBFOLDERS; i += CONCURRENCY) {
        await Promise.all(
          Array.from({ length: Math.min(CONCURRENCY, SUBFOLDERS - i) }, (_, k) =>
            call('POST', `/workspaces/${s.workspaceId}/folders/${folderId}/folders`, {
              filename: `Subfolder ${String(i + k).padStart(3, '0')}`,
            }),
          ),
        );
      }
      const check = (await call('GET', `/folders/${folderId}`)) as {
        total_entries: number;
        items: unknown[];
      };
      if (check.total_entries !== SUBFOLDERS) {
        throw new Error(`expected ${SUBFOLDERS} items, the listing has ${check.total_entries}`);
      }

      const latencies: number[] = [];
      const runListings = async (count: number, record: boolean) => {
        let next = 0;
        const worker = async () => {
          while (next < count) {
            next++;
            const t0 = performance.now();
            const res = await pool.request({
              method: 'GET',
              path: `/folders/${folderId}`,
              headers,
            });
            await res.body.text();
            if (res.statusCode !== 200) throw new Error(`listing: ${res.statusCode}`);
            if (record) latencies.push(performance.now() - t0);
          }
        };
        await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      };

      await runListings(WARM_UP, false);
      const started = performance.now();
      await runListings(COUNT, true);
      const elapsed = performance.now() - started;
      latencies.sort((a, b) => a - b);
      return {
        listings_per_s: Math.round((COUNT / elapsed) * 1000),
        items_per_listing: check.items.length,
        p50_ms: Math.round(median(latencies) * 100) / 100,
        p99_ms: Math.round(latencies[Math.floor(latencies.length * 0.99)]! * 100) / 100,
      };
    } finally {
      await pool.close();
      await sandbox.stop();
    }
  },
};

export default bench;
