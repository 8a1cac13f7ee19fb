import type { EventEmitter } from 'node:events';
import { Moves } from '../../api/moves';
import { emptySummary, type SyncSummary } from '../../../shared/sync-status';
import { englishOf, type Words } from '../../../shared/i18n';
import { IgnoreRules } from '../detect-local/ignore';
import { watchLocal } from '../detect-local/watch';
import { SyncPassError } from '../errors';
import { LocalRoot } from '../local';
import { probeVolume } from '../names';
import type { WalkReason } from '../walk-reason';
import { setWalkDue, type LoopContext } from './context';
import type { EngineState } from './engine-state';
import { describeFailure, isLocalFailure, retryMessage } from './failure';
import { freeIfDiskFull } from './auto-free';
import { finishFrees } from './free-files';
import { heldError, heldWords, type HeldDeletes } from './held';
import type { Inbox } from './inbox';
import { LocalPass } from './local-pass';
import { DEFAULT_WRITE_QUIET_MS } from './options';
import { RemotePass } from './remote-pass';
import { RoundWaiters } from './round-waiters';
import { delay } from './wait';
import { applySelection, ExcludedPaths } from './selection';
import { checkRoot, checkWorkspace, rootFolderId, tidyCache } from './root';
import type { EngineEvents } from './status';

/** Passes one `syncOnce` may make before it stops chasing a service that keeps changing. */
const MAX_PASSES = 50;
const MAX_BACKOFF_MS = 60_000;
/** A workspace gone for this user is asked for again this seldom (or at Retry now). */
const GONE_CHECK_MS = 10 * 60_000;
/** A removal seen once by a partial scan is looked at again after this (the other half of a move). */
const CONFIRM_DELAY_MS = 100;

/**
 * The sync engine's loop: rounds of a remote pass (down) then a local pass (up) until neither
 * finds anything to do, continuously or once; offline backoff; pause; the watcher. The passes
 * are `remote-pass.ts` and `local-pass.ts`; what they share is `PassState` and the journal. What
 * a person does reaches it only through the inbox, between passes, as writes to `EngineState`.
 */
export class EngineLoop {
  private readonly concurrency: number;
  private readonly fullWalkIntervalMs: number;
  private readonly writeQuietMs: number;
  private readonly moves: Moves;
  /** Local paths of folders not synced here (selective sync), skipped like ignored names. */
  private excluded = ExcludedPaths.none;
  /** Failed rounds in a row (continuous mode): the backoff grows with them. */
  private failures = 0;
  private wake: (() => void) | null = null;
  private recheckTimer: NodeJS.Timeout | null = null;
  /** Folders holding files still being written. */
  private stillWriting = new Set<string>();
  /** Who waits for a round to end (a person's action asked at the pair's door). */
  readonly roundWaiters = new RoundWaiters();
  /** A person's action came during a round: the next starts without waiting for the poll. */
  private actionWaits = false;

  constructor(
    private readonly s: EngineState,
    private readonly inbox: Inbox,
    private readonly events: EventEmitter<EngineEvents>,
  ) {
    const { opts } = s;
    this.concurrency = opts.concurrency ?? 8;
    this.fullWalkIntervalMs = opts.fullWalkIntervalMs ?? 10 * 60_000;
    this.writeQuietMs = opts.writeQuietMs ?? DEFAULT_WRITE_QUIET_MS;
    this.moves = new Moves(opts.client);
  }

  /** Marks local folders to look at (the watcher's reports; also usable by hosts). */
  markDirty(dirs: Iterable<string>): void {
    this.s.pass.markDirty(dirs);
    this.poke();
  }

  /** Retry now: the backoff starts over and a round starts at once. */
  retryNow(): void {
    this.failures = 0;
    this.poke(true);
  }

  /** Asks for a full walk on the next pass (and starts it now in continuous mode). */
  requestFullWalk(reason: WalkReason): void {
    setWalkDue(this.s.opts.journal, reason);
    this.poke();
  }

  /**
   * Syncs until nothing is left to do; throws SyncFatalError, an ApiError, or SyncPassError (a
   * full disk, in words) on failure.
   */
  async syncOnce(signal?: AbortSignal): Promise<SyncSummary> {
    const summary = emptySummary();
    try {
      await this.prepare();
      this.s.pass.dirty = 'all';
      await this.syncUntilQuiet(summary, signal, true);
      const held = heldError(this.held());
      if (held) throw held;
      this.setIdle();
      this.events.emit('settled', summary);
      return summary;
    } catch (err) {
      const failure = describeFailure(err, this.s.opts.root);
      this.s.status.fail(failure, failure.onceMessage);
      if (failure.fatal) throw failure.fatal;
      // Not a raw ENOSPC: the same one line the status says.
      if (isLocalFailure(failure)) {
        // With its words: the CLI says it in the language of LANG.
        const said = failure.onceMessage ?? failure.words ?? failure.message;
        throw new SyncPassError(failure.kind, said, { cause: err });
      }
      throw err;
    }
  }

