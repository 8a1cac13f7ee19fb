import type { Journal, JournalItem } from '../../journal/journal';
import type { Plan } from '../down/plan-types';
import { parentOf } from '../paths';
import type { WalkReason } from '../walk-reason';
import { askWalk, type LoopContext } from './context';
import { clearDeletions, recordDeletions } from './delete-budget';
import {
  countHeldHere,
  topmostOnce,
  type RemoteDeleteAnswer,
  type RemoteDeleteHold,
  type RemoteGuardResult,
} from './remote-guard';

/**
 * Journal meta: deletions on the service are held back. The feed's events for them are read
 * already, so a later run (the CLI's next `--once`) finds them again only by a walk.
 */
const HELD_META = 'remote_deletes_held';
const HELD_WALK: WalkReason = { kind: 'deletes-held' };

/**
 * The deletions on the service the guard held back (remote-guard.ts) and the person's answer to
 * them: the remote pass's state between passes, apart from its detection so that what a pass
 * records of the guard's decision is one place.
 */
export class RemoteHolds {
  /** Deletions on the service the guard held back, until answered. */
  private hold: RemoteDeleteHold | null = null;
  /** The hold's topmost items: a later feed pass's hold joins them, each item counted once. */
  private heldItems: JournalItem[] = [];
  /** The person's answer to a hold, used by the next walk (the engine's `answerRemoteDeletes`). */
  private answer: RemoteDeleteAnswer | null = null;

  constructor(
    private readonly ctx: LoopContext,
    answer: RemoteDeleteAnswer | null,
  ) {
    if (ctx.opts.journal.meta.get(HELD_META) !== undefined) askWalk(ctx.opts.journal, HELD_WALK);
    if (answer) this.answerHold(answer);
  }

  /** The deletions held back, as the status and hosts see them (a copy). */
  held(): RemoteDeleteHold | null {
    return this.hold && { ...this.hold };
  }

  /** The person answered: the next pass walks and applies the answer to what is still gone. */
  answerHold(answer: RemoteDeleteAnswer): void {
    this.answer = answer;
    askWalk(this.ctx.opts.journal, HELD_WALK);
  }

  /** The answer a pass's guard applies: the person's, else the options' (the CLI's flag). */
  answerNow(): RemoteDeleteAnswer | null {
    return this.answer ?? this.ctx.opts.remoteDeletes ?? null;
  }

  /**
   * Records what the guard decided: a hold (a walk finds it again after a restart), or an answer
   * carried out. Kept items are forgotten: the local pass finds them new and uploads them again.
   */
  record(
    guarded: RemoteGuardResult<Pick<Plan, 'trash'>>,
    full: boolean,
    answer: RemoteDeleteAnswer | null,
  ): void {
    const { journal } = this.ctx.opts;
    // An answer closes what the person saw: the budget over time starts again after it.
    if (guarded.answered) clearDeletions(journal);
    else recordDeletions(journal, this.ctx.now(), guarded.applied);
    if (guarded.keep.length > 0) {
      journal.transaction(() => {
        for (const j of guarded.keep) journal.items.removeTree(j);
      });
      this.ctx.state.markDirty(guarded.keep.map((j) => parentOf(j.localPath)));
      this.ctx.log.info('deletions on the service kept here', { items: guarded.keep.length });
    }
    const { held } = guarded;
    if (held) {
      // A walk sees everything, so its hold replaces the last one; a feed pass's joins it, each
      // item once: a folder listed again finds the same deletions, which are not more of them.
      this.heldItems = current(
        full ? guarded.heldItems : topmostOnce([...this.heldItems, ...guarded.heldItems]),
        journal,
      );
      if (this.heldItems.length > 0) {
        this.hold = { ...held, count: countHeldHere(this.heldItems, journal) };
        journal.meta.set(HELD_META, this.hold.count);
        this.ctx.log.warn('deletions on the service held back', { ...this.hold });
      } else this.clear();
    } else if (full || guarded.answered) {
      this.clear();
    } else if (this.hold) {
      // A feed pass that held nothing may still have moved or trashed what a hold is about (the
      // folder deleted there, now trashed whole as one colleague's clean-up): the hold counts
      // what is left of it here, and ends with it. Left standing, every pass would fail on it.
      this.heldItems = current(this.heldItems, journal);
      if (this.heldItems.length === 0) this.clear();
      else this.hold = { ...this.hold, count: countHeldHere(this.heldItems, journal) };
    }
    // An answer is for the hold it was given to: the walk it asked for has used it, or found
    // nothing left to ask about.
    if (full && answer !== null && this.answer === answer) this.answer = null;
  }

  private clear(): void {
    this.hold = null;
    this.heldItems = [];
    this.ctx.opts.journal.meta.set(HELD_META, null);
  }
}

/**
 * The held items as the journal has them now: the pass may have moved one's record (set aside
 * while another item took its place) or trashed it. A snapshot's old path would count whatever
 * now stands there (new items of the same names) as held.
 */
function current(items: readonly JournalItem[], journal: Journal): JournalItem[] {
  return items.flatMap((j) => journal.items.get(j.remoteId) ?? []);
}
