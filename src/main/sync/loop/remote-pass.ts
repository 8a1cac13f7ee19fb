// Long because the remote pass runs both kinds of detection (a full walk read back a chunk at a
// time, the feed resolved to a partial view) through the same guard, executor and bookkeeping.
import type { SyncBacklog, SyncSummary } from '../../../shared/sync-status';
import { englishOf, type Words } from '../../../shared/i18n';
import { feedStart, readFeed, type FeedChoice } from '../detect-remote/feed';
import { resolveCost, resolveEvents } from '../detect-remote/resolve';
import { walkRemote } from '../detect-remote/walk';
import { Executor, type ExecutionResult } from '../down/execute';
import { planChanges, planItems, planWork } from '../down/plan';
import type { Plan, PlanOptions } from '../down/plan-types';
import {
  chooseWalkArchives,
  planChunk,
  stagedSource,
  walkChunks,
  walkGone,
} from '../down/plan-walk';
import { isItemError } from '../local-error';
import { parentOf } from '../paths';
import { emptyView, type RemoteView, type Walk } from '../remote';
import { walkReasonText, type WalkReason } from '../walk-reason';
import { askWalk, feedMemory, setWalkDue, walkDue, type LoopContext } from './context';
import { clearDeletions, recentDeletions, recordDeletions } from './delete-budget';
import { DEFAULT_DELETE_GUARD } from './options';
import type { JournalItem } from '../../journal/journal';
import {
  countHeldHere,
  guardRemoteDeletes,
  topmostOnce,
  type RemoteDeleteAnswer,
  type RemoteDeleteHold,
  type RemoteGuardResult,
} from './remote-guard';
import { ofWorkspace } from './root';

/**
 * A quiet feed says nothing of the workspace itself being deleted or unshared (a user's events
 * leave out workspaces they left): continuous mode asks for it this often (one request).
 */
const WORKSPACE_CHECK_MS = 60_000;
/** More new events than a page: a burst, left to end before it is handled (continuous mode). */
const BURST_EVENTS = 30;
/** A burst that never ends is handled after this long all the same. */
const MAX_HOLD_MS = 60_000;
/** Roles that may list and read metadata but not download (conventions.md, Roles). */
const NO_DOWNLOAD_ROLES = new Set(['Printer', 'Viewer']);
/**
 * Journal meta: deletions on the service are held back. The feed's events for them are read
 * already, so a later run (the CLI's next `--once`) finds them again only by a walk.
 */
const HELD_META = 'remote_deletes_held';
const HELD_WALK: WalkReason = { kind: 'deletes-held' };

/**
 * The remote pass, down: detect (a full walk, or the event feed resolved to items) → reconcile
 * with the journal and plan (down/plan.ts) → apply on disk (down/execute.ts) → record. It also
 * brings down what the last local pass left for it (items changed on both sides).
 */
export class RemotePass {
  /** A burst of remote changes left to end before it is handled: its size when last seen. */
  private burst: { unread: number; since: number } | null = null;
  /** Deletions on the service the guard held back (remote-guard.ts), until answered. */
  private hold: RemoteDeleteHold | null = null;
  /** The hold's topmost items: a later feed pass's hold joins them, each item counted once. */
  private heldItems: JournalItem[] = [];
  /** The person's answer to a hold, used by the next walk (the engine's `answerRemoteDeletes`). */
  private answer: RemoteDeleteAnswer | null = null;
  /** When the workspace itself was last seen there (a walk reads it; `lookAtWorkspace`). */
  private workspaceSeenAt: number;

  constructor(
    private readonly ctx: LoopContext,
    private readonly fullWalkIntervalMs: number,
    answer: RemoteDeleteAnswer | null = null,
  ) {
    if (ctx.opts.journal.meta.get(HELD_META) !== undefined) askWalk(ctx.opts.journal, HELD_WALK);
    this.workspaceSeenAt = ctx.now();
    if (answer) this.answerHold(answer);
  }

  /** The deletions held back, as the status and hosts see them (a copy). */
  held(): RemoteDeleteHold | null {
    return this.hold && { ...this.hold };
  }

  /**
   * The person answered (applied by the loop between passes): the next pass walks and applies
   * the answer to what is still gone.
   */
  answerHold(answer: RemoteDeleteAnswer): void {
    this.answer = answer;
    askWalk(this.ctx.opts.journal, HELD_WALK);
  }

