// Planning a full walk from the journal's staging tables (detect-remote/walk.ts) a chunk of
// folders at a time, in the order they were listed (parents before children): the same
// decisions as plan.ts (planItems) for a whole tree at once, holding one chunk's items.
import type { Journal, JournalItem } from '../../journal/journal';
import type { RemoteItem, ViewSource, Walk } from '../remote';
import { ARCHIVE_RULES, worthArchive } from './choose-archives';
import { planItems, unlistedPrefixes } from './plan';
import type { ArchiveJob, LazyArchive, Placement, PlanOptions, StructureOp } from './plan-types';

/** Items planned at once, at most. */
export const CHUNK_ITEMS = 2_000;

/** The walk's staging tables as the planner reads them. */
export function stagedSource(journal: Journal, walk: Walk): ViewSource {
  const unlisted = unlistedPrefixes(walk.unlisted, journal);
  return {
    rootId: walk.rootId,
    complete: true,
    item: (id) => journal.walk.item(id),
    childrenOf: (parentId) => journal.walk.children(parentId),
    listed: (id) => journal.walk.isListed(id),
    // Not listed, and not below a folder left unlisted: gone.
    gone: (id) => {
      if (journal.walk.item(id) || walk.unlisted.has(id)) return false;
      const path = journal.items.get(id)?.localPath;
      return path === undefined || !unlisted.some((p) => path.startsWith(p));
    },
  };
}

/** The synced items the walk did not find (topmost only), leaving out what is below an unlisted folder. */
export function walkGone(journal: Journal, walk: Walk): JournalItem[] {
  const unlisted = unlistedPrefixes(walk.unlisted, journal);
  const gone: JournalItem[] = [];
  for (const j of journal.walk.goneTop(walk.rootId)) {
    // An excluded folder is not listed in its parent's staged listing (walk.ts): not gone.
    if (walk.unlisted.has(j.remoteId)) continue;
    if (!unlisted.some((p) => j.localPath.startsWith(p))) gone.push(j);
  }
  return gone;
}

/**
 * The listed folders' children in chunks of at most `size` items, in the order the folders
 * were listed. A folder's children may be split across chunks (it is named in the first):
 * /usr/share/man/man1 alone holds 17,887 files. Each chunk is read when the previous one is
 * done with (no cursor stays open meanwhile).
 */
export function* walkChunks(
  journal: Journal,
  size = CHUNK_ITEMS,
): Generator<{ folders: number[]; items: RemoteItem[] }> {
  let after = 0;
  let folders: number[] = [];
  let items: RemoteItem[] = [];
  for (;;) {
    const page = journal.walk.foldersAfter(after, 256);
    if (page.length === 0) break;
    for (const f of page) {
      after = f.seq;
      folders.push(f.id);
      for (let afterId = 0; ;) {
        const room = size - items.length;
        const kids = journal.walk.childrenAfter(f.id, afterId, room);
        for (const c of kids) items.push(c);
        if (items.length >= size) {
          yield { folders, items };
          folders = [];
          items = [];
        }
        if (kids.length < room) break;
        afterId = kids[kids.length - 1]!.id;
      }
    }
  }
  if (folders.length > 0 || items.length > 0) yield { folders, items };
}

/** The folders whose subtrees come as one archive each, and every folder inside one. */
export interface WalkArchives {
  roots: Set<number>;
  /** Folders inside an archive's subtree (its root too): their files come with it. */
  covered: Set<number>;
}

interface Stats {
  parent: number | null;
  files: number;
  bytes: number;
  needed: number;
  clean: boolean;
}

/**
 * Which subtrees are worth an archive (choose-archives.ts's rules), from per-folder sums in SQL
 * and one record per folder (not per item): a full walk's folders, children before parents.
 */
