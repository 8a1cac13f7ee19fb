import type { ChildProcess } from 'node:child_process';
import { lstatSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { ServiceClient, type FolderEntry } from '../src/main/api/client';
import { openSession } from '../src/main/api/oauth';
import { DEFAULT_WRITE_QUIET_MS } from '../src/main/sync/loop/engine';
import { openSync, type OpenSync } from '../src/main/sync/loop/open';
import { exitOf, spawnSandbox, type SandboxProcess } from '../src/service/child';
import { median, runJsonChild, sandboxStats, type Benchmark, type Figures } from './lib';
import type { ScanArgs, ScanLine } from './twoway-scan';
import { buildScanTree, bundleScanChild } from './twoway-tree';

// The way back: how soon a local change (mkdir, rename, an editor's save) is visible through the
// API while the engine runs continuously; the API calls of moving a folder with 1,000
// descendants; and the startup scan of 100,000 unchanged entries against the journal of an
// earlier run (in a child process: its memory measured alone). The sandbox runs in a process of
// its own; everything lives in one temporary directory, removed at the end, failure or not.

const CHANGES_PER_KIND = 30;
/** How often the API is asked whether a change has arrived. */
const PROBE_EVERY_MS = 2;
const LAND_TIMEOUT_MS = 10_000;
const MOVE_FOLDERS = 100;
const MOVE_FILES_PER_FOLDER = 9;

const isMutation = (route: string) => !route.startsWith('GET ');

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}

/** Polls `probe` until it holds; resolves with the milliseconds since `since`. */
async function until(since: number, what: string, probe: () => Promise<boolean>): Promise<number> {
  for (;;) {
    if (await probe()) return performance.now() - since;
    if (performance.now() - since > LAND_TIMEOUT_MS) {
      throw new Error(`${what} was not visible through the API within ${LAND_TIMEOUT_MS} ms`);
    }
    await sleep(PROBE_EVERY_MS);
  }
}

async function listing(client: ServiceClient, folderId: number): Promise<FolderEntry[]> {
  const out: FolderEntry[] = [];
  for await (const entry of client.folderContents(folderId)) out.push(entry);
  return out;
}

const named = (entries: FolderEntry[], name: string) =>
  entries.find((e) => (e.kind === 'folder' ? e.folder.filename : e.file.filename) === name);