  /** Says whether it did anything. */
  async run(summary: SyncSummary, signal?: AbortSignal, once = false): Promise<boolean> {
    const { opts, state, rootId } = this.ctx;
    const { journal } = opts;
    const carried = state.takeFetch();
    let did = false;
    if (carried.length > 0 && walkDue(journal) === null) {
      // Changed on the service too: its version comes down, local work is kept beside it.
      const view = emptyView(rootId, false);
      for (const item of carried) view.items.set(item.id, item);
      await this.apply(view, false, summary, signal);
      did = true;
    }
    return (await this.detectAndApply(summary, signal, once)) || did;
  }

  private async detectAndApply(
    summary: SyncSummary,
    signal: AbortSignal | undefined,
    once: boolean,
  ): Promise<boolean> {
    const { opts, status, rootId } = this.ctx;
    const { client, journal, workspaceId } = opts;
    const lastWalk = Number(journal.meta.get('last_walk_ms') ?? NaN);
    if (journal.feed.window().startMs === null && !Number.isNaN(lastWalk)) {
      // Synced before, but where the feed stands is not known: only a walk can tell.
      askWalk(journal, { kind: 'feed-lost' });
    }
    const walkReason: WalkReason | null =
      walkDue(journal) ??
      (Number.isNaN(lastWalk)
        ? { kind: 'first-sync' }
        : this.ctx.now() - lastWalk >= this.fullWalkIntervalMs
          ? { kind: 'scheduled' }
          : null);

    if (walkReason !== null) {
      if (journal.feed.window().startMs === null) {
        // The feed's position before the walk: whatever happens during it is read afterwards.
        const start = await feedStart(client, workspaceId, this.ctx.overlapMs);
        journal.feed.record(start.events, start.window);
      }
      status.setState('scanning', walkMessage(walkReason));
      this.ctx.log.info('full walk', { reason: walkReasonText(walkReason) });
      await this.readRole();
      // The staging tables' writes grouped into a few commits (one per listing cost as much as
      // the listing's own work on a large tree); a crash only loses a walk done again anyway.
      const walk = await journal.batch(() =>
        walkRemote(client, rootId, journal, {
          concurrency: this.ctx.concurrency,
          signal,
          onRefused: (folderId, err, remotePath) =>
            status.addProblem({
              path: journal.items.get(folderId)?.localPath ?? remotePath,
              remoteId: folderId,
              reason: err.kind === 'forbidden' ? 'not-permitted' : 'error',
              message: err.message,
              ...(err.words ? { words: err.words } : {}),
            }),
        }),
      );
      const result = await this.applyWalk(walk, summary, signal);
      // The interval counts from the walk's end (the feed covers the changes made during it):
      // from its start, a walk longer than the interval was followed at once by another.
      journal.meta.set('last_walk_ms', this.ctx.now());
      setWalkDue(journal, result.recheck ? { kind: 'disk-differs' } : null);
      status.setBacklog(null);
      return true;
    }

    const feed = await readFeed(client, workspaceId, feedMemory(journal), {
      overlapMs: this.ctx.overlapMs,
      choose: (c) => this.chooseFeed(c, once),
    });
    switch (feed.kind) {
      case 'quiet':
      case 'changed':
        if (feed.kind === 'quiet' && feed.next) journal.feed.record([], feed.next);
        status.setBacklog(null);
        if (!once) await this.lookAtWorkspace();
        return false;
      case 'wait':
        status.setBacklog(backlogOf(feed.unread, 'engine.backlogArriving'));
        return false;
      case 'walk':
        // Cheaper than reading each: one walk, and the feed resumes past what it covers.
        this.ctx.log.info('events need a full walk', {
          reason: walkReasonText(feed.reason),
          unread: feed.unread,
        });
        journal.transaction(() => {
          setWalkDue(journal, feed.reason);
          journal.feed.record(feed.events, feed.next);
        });
        status.setBacklog(feed.unread > 0 ? backlogOf(feed.unread, 'engine.backlogWalk') : null);
        return true;
      case 'events':
        break;
    }
    status.setBacklog(null);
    if (feed.refs.length === 0) {
      journal.feed.record(feed.events, feed.next);
      return false;
    }
    status.setState('syncing', { key: 'engine.applying', params: { n: feed.refs.length } });
    const resolution = await resolveEvents(client, journal, rootId, feed.refs, {
      concurrency: this.ctx.concurrency,
      maxRequests: () => this.walkCost(),
    });
    if (resolution.walk) {
      this.ctx.log.info('events need a full walk', { reason: walkReasonText(resolution.walk) });
      journal.transaction(() => {
        setWalkDue(journal, resolution.walk);
        journal.feed.record(feed.events, feed.next);
      });
      return true;
    }
    const { view } = resolution;
    const result = await this.apply(view, false, summary, signal);
    // Only now: a crash before this point re-reads the same events, which is harmless. Changes
    // left waiting are then known only by the walk due, so both are written at once.
    journal.transaction(() => {
      if (result.recheck) setWalkDue(journal, { kind: 'disk-differs' });
      journal.feed.record(feed.events, feed.next);
    });
    // Events that were this client's own changes, read back, resolve to nothing.
    return view.items.size > 0 || view.gone.size > 0;
  }