export function chooseWalkArchives(
  journal: Journal,
  walk: Walk,
  retryNotPermitted: boolean,
  rules = ARCHIVE_RULES,
): WalkArchives {
  // Where placeholders may be, files come one by one: an archive holds a folder's every file.
  if (journal.onDemand.active()) return { roots: new Set(), covered: new Set() };
  const stats = new Map<number, Stats>();
  for (const f of journal.walk.folderTree()) {
    stats.set(f.id, {
      parent: f.parent,
      files: 0,
      bytes: 0,
      needed: 0,
      clean: f.listed === 1 && !walk.unlisted.has(f.id),
    });
  }
  let needed = 0;
  for (const s of journal.walk.fileStats(retryNotPermitted)) {
    const st = stats.get(s.folder);
    if (!st) continue;
    st.files += s.files;
    st.bytes += s.bytes;
    st.needed += s.needed;
    needed += s.needed;
  }
  for (const id of journal.walk.twins()) {
    const st = stats.get(id);
    if (st) st.clean = false;
  }
  const none = { roots: new Set<number>(), covered: new Set<number>() };
  if (needed < rules.minFiles) return none;
  // Children before parents: each adds its sums to its parent's.
  for (const [, st] of stats) {
    const up = st.parent === null ? undefined : stats.get(st.parent);
    if (!up) continue;
    up.files += st.files;
    up.bytes += st.bytes;
    up.needed += st.needed;
    up.clean &&= st.clean;
  }
  const worth = (s: Stats) => worthArchive(s, rules);
  // Parents before children (the reverse order): the topmost worthy folder takes its subtree.
  const order = [...stats.keys()].reverse();
  for (const id of order) {
    const st = stats.get(id)!;
    if (st.parent !== null && none.covered.has(st.parent)) none.covered.add(id);
    else if (worth(st)) {
      none.roots.add(id);
      none.covered.add(id);
    }
  }
  return none;
}

/**
 * One chunk's plan: its structure, and its content (archives whose roots are in the chunk, each
 * planned only when the executor takes it: a chunk of 2,000 listed items may hold the roots of
 * subtrees with tens of thousands of files).
 */
export function planChunk(
  source: ViewSource,
  chunk: { folders: number[]; items: RemoteItem[] },
  journal: Journal,
  opts: PlanOptions,
  archives: WalkArchives,
): {
  structure: StructureOp[];
  downloads: Placement[];
  archives: LazyArchive[];
  refused: Placement[];
  placeholders: Placement[];
} {
  // Files below an archive's root are planned with it, by the chunk that holds its root.
  const loose = chunk.items.filter(
    (item) => item.kind === 'folder' || !archives.covered.has(item.parentId),
  );
  const { structure, downloads, placeholders } = planItems(source, loose, journal, opts);
  const roots: number[] = [];
  if (chunk.folders.includes(source.rootId) && archives.roots.has(source.rootId)) {
    roots.push(source.rootId);
  }
  for (const item of chunk.items) {
    if (item.kind === 'folder' && archives.roots.has(item.id)) roots.push(item.id);
  }
  if (!opts.mayDownload) {
    for (const id of roots) archiveJob(source, id, journal, opts, downloads);
    return { structure, downloads: [], archives: [], refused: downloads, placeholders };
  }
  const lazy = roots.map((id) => () => {
    const job = archiveJob(source, id, journal, opts, downloads);
    return job.files.size > 0 ? job : null;
  });
  return { structure, downloads, archives: lazy, refused: [], placeholders };
}

/**
 * A folder's subtree as one archive: its files planned (zip paths are service names), and what
 * the zip holds in all. A file the plan does not need is left out of it; an archive of no file
 * is dropped. Without download rights its files are `refused`, added to `downloads`.
 */
function archiveJob(
  source: ViewSource,
  folderId: number,
  journal: Journal,
  opts: PlanOptions,
  refusedOut: Placement[],
): ArchiveJob {
  const job: ArchiveJob = { folderId, files: new Map(), bytes: 0, entries: 0 };
  const files: { rel: string; item: RemoteItem }[] = [];
  const stack: { id: number; prefix: string }[] = [{ id: folderId, prefix: '' }];
  while (stack.length > 0) {
    const { id, prefix } = stack.pop()!;
    for (const k of source.childrenOf(id)) {
      const rel = prefix + k.name;
      if (k.kind === 'folder') stack.push({ id: k.id, prefix: rel + '/' });
      else {
        files.push({ rel, item: k });
        job.bytes += k.size;
        job.entries!++;
      }
    }
  }
  const { downloads } = planItems(
    source,
    files.map((f) => f.item),
    journal,
    opts,
  );
  const byId = new Map(downloads.map((p) => [p.item.id, p]));
  if (!opts.mayDownload) {
    refusedOut.push(...downloads);
    return job;
  }
  for (const f of files) {
    const p = byId.get(f.item.id);
    if (p) job.files.set(f.rel, p);
  }
  return job;
}
