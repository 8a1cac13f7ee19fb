import { EventEmitter } from 'node:events';
import { lstatSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ServiceClient } from '../../api/client';
import { ApiError } from '../../api/errors';
import type { Journal, JournalItem } from '../../journal/journal';
import {
  emptySummary,
  initialStatus,
  type SyncConflict,
  type SyncNotice,
  type SyncProblem,
  type SyncBacklog,
  type SyncState,
  type SyncStatus,
  type SyncSummary,
} from '../../../shared/sync-status';
import { SyncFatalError } from '../errors';
import { CACHE_DIR, PARTIAL_DIR, parentOf } from '../paths';
import { Executor, type ExecutionEvents, type ExecutionResult } from '../down/execute';
import { feedStart, readFeed, type FeedChoice, type FeedMemory } from '../detect-remote/feed';
import { LocalRoot } from '../local';
import { probeVolume, type VolumeProfile } from '../names';
import { planChanges } from '../down/plan';
import type { Plan } from '../down/plan-types';
import { silentLogger, type Logger, type Trash } from '../ports';
import { resolveCost, resolveEvents } from '../detect-remote/resolve';
import type { RemoteView } from '../remote';
import { walkRemote } from '../detect-remote/walk';
import { Moves } from '../../api/moves';
import { IgnoreRules } from '../detect-local/ignore';
import { deletedCount, hasWork, scanAndPlan, type LocalPlan } from '../up/reconcile';
import type { OutboxStep, IntentPayload } from '../up/outbox';
import { Pusher, type PushEvents } from '../up/send';
import { watchLocal, type LocalWatcher } from '../detect-local/watch';
import { emptyView } from '../remote';

export interface EngineEvents {
  status: [SyncStatus];
  problem: [SyncProblem];
  /** A conflict and how it was settled. */
  conflict: [SyncConflict];
  /** A limit worked around (the watcher polling, a server without moves). */
  notice: [SyncNotice];
  /** After each round of passes that left nothing to do, with what it did. */
  settled: [SyncSummary];
}

/** Write settling: a file must be left alone this long before it is uploaded. */
export const DEFAULT_SETTLE_MS = 300;

export interface EngineOptions {
  client: ServiceClient;
  workspaceId: number;
  /** The local folder, absolute. */
  root: string;
  journal: Journal;
  trash: Trash;
  log?: Logger;
  /** How often the remote event feed is polled in continuous mode; default 5 s. */
  pollIntervalMs?: number;
  /** The safety net: a full re-walk this often; default 10 minutes. */
  fullWalkIntervalMs?: number;
  /** Requests in flight at once; default 8. */
  concurrency?: number;
  /** Events are re-read from this long before the cursor (late arrivals); default 5 s. */
  overlapMs?: number;
  /** The name rules of the local volume; probed on the sync folder by default. */
  profile?: VolumeProfile;
  /** A file changed less than this long ago is still being written (DEFAULT_SETTLE_MS). */
  settleMs?: number;
  /** When one pass would delete too much on the service, it waits for a confirmation. */
  deleteGuard?: DeleteGuard;
  /** Lets this run's passes delete on the service past the guard (the CLI's --confirm-deletes). */
  confirmDeletes?: boolean;
  /** Watch the disk in `run` (default true); without it, each round scans the whole folder. */
  watch?: boolean;
  /** Crash tests stop the process between an intent, its request and its record. */
  outboxStep?: (step: OutboxStep, op: IntentPayload['op']) => void;
  /** The clock of the walk schedule; the soak moves it to make the safety-net walk due. */
  now?: () => number;
}

/**
 * A pass trips the guard when it would delete on the service more than `maxCount` items, or
 * more than `maxShare` of the synced items once at least `minCount` are involved.
 */
export interface DeleteGuard {
  maxShare: number;
  maxCount: number;
  minCount: number;
}

export const DEFAULT_DELETE_GUARD: DeleteGuard = { maxShare: 0.5, maxCount: 1000, minCount: 10 };

/** Passes one `syncOnce` may make before it stops chasing a service that keeps changing. */
const MAX_PASSES = 50;
/** More new events than a page: a burst, left to end before it is handled (continuous mode). */
const BURST_EVENTS = 30;
/** A burst that never ends is handled after this long all the same. */
const MAX_HOLD_MS = 60_000;
const MAX_BACKOFF_MS = 60_000;
/** A removal seen once by a partial scan is looked at again after this (the other half of a move). */
const CONFIRM_DELAY_MS = 100;
const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);
/** Roles that may list and read metadata but not download (conventions.md, Roles). */
const NO_DOWNLOAD_ROLES = new Set(['Printer', 'Viewer']);

interface Failure {
  kind: string;
  message: string;
  /** Worth trying again by itself later (the service down, a full disk being cleaned). */
  transient: boolean;
  fatal: SyncFatalError | null;
}