  /** About what a full walk costs: a listing per folder, and a page per 60 entries. */
  private walkCost(): number {
    const { journal } = this.ctx.opts;
    return 1 + journal.items.folderCount() + Math.ceil(journal.items.count() / 60);
  }

  /**
   * Reading the rest of a burst, or a walk: whichever costs fewer requests. In continuous mode a
   * burst still growing is first left to end (one request a poll), so that it is handled once.
   */
  private chooseFeed(c: FeedChoice, once: boolean): 'read' | 'walk' | 'wait' {
    const now = this.ctx.now();
    const held = this.burst;
    if (
      !once &&
      c.unread > BURST_EVENTS &&
      (held === null || c.unread > held.unread) &&
      now - (held?.since ?? now) < MAX_HOLD_MS
    ) {
      this.burst = { unread: c.unread, since: held?.since ?? now };
      return 'wait';
    }
    this.burst = null;
    // The first page is the sample of what the rest will be, scaled to the count.
    const cost = resolveCost(this.ctx.opts.journal, c.sample);
    const scale = c.sample.length > 0 ? c.unread / c.sample.length : 0;
    const read = c.pagesLeft + (c.sample.length > 0 ? cost.requests * scale : c.unread);
    const walk = this.walkCost() + cost.newFolders * scale;
    this.ctx.log.debug('feed: read or walk', {
      unread: c.unread,
      sample: c.sample.length,
      ...cost,
      read,
      walk,
    });
    return walk < read ? 'walk' : 'read';
  }

  /**
   * A partial view (the feed's items, or what the local pass left to bring down): reconcile and
   * plan (down/plan.ts), then apply on disk (down/execute.ts) and record.
   */
  private async apply(
    view: RemoteView,
    full: boolean,
    summary: SyncSummary,
    signal?: AbortSignal,
  ): Promise<ExecutionResult> {
    const { opts, state, status } = this.ctx;
    const { journal } = opts;
    const deletedHere = state.deletedHere();
    // An excluded folder the feed found renamed or moved there: its place, kept (selective sync).
    for (const id of journal.selection.ids()) {
      const seen = view.items.get(id);
      if (seen) journal.selection.notePlace(id, seen.parentId, seen.name);
    }
    const planned = planChanges(view, journal, this.planOptions(full, deletedHere));
    const answer = this.answer ?? opts.remoteDeletes ?? null;
    const guarded = guardRemoteDeletes(
      planned,
      journal,
      opts.deleteGuard ?? DEFAULT_DELETE_GUARD,
      answer,
      recentDeletions(journal, this.ctx.now()),
    );
    const { plan } = guarded;
    const work = planWork(plan);
    status.beginWork(work.items, work.bytes, {
      key: 'engine.syncingItems',
      params: { n: work.items },
    });
    const executor = this.executor(deletedHere, signal);
    const result = await journal.batch(() => executor.run(plan));
    // An item not placed (a file not downloaded yet, a folder past PATH_MAX) is not in the
    // journal: its problem stays while a full view holds it. A partial view (the feed's) tells
    // only of what changed, so between walks it stays until the view says the item is gone: a
    // chain's problem cleared by a colleague's change beside it was said to no one again. Or
    // until the folder it was to be placed in is gone from the journal and the disk (deleted
    // there or here): the feed names only that folder, and the problem would be left standing.
    this.recordPass(
      summary,
      result,
      guarded,
      full,
      answer,
      (id, path) => !view.gone.has(id) && (view.items.has(id) || (!full && this.placeHere(path))),
    );
    return result;
  }

