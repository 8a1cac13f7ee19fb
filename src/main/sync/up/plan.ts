import type { JournalItem } from '../../journal/journal';
import type { LocalEntry, LocalScan } from '../detect-local/scan';
import { serviceKey } from '../names';
import { parentOf } from '../paths';
import { isProvisional } from './provisional';
import type { FreshFiles, LocalOp, LocalPlan } from './reconcile';

// The up side's plan: what the local reconciliation found (reconcile.ts), turned into the jobs
// the sender carries out, decided before anything is sent. Sending never plans again.

export type MkdirOp = Extract<LocalOp, { type: 'mkdir' }>;
export type MoveOp = Extract<LocalOp, { type: 'move' }>;
export type UploadOp = Extract<LocalOp, { type: 'upload' }>;
export type DeleteOp = Extract<LocalOp, { type: 'delete' }>;
export type RelinkOp = Extract<LocalOp, { type: 'relink' }>;

/**
 * A moved item on a server that cannot move (conventions.md: the move extension is optional):
 * its copy is made at the new place (the plan's mkdirs and uploads, at `parts`), then the old
 * place is deleted on the service, only if all of the copy was made and nothing changed there.
 */
export interface RetireOp {
  type: 'retire';
  item: JournalItem;
  /** The new place, and every path of the copy (the new place first). */
  path: string;
  parts: string[];
}

export interface UpPlan {
  relinks: RelinkOp[];
  /** New files, listed again folder by folder when they are sent (up/fresh.ts). */
  fresh: FreshFiles;
  /** New folders, parents first (the copies' too). */
  mkdirs: MkdirOp[];
  /** Moves and renames, each after the move of the item that holds its new name (if any). */
  moves: MoveOp[];
  /**
   * One move of each cycle of renames (a swap, a rotation): its item steps aside under a
   * temporary name before the moves, so that the others can take their names; its own move
   * (in `moves`, after theirs) then gives it its final name.
   */
  asides: MoveOp[];
  uploads: UploadOp[];
  /** Old places of copied items, retired once their copy is made. */
  retires: RetireOp[];
  /** Deletes of items whose place a new item takes (a folder replaced by a file): sent first. */
  replaced: DeleteOp[];
  deletes: DeleteOp[];
}

export interface UpPlanOptions {
  /** False once the server was found to have no move extension (null: not known yet). */
  movesSupported: boolean | null;
  rootId: number;
  /** The synced folder at a local path, as the journal has it (undefined: none). */
  folderAt: (path: string) => JournalItem | undefined;
  /** Whether the item is online only, or a folder holding one (files on demand). */
  holdsOnline?: (j: JournalItem) => boolean;
}

/**
 * The jobs for a local plan. A move into another folder on a server without moves becomes a copy
 * (folder creations and uploads of what the scan found there) and a retire of the old place.
 */
export function planUp(plan: LocalPlan, scan: LocalScan, opts: UpPlanOptions): UpPlan {
  const mkdirs = [...plan.mkdirs];
  const uploads = [...plan.uploads];
  const moves: MoveOp[] = [];
  const retires: RetireOp[] = [];
  if (opts.movesSupported === false) {
    // Where each moved folder goes: its children's parent is then that item.
    const movedTo = new Map(plan.moves.map((m) => [m.entry.path, m.item.remoteId]));
    const parentIdAt = (path: string): number | undefined =>
      path === '' ? opts.rootId : (movedTo.get(path) ?? opts.folderAt(path)?.remoteId);
    const crossing = plan.moves.filter(
      (m) => parentIdAt(parentOf(m.entry.path)) !== m.item.remoteParentId,
    );
    // A placeholder has no content to copy, and a copy of a folder holding one would retire
    // the file's only content there: such a move waits for a server that moves (docs/SYNC.md).
    const copies = crossing.filter((m) => !opts.holdsOnline?.(m.item));
    // A copied folder's contents go with it: a rename inside it is part of the copy.
    const inCopy = (p: string) => copies.some((c) => p.startsWith(c.entry.path + '/'));
    moves.push(...plan.moves.filter((m) => !crossing.includes(m) && !inCopy(m.entry.path)));
    const copyJobs = new Map<string, MkdirOp | UploadOp>();
    for (const c of copies) {
      const inside = [...scan.entries.values()]
        .filter((e) => e.path.startsWith(c.entry.path + '/'))
        .sort((a, b) => depth(a) - depth(b));
      const parts: LocalEntry[] = [c.entry, ...inside];
      for (const e of parts) {
        copyJobs.set(
          e.path,
          e.kind === 'folder'
            ? { type: 'mkdir', entry: e }
            : { type: 'upload', entry: e, item: null },
        );
      }
      retires.push({
        type: 'retire',
        item: c.item,
        path: c.entry.path,
        parts: parts.map((e) => e.path),
      });
    }
    // What the plan had below a copy (a new file, a new version) goes up as part of the copy.
    const mine = (op: { entry: LocalEntry }) => !copyJobs.has(op.entry.path);
    const own = [...copyJobs.values()];
    mkdirs.splice(0, mkdirs.length, ...mkdirs.filter(mine), ...own.filter(isMkdir));
    uploads.splice(0, uploads.length, ...uploads.filter(mine), ...own.filter(isUpload));
  } else {
    moves.push(...plan.moves);
  }
  // A folder replaced here by a file of its name (or the reverse): the old one is deleted
  // first, or the new one's record would take its place in the journal before it is sent. So
  // is an item whose name a move takes (`mv current.log old.log; mv new.log current.log`: the
  // first is a new version of old.log, the item that was current.log is gone, and new.log's
  // rename needs its name), or the service would refuse the name.
  const made = new Set([
    ...mkdirs.map((m) => m.entry.path),
    ...uploads.filter((u) => !u.item).map((u) => u.entry.path),
    ...moves.map((m) => serviceKey(m.entry.path)),
  ]);
  const replaced = plan.deletes.filter(
    (d) => made.has(d.item.localPath) || made.has(serviceKey(d.item.localPath)),
  );
  const ordered = orderMoves(moves);
  return {
    relinks: plan.relinks,
    fresh: plan.fresh,
    mkdirs,
    moves: ordered.moves,
    asides: ordered.asides,
    uploads,
    retires,
    replaced,
    deletes: plan.deletes.filter((d) => !replaced.includes(d)),
  };
}

