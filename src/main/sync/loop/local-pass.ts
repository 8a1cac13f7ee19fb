import type { JournalItem } from '../../journal/journal';
import type { SyncSummary } from '../../../shared/sync-status';
import { englishOf, type Words } from '../../../shared/i18n';
import { readFeed } from '../detect-remote/feed';
import { parentOf } from '../paths';
import { freshUploads } from '../up/fresh';
import { holdReplaced, jobCount, planUp, type UpPlan } from '../up/plan';
import { hasWork, scanAndPlan, type LocalPlan } from '../up/reconcile';
import { Sender, type SendResult } from '../up/send';
import type { LocalScan } from '../detect-local/scan';
import { KEPT_WORDS_KEY, holdsAny, unplacedPaths } from '../unplaced';
import { askWalk, feedMemory, walkDue, type LoopContext } from './context';
import { guardLocalDeletes, type LocalDeleteHold } from './local-guard';
import { DEFAULT_DELETE_GUARD } from './options';
import { checkWorkspace } from './root';
import {
  dropArrivedPlaceholders,
  dropStalePlaceholders,
  keepWrittenPlaceholders,
} from './written-placeholders';
import { holdsOnline } from '../placeholder';

/** Why a local name is not synced, and what to do: one line for the status, as words. */
function badNameWords(problem: string): { message: string; words: Words } {
  const words: Words =
    problem === 'encoding' || problem === 'encoding-folder'
      ? { key: 'engine.badEncoding', params: { folder: problem === 'encoding' ? 'no' : 'yes' } }
      : // `kind` selects the sentence (ICU selectors are plain words); `problem` is said as it is.
        { key: 'engine.badName', params: { kind: problem.replace(/-/g, '_'), problem } };
  return { message: englishOf(words), words };
}

/** What the scan found and the plan made of it. */
interface Scanned {
  scan: LocalScan;
  plan: LocalPlan;
}

/** What a send did: the jobs as sent, whether deletes waited, and what the sender learnt. */
interface Sent {
  up: UpPlan;
  deferred: boolean;
  result: SendResult;
}

/** What a local pass tells the loop. */
export interface LocalPassResult {
  /** It did something (sent, recorded, or left work for the next passes). */
  did: boolean;
  /** Something must be looked at again shortly (files being written, a removal seen once). */
  wait: boolean;
}

/**
 * The local pass, up: detect (scan what changed on disk) → reconcile with the journal
 * (up/reconcile.ts) → plan the jobs (up/plan.ts) → send them (up/send.ts, each mutation an intent
 * first) → record. What sending learns comes back as data: folders to scan again, items for the
 * next remote pass to bring down, a walk due.
 */
export class LocalPass {
  /** Deletes held back by the guard, until confirmed. */
  private deleteHold: LocalDeleteHold | null = null;

  constructor(
    private readonly ctx: LoopContext,
    private deletesConfirmed = ctx.opts.confirmDeletes ?? false,
  ) {}

  /** The deletes held back, as the status and hosts see them (a copy). */
  held(): LocalDeleteHold | null {
    return this.deleteHold && { ...this.deleteHold };
  }

  /** The person confirmed (applied by the loop between passes): held deletes go on. */
  confirmDeletes(): void {
    this.deletesConfirmed = true;
    this.deleteHold = null;
  }

