// Freeing files not opened for N days when the disk is nearly full (docs/SYNC.md, Files on
// demand): the pair's setting `free_unused_days`, off by default. Run at the end of a round
// that left nothing to do (the service's versions are as recorded, nothing waits to be sent).
import { readFileSync, statfsSync } from 'node:fs';
import type { SyncSummary } from '../../../shared/sync-status';
import { arrivesOnline, type JournalItem } from '../../journal/journal';
import type { EngineState } from './engine-state';
import type { DiskSpace } from '../ports';
import { freeFiles, type FreeContext } from './free-files';

const DAY_MS = 24 * 60 * 60 * 1000;
const GIB = 1024 ** 3;

export type { DiskSpace };

export const systemDisk: DiskSpace = {
  space(dir) {
    const s = statfsSync(dir);
    return { available: s.bavail * s.bsize, total: s.blocks * s.bsize };
  },
  recordsAccess(dir) {
    // The mount that holds `dir`: the longest mount point above it in /proc/self/mountinfo.
    let best: { at: string; options: string[] } | null = null;
    try {
      for (const line of readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) {
        const f = line.split(' ');
        const at = f[4]?.replace(/\\040/g, ' ');
        if (!at || !(dir === at || dir.startsWith(at.endsWith('/') ? at : at + '/'))) continue;
        if (!best || at.length > best.at.length) best = { at, options: (f[5] ?? '').split(',') };
      }
    } catch {
      return false; // Not Linux: the time we downloaded it is what we know.
    }
    return best !== null && !best.options.includes('noatime');
  },
};

/**
 * The disk is nearly full below this: 5% of its size or 2 GiB, whichever is smaller (a small
 * disk keeps a share, a large one does not hold back hundreds of gigabytes).
 */
export const lowSpaceMark = (total: number): number => Math.min(total * 0.05, 2 * GIB);

export interface AutoFreeContext extends FreeContext {
  now: () => number;
  disk: DiskSpace;
}

/**
 * While the disk is below the mark, frees the files not opened for the pair's N days, oldest
 * last opened first, until it is above again or nothing more may be freed. Never a pinned file,
 * one changed here or with something waiting to be sent, nor one whose bytes read now are not
 * the synced version's (free-files.ts, `release`). Says how many were freed, and whether the
 * disk is still below the mark.
 */
export async function freeUnused(
  ctx: AutoFreeContext,
): Promise<{ freed: number; stillLow: boolean }> {
  const days = ctx.journal.onDemand.freeUnusedDays();
  if (days === null) return { freed: 0, stillLow: false };
  const root = ctx.local.root;
  const first = ctx.disk.space(root);
  let available = first.available;
  const mark = lowSpaceMark(first.total);
  if (available >= mark) return { freed: 0, stillLow: false };
  const queue = unused(ctx, days);
  ctx.log.info('the disk is nearly full: freeing files not opened lately', {
    available,
    mark,
    days,
    candidates: queue.length,
  });
  let freed = 0;
  while (available < mark && queue.length > 0) {
    // As many of the oldest as should bring it above the mark, then the disk is asked again.
    const take: JournalItem[] = [];
    for (let gain = 0; queue.length > 0 && available + gain < mark;) {
      const next = queue.shift()!;
      take.push(next.j);
      gain += next.size;
    }
    const out = await freeFiles({ ...ctx, release: true }, take);
    freed += out.freed.length;
    if (out.error !== undefined) {
      // One file that could not be freed stops no sync; it stays whole, and is tried again later.
      ctx.log.warn('a file could not be freed', { path: out.failed[0], error: String(out.error) });
    }
    ({ available } = ctx.disk.space(root));
  }
  return { freed, stillLow: available < mark };
}

/** Below the mark with nothing more to free: the files are looked at again this much later. */
const LOOK_AGAIN_MS = 10 * 60_000;
/** When each engine may look at its files again (a walk of every record and its file). */
const lookAgainAt = new WeakMap<EngineState, number>();

/** A round left nothing to do: files not opened lately are freed if the disk is nearly full. */
export async function freeIfDiskFull(s: EngineState, summary: SyncSummary): Promise<void> {
  const { ctx } = s.passes!;
  // A nearly full disk with nothing to free would otherwise be walked again at every poll.
  if (ctx.now() < (lookAgainAt.get(s) ?? -Infinity)) return;
  const out = await freeUnused({
    journal: s.opts.journal,
    local: ctx.local,
    trash: s.opts.trash,
    log: s.log,
    now: ctx.now,
    disk: s.opts.disk ?? systemDisk,
  });
  if (out.stillLow) lookAgainAt.set(s, ctx.now() + LOOK_AGAIN_MS);
  else lookAgainAt.delete(s);
  if (out.freed > 0) summary.freed = (summary.freed ?? 0) + out.freed;
}

/** The synced files not opened for `days`, pins left out, oldest last opened first. */
function unused(ctx: AutoFreeContext, days: number): { j: JournalItem; size: number }[] {
  const { journal, local } = ctx;
  const pins = journal.onDemand.pins();
  const access = ctx.disk.recordsAccess(local.real);
  const before = ctx.now() - days * DAY_MS;
  const out: { j: JournalItem; size: number; at: number }[] = [];
  for (const j of journal.items.all()) {
    if (j.kind !== 'file' || j.state !== 'synced') continue;
    if (!arrivesOnline('online', pins, j.localPath)) continue; // pinned
    const st = local.stat(j.localPath);
    if (!st?.isFile()) continue;
    const fetched = journal.onDemand.fetchedAt(j.remoteId);
    // Last opened: its access time where the mount records it (a download counts as one),
    // else when it came down, else (uploaded from here) its access time all the same.
    const at = access ? Math.max(st.atimeMs, fetched ?? 0) : (fetched ?? st.atimeMs);
    if (at <= before) out.push({ j, size: st.blocks * 512 || st.size, at });
  }
  return out.sort((a, b) => a.at - b.at || a.j.localPath.localeCompare(b.j.localPath));
}