/**
 * The moves in an order the service can take them: a move whose new name another moving item
 * holds (`mv b c; mv a b`: b's move, then a's) goes after that item's move. A cycle of them (a swap, a rotation of three,
 * of files or folders) has no such order: one of its items steps aside first (`asides`), one
 * already aside on the service (its temporary name recorded before a crash) if there is one, so
 * that a crash midway converges. Names compare as the service compares them (case, accents).
 */
export function orderMoves(moves: readonly MoveOp[]): { moves: MoveOp[]; asides: MoveOp[] } {
  const key = (p: string) => serviceKey(p);
  const leaving = new Map(moves.map((m) => [key(m.item.localPath), m]));
  // Each move waits for at most one (the holder of its new name); at most one waits for each.
  const holderOf = (m: MoveOp): MoveOp | undefined => {
    const h = leaving.get(key(m.entry.path));
    return h === m ? undefined : h;
  };
  const asides = new Set<MoveOp>();
  const seen = new Map<MoveOp, 'open' | 'done'>();
  for (const start of moves) {
    const path: MoveOp[] = [];
    let m: MoveOp | undefined = start;
    while (m && !seen.has(m)) {
      seen.set(m, 'open');
      path.push(m);
      m = holderOf(m);
    }
    if (m && seen.get(m) === 'open') {
      const cycle = path.slice(path.indexOf(m));
      asides.add(cycle.find((c) => isProvisional(c.item.remoteName)) ?? cycle[0]!);
    }
    for (const p of path) seen.set(p, 'done');
  }
  // Holders first: each chain is sent from its free end (an item aside frees its name).
  const ordered: MoveOp[] = [];
  const placed = new Set<MoveOp>();
  for (const start of moves) {
    const chain: MoveOp[] = [];
    for (let m: MoveOp | undefined = start; m && !placed.has(m);) {
      placed.add(m);
      chain.push(m);
      const h = holderOf(m);
      m = h && !asides.has(h) ? h : undefined;
    }
    ordered.push(...chain.reverse());
  }
  return { moves: ordered, asides: [...asides] };
}

/**
 * The plan with its replacing jobs held back: the service changed since the remote pass, so the
 * deletes of what they replace wait for it, with them.
 */
export function holdReplaced(up: UpPlan): UpPlan {
  const waiting = new Set(up.replaced.map((d) => d.item.localPath));
  // A move waits for the delete of its name's holder, or for a move that waits: its item holds
  // the name another one takes.
  const names = new Set(up.replaced.map((d) => serviceKey(d.item.localPath)));
  const held = new Set<MoveOp>();
  for (let more = true; more;) {
    more = false;
    for (const m of up.moves) {
      if (held.has(m) || !names.has(serviceKey(m.entry.path))) continue;
      held.add(m);
      names.add(serviceKey(m.item.localPath));
      more = true;
    }
  }
  return {
    ...up,
    mkdirs: up.mkdirs.filter((m) => !waiting.has(m.entry.path)),
    moves: up.moves.filter((m) => !held.has(m)),
    asides: up.asides.filter((m) => !held.has(m)),
    uploads: up.uploads.filter((u) => u.item || !waiting.has(u.entry.path)),
    replaced: [],
    deletes: [...up.deletes, ...up.replaced],
  };
}

/** Jobs the up plan holds, for the status's count. */
export const jobCount = (up: UpPlan) =>
  up.fresh.files +
  up.mkdirs.length +
  up.asides.length +
  up.moves.length +
  up.uploads.length +
  up.deletes.length +
  up.replaced.length;

const depth = (e: LocalEntry) => e.path.split('/').length;

const isMkdir = (op: MkdirOp | UploadOp): op is MkdirOp => op.type === 'mkdir';
const isUpload = (op: MkdirOp | UploadOp): op is UploadOp => op.type === 'upload';
