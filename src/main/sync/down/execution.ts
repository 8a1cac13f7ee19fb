// One pass of the down side's executor as it goes: what it was given, what it did so far (the
// counts, the problems it reported), and the records it writes. Every step of the pass (the
// structure, the trash, the content) works on this one object, so that each says its outcome
// the same way.
import { englishOf, type Words } from '../../../shared/i18n';
import type { ServiceClient } from '../../api/client';
import type { Journal, JournalItem } from '../../journal/journal';
import {
  emptySummary,
  type ProblemReason,
  type SyncProblem,
  type SyncSummary,
} from '../../../shared/sync-status';
import { SwapError, swapped } from '../confined';
import { factsOf, type LocalRoot } from '../local';
import { isItemError, itemErrorWords } from '../local-error';
import { parentOf } from '../paths';
import type { Placement } from './plan-types';
import type { Logger, Trash } from '../ports';
import { remoteFields } from '../remote';

/** What the executor tells the status model as it goes. */
export interface ExecutionEvents {
  /** A step begins; `files` for an archive (op 'archive', `path` its folder). */
  begin(op: string, path: string, files?: number): void;
  done(): void;
  bytes(n: number): void;
  problem(p: Omit<SyncProblem, 'at'>): void;
  solved(remoteId: number): void;
  /** A folder placed at last (a chain moved up so that it fits): its not-placed problem is over. */
  placed(remoteId: number): void;
  /**
   * A conflict and what was done about it, for the status; `copy` where the local version was
   * kept beside the original (the person resolves it: docs/SYNC.md, Conflicts).
   */
  note(path: string, message: Words | string, copy?: string): void;
}

export type ExecutionResult = Omit<SyncSummary, 'problems' | 'requests'> & {
  /** Something on disk was not as the journal said: a full walk should follow. */
  recheck: boolean;
  /** Synced items missing here: their new versions, and what goes into them, wait. */
  waiting: Set<number>;
  /** Folders made again: what else was deleted in them is for the local pass to send. */
  rescan: Set<string>;
};

export interface ExecutorContext {
  client: ServiceClient;
  journal: Journal;
  local: LocalRoot;
  trash: Trash;
  log: Logger;
  events: ExecutionEvents;
  concurrency: number;
  signal?: AbortSignal;
  /**
   * Whether a synced item missing here may come back for what the service changed in it: the
   * local pass has seen it deleted (the service's change wins), or has looked since it was
   * first found missing. Until then it may have been moved here, not deleted.
   */
  deletedHere: ReadonlySet<number>;
}

export class Execution {
  readonly result: ExecutionResult = (({ problems: _p, ...counts }) => ({
    ...counts,
    recheck: false,
    waiting: new Set<number>(),
    rescan: new Set<string>(),
  }))(emptySummary());

  /** Where items now in the holding place were, for the trash's record of them. */
  readonly held = new Map<number, string>();
  /** Items staged for the trash so far: each gets a name of its own in the holding place. */
  trashed = 0;
  /** The pass failed: what is still running stops at its next step. */
  failed = false;
  /** Whether downloads' times are kept (the pair frees files not opened for N days). */
  private keepsFetched: boolean | undefined;
  /**
   * Folders that could not be placed here (their path too long for this computer, a name it
   * refuses, no permission): one problem each, and nothing below them is tried in this pass.
   */
  private readonly blocked = new Set<string>();
  /**
   * Synced items the service moved to where this computer cannot hold them (below a folder not
   * placed, or a path too long): they leave here by the trash stage, as if deleted there.
   */
  readonly outOfReach: JournalItem[] = [];

  constructor(readonly ctx: ExecutorContext) {}

  /** Throws once the pass is stopped or failed: what is still running ends at its next step. */
  check(): void {
    if (this.ctx.signal?.aborted) throw this.ctx.signal.reason ?? new Error('aborted');
    if (this.failed) throw new Error('the pass failed');
  }

