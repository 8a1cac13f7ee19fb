import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { median, runJsonChild, type Benchmark } from './lib';
import type { ScanArgs, ScanLine } from './twoway-scan';
import { bundleScanChild, keptScanTree } from './twoway-tree';

// A restart's startup scan of a million unchanged entries (100,000 folders of 9 files) against
// the journal an earlier run left, written directly (syncing a million files up would take an
// hour here): its time and its peak memory, in a child process of its own. The tree takes about
// a minute to write: with WS_BENCH_TREE=DIR it is kept in DIR and used again by the next run.

const FOLDERS = 100_000;
const RUNS = 3;

const bench: Benchmark = {
  name: 'twoway-million',
  description: 'startup scan of 1,000,000 unchanged entries (100,000 folders), child process',
  async run() {
    const kept = process.env.WS_BENCH_TREE;
    const dir = kept ?? (await mkdtemp(path.join(tmpdir(), 'workspace-million-bench-')));
    const live = new Set<ChildProcess>();
    try {
      const t = performance.now();
      const built = keptScanTree(dir, FOLDERS);
      const buildMs = performance.now() - t;
      // WS_BENCH_SCAN_CHILD: another bundle of the child (an older engine's, to compare).
      const script = process.env.WS_BENCH_SCAN_CHILD ?? (await bundleScanChild());
      const args: ScanArgs = { dir: built.tree, journalFile: built.journalFile, rootId: 1 };
      const scans: ScanLine[] = [];
      for (let i = 0; i < RUNS; i++) {
        scans.push(
          await runJsonChild<ScanLine>('the scan child', [script, JSON.stringify(args)], live),
        );
      }
      for (const s of scans) {
        if (s.entries !== built.entries || s.work !== 0) {
          throw new Error(
            `the scan saw ${s.entries} entries (expected ${built.entries}) and planned ${s.work} operations (expected 0)`,
          );
        }
      }
      return {
        scan_1m_ms: Math.round(median(scans.map((s) => s.ms))),
        scan_1m_peak_rss_mb: Math.max(...scans.map((s) => s.peak_rss_mb)),
        scan_1m_runs_ms: scans.map((s) => s.ms).join(' / '),
        scan_1m_runs_peak_rss_mb: scans.map((s) => s.peak_rss_mb).join(' / '),
        scan_1m_start_rss_mb: scans[0]!.start_rss_mb,
        scan_1m_held: Math.max(...scans.map((s) => s.held ?? -1)),
        scan_entries: built.entries,
        tree_build_s: Math.round(buildMs / 100) / 10,
      };
    } finally {
      for (const child of live) child.kill('SIGKILL');
      if (!kept) await rm(dir, { recursive: true, force: true });
    }
  },
};

export default bench;