/** Sorts an error into what the engine does with it and what the person is told. */
export function describeFailure(err: unknown): Failure {
  if (err instanceof SyncFatalError) {
    return { kind: err.kind, message: err.message, transient: false, fatal: err };
  }
  if (err instanceof ApiError) {
    if (err.kind === 'not-authenticated') {
      const fatal = new SyncFatalError(
        'signed-out',
        'You are signed out: sign in again to continue syncing.',
      );
      return { kind: 'signed-out', message: fatal.message, transient: false, fatal };
    }
    if (err.kind === 'network' || err.kind === 'rate-limited' || err.retryable) {
      return { kind: 'offline', message: err.message, transient: true, fatal: null };
    }
    return { kind: err.kind, message: err.message, transient: true, fatal: null };
  }
  const code = (err as NodeJS.ErrnoException | null)?.code;
  // A body cut off mid-stream surfaces as undici's or the socket's own error, not an ApiError.
  if (code && (code.startsWith('UND_ERR') || NETWORK_CODES.has(code))) {
    return {
      kind: 'offline',
      message: `The connection to the service broke (${code}).`,
      transient: true,
      fatal: null,
    };
  }
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return {
      kind: 'disk-full',
      message: 'The disk is full: free some space; syncing goes on by itself.',
      transient: true,
      fatal: null,
    };
  }
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return {
      kind: 'local-access',
      message: `The sync folder cannot be written (${code}): check its permissions.`,
      transient: true,
      fatal: null,
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { kind: 'internal', message, transient: true, fatal: null };
}

/**
 * The sync engine: detect (remote walk or event feed) → reconcile against the journal → plan →
 * execute → record, pass after pass. It knows nothing of Electron; its status is plain data,
 * emitted as `status` events for the CLI, the tray and the window.
 */
export class SyncEngine extends EventEmitter<EngineEvents> {
  private st: SyncStatus = initialStatus();
  private readonly log: Logger;
  private readonly concurrency: number;
  private pollIntervalMs: number;
  /** Gitignore lines beyond the root's ignore file (the app's settings; `setExtraIgnore`). */
  private extraIgnore: readonly string[] = [];
  private readonly fullWalkIntervalMs: number;
  private readonly now: () => number;
  private readonly overlapMs: number;
  private local: LocalRoot | null = null;
  private profile: VolumeProfile | null = null;
  private rootId: number | null = null;
  private lastEmit = 0;
  private emitTimer: NodeJS.Timeout | null = null;
  private paused = false;
  private wake: (() => void) | null = null;
  private readonly moves: Moves;
  private ignore: IgnoreRules | null = null;
  /** Synced items a remote pass found missing here, with the local passes run by then. */
  private readonly missingHere = new Map<number, number>();
  private localPasses = 0;
  /** Folders to look at in the next local pass; 'all' for a full scan. */
  private dirty: Set<string> | 'all' = 'all';
  /** Synced items a partial scan found missing: deleted on the second look. */
  private missingBefore = new Set<number>();
  private readonly refused = new Map<string, string>();
  private settleTimer: NodeJS.Timeout | null = null;
  /** Folders holding files still being written. */
  private settling = new Set<string>();
  private watcher: LocalWatcher | null = null;
  /** Deletes held back by the guard, until `confirmDeletes`. */
  private deleteHold: { count: number; total: number } | null = null;
  private deletesConfirmed: boolean;
  private readonly settleMs: number;
  /** A burst of remote changes left to end before it is handled: its size when last seen. */
  private burst: { unread: number; since: number } | null = null;

  /**
   * Why the next pass must be a full walk, or null. Kept in the journal: events read but not
   * applied (the cursor has moved past them) are only known through it after a crash.
   */
  private get walkDue(): string | null {
    return this.opts.journal.getMeta('walk_due') ?? null;
  }

  private set walkDue(reason: string | null) {
    this.opts.journal.setMeta('walk_due', reason);
  }

  constructor(readonly opts: EngineOptions) {
    super();
    this.log = opts.log ?? silentLogger;
    this.concurrency = opts.concurrency ?? 8;
    this.pollIntervalMs = opts.pollIntervalMs ?? 5_000;
    this.fullWalkIntervalMs = opts.fullWalkIntervalMs ?? 10 * 60_000;
    this.now = opts.now ?? Date.now;
    this.overlapMs = opts.overlapMs ?? 5_000;
    this.st.problems = this.storedProblems();
    this.moves = new Moves(opts.client);
    this.settleMs = opts.settleMs ?? DEFAULT_SETTLE_MS;
    this.deletesConfirmed = opts.confirmDeletes ?? false;
  }

  /** Lets the deletes the guard held back go to the service (the person confirmed them). */
  confirmDeletes(): void {
    this.deletesConfirmed = true;
    this.deleteHold = null;
    this.dirty = 'all';
    this.poke();
  }

  /** Deletes waiting for a confirmation, if any. */
  heldDeletes(): { count: number; total: number } | null {
    return this.deleteHold && { ...this.deleteHold };
  }

  /** Marks local folders to look at (the watcher's reports; also usable by hosts). */
  markDirty(dirs: Iterable<string>): void {
    if (this.dirty === 'all') return;
    for (const d of dirs) this.dirty.add(d);
    this.poke();
  }

  status(): SyncStatus {
    return structuredClone(this.st);
  }

  /** Stops syncing after the current step until `resume` (continuous mode). */
  pause(): void {
    this.paused = true;
    this.setState('paused', 'Paused');
  }

  resume(): void {
    this.paused = false;
    this.poke();
  }