  /**
   * A full walk, from the journal's staging tables a chunk of folders at a time in the order
   * they were listed (down/plan-walk.ts): the folders, moves and renames of every chunk, then
   * the trash (after the moves out of what is deleted, before the files that may take a gone
   * item's name), then every chunk's files. Nothing of the whole tree is held in memory.
   */
  private async applyWalk(
    walk: Walk,
    summary: SyncSummary,
    signal?: AbortSignal,
  ): Promise<ExecutionResult> {
    const { opts, state, status } = this.ctx;
    const { journal } = opts;
    const deletedHere = state.deletedHere();
    const planOpts = this.planOptions(true, deletedHere);
    const answer = this.answer ?? opts.remoteDeletes ?? null;
    const guarded = guardRemoteDeletes(
      { trash: walkGone(journal, walk) },
      journal,
      opts.deleteGuard ?? DEFAULT_DELETE_GUARD,
      answer,
      recentDeletions(journal, this.ctx.now()),
    );
    // Totals for the progress from SQL, not from a plan of the whole tree.
    const work = journal.walk.work();
    const items = work.items + guarded.plan.trash.length;
    status.beginWork(items, work.bytes, { key: 'engine.syncingItems', params: { n: items } });
    const executor = this.executor(deletedHere, signal);
    const source = stagedSource(journal, walk);
    try {
      await journal.batch(async () => {
        executor.begin();
        try {
          for (const chunk of walkChunks(journal)) {
            executor.structureOps(planItems(source, chunk.items, journal, planOpts).structure);
          }
          await executor.trashItems(guarded.plan.trash);
          const archives = planOpts.mayDownload
            ? chooseWalkArchives(journal, walk, true)
            : { roots: new Set<number>(), covered: new Set<number>() };
          // Each chunk's files are placed before the next chunk is planned.
          for (const chunk of walkChunks(journal)) {
            await executor.content(planChunk(source, chunk, journal, planOpts, archives));
          }
        } finally {
          executor.end();
        }
      });
      const result = executor.outcome;
      this.recordPass(
        summary,
        result,
        guarded,
        true,
        answer,
        (id) => journal.walk.item(id) !== undefined,
      );
      return result;
    } finally {
      journal.walk.reset();
    }
  }

  private planOptions(full: boolean, deletedHere: ReadonlySet<number>): PlanOptions {
    const role = this.ctx.opts.journal.meta.get('role') ?? '';
    return {
      profile: this.ctx.profile,
      // At each walk: the role may have dropped and come back since the last one. A role that
      // may not download makes no request for them (mayDownload).
      retryNotPermitted: full,
      mayDownload: !NO_DOWNLOAD_ROLES.has(role),
      deletedHere,
    };
  }

  private executor(deletedHere: ReadonlySet<number>, signal?: AbortSignal): Executor {
    const { opts, state, status } = this.ctx;
    return new Executor({
      client: opts.client,
      journal: opts.journal,
      local: this.ctx.local,
      trash: opts.trash,
      log: this.ctx.log,
      concurrency: this.ctx.concurrency,
      signal,
      events: status.progressEvents(state.refusals, 'down'),
      deletedHere,
    });
  }

  /** After a pass: counts, the hold, items missing here, and problems that vanished. */
  private recordPass(
    summary: SyncSummary,
    result: ExecutionResult,
    guarded: RemoteGuardResult<Pick<Plan, 'trash'>>,
    full: boolean,
    answer: RemoteDeleteAnswer | null,
    seen: (id: number, path: string) => boolean,
  ): void {
    const { opts, state, status } = this.ctx;
    const { journal } = opts;
    status.addCounts(summary, result);
    this.recordHold(guarded, full, answer);
    this.sayDeletedFolders(guarded);
    if (full) {
      for (const id of state.missingHere.keys()) {
        if (!result.waiting.has(id)) state.missingHere.delete(id);
      }
    }
    for (const id of result.waiting) {
      if (!state.missingHere.has(id)) state.missingHere.set(id, state.localPasses);
    }
    state.markDirty(result.rescan);
    // An item gone from the service takes its problem along; while a walk is due (a refused
    // delete waits for it to come back), the journal does not know everything yet.
    if (full || walkDue(journal) === null) {
      // An excluded folder's problem (a copy kept here: loop/selection.ts) is not the walk's.
      const excluded = journal.selection.ids();
      status.clearVanishedProblems(
        (id, path) => journal.items.get(id) !== undefined || seen(id, path) || excluded.has(id),
      );
    }
  }