const bench: Benchmark = {
  name: 'twoway',
  description:
    `local change → visible through the API in continuous mode (${CHANGES_PER_KIND} each of ` +
    `mkdir, rename, editor save), API calls of moving a folder with 1,000 descendants, startup ` +
    `scan of 100,000 unchanged entries (child process)`,
  async run() {
    const base = await mkdtemp(path.join(tmpdir(), 'workspace-twoway-bench-'));
    const live = new Set<ChildProcess>();
    let sandbox: SandboxProcess | undefined;
    let hooks: Pool | undefined;
    let pair: OpenSync | undefined;
    const abort = new AbortController();
    let running: Promise<void> | undefined;
    const figures: Figures = {};
    try {
      // Phase 1: the startup scan, first, on a quiet machine.
      const t = performance.now();
      const scanDir = path.join(base, 'scan');
      const journalFile = path.join(base, 'scan-journal.db');
      const built = buildScanTree(scanDir, journalFile);
      const buildMs = performance.now() - t;
      const script = await bundleScanChild();
      const scans: ScanLine[] = [];
      for (let i = 0; i < 3; i++) {
        scans.push(
          await runJsonChild<ScanLine>(
            'the scan child',
            [
              script,
              JSON.stringify({
                dir: scanDir,
                journalFile,
                rootId: built.rootId,
              } satisfies ScanArgs),
            ],
            live,
          ),
        );
      }
      for (const s of scans) {
        if (s.entries !== built.entries || s.work !== 0) {
          throw new Error(
            `the scan saw ${s.entries} entries (expected ${built.entries}) and planned ${s.work} operations (expected 0)`,
          );
        }
      }
      Object.assign(figures, {
        scan_100k_ms: Math.round(median(scans.map((s) => s.ms))),
        scan_100k_peak_rss_mb: Math.max(...scans.map((s) => s.peak_rss_mb)),
        scan_100k_runs_ms: scans.map((s) => s.ms).join(' / '),
        scan_100k_start_rss_mb: scans[0]!.start_rss_mb,
        scan_entries: built.entries,
        scan_build_s: Math.round(buildMs / 100) / 10,
      });

      // Phase 2: the engine running continuously against a sandbox in its own process.
      sandbox = await spawnSandbox(['--seed', 'empty']);
      const info = sandbox.info;
      const owner = info.users[0]!;
      hooks = new Pool(info.base_url, { connections: 1 });
      const { reset: resetStats, read: readStats } = sandboxStats(hooks);
      const clientOf = () =>
        new ServiceClient(
          openSession({
            baseUrl: info.base_url,
            clientId: info.client_id,
            clientSecret: info.client_secret,
            tokens: { accessToken: owner.token },
          }).transport,
        );
      const api = clientOf();
      const rootId = (await api.rootFolder(info.workspace_id)).id;
      const dir = path.join(base, 'sync');
      pair = await openSync({
        client: clientOf(),
        server: info.base_url,
        user: owner.email,
        workspaceId: info.workspace_id,
        dir,
        stateDir: path.join(base, 'state'),
        pollIntervalMs: 1000,
      });
      const engine = pair.engine;
      let fatal: unknown = null;
      const idle = () =>
        new Promise<void>((resolve, reject) => {
          const check = () => {
            if (fatal) reject(fatal instanceof Error ? fatal : new Error(String(fatal)));
            const s = engine.status();
            if (s.state !== 'idle') return false;
            engine.off('status', check);
            resolve();
            return true;
          };
          engine.on('status', check);
          check();
        });
      const firstIdle = idle();
      running = engine.run(abort.signal).catch((err: unknown) => {
        fatal = err;
      });
      await firstIdle;

      // Local change → visible through the API.
      const latency: Record<'mkdir' | 'rename' | 'save', number[]> = {
        mkdir: [],
        rename: [],
        save: [],
      };
      const work = (await api.createFolder(info.workspace_id, rootId, 'Work')).id;
      await until(performance.now(), 'Work', async () => {
        try {
          return lstatSync(path.join(dir, 'Work')).isDirectory();
        } catch {
          return false;
        }
      });
      await idle();
      for (let i = 0; i < CHANGES_PER_KIND; i++) {
        const name = `Folder ${i}`;
        let since = performance.now();
        mkdirSync(path.join(dir, 'Work', name));
        latency.mkdir.push(
          await until(since, `mkdir ${name}`, async () => !!named(await listing(api, work), name)),
        );
        await idle();

        const renamed = `Renamed ${i}`;
        since = performance.now();
        renameSync(path.join(dir, 'Work', name), path.join(dir, 'Work', renamed));
        latency.rename.push(
          await until(
            since,
            `rename to ${renamed}`,
            async () => !!named(await listing(api, work), renamed),
          ),
        );
        await idle();
      }
      writeFileSync(path.join(dir, 'Work', 'draft.txt'), 'v0');
      await until(
        performance.now(),
        'draft.txt',
        async () => !!named(await listing(api, work), 'draft.txt'),
      );
      await idle();
      for (let i = 1; i <= CHANGES_PER_KIND; i++) {
        // An editor's save: a temporary file renamed over the original. Each version is one
        // byte longer, so that its arrival shows in the listing.
        const content = 'x'.repeat(i + 2);
        const since = performance.now();
        writeFileSync(path.join(dir, 'Work', '.draft.txt.swp'), content);
        renameSync(path.join(dir, 'Work', '.draft.txt.swp'), path.join(dir, 'Work', 'draft.txt'));
        latency.save.push(
          await until(since, `save ${i}`, async () => {
            const e = named(await listing(api, work), 'draft.txt');
            return e?.kind === 'file' && e.file.size === content.length;
          }),
        );
        await idle();
      }
      const folders = [...latency.mkdir, ...latency.rename];
      const all = [...folders, ...latency.save];
      const ms = (x: number) => Math.round(x);
      Object.assign(figures, {
        local_to_remote_p50_ms: ms(median(all)),
        local_to_remote_p95_ms: ms(percentile(all, 0.95)),
        local_to_remote_folders_p50_ms: ms(median(folders)),
        local_to_remote_folders_p95_ms: ms(percentile(folders, 0.95)),
        mkdir_p50_ms: ms(median(latency.mkdir)),
        rename_p50_ms: ms(median(latency.rename)),
        save_p50_ms: ms(median(latency.save)),
        save_p95_ms: ms(percentile(latency.save, 0.95)),
        save_settle_ms: DEFAULT_WRITE_QUIET_MS,
        probe_every_ms: PROBE_EVERY_MS,
      });

      // A folder with 1,000 descendants, moved into another folder.
      const journalBefore = pair.journal.items.count();
      const big = path.join(dir, 'Big');
      for (let f = 0; f < MOVE_FOLDERS; f++) {
        mkdirSync(path.join(big, `Folder ${f}`), { recursive: true });
        for (let i = 0; i < MOVE_FILES_PER_FOLDER; i++) {
          writeFileSync(path.join(big, `Folder ${f}`, `file ${i}.txt`), `${f}/${i}`);
        }
      }
      const descendants = MOVE_FOLDERS * (MOVE_FILES_PER_FOLDER + 1);
      // Everything recorded (and so on the service), then quiet.
      await until(performance.now(), 'the 1,000 items of Big', async () => {
        return pair!.journal.items.count() >= journalBefore + descendants + 1;
      });
      await idle();
      await resetStats();
      const since = performance.now();
      renameSync(big, path.join(dir, 'Work', 'Big'));
      const moveMs = await until(
        since,
        'the move of Big',
        async () => !!named(await listing(api, work), 'Big'),
      );
      await idle();
      const stats = await readStats();
      const mutations = Object.entries(stats.requests).filter(([route]) => isMutation(route));
      Object.assign(figures, {
        move_1k_calls: mutations.reduce((n, [, c]) => n + c, 0),
        move_1k_descendants: descendants,
        move_1k_routes: mutations.map(([r, c]) => `${r} ${c}`).join(', '),
        move_1k_ms: ms(moveMs),
      });
      abort.abort();
      await running;
      if (fatal) throw fatal;
      return figures;
    } finally {
      abort.abort();
      await running;
      await pair?.close().catch(() => {});
      for (const child of live) {
        child.kill('SIGKILL');
        await exitOf(child);
      }
      await hooks?.close().catch(() => {});
      await sandbox?.stop();
      await rm(base, { recursive: true, force: true });
    }
  },
};

export default bench;