  /** A new remote poll interval, from the next wait on (the current one ends now). */
  setPollInterval(ms: number): void {
    if (!Number.isFinite(ms) || ms <= 0) throw new RangeError(`poll interval ${ms} ms`);
    this.pollIntervalMs = ms;
    this.poke();
  }

  /**
   * New extra ignore lines. The whole folder is scanned again: a name no longer ignored is
   * synced, and a synced item now ignored stays on the service (the local pass never deletes
   * what it ignores).
   */
  setExtraIgnore(lines: readonly string[]): void {
    this.extraIgnore = [...lines];
    this.ignore = null;
    this.dirty = 'all';
    // The watcher never watched what the old rules hid: the next round starts a fresh one.
    const watcher = this.watcher;
    this.watcher = null;
    void watcher?.close();
    this.poke();
  }

  /** Asks for a full walk on the next pass (and starts it now in continuous mode). */
  requestFullWalk(reason = 'asked for'): void {
    this.walkDue = reason;
    this.poke();
  }

  /** Syncs until nothing is left to do; throws SyncFatalError or an ApiError on failure. */
  async syncOnce(signal?: AbortSignal): Promise<SyncSummary> {
    const summary = emptySummary();
    try {
      await this.prepare();
      this.dirty = 'all';
      await this.settle(summary, signal, true);
      if (this.deleteHold) throw this.massDeleteError();
      this.setIdle();
      this.emit('settled', summary);
      return summary;
    } catch (err) {
      const failure = describeFailure(err);
      this.fail(failure);
      throw failure.fatal ?? err;
    }
  }

  /** Syncs continuously until `signal` aborts; rejects with SyncFatalError when it must stop. */
  async run(signal: AbortSignal): Promise<void> {
    let failures = 0;
    const onAbort = () => this.poke();
    signal.addEventListener('abort', onAbort);
    try {
      while (!signal.aborted) {
        if (this.paused) {
          // Said again here: a pass that was running when pause came ended as 'idle'.
          this.setState('paused', 'Paused');
          await this.sleep(this.pollIntervalMs, signal);
          continue;
        }
        try {
          await this.prepare();
          await this.startWatching();
          const summary = emptySummary();
          await this.settle(summary, signal);
          failures = 0;
          this.setIdle();
          this.emit('settled', summary);
          await this.sleep(this.pollIntervalMs, signal);
        } catch (err) {
          if (signal.aborted) break;
          const failure = describeFailure(err);
          this.fail(failure);
          if (failure.fatal) throw failure.fatal;
          failures++;
          const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(failures - 1, 6));
          const wait = Math.round(delay / 2 + (Math.random() * delay) / 2);
          this.setState(
            failure.kind === 'offline' ? 'offline' : 'error',
            `${failure.kind === 'offline' ? 'Offline' : failure.message}: trying again in ${Math.ceil(wait / 1000)} s`,
          );
          await this.sleep(wait, signal);
        }
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      if (this.settleTimer) clearTimeout(this.settleTimer);
      await this.watcher?.close();
      this.watcher = null;
      this.flushStatus();
    }
  }

  private async startWatching(): Promise<void> {
    if (this.watcher || this.opts.watch === false) return;
    // Changes made while the watcher starts are caught by the full scan that follows.
    this.dirty = 'all';
    this.watcher = await watchLocal({
      root: this.opts.root,
      ignore: (rel: string, isDir: boolean) => this.ignores(rel, isDir),
      onChange: (dirs: Set<string>) => this.markDirty(dirs),
      onWarning: (message: string) => {
        this.log.warn(message);
        this.notice(message);
      },
      log: this.log,
    });
  }

  private ignores(rel: string, isDir: boolean): boolean {
    this.ignore ??= this.loadIgnore();
    return this.ignore.ignores(rel, isDir);
  }

  private loadIgnore(): IgnoreRules {
    const rules = IgnoreRules.load(this.opts.root, this.extraIgnore);
    for (const problem of rules.problems) this.log.warn('ignore rule skipped', { problem });
    return rules;
  }

  private massDeleteError(): SyncFatalError {
    const hold = this.deleteHold!;
    return new SyncFatalError(
      'mass-delete',
      `${hold.count} of ${hold.total} synced items were removed from the sync folder; nothing was deleted on the service. If you meant it, run again with --confirm-deletes (or confirm in the app); if not, put the files back (or check that the folder is mounted).`,
    );
  }

  // The pipeline

