import type { RemoteItem, RemoteView } from '../remote';
import type { ArchiveJob, Placement } from './plan-types';

/**
 * When a folder's subtree is worth one archive request instead of one request per file: the
 * per-request cost (a round trip, and a slot of the connection pool) dominates small files, the
 * bytes dominate big ones, and a big archive cannot resume after an interruption.
 */
export const ARCHIVE_RULES = {
  minFiles: 16,
  /** Larger subtrees are split into several archives, fetched and unpacked side by side. */
  maxFiles: 2500,
  maxAverageBytes: 256 * 1024,
  maxBytes: 256 * 1024 * 1024,
  /** Share of the subtree's files that must be needed (the rest would be fetched for nothing). */
  minNeededShare: 0.75,
};

export interface SubtreeStats {
  files: number;
  bytes: number;
  needed: number;
  /** Every folder below listed, and no two siblings with the same name (zip paths would clash). */
  clean: boolean;
}
type Stats = SubtreeStats;

/** Whether a subtree with these sums is fetched as one archive, by `rules`. */
export const worthArchive = (s: SubtreeStats, rules = ARCHIVE_RULES): boolean =>
  s.clean &&
  s.needed >= rules.minFiles &&
  s.files <= rules.maxFiles &&
  s.needed >= s.files * rules.minNeededShare &&
  s.bytes <= rules.maxBytes &&
  s.bytes <= s.files * rules.maxAverageBytes;

/**
 * Splits a full walk's downloads into folder archives and single downloads, by the rules above.
 * Only complete views qualify: a partial one does not know whole subtrees.
 */
export function chooseArchives(
  view: RemoteView,
  downloads: Placement[],
  rules = ARCHIVE_RULES,
): { archives: ArchiveJob[]; singles: Placement[] } {
  if (!view.complete || downloads.length < rules.minFiles)
    return { archives: [], singles: downloads };
  const needed = new Map(downloads.map((p) => [p.item.id, p]));
  const byParent = new Map<number, RemoteItem[]>();
  for (const item of view.items.values()) {
    let kids = byParent.get(item.parentId);
    if (!kids) byParent.set(item.parentId, (kids = []));
    kids.push(item);
  }
  const stats = new Map<number, Stats>();
  // Post-order without recursion: trees may be deep.
  const order: number[] = [];
  const stack = [view.rootId];
  while (stack.length > 0) {
    const id = stack.pop()!;
    order.push(id);
    for (const k of byParent.get(id) ?? []) if (k.kind === 'folder') stack.push(k.id);
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const id = order[i]!;
    const kids = byParent.get(id) ?? [];
    const s: Stats = { files: 0, bytes: 0, needed: 0, clean: view.listed.has(id) };
    const names = new Set<string>();
    for (const k of kids) {
      if (names.has(k.name)) s.clean = false;
      names.add(k.name);
      if (k.kind === 'file') {
        s.files++;
        s.bytes += k.size;
        if (needed.has(k.id)) s.needed++;
      } else {
        const ks = stats.get(k.id)!;
        s.files += ks.files;
        s.bytes += ks.bytes;
        s.needed += ks.needed;
        s.clean &&= ks.clean;
      }
    }
    stats.set(id, s);
  }
  const worth = (s: Stats) => worthArchive(s, rules);

  const archives: ArchiveJob[] = [];
  const covered = new Set<number>();
  const collect = (folderId: number, prefix: string, job: ArchiveJob) => {
    for (const k of byParent.get(folderId) ?? []) {
      const rel = prefix + k.name;
      if (k.kind === 'folder') collect(k.id, rel + '/', job);
      else {
        const p = needed.get(k.id);
        if (p) {
          job.files.set(rel, p);
          covered.add(k.id);
        }
      }
    }
  };
  const descend = [view.rootId];
  while (descend.length > 0) {
    const id = descend.pop()!;
    const s = stats.get(id)!;
    if (worth(s)) {
      const job: ArchiveJob = { folderId: id, files: new Map(), bytes: s.bytes, entries: s.files };
      collect(id, '', job);
      archives.push(job);
      continue;
    }
    for (const k of byParent.get(id) ?? []) if (k.kind === 'folder') descend.push(k.id);
  }
  return { archives, singles: downloads.filter((p) => !covered.has(p.item.id)) };
}
