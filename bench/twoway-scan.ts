// The startup scan alone, in a process of its own (its peak memory is the scan's): a full scan of
// the sync folder reconciled with the journal of an earlier run. Prints one JSON line.
import { Journal } from '../src/main/journal/journal';
import { IgnoreRules } from '../src/main/sync/detect-local/ignore';
import { hasWork, scanAndPlan } from '../src/main/sync/up/reconcile';
import { LocalRoot } from '../src/main/sync/local';

export interface ScanArgs {
  dir: string;
  journalFile: string;
  rootId: number;
}

export interface ScanLine {
  ms: number;
  entries: number;
  /** Operations the plan found: 0 for an unchanged folder. */
  work: number;
  peak_rss_mb: number;
  start_rss_mb: number;
  /** The most per-entry things the reconciler held at once (absent from older engines). */
  held?: number;
}

const args = JSON.parse(process.argv[2]!) as ScanArgs;
const startRss = process.memoryUsage().rss;
const started = performance.now();
const journal = new Journal(args.journalFile);
const local = new LocalRoot(args.dir);
const rules = IgnoreRules.load(args.dir);
const ignores = (rel: string, isDir: boolean) => rules.ignores(rel, isDir);
const { plan, seen, peakHeld } = await scanAndPlan(local, journal, [''], true, {
  rootId: args.rootId,
  missingBefore: new Set(),
  ignores,
  descend: () => true,
  writeQuietMs: 0,
});
const ms = performance.now() - started;
journal.close();
const work = hasWork(plan)
  ? plan.mkdirs.length +
    plan.fresh.files +
    plan.moves.length +
    plan.uploads.length +
    plan.deletes.length
  : 0;
const line: ScanLine = {
  ms: Math.round(ms),
  entries: seen,
  work,
  // resourceUsage().maxRSS is in kilobytes.
  peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
  start_rss_mb: Math.round(startRss / 1024 / 1024),
  held: peakHeld,
};
process.stdout.write(JSON.stringify(line) + '\n');