  /**
   * A step for one item failed: a problem for that item if the failure is its own (`itemFailed`,
   * `swapped`), so the rest of the pass goes on; anything else fails the pass.
   */
  failedItem(rel: string, remoteId: number, err: unknown, subtree: boolean): void {
    if (isItemError(err)) this.itemFailed(rel, remoteId, err, subtree);
    else if (err instanceof SwapError) this.swapped(rel, remoteId, err);
    else throw err;
  }

  /**
   * A folder on the item's path was replaced or moved while it was written (a racing local
   * process, perhaps a link to elsewhere): what was written is undone, and the item waits for
   * the next pass; the rest of this one goes on.
   */
  private swapped(rel: string, remoteId: number, err: SwapError): void {
    this.result.recheck = true;
    this.ctx.log.warn('a folder changed while an item was written into it', { path: rel });
    this.ctx.events.problem({
      path: rel,
      remoteId,
      reason: 'local',
      message: err.message,
      ...(err.words ? { words: err.words } : {}),
    });
  }

  /**
   * An item this computer cannot hold or reach (its path too long, a name or a place refused):
   * a problem for it, in words; for a folder not placed, for what is below it too, said once.
   */
  itemFailed(rel: string, remoteId: number, err: unknown, subtree: boolean): void {
    const said = itemErrorWords(err, rel);
    const words: Words = subtree ? { key: 'engine.fs.subtree', params: { problem: said } } : said;
    if (subtree) this.blocked.add(rel);
    this.ctx.log.warn('could not place an item here', {
      path: rel,
      code: (err as NodeJS.ErrnoException).code,
    });
    this.ctx.events.problem({
      path: rel,
      remoteId,
      reason: 'local',
      message: englishOf(words),
      words,
    });
  }

  /** Whether `rel` is in a folder that could not be placed in this pass (`itemFailed`). */
  isBlocked(rel: string): boolean {
    if (this.blocked.size === 0) return false;
    for (let dir = parentOf(rel); dir !== ''; dir = parentOf(dir)) {
      if (this.blocked.has(dir)) return true;
    }
    return false;
  }

  /** The facts of what was just written at `rel`, looked at through its opened folder. */
  factsAt(rel: string) {
    const st = this.ctx.local.confined.lstat(rel);
    if (!st) throw swapped(rel);
    return factsOf(st);
  }

  problem(p: Placement, reason: ProblemReason, said: Words | string): void {
    const words = typeof said === 'string' ? {} : { words: said };
    const message = englishOf(said);
    this.ctx.events.problem({ path: p.path, remoteId: p.item.id, reason, message, ...words });
  }

  countBytes(n: number): void {
    this.result.bytesDownloaded += n;
    this.ctx.events.bytes(n);
  }

  /** Records a file placed (or found in place) as synced with this version. */
  record(p: Placement, hash: string, facts = this.factsAt(p.path)): void {
    this.ctx.journal.items.upsert({
      ...remoteFields(p.item),
      localPath: p.path,
      localName: p.name,
      ...facts,
      hash,
      state: 'synced',
    });
    // Its "last opened" where the mount records no access times (loop/auto-free.ts).
    this.keepsFetched ??= this.ctx.journal.onDemand.freeUnusedDays() !== null;
    if (this.keepsFetched) this.ctx.journal.onDemand.recordFetched(p.item.id, Date.now());
    this.ctx.events.solved(p.item.id);
  }

  recordNotPermitted(p: Placement): void {
    const j = this.ctx.journal.items.get(p.item.id);
    if (j?.state === 'synced' && j.ino !== null) {
      // A version here already: its record keeps what is on disk (moved or renamed here, it is
      // still found by its identity), and the new version comes down once the role allows.
      this.problem(p, 'not-permitted', { key: 'engine.noNewVersion' });
      return;
    }
    this.ctx.journal.items.upsert({
      ...remoteFields(p.item),
      localPath: p.path,
      localName: p.name,
      dev: null,
      ino: null,
      size: null,
      mtimeMs: null,
      hash: null,
      state: 'not-permitted',
    });
    this.problem(p, 'not-permitted', { key: 'engine.noDownload' });
  }
}