  /**
   * Rounds of a remote pass then a local pass, until neither finds anything to do. The remote
   * side goes first: a change made there is on disk (or kept beside local work) before local
   * changes are sent, so a delete here never wins over a change there.
   */
  private async settle(summary: SyncSummary, signal?: AbortSignal, once = false): Promise<void> {
    await this.settleOpenIntents();
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      if (signal?.aborted) return;
      const remote = await this.pass(summary, signal, once);
      if (signal?.aborted) return;
      const local = await this.localPass(summary, signal);
      if (local === 'wait') {
        // Files still being written, or a removal seen once: look again shortly.
        await this.delay(once ? this.settleMs : CONFIRM_DELAY_MS, signal);
        continue;
      }
      if (!remote && !local) return;
    }
    this.log.warn('the service kept changing; stopping this round', { passes: MAX_PASSES });
  }

  /**
   * Changes a crash or a failed pass left unfinished are settled by looking at the service before
   * the feed is read: its events for them are then our own, not someone else's.
   */
  private async settleOpenIntents(): Promise<void> {
    const { journal } = this.opts;
    if (journal.openIntents().length === 0) return;
    const pusher = this.pusher();
    this.markDirty(await journal.batch(() => pusher.settleOpen()));
  }

  /** One pass: detect → reconcile → plan → execute → record. Says whether it did anything. */
  private async pass(summary: SyncSummary, signal?: AbortSignal, once = false): Promise<boolean> {
    const { client, journal, workspaceId } = this.opts;
    const rootId = this.rootId!;
    const lastWalk = Number(journal.getMeta('last_walk_ms') ?? NaN);
    if (journal.feedWindow().startMs === null && !Number.isNaN(lastWalk)) {
      // Synced before, but where the feed stands is not known: only a walk can tell.
      this.walkDue ??= 'the position in the event feed was lost';
    }
    const walkReason =
      this.walkDue ??
      (Number.isNaN(lastWalk)
        ? 'first sync'
        : this.now() - lastWalk >= this.fullWalkIntervalMs
          ? 'scheduled check'
          : null);

    if (walkReason !== null) {
      if (journal.feedWindow().startMs === null) {
        // The feed's position before the walk: whatever happens during it is read afterwards.
        const start = await feedStart(client, workspaceId, this.overlapMs);
        journal.recordFeed(start.events, start.window);
      }
      const started = this.now();
      this.setState('scanning', walkMessage(walkReason));
      this.log.info('full walk', { reason: walkReason });
      await this.readRole();
      const view = await walkRemote(client, rootId, {
        concurrency: this.concurrency,
        signal,
        onRefused: (folderId, err) =>
          this.addProblem({
            path: journal.get(folderId)?.localPath ?? '',
            remoteId: folderId,
            reason: 'not-permitted',
            message: err.message,
          }),
      });
      const result = await this.apply(view, true, summary, signal);
      journal.setMeta('last_walk_ms', started);
      this.walkDue = result.recheck ? 'the disk was not as recorded' : null;
      this.setBacklog(null);
      return true;
    }

    const feed = await readFeed(client, workspaceId, this.feedMemory(), {
      overlapMs: this.overlapMs,
      choose: (c) => this.chooseFeed(c, once),
    });
    switch (feed.kind) {
      case 'quiet':
      case 'changed':
        if (feed.kind === 'quiet' && feed.next) journal.recordFeed([], feed.next);
        this.setBacklog(null);
        return false;
      case 'wait':
        this.setBacklog({
          changes: feed.unread,
          reason: `${count(feed.unread, 'change')} on the service, still arriving: applied once they stop`,
        });
        return false;
      case 'walk':
        // Cheaper than reading each: one walk, and the feed resumes past what it covers.
        this.log.info('events need a full walk', { reason: feed.reason, unread: feed.unread });
        journal.transaction(() => {
          this.walkDue = feed.reason;
          journal.recordFeed(feed.events, feed.next);
        });
        this.setBacklog(
          feed.unread > 0
            ? {
                changes: feed.unread,
                reason: `${count(feed.unread, 'change')} on the service: listing every folder once is quicker than reading each`,
              }
            : null,
        );
        return true;
      case 'events':
        break;
    }
    this.setBacklog(null);
    if (feed.refs.length === 0) {
      journal.recordFeed(feed.events, feed.next);
      return false;
    }
    this.setState('syncing', `Applying ${count(feed.refs.length, 'change')} from the service`);
    const resolution = await resolveEvents(client, journal, rootId, feed.refs, {
      concurrency: this.concurrency,
      maxRequests: () => this.walkCost(),
    });
    if (resolution.walk) {
      this.log.info('events need a full walk', { reason: resolution.walk });
      journal.transaction(() => {
        this.walkDue = resolution.walk;
        journal.recordFeed(feed.events, feed.next);
      });
      return true;
    }
    const { view } = resolution;
    const result = await this.apply(view, false, summary, signal);
    // Only now: a crash before this point re-reads the same events, which is harmless. Changes
    // left waiting are then known only by the walk due, so both are written at once.
    journal.transaction(() => {
      if (result.recheck) this.walkDue = 'the disk was not as recorded';
      journal.recordFeed(feed.events, feed.next);
    });
    // Events that were this client's own changes, read back, resolve to nothing.
    return view.items.size > 0 || view.gone.size > 0;
  }

  private feedMemory(): FeedMemory {
    const { journal } = this.opts;
    return {
      window: journal.feedWindow(),
      hasSeen: (id) => journal.hasSeen(id),
      seenSince: (ms) => journal.seenSince(ms),
    };
  }

  /** About what a full walk costs: a listing per folder, and a page per 60 entries. */
  private walkCost(): number {
    const { journal } = this.opts;
    return 1 + journal.folderCount() + Math.ceil(journal.count() / 60);
  }

  /**
   * Reading the rest of a burst, or a walk: whichever costs fewer requests. In continuous mode a
   * burst still growing is first left to end (one request a poll), so that it is handled once.
   */
  private chooseFeed(c: FeedChoice, once: boolean): 'read' | 'walk' | 'wait' {
    const now = this.now();
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
    const cost = resolveCost(this.opts.journal, c.sample);
    const scale = c.sample.length > 0 ? c.unread / c.sample.length : 0;
    const read = c.pagesLeft + (c.sample.length > 0 ? cost.requests * scale : c.unread);
    const walk = this.walkCost() + cost.newFolders * scale;
    this.log.debug('feed: read or walk', {
      unread: c.unread,
      sample: c.sample.length,
      ...cost,
      read,
      walk,
    });
    return walk < read ? 'walk' : 'read';
  }

  /**
   * One local pass: scan what changed on disk → reconcile with the journal → plan → send (each
   * mutation an intent first) → record. Says whether it did anything, or 'wait' when something
   * must be looked at again shortly.
   */
  private async localPass(summary: SyncSummary, signal?: AbortSignal): Promise<boolean | 'wait'> {
    const { journal } = this.opts;
    const dirty = this.dirty;
    this.dirty = new Set();
    this.localPasses++;
    const full = dirty === 'all';
    if (!full && dirty.size === 0 && journal.openIntents().length === 0) return false;
    if (full || dirty.has('')) this.ignore = this.loadIgnore();
    const scanStarted = Date.now();
    const { scan, plan } = await scanAndPlan(this.local!, journal, full ? [''] : [...dirty], full, {
      rootId: this.rootId!,
      missingBefore: this.missingBefore,
      ignores: (rel, isDir) => this.ignores(rel, isDir),
      descend: full
        ? () => true
        : (e) => !journal.byInode(e.dev, e.ino).some((j) => j.localPath === e.path),
      settleMs: this.settleMs,
    });
    for (const bad of scan.badNames) {
      this.addProblem({
        path: bad.path,
        remoteId: null,
        reason: 'name',
        message: `This name cannot be synced (${bad.problem === 'separator' ? 'it holds a backslash' : bad.problem === 'control' ? 'it holds a control character' : bad.problem}): rename it to sync it.`,
      });
    }
    if (full) this.clearStalePathProblems(new Set(scan.badNames.map((b) => b.path)));
    this.missingBefore = new Set(plan.unconfirmed.map((j) => j.remoteId));
    this.markDirty(plan.unconfirmed.map((j) => parentOf(j.localPath)));
    const settling = [...scan.entries.values()].filter((e) => e.settling);
    if (settling.length > 0) {
      this.recheckLater(
        settling.map((e) => parentOf(e.path)),
        scan.settlesAt!,
      );
    }
    this.log.debug('local plan', {
      ms: Date.now() - scanStarted,
      relinks: plan.relinks.length,
      mkdirs: plan.mkdirs.map((o) => o.entry.path),
      moves: plan.moves.map((o) => `${o.item.localPath} -> ${o.entry.path}`),
      uploads: plan.uploads.map((o) => o.entry.path),
      deletes: plan.deletes.map((o) => o.item.localPath),
      unconfirmed: plan.unconfirmed.length,
    });
    this.guardDeletes(plan);
    const wait = plan.unconfirmed.length > 0 || settling.length > 0;
    if (settling.length > 0) {
      // Not "up to date" while files wait to be uploaded.
      this.setState(
        'syncing',
        `Waiting for ${settling.length} file${settling.length === 1 ? '' : 's'} to finish being written`,
      );
    }
    if (!hasWork(plan) && journal.openIntents().length === 0) return wait ? 'wait' : false;

    this.setState('syncing', 'Sending changes to the service');
    const total =
      plan.mkdirs.length + plan.moves.length + plan.uploads.length + plan.deletes.length;
    this.st.items = { done: 0, total };
    this.st.bytes = { done: 0, total: plan.uploads.reduce((n, u) => n + u.entry.size, 0) };
    const pusher = this.pusher();
    const result = await journal.batch(() => pusher.run(plan));
    this.addCounts(summary, result);
    if (!signal?.aborted && result.fetch.length > 0) {
      // Changed on the service too: its version comes down, local work is kept beside it.
      const view = emptyView(this.rootId!, false);
      for (const item of result.fetch) view.items.set(item.id, item);
      await this.apply(view, false, summary, signal);
    }
    if (result.rescan.size > 0) this.markDirty(result.rescan);
    // Where removals seen once are now: a move in this push may have carried them along.
    this.markDirty(this.parentsNow(plan.unconfirmed));
    if (result.deletesDeferred) {
      // Seen missing already: after the remote pass, the next local pass sends them.
      for (const d of plan.deletes) this.missingBefore.add(d.item.remoteId);
      this.markDirty(this.parentsNow(plan.deletes.map((d) => d.item)));
    }
    if (result.walkNeeded) this.walkDue ??= 'a change the role refused is put back';
    const did =
      result.remoteFoldersCreated + result.uploaded + result.remoteMoved + result.remoteDeleted >
        0 ||
      result.fetch.length > 0 ||
      result.rescan.size > 0 ||
      result.walkNeeded ||
      result.deletesDeferred ||
      plan.relinks.length > 0;
    return did || (wait ? 'wait' : false);
  }

  /** Sends local changes: each mutation an intent in the outbox first (push.ts). */
  private pusher(): Pusher {
    return new Pusher({
      client: this.opts.client,
      moves: this.moves,
      journal: this.opts.journal,
      local: this.local!,
      workspaceId: this.opts.workspaceId,
      rootId: this.rootId!,
      profile: this.profile!,
      log: this.log,
      concurrency: this.concurrency,
      ignores: (rel, isDir) => this.ignores(rel, isDir),
      refused: this.refused,
      serviceChanged: async () => {
        // A walk still due means events were read but not applied: the journal is behind.
        if (this.walkDue !== null) return true;
        const feed = await readFeed(this.opts.client, this.opts.workspaceId, this.feedMemory(), {
          overlapMs: this.overlapMs,
          peek: true,
        });
        return feed.kind !== 'quiet';
      },
      step: this.opts.outboxStep,
      events: this.progressEvents(),
    });
  }

  /** The folders that hold these items now, by the journal. */
  private parentsNow(items: readonly JournalItem[]): string[] {
    return items.map((j) => parentOf(this.opts.journal.get(j.remoteId)?.localPath ?? j.localPath));
  }

  /** What the executor and the pusher report as they work, into the status. */
  private progressEvents(): ExecutionEvents & PushEvents {
    return {
      begin: (op, path) => {
        this.st.current = { op, path };
        this.touch();
      },
      done: () => {
        this.st.items.done++;
        this.touch();
      },
      bytes: (n) => {
        this.st.bytes.done += n;
        this.touch();
      },
      problem: (p) => this.addProblem(p),
      solved: (remoteId) => this.clearProblem(remoteId),
      sent: (path) => this.clearPathProblem(path),
      note: (path, message) => this.note(path, message),
      notice: (message) => this.notice(message),
    };
  }

  /** Holds back a pass's deletes when they are too many, until the person confirms. */
  private guardDeletes(plan: LocalPlan): void {
    const count = deletedCount(plan);
    if (count === 0) return;
    const guard = this.opts.deleteGuard ?? DEFAULT_DELETE_GUARD;
    const total = Math.max(1, this.opts.journal.count());
    const tooMany =
      count > guard.maxCount || (count >= guard.minCount && count / total > guard.maxShare);
    if (!tooMany || this.deletesConfirmed) return;
    plan.deletes = [];
    this.deleteHold = { count, total };
    this.log.warn('mass delete held back', { count, total });
  }

  /** Adds a stage's counts (the executor's, the pusher's) to the round's summary. */
  private addCounts(
    summary: SyncSummary,
    counts: Partial<Record<keyof SyncSummary, unknown>>,
  ): void {
    for (const key of Object.keys(summary) as (keyof SyncSummary)[]) {
      const n = counts[key];
      if (key !== 'problems' && typeof n === 'number') summary[key] = (summary[key] ?? 0) + n;
    }
    summary.problems = this.st.problems.length;
  }

  /** Looks at folders again once the files being written in them have settled. */
  private recheckLater(dirs: string[], at: number): void {
    for (const d of dirs) this.settling.add(d);
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(
      () => {
        this.settleTimer = null;
        const pending = this.settling;
        this.settling = new Set();
        this.markDirty(pending);
      },
      Math.max(10, at - Date.now() + 5),
    );
  }

  private note(path: string, message: string): void {
    const conflict = { path, message, at: Date.now() };
    this.st.conflicts.push(conflict);
    this.emit('conflict', conflict);
    if (this.st.conflicts.length > 50) this.st.conflicts.splice(0, this.st.conflicts.length - 50);
    this.log.info('conflict', { path, message });
    this.touch();
  }

  private notice(message: string): void {
    if (this.st.notices.some((n) => n.message === message)) return;
    const notice = { message, at: Date.now() };
    this.st.notices.push(notice);
    this.emit('notice', notice);
    this.log.info('notice', { message });
    this.touch();
  }

  /** Waits `ms`, or less when `signal` aborts; leaves no listener behind either way. */
  private delay(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  private async apply(
    view: RemoteView,
    full: boolean,
    summary: SyncSummary,
    signal?: AbortSignal,
  ): Promise<ExecutionResult> {
    const { client, journal, trash } = this.opts;
    const role = journal.getMeta('role') ?? '';
    const plan = planChanges(view, journal, {
      profile: this.profile!,
      // At each walk: the role may have dropped and come back since the last one. A role that
      // may not download makes no request for them (mayDownload).
      retryNotPermitted: full,
      mayDownload: !NO_DOWNLOAD_ROLES.has(role),
      deletedHere: (id) => this.deletedHere(id),
    });
    this.beginWork(plan);
    const executor = new Executor({
      client,
      journal,
      local: this.local!,
      trash,
      log: this.log,
      concurrency: this.concurrency,
      signal,
      events: this.progressEvents(),
      mayRecreate: (id) => this.deletedHere(id),
    });
    const result = await journal.batch(() => executor.run(plan));
    this.addCounts(summary, result);
    if (full) {
      for (const id of this.missingHere.keys()) {
        if (!result.waiting.has(id)) this.missingHere.delete(id);
      }
    }
    for (const id of result.waiting) {
      if (!this.missingHere.has(id)) this.missingHere.set(id, this.localPasses);
    }
    this.markDirty(result.rescan);
    // An item gone from the service takes its problem along; while a walk is due (a refused
    // delete waits for it to come back), the journal does not know everything yet.
    if (full || this.walkDue === null) this.clearVanishedProblems();
    return result;
  }

  /**
   * A synced item missing here that the local pass has seen deleted, or has looked at since a
   * remote pass first found it missing: not moved here, so the service's changes to it win.
   */
  private deletedHere(id: number): boolean {
    const since = this.missingHere.get(id);
    return this.missingBefore.has(id) || (since !== undefined && since < this.localPasses);
  }

  private clearVanishedProblems(): void {
    // All of them, not the 200 the status shows: a problem past those would stay for good.
    for (const p of this.allProblems()) {
      if (p.remoteId !== null && !this.opts.journal.get(p.remoteId)) {
        this.opts.journal.clearProblem(problemKey(p.remoteId, ''));
      }
    }
    this.st.problems = this.storedProblems();
  }

  /** A request about the workspace itself: a 404 means it is gone for this user, which stops. */
  private async ofWorkspace<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (err) {
      if (err instanceof ApiError && err.kind === 'not-found') {
        throw new SyncFatalError(
          'workspace-gone',
          `Workspace ${this.opts.workspaceId} does not exist or you no longer have access to it.`,
        );
      }
      throw err;
    }
  }

  /**
   * The user's role in the workspace, read at each full walk: a role that may not download
   * costs no download requests. What a role refused is tried again at each walk, whether or not
   * the role read here differs: it may have gone down and back up between two walks.
   */
  private async readRole(): Promise<void> {
    const { client, journal, workspaceId } = this.opts;
    const workspace = await this.ofWorkspace(() => client.getWorkspace(workspaceId));
    const role = workspace.effective_role ?? '';
    if (journal.getMeta('role') !== role) journal.setMeta('role', role);
    this.markDirty(
      [...this.refused].map(([key, sig]) => parentOf(key.startsWith('delete:') ? sig : key)),
    );
    this.refused.clear();
  }

  /** Checks the sync folder and learns the workspace's root folder, once per start. */
  private async prepare(): Promise<void> {
    const { journal, root, client, workspaceId } = this.opts;
    const st = statSync(root, { throwIfNoEntry: false });
    const dev = journal.getMeta('root_dev');
    const ino = journal.getMeta('root_ino');
    if (dev !== undefined) {
      if (!st) {
        throw new SyncFatalError(
          'root-missing',
          `The sync folder ${root} is missing. If you moved or renamed it, put it back; to start over in a new folder, choose that folder instead. Nothing was deleted on the service.`,
        );
      }
      if (String(st.dev) !== dev || String(st.ino) !== ino) {
        throw new SyncFatalError(
          'root-changed',
          `The sync folder ${root} was replaced by another folder. Syncing stopped so that nothing is deleted on the service; put the original folder back, or sync into a new folder.`,
        );
      }
    } else {
      mkdirSync(root, { recursive: true });
      const now = statSync(root);
      journal.setMeta('root_dev', now.dev);
      journal.setMeta('root_ino', now.ino);
    }
    if (!this.local) {
      this.local = new LocalRoot(root);
      this.profile = this.opts.profile ?? (await probeVolume(root));
      this.setState('starting', 'Starting');
    }
    const cache = lstatSync(this.local.abs(CACHE_DIR), { throwIfNoEntry: false });
    if (cache && !cache.isDirectory()) this.local.moveAside(CACHE_DIR, false);
    this.cleanCache();
    // A pass interrupted while items waited in the holding place: a walk puts them back.
    if (journal.descendants(CACHE_DIR).length > 0) this.walkDue ??= 'items left mid-move';
    if (this.rootId === null) {
      const stored = journal.getMeta('root_folder_id');
      if (stored !== undefined) this.rootId = Number(stored);
      else {
        const folder = await this.ofWorkspace(() => client.rootFolder(workspaceId));
        this.rootId = folder.id;
        journal.setMeta('root_folder_id', folder.id);
        journal.setMeta('workspace_id', workspaceId);
      }
    }
  }

  /** Removes the engine's own leftovers: zips and partial files no download will resume. */
  private cleanCache(): void {
    const partial = this.local!.abs(PARTIAL_DIR);
    let names: string[];
    try {
      names = readdirSync(partial);
    } catch {
      return;
    }
    const resumable = new Set(this.opts.journal.pendingDownloads().map((d) => d.tempName));
    for (const name of names) {
      if (!resumable.has(name) && (name.endsWith('.part') || name.endsWith('.zip'))) {
        rmSync(path.join(partial, name), { force: true });
      }
    }
  }

  // Status

  private beginWork(plan: Plan): void {
    const total = plan.structure.length + plan.trash.length + plan.downloads.length;
    const bytes = plan.downloads.reduce((n, d) => n + d.item.size, 0);
    this.st.items = { done: 0, total };
    this.st.bytes = { done: 0, total: bytes };
    if (total > 0) this.setState('syncing', `Syncing ${total} item${total === 1 ? '' : 's'}`);
  }

  /** Remote changes seen but not applied yet, with why: part of the status, not only a log. */
  private setBacklog(backlog: SyncBacklog | null): void {
    const before = this.st.backlog;
    if (before?.changes === backlog?.changes && before?.reason === backlog?.reason) return;
    this.st.backlog = backlog;
    if (!backlog) return this.touch();
    this.log.info('remote backlog', { ...backlog });
    // Said at once, as a state: not "up to date" while the service's changes wait.
    this.setState('syncing', capitalize(backlog.reason));
  }

  private setIdle(): void {
    this.st.items = { done: 0, total: 0 };
    this.st.bytes = { done: 0, total: 0 };
    this.st.current = null;
    if (this.st.backlog) {
      // Not "up to date": the service has changes this round left for later, on purpose.
      this.setState('syncing', capitalize(this.st.backlog.reason));
      return;
    }
    this.st.lastSyncAt = Date.now();
    if (this.deleteHold) {
      const hold = this.deleteHold;
      this.st.lastError = {
        kind: 'mass-delete',
        message: this.massDeleteError().message,
        at: Date.now(),
      };
      this.setState(
        'needs-attention',
        `${hold.count} items were removed here: confirm to delete them on the service too`,
      );
      return;
    }
    this.setState('idle', 'Up to date');
  }

  private fail(failure: Failure): void {
    this.st.lastError = { kind: failure.kind, message: failure.message, at: Date.now() };
    const state: SyncState = failure.fatal
      ? 'needs-attention'
      : failure.kind === 'offline'
        ? 'offline'
        : 'error';
    this.log[failure.fatal ? 'error' : 'warn']('sync failed', {
      kind: failure.kind,
      message: failure.message,
    });
    this.setState(state, failure.message);
  }

  private setState(state: SyncState, message: string): void {
    const changed = this.st.state !== state || this.st.message !== message;
    this.st.state = state;
    this.st.message = message;
    if (changed) this.flushStatus();
  }

  /** Progress changes are emitted at most every 100 ms; state changes at once. */
  private touch(): void {
    const now = Date.now();
    if (now - this.lastEmit >= 100) this.flushStatus();
    else this.emitTimer ??= setTimeout(() => this.flushStatus(), 100 - (now - this.lastEmit));
  }

  private flushStatus(): void {
    if (this.emitTimer) clearTimeout(this.emitTimer);
    this.emitTimer = null;
    this.lastEmit = Date.now();
    this.emit('status', this.status());
  }

  /** The problems the status shows: the first 200 (the journal keeps them all). */
  private storedProblems(): SyncProblem[] {
    return this.allProblems().slice(0, 200);
  }

  private allProblems(): SyncProblem[] {
    return this.opts.journal.problems().map((p) => ({
      path: p.path,
      remoteId: p.remoteId,
      reason: p.reason as SyncProblem['reason'],
      message: p.message,
      at: p.at,
    }));
  }

  private addProblem(p: Omit<SyncProblem, 'at'>): void {
    const problem: SyncProblem = { ...p, at: Date.now() };
    this.opts.journal.setProblem({ key: problemKey(p.remoteId, p.path), ...problem });
    this.st.problems = this.storedProblems();
    this.log.warn('could not sync an item', { path: p.path, reason: p.reason, message: p.message });
    this.emit('problem', problem);
    this.touch();
  }

  /** A refused local change (or a bad name) at this path is over: it was sent, or is gone. */
  private clearPathProblem(path: string): void {
    for (const [key, sig] of this.refused) {
      if ((key.startsWith('delete:') ? sig : key) === path) this.refused.delete(key);
    }
    // Asked of the journal: the status lists only the first 200.
    if (this.opts.journal.clearProblem(problemKey(null, path))) {
      this.st.problems = this.storedProblems();
    }
  }

  /**
   * After a full scan: a problem about a local path that the scan no longer finds (a bad name
   * renamed, a refused item removed) and that no refusal still holds is over.
   */
  private clearStalePathProblems(badNames: ReadonlySet<string>): void {
    const held = new Set(
      [...this.refused].map(([key, sig]) => (key.startsWith('delete:') ? sig : key)),
    );
    for (const p of this.allProblems()) {
      if (p.remoteId !== null || badNames.has(p.path)) continue;
      // A name refused for a new item, now held by a synced one (the new one was moved aside to
      // make way for it): over. Not for other refusals: a synced file's refused version is one.
      const madeWay = p.reason === 'name' && this.opts.journal.atPath(p.path)?.state === 'synced';
      if (!madeWay && held.has(p.path) && this.local!.stat(p.path)) continue;
      this.clearPathProblem(p.path);
    }
  }

  private clearProblem(remoteId: number): void {
    if (this.opts.journal.clearProblem(problemKey(remoteId, ''))) {
      this.st.problems = this.storedProblems();
    }
  }

  // Waiting

  private sleep(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        done();
      };
    });
  }

  private poke(): void {
    this.wake?.();
  }
}

const problemKey = (remoteId: number | null, path: string) =>
  remoteId !== null ? `item:${remoteId}` : `path:${path}`;

/** "1 change", "1,500 changes". */
function count(n: number, noun: string): string {
  return `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** What the status says while the service's tree is walked, by why. */
function walkMessage(reason: string): string {
  if (reason === 'first sync') return 'Looking at everything on the service';
  if (reason === 'scheduled check') return 'Checking everything on the service (a regular check)';
  if (/changes on the service$/.test(reason)) {
    return `Catching up with ${reason}: listing every folder once`;
  }
  return 'Looking for changes on the service';
}
