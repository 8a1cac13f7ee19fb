import type { SyncSummary } from '../../../shared/sync-status';
import { feedStart, readFeed } from '../detect-remote/feed';
import { resolveEvents } from '../detect-remote/resolve';
import { walkRemote } from '../detect-remote/walk';
import { Executor, type ExecutionResult } from '../down/execute';
import { planChanges, planItems, planWork } from '../down/plan';
import type { PlanOptions } from '../down/plan-types';
import {
  chooseWalkArchives,
  planChunk,
  stagedSource,
  walkChunks,
  walkGone,
} from '../down/plan-walk';
import { parentOf } from '../paths';
import { emptyView, type RemoteView, type Walk } from '../remote';
import { walkReasonText, type WalkReason } from '../walk-reason';
import { askWalk, feedMemory, setWalkDue, walkDue, type LoopContext } from './context';
import { recentDeletions } from './delete-budget';
import { FeedChooser, walkCost } from './feed-choice';
import { DEFAULT_DELETE_GUARD } from './options';
import { guardRemoteDeletes, type RemoteDeleteAnswer, type RemoteDeleteHold } from './remote-guard';
import { RemoteHolds } from './remote-hold';
import { backlogOf, walkMessage } from './remote-words';
import { placeHere, recordRemotePass } from './remote-record';
import { ofWorkspace } from './root';

/**
 * A quiet feed says nothing of the workspace itself being deleted or unshared (a user's events
 * leave out workspaces they left): continuous mode asks for it this often (one request).
 */
const WORKSPACE_CHECK_MS = 60_000;
/** Roles that may list and read metadata but not download (conventions.md, Roles). */
export const NO_DOWNLOAD_ROLES = new Set(['Printer', 'Viewer']);
/**
 * The remote pass, down: detect (a full walk, or the event feed resolved to items) → reconcile
 * with the journal and plan (down/plan.ts) → apply on disk (down/execute.ts) → record. It also
 * brings down what the last local pass left for it (items changed on both sides).
 */
export class RemotePass {
  /** Whether to read the rest of a burst, walk, or wait (it remembers the burst). */
  private readonly feedChoice: FeedChooser;
  /** Deletions on the service held back and the person's answer (remote-hold.ts). */
  private readonly holds: RemoteHolds;
  /** When the workspace itself was last seen there (a walk reads it; `lookAtWorkspace`). */
  private workspaceSeenAt: number;

  constructor(
    private readonly ctx: LoopContext,
    private readonly fullWalkIntervalMs: number,
    answer: RemoteDeleteAnswer | null = null,
  ) {
    this.holds = new RemoteHolds(ctx, answer);
    this.feedChoice = new FeedChooser(ctx);
    this.workspaceSeenAt = ctx.now();
  }

  /** The deletions held back, as the status and hosts see them (a copy). */
  held(): RemoteDeleteHold | null {
    return this.holds.held();
  }

  /**
   * The person answered (applied by the loop between passes): the next pass walks and applies
   * the answer to what is still gone.
   */
  answerHold(answer: RemoteDeleteAnswer): void {
    this.holds.answerHold(answer);
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

  /** Detect by a walk when one is due, else by the feed; then apply and record. */
  private async detectAndApply(
    summary: SyncSummary,
    signal: AbortSignal | undefined,
    once: boolean,
  ): Promise<boolean> {
    const reason = this.walkReason();
    if (reason !== null) return this.walkPass(reason, summary, signal);
    return this.feedPass(summary, signal, once);
  }

  /** Why a full walk is due now (asked for, a first sync, the interval passed), or null. */
  private walkReason(): WalkReason | null {
    const { journal } = this.ctx.opts;
    const lastWalk = Number(journal.meta.get('last_walk_ms') ?? NaN);
    if (journal.feed.window().startMs === null && !Number.isNaN(lastWalk)) {
      // Synced before, but where the feed stands is not known: only a walk can tell.
      askWalk(journal, { kind: 'feed-lost' });
    }
    return (
      walkDue(journal) ??
      (Number.isNaN(lastWalk)
        ? { kind: 'first-sync' }
        : this.ctx.now() - lastWalk >= this.fullWalkIntervalMs
          ? { kind: 'scheduled' }
          : null)
    );
  }

  /** A full walk of the service's tree, staged in the journal, then applied (`applyWalk`). */
  private async walkPass(
    walkReason: WalkReason,
    summary: SyncSummary,
    signal: AbortSignal | undefined,
  ): Promise<boolean> {
    const { opts, status, rootId } = this.ctx;
    const { client, journal, workspaceId } = opts;
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

  /**
   * The feed's new events: quiet, a burst left to end, a walk asked for, or events resolved to
   * a partial view and applied (`apply`).
   */
  private async feedPass(
    summary: SyncSummary,
    signal: AbortSignal | undefined,
    once: boolean,
  ): Promise<boolean> {
    const { opts, status, rootId } = this.ctx;
    const { client, journal, workspaceId } = opts;
    const feed = await readFeed(client, workspaceId, feedMemory(journal), {
      overlapMs: this.ctx.overlapMs,
      choose: (c) => this.feedChoice.choose(c, once),
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
      maxRequests: () => walkCost(journal),
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
    const answer = this.holds.answerNow();
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
    recordRemotePass(
      this.ctx,
      this.holds,
      summary,
      result,
      guarded,
      full,
      answer,
      (id, path) =>
        !view.gone.has(id) && (view.items.has(id) || (!full && placeHere(this.ctx, path))),
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
    const answer = this.holds.answerNow();
    const guarded = guardRemoteDeletes(
      { trash: walkGone(journal, walk) },
      journal,
      opts.deleteGuard ?? DEFAULT_DELETE_GUARD,
      answer,
      recentDeletions(journal, this.ctx.now()),
    );
    // Totals for the progress from SQL, not from a plan of the whole tree.
    const work = journal.walk.work(journal.onDemand.mode() === 'online');
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
      recordRemotePass(
        this.ctx,
        this.holds,
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

  /** Gone (state `gone`) rather than "up to date" within a minute, with nothing else to tell. */
  private async lookAtWorkspace(): Promise<void> {
    if (this.ctx.now() - this.workspaceSeenAt < WORKSPACE_CHECK_MS) return;
    const { client, workspaceId } = this.ctx.opts;
    await ofWorkspace(workspaceId, () => client.getWorkspace(workspaceId));
    this.workspaceSeenAt = this.ctx.now();
  }

  /**
   * The user's role in the workspace, read at each full walk: a role that may not download
   * costs no download requests. What a role refused is tried again at each walk, whether or not
   * the role read here differs: it may have gone down and back up between two walks.
   */
  private async readRole(): Promise<void> {
    const { client, journal, workspaceId } = this.ctx.opts;
    const workspace = await ofWorkspace(workspaceId, () => client.getWorkspace(workspaceId));
    this.workspaceSeenAt = this.ctx.now();
    const role = workspace.effective_role ?? '';
    if (journal.meta.get('role') !== role) journal.meta.set('role', role);
    this.ctx.state.markDirty(this.ctx.state.refusals.clear().map(parentOf));
  }
}
