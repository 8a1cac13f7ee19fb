// What the local pass found to send: the reconciler's plan (up/reconcile.ts makes it), its
// operations by kind, and what is asked of a plan (how much it deletes, whether it holds work).
import type { JournalItem } from '../../journal/journal';
import type { LocalEntry } from '../detect-local/scan';

/** What the user did on disk since the journal was written, as operations for the service. */
export type LocalOp =
  /** A new folder: create it on the service. */
  | { type: 'mkdir'; entry: LocalEntry }
  /** A new file (`item` null) or a changed one (a new version of `item`). */
  | { type: 'upload'; entry: LocalEntry; item: JournalItem | null }
  /** A synced item now lives at `entry.path`: one rename or move, whatever it holds. */
  | { type: 'move'; item: JournalItem; entry: LocalEntry }
  /** A synced item is gone from the disk (the topmost one of a removed tree). */
  | { type: 'delete'; item: JournalItem; count: number }
  /** Same item, same content, new local facts (a folder recreated, a file touched): journal only. */
  | { type: 'relink'; item: JournalItem; entry: LocalEntry };

export interface LocalPlan {
  /** New folders, parents first. */
  mkdirs: Extract<LocalOp, { type: 'mkdir' }>[];
  /**
   * New files that nothing in the journal can be (no record at their place, none with their
   * identity): not kept, only the folders that hold them and how many; the sender lists those
   * folders again and uploads them folder by folder (up/fresh.ts), so that an upload of a whole
   * tree holds no object per file.
   */
  fresh: FreshFiles;
  moves: Extract<LocalOp, { type: 'move' }>[];
  uploads: Extract<LocalOp, { type: 'upload' }>[];
  /** Removals seen twice (or in a complete scan): ready to go to the service. */
  deletes: Extract<LocalOp, { type: 'delete' }>[];
  /** Removals seen once by a partial scan: the other half of a move may not be reported yet. */
  unconfirmed: JournalItem[];
  /**
   * Folders removed here whose subtree on the service holds items never placed here (sync/unplaced.ts):
   * not deleted there; their records are forgotten, so that the next walk brings them back.
   */
  kept: JournalItem[];
  relinks: Extract<LocalOp, { type: 'relink' }>[];
  /** Placeholders of files online only that something was written into: kept, never sent as such. */
  written?: LocalEntry[];
  /** Items online only with a file now at their place: their placeholders go. */
  arrived?: JournalItem[];
  /** Placeholders of ours whose item is gone there: only our text, removed by the loop. */
  stale?: LocalEntry[];
}

export interface FreshFiles {
  dirs: Set<string>;
  files: number;
  bytes: number;
}

export interface LocalPlanOptions {
  rootId: number;
  ignores: (rel: string, isDir: boolean) => boolean;
  /** Items a previous partial scan already found missing. */
  missingBefore: ReadonlySet<number>;
}

/** A plan with nothing in it yet. */
export function emptyPlan(): LocalPlan {
  return {
    mkdirs: [],
    fresh: { dirs: new Set(), files: 0, bytes: 0 },
    moves: [],
    uploads: [],
    deletes: [],
    unconfirmed: [],
    kept: [],
    relinks: [],
    written: [],
  };
}

/** Items the plan would delete on the service, counting what each deleted folder held. */
export const deletedCount = (plan: Pick<LocalPlan, 'deletes'>) =>
  plan.deletes.reduce((n, d) => n + d.count, 0);

/** Whether the plan has anything to send or record. */
export const hasWork = (plan: LocalPlan) =>
  plan.mkdirs.length +
    plan.fresh.files +
    plan.moves.length +
    plan.uploads.length +
    plan.deletes.length +
    plan.kept.length +
    plan.relinks.length >
  0;