  /** Syncs continuously until `signal` aborts; rejects with SyncFatalError when it must stop. */
  async run(signal: AbortSignal): Promise<void> {
    const { s } = this;
    this.failures = 0;
    const onAbort = () => this.poke(true);
    signal.addEventListener('abort', onAbort);
    try {
      while (!signal.aborted) {
        if (s.gone && !(await this.cameBack(signal))) continue;
        if (s.paused) {
          // Said again here: a failed pass that was running when pause came said its failure.
          s.status.setState('paused', { key: 'engine.paused' });
          await this.sleep(s.pollIntervalMs, signal);
          continue;
        }
        try {
          await this.prepare();
          await this.startWatching();
          const summary = emptySummary();
          await this.syncUntilQuiet(summary, signal);
          this.failures = 0;
          // A pause that came during the pass is said now, not "Up to date" for a poll
          // interval. Files still being written wait to be sent (the status says so).
          if (s.paused) s.status.setState('paused', { key: 'engine.paused' });
          else if (this.stillWriting.size === 0) this.setIdle();
          this.events.emit('settled', summary);
          if (this.actionWaits) this.actionWaits = false;
          else await this.sleep(s.pollIntervalMs, signal);
        } catch (err) {
          if (signal.aborted) break;
          const failure = describeFailure(err, s.opts.root);
          if (failure.kind === 'workspace-gone') {
            // Not a pass to repeat: nothing runs (nothing is trashed) until it is back.
            s.gone = true;
            s.status.fail(failure);
            continue;
          }
          if (failure.fatal) {
            s.status.fail(failure);
            throw failure.fatal;
          }
          this.failures++;
          const failures = this.failures;
          const base = s.opts.retryBaseMs ?? 1000;
          const delay = Math.min(
            Math.max(base, MAX_BACKOFF_MS),
            base * 2 ** Math.min(failures - 1, 6),
          );
          const wait = Math.round(delay / 2 + (Math.random() * delay) / 2);
          // One status line per failure, not the failure and then its retry.
          s.status.fail(failure, retryMessage(failure, wait));
          await this.sleep(wait, signal);
        }
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      if (this.recheckTimer) clearTimeout(this.recheckTimer);
      await s.watcher?.close();
      s.watcher = null;
      s.status.flush();
    }
  }

  private async startWatching(): Promise<void> {
    const { s } = this;
    if (s.watcher || s.opts.watch === false) return;
    // Changes made while the watcher starts are caught by the full scan that follows.
    s.pass.dirty = 'all';
    s.watcher = await watchLocal({
      root: s.opts.root,
      ignore: (rel: string, isDir: boolean) => this.ignores(rel, isDir),
      onChange: (dirs: Set<string>) => this.markDirty(dirs),
      onWarning: (message: Words | string) => {
        s.log.warn(englishOf(message));
        s.status.notice(message);
      },
      log: s.log,
    });
  }

  private ignores(rel: string, isDir: boolean): boolean {
    return this.excluded.covers(rel) || this.ignoresByRules(rel, isDir);
  }

  private ignoresByRules(rel: string, isDir: boolean): boolean {
    this.s.ignore ??= this.loadIgnore();
    return this.s.ignore.ignores(rel, isDir);
  }

  private loadIgnore(): IgnoreRules {
    const rules = IgnoreRules.load(this.s.opts.root, this.s.extraIgnore);
    for (const problem of rules.problems) this.s.log.warn('ignore rule skipped', { problem });
    return rules;
  }

  private held(): HeldDeletes {
    const { passes } = this.s;
    return { local: passes?.local.held() ?? null, remote: passes?.remote.held() ?? null };
  }

  private setIdle(): void {
    this.s.status.setIdle(heldWords(this.held()));
  }

  /**
   * Rounds of a remote pass then a local pass, until neither finds anything to do. The remote
   * side goes first: a change made there is on disk (or kept beside local work) before local
   * changes are sent, so a delete here never wins over a change there.
   */
  private async syncUntilQuiet(
    summary: SyncSummary,
    signal?: AbortSignal,
    once = false,
  ): Promise<void> {
    await this.inbox.passStarts();
    const round = this.roundWaiters.start();
    this.actionWaits = false;
    try {
      await this.rounds(summary, signal, once);
      this.roundWaiters.ended(round);
    } catch (err) {
      this.roundWaiters.ended(round, err);
      throw err;
    } finally {
      // What a person did meanwhile is applied now: a pause is then said at the pass's end.
      await this.inbox.passEnds();
    }
  }

  private async rounds(summary: SyncSummary, signal?: AbortSignal, once = false): Promise<void> {
    const { remote, local } = this.s.passes!;
    await this.resolveOpenIntents();
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      if (signal?.aborted) return;
      if (pass > 0) await this.inbox.between();
      await this.applySelection();
      const remoteDid = await remote.run(summary, signal, once);
      if (signal?.aborted) return;
      await this.inbox.between();
      await this.applySelection();
      const { dirty } = this.s.pass;
      if (dirty === 'all' || dirty.has('')) this.s.ignore = this.loadIgnore();
      const localResult = await local.run(summary, signal, (dirs, at) =>
        this.recheckLater(dirs, at),
      );
      if (localResult.wait && !localResult.did) {
        // Files still being written, or a removal seen once: look again shortly.
        await delay(once ? this.writeQuietMs : CONFIRM_DELAY_MS, signal);
        continue;
      }
      if (!remoteDid && !localResult.did) return freeIfDiskFull(this.s, summary);
    }
    this.s.log.warn('the service kept changing; stopping this round', { passes: MAX_PASSES });
  }