  /**
   * One pass, as named steps: scan and plan (`scanAndPlan`) → record what the scan saw
   * (`recordScan`) → guard the deletes → send (`send`) → record what the send learnt
   * (`recordSend`). `recheck`: files still being written were found in these folders; the loop
   * looks again once they are quiet (at `at`, epoch ms).
   */
  async run(
    summary: SyncSummary,
    signal: AbortSignal | undefined,
    recheck: (dirs: string[], at: number) => void,
  ): Promise<LocalPassResult> {
    const { state, status } = this.ctx;
    const { journal } = this.ctx.opts;
    const dirty = state.dirty;
    state.dirty = new Set();
    state.localPasses++;
    const full = dirty === 'all';
    const none: LocalPassResult = { did: false, wait: false };
    if (!full && dirty.size === 0 && journal.outbox.open().length === 0) return none;
    const { scan, plan } = await this.scanAndPlan(dirty, full);
    const stillWriting = this.recordScan(scan, plan, dirty, recheck);
    const keptWritten = keepWrittenPlaceholders(this.ctx, plan.written ?? []);
    dropArrivedPlaceholders(this.ctx, plan.arrived ?? []);
    dropStalePlaceholders(this.ctx, plan.stale ?? []);
    const toSend = this.guardDeletes(plan, full);
    const kept = this.keepUnplaced(plan.kept, full);
    const wait = plan.unconfirmed.length > 0 || stillWriting > 0;
    if (stillWriting > 0) {
      // Not "up to date" while files wait to be uploaded.
      status.setState('syncing', { key: 'engine.waitingWritten', params: { n: stillWriting } });
    }
    if (!hasWork(toSend) && journal.outbox.open().length === 0) {
      this.forget(plan.kept);
      return { did: kept || keptWritten, wait };
    }
    const sent = await this.send(toSend, scan);
    // After the send: an item moved out of such a folder here went with its move, records and all.
    this.forget(plan.kept);
    const did = await this.recordSend(summary, plan, sent);
    return { did: did || kept || keptWritten || plan.relinks.length > 0, wait };
  }

  /** Detect and reconcile: the dirty folders (or all) scanned and matched with the journal. */
  private async scanAndPlan(dirty: Set<string> | 'all', full: boolean): Promise<Scanned> {
    const { state, local } = this.ctx;
    const { journal } = this.ctx.opts;
    const scanStarted = Date.now();
    const { scan, plan } = await scanAndPlan(local, journal, full ? [''] : [...dirty], full, {
      rootId: this.ctx.rootId,
      missingBefore: state.missingBefore,
      ignores: this.ctx.ignores,
      descend: full
        ? () => true
        : (e) => !journal.items.byInode(e.dev, e.ino).some((j) => j.localPath === e.path),
      writeQuietMs: this.ctx.writeQuietMs,
    });
    this.ctx.log.debug('local plan', {
      ms: Date.now() - scanStarted,
      relinks: plan.relinks.length,
      mkdirs: plan.mkdirs.map((o) => o.entry.path),
      moves: plan.moves.map((o) => `${o.item.localPath} -> ${o.entry.path}`),
      uploads: plan.uploads.map((o) => o.entry.path),
      newFiles: plan.fresh.files,
      newFileFolders: plan.fresh.dirs.size,
      deletes: plan.deletes.map((o) => o.item.localPath),
      unconfirmed: plan.unconfirmed.length,
    });
    return { scan, plan };
  }

  /**
   * What the scan saw, recorded before anything is sent: bad names as problems (and those gone
   * cleared), conflicts checked, removals seen once remembered, folders with files still being
   * written asked to be looked at again. Returns how many files are still being written.
   */
  private recordScan(
    scan: LocalScan,
    plan: LocalPlan,
    dirty: Set<string> | 'all',
    recheck: (dirs: string[], at: number) => void,
  ): number {
    const { state, status, local } = this.ctx;
    for (const bad of scan.badNames) {
      status.addProblem({
        path: bad.path,
        remoteId: null,
        ...(bad.words
          ? { reason: 'local', message: englishOf(bad.words), words: bad.words }
          : { reason: 'name', ...badNameWords(bad.problem) }),
      });
    }
    const badNames = new Set(scan.badNames.map((b) => b.path));
    if (dirty === 'all') status.clearStalePathProblems(badNames, state.refusals, local);
    else status.clearGonePathProblems(dirty, badNames, state.refusals, local);
    // Where the engine learns of local changes: a conflict whose copy or original is gone is over.
    status.checkConflicts();
    state.missingBefore = new Set(plan.unconfirmed.map((j) => j.remoteId));
    state.markDirty(plan.unconfirmed.map((j) => parentOf(j.localPath)));
    const stillWriting = [...scan.entries.values()].filter((e) => e.stillWriting);
    if (stillWriting.length > 0) {
      recheck(
        stillWriting.map((e) => parentOf(e.path)),
        scan.writeQuietAt!,
      );
    }
    return stillWriting.length;
  }