  /** Whether the folder an item not placed was to go into is still here (journal or disk). */
  private placeHere(rel: string): boolean {
    const dir = parentOf(rel);
    if (dir === '' || this.ctx.opts.journal.items.atPath(dir) !== undefined) return true;
    try {
      return this.ctx.local.stat(dir) !== undefined;
    } catch (err) {
      // Not to be looked at here: kept (the next walk decides).
      if (isItemError(err)) return true;
      throw err;
    }
  }

  /**
   * Records what the guard decided: a hold (a walk finds it again after a restart), or an answer
   * carried out. Kept items are forgotten: the local pass finds them new and uploads them again.
   */
  private recordHold(
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
      this.heldItems = full
        ? guarded.heldItems
        : topmostOnce([...this.heldItems, ...guarded.heldItems]);
      this.hold = { ...held, count: countHeldHere(this.heldItems, journal) };
      journal.meta.set(HELD_META, this.hold.count);
      this.ctx.log.warn('deletions on the service held back', { ...this.hold });
    } else if (full || guarded.answered) {
      this.hold = null;
      this.heldItems = [];
      journal.meta.set(HELD_META, null);
    }
    // An answer is for the hold it was given to: the walk it asked for has used it, or found
    // nothing left to ask about.
    if (full && answer !== null && this.answer === answer) this.answer = null;
  }

  /**
   * A big folder deleted on the service and now in the trash here is said (the CLI's note, the
   * window's notices), with where to get it back: one decision, not a silent disappearance. A
   * folder that kept local work stays here and is not said to be gone.
   */
  private sayDeletedFolders(guarded: RemoteGuardResult<Pick<Plan, 'trash'>>): void {
    const { journal } = this.ctx.opts;
    for (const { item, count } of guarded.folders) {
      if (journal.items.get(item.remoteId) !== undefined || this.ctx.local.stat(item.localPath))
        continue;
      this.ctx.status.notice({
        key: 'engine.remoteFolderTrashed',
        params: { path: item.localPath, n: count },
      });
    }
  }

  /**
   * The user's role in the workspace, read at each full walk: a role that may not download
   * costs no download requests. What a role refused is tried again at each walk, whether or not
   * the role read here differs: it may have gone down and back up between two walks.
   */
  /** Gone (state `gone`) rather than "up to date" within a minute, with nothing else to tell. */
  private async lookAtWorkspace(): Promise<void> {
    if (this.ctx.now() - this.workspaceSeenAt < WORKSPACE_CHECK_MS) return;
    const { client, workspaceId } = this.ctx.opts;
    await ofWorkspace(workspaceId, () => client.getWorkspace(workspaceId));
    this.workspaceSeenAt = this.ctx.now();
  }

  private async readRole(): Promise<void> {
    const { client, journal, workspaceId } = this.ctx.opts;
    const workspace = await ofWorkspace(workspaceId, () => client.getWorkspace(workspaceId));
    this.workspaceSeenAt = this.ctx.now();
    const role = workspace.effective_role ?? '';
    if (journal.meta.get('role') !== role) journal.meta.set('role', role);
    this.ctx.state.markDirty(this.ctx.state.refusals.clear().map(parentOf));
  }
}

/** What the status says while the service's tree is walked, by why. */
function walkMessage(reason: WalkReason): Words {
  switch (reason.kind) {
    case 'first-sync':
      return { key: 'engine.walkFirst' };
    case 'scheduled':
      return { key: 'engine.walkScheduled' };
    case 'catch-up':
      return { key: 'engine.walkCatchUp', params: { n: reason.changes } };
    default:
      return { key: 'engine.walkChanges' };
  }
}

/** Changes waiting on the service, as words and in English (the backlog's `reason`). */
function backlogOf(
  changes: number,
  key: 'engine.backlogArriving' | 'engine.backlogWalk',
): SyncBacklog {
  const words: Words = { key, params: { n: changes } };
  return { changes, reason: englishOf(words), words };
}
