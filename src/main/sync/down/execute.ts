// The down side's executor: carries out a plan on the disk in its stages (the structure, then
// the trash, then the content), each step recorded as soon as it is done. The checks of a place
// before any write are in places.ts, so that no stage skips them.
import { mkdirSync } from 'node:fs';
import type { JournalItem } from '../../journal/journal';
import { PARTIAL_DIR } from '../paths';
import { Content, type ContentPlan } from './content';
import { Execution, type ExecutionResult, type ExecutorContext } from './execution';
import type { Plan, StructureOp } from './plan-types';
import { structure } from './structure';
import { trashItem } from './trash-deleted';

export { ARCHIVES_HELD } from './content';
export type { ExecutionEvents, ExecutionResult, ExecutorContext } from './execution';

/**
 * Carries out a plan on the disk, checking each place before it touches it: nothing that the
 * journal does not know (unsynced local work) is overwritten or trashed — it is renamed aside as
 * a conflict copy — and every removal goes to the trash. Each step is recorded in the journal as
 * soon as it is done, so an interruption loses nothing and the next pass carries on.
 */
export class Executor {
  private readonly x: Execution;

  constructor(ctx: ExecutorContext) {
    this.x = new Execution(ctx);
  }

  /** Carries out a whole plan: structure, then the trash, then the content. */
  async run(plan: Plan): Promise<ExecutionResult> {
    this.begin();
    try {
      // Archives are asked for first: the service builds and sends them while the disk is busy
      // with the folders. Nothing of them is placed before the folders and the trash are done.
      const content = Content.start(this.x, plan);
      try {
        this.structureOps(plan.structure);
        await this.trashItems(plan.trash);
      } catch (err) {
        await content.abandon();
        throw err;
      }
      await content.place();
    } finally {
      this.end();
    }
    return this.x.result;
  }

  /** What was done so far. */
  get outcome(): ExecutionResult {
    return this.x.result;
  }

  /** Starts a pass carried out in parts (a full walk's chunks): `end` closes it. */
  begin(): void {
    this.x.ctx.local.newPass();
    mkdirSync(this.x.ctx.local.abs(PARTIAL_DIR), { recursive: true });
  }

  end(): void {
    this.x.ctx.local.endPass();
  }

  /** Folder creations, moves and renames, in order (parents before children). */
  structureOps(ops: readonly StructureOp[]): void {
    const x = this.x;
    try {
      for (const op of ops) {
        x.check();
        x.ctx.events.begin(op.type === 'mkdir' ? 'mkdir' : 'move', op.path);
        if (x.isBlocked(op.path)) {
          leavesReach(x, op);
          x.ctx.events.done();
          continue;
        }
        try {
          structure(x, op);
        } catch (err) {
          x.failedItem(op.path, op.item.id, err, op.item.kind === 'folder');
          if (tooLongHere(x, op.path)) leavesReach(x, op);
        }
        x.ctx.events.done();
      }
    } catch (err) {
      x.failed = true;
      throw err;
    }
  }

  /**
   * Items deleted on the service (topmost only), to the trash; with them what the service moved
   * out of this computer's reach in this pass's structure (its problem says where it went).
   */
  async trashItems(items: readonly JournalItem[]): Promise<void> {
    const x = this.x;
    const gone = x.outOfReach.length > 0 ? [...items, ...x.outOfReach.splice(0)] : items;
    try {
      for (const j of gone) {
        x.check();
        const now = x.ctx.journal.items.get(j.remoteId);
        if (now) {
          x.ctx.events.begin('trash', now.localPath);
          try {
            await trashItem(x, now);
          } catch (err) {
            // It stays here, and so does what is in it: a problem of its own, not its subtree's.
            x.failedItem(now.localPath, now.remoteId, err, false);
          }
        }
        x.ctx.events.done();
      }
    } catch (err) {
      x.failed = true;
      throw err;
    }
  }

  /** Files: refused ones recorded, single downloads and archives (their folders made already). */
  async content(plan: ContentPlan): Promise<void> {
    await Content.start(this.x, plan).place();
  }
}

/**
 * A synced item the service moved to a place this computer cannot hold: left at its old place,
 * its record would name a place it no longer has there, for ever (found by the soak, seed
 * 20261201 history 696: a file moved into a chain too deep for this disk). It leaves here as a
 * deleted item does (to the trash; a file changed here stays, as local work), and the place it
 * went to is that place's problem.
 */
function leavesReach(x: Execution, op: StructureOp): void {
  if (op.type !== 'move') return;
  const j = x.ctx.journal.items.get(op.item.id);
  if (j && j.localPath !== op.path) x.outOfReach.push(j);
}

/** Whether `rel` is past what a path may be here (PATH_MAX): no step can name it. */
function tooLongHere(x: Execution, rel: string): boolean {
  try {
    x.ctx.local.abs(rel);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENAMETOOLONG';
  }
}