  /**
   * Plan the jobs and send them, in one journal batch (each mutation an intent first). Deletes
   * wait when the service moved on since the remote pass (`deferred`).
   */
  private async send(toSend: LocalPlan, scan: LocalScan): Promise<Sent> {
    const { status, local } = this.ctx;
    const { journal } = this.ctx.opts;
    let up = planUp(toSend, scan, {
      movesSupported: this.ctx.moves.supported,
      rootId: this.ctx.rootId,
      folderAt: (p) => {
        const j = journal.items.atPath(p);
        return j?.kind === 'folder' && j.state === 'synced' ? j : undefined;
      },
      holdsOnline: (j) => holdsOnline(journal, j),
    });
    const sending: Words = { key: 'engine.sending' };
    status.setState('syncing', sending);
    status.beginWork(
      jobCount(up),
      up.uploads.reduce((n, u) => n + u.entry.size, up.fresh.bytes),
      sending,
    );
    const sender = this.sender();
    let deferred = false;
    await journal.batch(async () => {
      await sender.resolveOpenIntents();
      sender.relink(up.relinks);
      if (up.replaced.length > 0) {
        if (await this.serviceMoved()) up = holdReplaced(up);
        else await sender.deletes(up.replaced);
      }
      await sender.structure(up);
      await sender.uploads(up.uploads);
      if (up.fresh.files > 0) {
        await sender.uploadChunks(
          freshUploads(local, journal, up.fresh.dirs, {
            ignores: this.ctx.ignores,
            writeQuietMs: this.ctx.writeQuietMs,
          }),
        );
      }
      await sender.retire(up.retires);
      if (up.deletes.length > 0) {
        // The service moved on since the remote pass: it is applied first, so that a change
        // made there to something deleted here wins.
        if (await this.serviceMoved()) deferred = true;
        else await sender.deletes(up.deletes);
      }
    });
    return { up, deferred, result: sender.result };
  }

  /**
   * What the send learnt, handed to the next passes as data (items to fetch, folders to scan,
   * a walk due). Returns whether the send did something.
   */
  private async recordSend(
    summary: SyncSummary,
    plan: LocalPlan,
    { up, deferred, result }: Sent,
  ): Promise<boolean> {
    const { opts, state, status } = this.ctx;
    const { journal } = opts;
    // The service did not find something this send worked on: when it is the workspace itself
    // (deleted, no longer shared), that stops syncing (state 'gone') instead of "up to date".
    if (result.recheckRemote) await checkWorkspace(opts.client, opts.workspaceId);
    status.addCounts(summary, result);
    state.fetch.push(...result.fetch);
    if (result.rescan.size > 0) state.markDirty(result.rescan);
    // Where removals seen once are now: a move in this send may have carried them along.
    state.markDirty(this.parentsNow(plan.unconfirmed));
    if (deferred) {
      // Seen missing already: after the remote pass, the next local pass sends them.
      for (const d of up.deletes) state.missingBefore.add(d.item.remoteId);
      state.markDirty(this.parentsNow(up.deletes.map((d) => d.item)));
    }
    if (result.walkNeeded) askWalk(journal, { kind: 'send-kept' });
    return (
      result.remoteFoldersCreated + result.uploaded + result.remoteMoved + result.remoteDeleted >
        0 ||
      result.fetch.length > 0 ||
      result.rescan.size > 0 ||
      result.walkNeeded ||
      result.movesUnsupported ||
      deferred
    );
  }

  /** Resolves what a crash or a failed pass left open; returns the folders to look at again. */
  resolveOpenIntents(): Promise<ReadonlySet<string>> {
    const sender = this.sender();
    return this.ctx.opts.journal.batch(() => sender.resolveOpenIntents());
  }