  /** Folders newly left out are applied; the paths not synced here are known again. */
  private async applySelection(): Promise<void> {
    this.excluded = await applySelection(this.s.passes!.ctx, (rel, isDir) =>
      this.ignoresByRules(rel, isDir),
    );
  }

  /**
   * Changes a crash or a failed pass left unfinished are resolved by looking at the service before
   * the feed is read: its events for them are then our own, not someone else's.
   */
  private async resolveOpenIntents(): Promise<void> {
    if (this.s.opts.journal.outbox.open().length === 0) return;
    const { local } = this.s.passes!;
    this.markDirty(await local.resolveOpenIntents());
  }

  /** Checks the sync folder and learns the workspace's root folder, once per start. */
  private async prepare(): Promise<void> {
    const { s } = this;
    const { journal, root, client, workspaceId } = s.opts;
    await checkRoot(journal, root);
    if (!s.passes) {
      const local = new LocalRoot(root);
      local.language = s.language;
      s.status.setLocal(local);
      const profile = s.opts.profile ?? (await probeVolume(root));
      s.status.setState('starting', { key: 'engine.starting' });
      tidyCache(local, journal);
      await finishFrees({ journal, local, trash: s.opts.trash, log: s.log });
      const ctx: LoopContext = {
        opts: s.opts,
        log: s.log,
        concurrency: this.concurrency,
        overlapMs: s.opts.overlapMs ?? 5_000,
        writeQuietMs: this.writeQuietMs,
        now: s.opts.now ?? Date.now,
        status: s.status,
        state: s.pass,
        local,
        profile,
        rootId: await rootFolderId(client, journal, workspaceId),
        moves: this.moves,
        ignores: (rel, isDir) => this.ignores(rel, isDir),
      };
      const localPass = new LocalPass(ctx, s.confirmed);
      const remotePass = new RemotePass(ctx, this.fullWalkIntervalMs, s.remoteAnswer);
      s.passes = { ctx, remote: remotePass, local: localPass };
      return;
    }
    tidyCache(s.passes.ctx.local, journal);
    await finishFrees({ journal, local: s.passes.ctx.local, trash: s.opts.trash, log: s.log });
  }

  /** Looks at folders again once the files being written in them are quiet. */
  private recheckLater(dirs: string[], at: number): void {
    for (const d of dirs) this.stillWriting.add(d);
    if (this.recheckTimer) clearTimeout(this.recheckTimer);
    this.recheckTimer = setTimeout(
      () => {
        this.recheckTimer = null;
        const pending = this.stillWriting;
        this.stillWriting = new Set();
        this.markDirty(pending);
      },
      Math.max(10, at - Date.now() + 5),
    );
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

  /**
   * Wakes the loop's wait. While the workspace is gone only `force` does (Retry now, the end):
   * the watcher's reports and settings would otherwise ask the service again at every change.
   */
  poke(force = false): void {
    if (this.s.gone && !force) return;
    this.wake?.();
  }

  /**
   * A person's action that needs a round (Download now): wakes the wait, or, during a round,
   * makes the next one start when this one ends. A poke during a round wakes nothing, and the
   * action, applied as the round ended, waited for the next poll.
   */
  pokeForAction(): void {
    if (this.wake) this.poke();
    else this.actionWaits = true;
  }

  /**
   * The state `gone`: waits for the slow check (or Retry now), then asks the service for the
   * workspace once. Says whether it is back (syncing goes on as before).
   */
  private async cameBack(signal: AbortSignal): Promise<boolean> {
    await this.sleep(GONE_CHECK_MS, signal);
    if (signal.aborted) return false;
    try {
      await checkWorkspace(this.s.opts.client, this.s.opts.workspaceId);
    } catch (err) {
      // Still gone, or the service out of reach: the state stays as it is until the next check.
      this.s.log.info('workspace still not reachable', { kind: describeFailure(err).kind });
      return false;
    }
    this.s.gone = false;
    this.s.pass.dirty = 'all';
    return true;
  }
}