  /**
   * Whether the service changed since this round's remote pass: asked of the feed (one count)
   * before deletes go, between two jobs of the send. A walk still due means events were read but
   * not applied: the journal is behind.
   */
  private async serviceMoved(): Promise<boolean> {
    const { client, journal, workspaceId } = this.ctx.opts;
    if (walkDue(journal) !== null) return true;
    const feed = await readFeed(client, workspaceId, feedMemory(journal), {
      overlapMs: this.ctx.overlapMs,
      peek: true,
    });
    return feed.kind !== 'quiet';
  }

  private sender(): Sender {
    const { opts, state, status } = this.ctx;
    return new Sender({
      client: opts.client,
      moves: this.ctx.moves,
      journal: opts.journal,
      local: this.ctx.local,
      workspaceId: opts.workspaceId,
      rootId: this.ctx.rootId,
      profile: this.ctx.profile,
      log: this.ctx.log,
      concurrency: this.ctx.concurrency,
      refusals: state.refusals,
      step: opts.outboxStep,
      events: status.progressEvents(state.refusals, 'up'),
    });
  }

  /** The folders that hold these items now, by the journal. */
  private parentsNow(items: readonly JournalItem[]): string[] {
    const { journal } = this.ctx.opts;
    return items.map((j) => parentOf(journal.items.get(j.remoteId)?.localPath ?? j.localPath));
  }

  /**
   * Folders removed here that hold items of the service never placed here (sync/unplaced.ts): not
   * deleted there. Their records are forgotten (`forget`, after the send), so that the walk asked
   * for brings them back down (as far as they fit), and a problem on each says why. Such a
   * problem ends when nothing below its folder is left unplaced (seen at a full scan), or with
   * the folder on the service. Returns whether a folder was kept.
   */
  private keepUnplaced(kept: readonly JournalItem[], full: boolean): boolean {
    const { journal } = this.ctx.opts;
    const { status } = this.ctx;
    if (full) {
      const unplaced = unplacedPaths(journal);
      for (const p of journal.problems.all()) {
        if (p.words?.key !== KEPT_WORDS_KEY || p.remoteId === null) continue;
        if (!holdsAny(p.path, unplaced) && journal.items.get(p.remoteId))
          status.clearProblem(p.remoteId);
      }
    }
    for (const j of kept) {
      const words: Words = { key: KEPT_WORDS_KEY, params: { path: j.localPath } };
      status.addProblem({
        path: j.localPath,
        remoteId: j.remoteId,
        reason: 'local',
        message: englishOf(words),
        words,
      });
      this.ctx.log.warn('a folder removed here holds items never placed here: not deleted', {
        path: j.localPath,
      });
    }
    if (kept.length > 0) askWalk(journal, { kind: 'folder-kept' });
    return kept.length > 0;
  }

  /** The records of kept folders (where they are now), and of what is still below them. */
  private forget(kept: readonly JournalItem[]): void {
    const { journal } = this.ctx.opts;
    for (const j of kept) {
      const now = journal.items.get(j.remoteId);
      if (now) journal.items.removeTree(now);
    }
  }

  /**
   * Holds back a pass's deletes when they are too many, until the person confirms. A full scan
   * saw every removal there is now: a hold it does not renew is over (the files were put back,
   * the folder mounted again, as the hold's message advises). A partial one saw only some: a
   * hold stays until a full scan or a confirmation. Returns the plan to send.
   */
  private guardDeletes(plan: LocalPlan, full: boolean): LocalPlan {
    if (full) this.deleteHold = null;
    const { opts } = this.ctx;
    const guard = opts.deleteGuard ?? DEFAULT_DELETE_GUARD;
    const guarded = guardLocalDeletes(plan, opts.journal, guard, this.deletesConfirmed);
    if (guarded.held) {
      this.deleteHold = guarded.held;
      this.ctx.log.warn('mass delete held back', { ...guarded.held });
    }
    return guarded.plan;
  }
}
