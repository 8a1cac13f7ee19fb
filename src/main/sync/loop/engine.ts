// Long because it is the one object a host holds: besides the loop, every action a person takes
// on a pair (pause, held deletes, the selection, a conflict's choice, a problem's retry) enters
// here as a message (loop/inbox.ts), applied between passes by its own module (remote-guard,
// selection, attention).

import { EventEmitter } from 'node:events';
import { Moves } from '../../api/moves';
import { emptySummary, type SyncStatus, type SyncSummary } from '../../../shared/sync-status';
import { englishOf, type Language, type Words } from '../../../shared/i18n';
import { IgnoreRules } from '../detect-local/ignore';
import { watchLocal, type LocalWatcher } from '../detect-local/watch';
import { SyncPassError } from '../errors';
import { LocalRoot } from '../local';
import { probeVolume } from '../names';
import type { WalkReason } from '../walk-reason';
import { silentLogger, type Logger } from '../ports';
import * as attention from './attention';
import { setWalkDue, type LoopContext } from './context';
import { describeFailure, isLocalFailure, retryMessage } from './failure';
import { heldError, heldWords, type HeldDeletes } from './held';
import { Inbox, type Action } from './inbox';
import type { LocalDeleteHold } from './local-guard';
import { LocalPass } from './local-pass';
import { DEFAULT_WRITE_QUIET_MS, type EngineOptions } from './options';
import type { RemoteDeleteAnswer, RemoteDeleteHold } from './remote-guard';
import { RemotePass } from './remote-pass';
import { delay } from './wait';
import { applySelection, ExcludedPaths } from './selection';
import { checkRoot, checkWorkspace, rootFolderId, tidyCache } from './root';
import { PassState } from './state';
import { StatusModel, type EngineEvents } from './status';

export type { EngineEvents } from './status';
export { describeFailure } from './failure';
export {
  DEFAULT_DELETE_GUARD,
  DEFAULT_WRITE_QUIET_MS,
  type DeleteGuard,
  type EngineOptions,
} from './options';

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
 * are `remote-pass.ts` and `local-pass.ts`; what they share is `PassState` and the journal. It
 * knows nothing of Electron; its status is plain data, emitted as `status` events for the CLI,
 * the tray and the window.
 */
export class SyncEngine extends EventEmitter<EngineEvents> {
  private readonly status_: StatusModel;
  private readonly state = new PassState();
  private readonly log: Logger;
  private readonly concurrency: number;
  private pollIntervalMs: number;
  /** The words of conflict copies (`setLanguage`). */
  private language: Language;
  /** Gitignore lines beyond the root's ignore file (the app's settings; `setExtraIgnore`). */
  private extraIgnore: readonly string[] = [];
  private readonly fullWalkIntervalMs: number;
  private readonly writeQuietMs: number;
  private readonly moves: Moves;
  private ignore: IgnoreRules | null = null;
  /** Local paths of folders not synced here (selective sync), skipped like ignored names. */
  private excluded = ExcludedPaths.none;
  private paused = false;
  /** Failed rounds in a row (continuous mode): the backoff grows with them. */
  private failures = 0;
  /** The workspace is gone (state `gone`): only Retry now or the slow check wakes the loop. */
  private gone = false;
  private wake: (() => void) | null = null;
  private recheckTimer: NodeJS.Timeout | null = null;
  /** Folders holding files still being written. */
  private stillWriting = new Set<string>();
  private watcher: LocalWatcher | null = null;
  /** The passes and what they work with, once the root is known (`prepare`). */
  private passes: { ctx: LoopContext; remote: RemotePass; local: LocalPass } | null = null;
  private confirmed: boolean;
  /** An answer to held remote deletions given before the passes exist. */
  private remoteAnswer: RemoteDeleteAnswer | null = null;
  /** A person's actions, applied between passes (never written into a running one). */
  private readonly inbox = new Inbox((action) => this.apply(action));

  constructor(readonly opts: EngineOptions) {
    super();
    this.log = opts.log ?? silentLogger;
    this.concurrency = opts.concurrency ?? 8;
    this.pollIntervalMs = opts.pollIntervalMs ?? 5_000;
    this.fullWalkIntervalMs = opts.fullWalkIntervalMs ?? 10 * 60_000;
    this.writeQuietMs = opts.writeQuietMs ?? DEFAULT_WRITE_QUIET_MS;
    this.moves = new Moves(opts.client);
    this.confirmed = opts.confirmDeletes ?? false;
    this.status_ = new StatusModel(opts.journal, this.log, this, opts.now);
    this.language = opts.language ?? 'en';
  }

  /** Lets the deletes the guard held back go to the service (the person confirmed them). */
  confirmDeletes(): void {
    this.post({ kind: 'confirm-deletes' });
  }

  /** Deletes waiting for a confirmation, if any. */
  heldDeletes(): LocalDeleteHold | null {
    return this.passes?.local.held() ?? null;
  }

  /**
   * Answers deletions on the service the guard held back: 'trash' moves them to the trash here,
   * 'keep' keeps them and uploads them again. The next pass walks and applies it to what the
   * service still lists as deleted.
   */
  answerRemoteDeletes(answer: RemoteDeleteAnswer): void {
    this.post({ kind: 'answer-remote-deletes', answer });
  }

  /** Deletions on the service waiting for an answer, if any. */
  heldRemoteDeletes(): RemoteDeleteHold | null {
    return this.passes?.remote.held() ?? null;
  }

  /** Marks local folders to look at (the watcher's reports; also usable by hosts). */
  markDirty(dirs: Iterable<string>): void {
    this.state.markDirty(dirs);
    this.poke();
  }

  status(): SyncStatus {
    return this.status_.snapshot();
  }

  /**
   * The person's choices on a conflict and on a problem (loop/attention.ts), applied between
   * passes; a refusal (AttentionError) rejects the promise.
   */
  chooseForConflict(id: number, keep: attention.KeepChoice): Promise<void> {
    return this.inbox.send({ kind: 'choose-for-conflict', id, keep });
  }
  retryProblem(key: string): Promise<void> {
    return this.inbox.send({ kind: 'retry-problem', key });
  }
  dismissProblem(key: string): Promise<void> {
    return this.inbox.send({ kind: 'dismiss-problem', key });
  }
  private attentionContext(): attention.AttentionContext {
    const { journal, trash, root } = this.opts;
    return {
      status: this.status_,
      journal,
      trash,
      refusals: this.state.refusals,
      local: this.passes?.ctx.local ?? new LocalRoot(root),
      markDirty: (dirs) => this.markDirty(dirs),
      requestWalk: (reason) => this.requestFullWalk(reason),
    };
  }

  /** Stops syncing after the current pass until `resume` (continuous mode). */
  pause(): void {
    this.post({ kind: 'pause' });
  }

  resume(): void {
    this.post({ kind: 'resume' });
  }

  /**
   * Retry now: a round starts at once, cutting short the wait after a failure (the backoff starts
   * over) or the slow check of a workspace that was gone.
   */
  retryNow(): void {
    this.failures = 0;
    this.poke(true);
  }

  /**
   * The language of the conflict copies made from now on (the app's setting changed): a copy
   * already made keeps its name, which every language's reader recognises (conflict-copy.ts).
   */
  setLanguage(lang: Language): void {
    this.post({ kind: 'set-language', language: lang });
  }

  /** A new remote poll interval, from the next wait on (the current one ends now). */
  setPollInterval(ms: number): void {
    if (!Number.isFinite(ms) || ms <= 0) throw new RangeError(`poll interval ${ms} ms`);
    this.post({ kind: 'set-poll-interval', ms });
  }

  /**
   * New extra ignore lines. The whole folder is scanned again: a name no longer ignored is
   * synced, and a synced item now ignored stays on the service (the local pass never deletes
   * what it ignores).
   */
  setExtraIgnore(lines: readonly string[]): void {
    this.post({ kind: 'set-extra-ignore', lines: [...lines] });
  }

  /**
   * The selection changed in the journal (loop/selection.ts, changeSelection): applied before the
   * next pass; the whole folder is scanned and watched again, as for new ignore lines.
   */
  selectionChanged(): void {
    this.post({ kind: 'selection-changed' });
  }

  /** An action whose caller waits for nothing: a failure is logged (none is expected). */
  private post(action: Action): void {
    this.inbox.send(action).catch((err: unknown) => {
      this.log.error('an action on the pair failed', { action: action.kind, error: String(err) });
    });
  }

  /** Applies one action (the inbox calls it between passes, or at once when none runs). */
  private apply(action: Action): void | Promise<void> {
    switch (action.kind) {
      case 'pause':
        this.paused = true;
        // A workspace gone stays said as such (nothing runs anyway); paused once it is back.
        if (!this.gone) this.status_.setState('paused', { key: 'engine.paused' });
        return;
      case 'resume':
        this.paused = false;
        return this.poke();
      case 'confirm-deletes':
        this.confirmed = true;
        this.passes?.local.confirmDeletes();
        this.state.dirty = 'all';
        return this.poke();
      case 'answer-remote-deletes':
        if (this.passes) this.passes.remote.answerHold(action.answer);
        else this.remoteAnswer = action.answer;
        return this.poke();
      case 'choose-for-conflict':
        return attention.chooseForConflict(this.attentionContext(), action.id, action.keep);
      case 'retry-problem':
        return attention.retryProblem(this.attentionContext(), action.key);
      case 'dismiss-problem':
        return attention.dismissProblem(this.attentionContext(), action.key);
      case 'set-language':
        this.language = action.language;
        if (this.passes) this.passes.ctx.local.language = action.language;
        return;
      case 'set-poll-interval':
        this.pollIntervalMs = action.ms;
        return this.poke();
      case 'set-extra-ignore':
        this.extraIgnore = action.lines;
        return this.ignoreAgain();
      case 'selection-changed':
        return this.ignoreAgain();
    }
  }

  /** New ignore lines or a new selection: the whole folder is scanned and watched again. */
  private ignoreAgain(): void {
    this.ignore = null;
    this.state.dirty = 'all';
    // The watcher never watched what the old rules hid: the next round starts a fresh one.
    const watcher = this.watcher;
    this.watcher = null;
    void watcher?.close();
    this.poke();
  }

  /** Asks for a full walk on the next pass (and starts it now in continuous mode). */
  requestFullWalk(reason: WalkReason = { kind: 'asked' }): void {
    setWalkDue(this.opts.journal, reason);
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
      this.state.dirty = 'all';
      await this.syncUntilQuiet(summary, signal, true);
      const held = heldError(this.held());
      if (held) throw held;
      this.setIdle();
      this.emit('settled', summary);
      return summary;
    } catch (err) {
      const failure = describeFailure(err, this.opts.root);
      this.status_.fail(failure, failure.onceMessage);
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
    this.failures = 0;
    const onAbort = () => this.poke(true);
    signal.addEventListener('abort', onAbort);
    try {
      while (!signal.aborted) {
        if (this.gone && !(await this.cameBack(signal))) continue;
        if (this.paused) {
          // Said again here: a failed pass that was running when pause came said its failure.
          this.status_.setState('paused', { key: 'engine.paused' });
          await this.sleep(this.pollIntervalMs, signal);
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
          if (this.paused) this.status_.setState('paused', { key: 'engine.paused' });
          else if (this.stillWriting.size === 0) this.setIdle();
          this.emit('settled', summary);
          await this.sleep(this.pollIntervalMs, signal);
        } catch (err) {
          if (signal.aborted) break;
          const failure = describeFailure(err, this.opts.root);
          if (failure.kind === 'workspace-gone') {
            // Not a pass to repeat: nothing runs (nothing is trashed) until it is back.
            this.gone = true;
            this.status_.fail(failure);
            continue;
          }
          if (failure.fatal) {
            this.status_.fail(failure);
            throw failure.fatal;
          }
          this.failures++;
          const failures = this.failures;
          const base = this.opts.retryBaseMs ?? 1000;
          const delay = Math.min(
            Math.max(base, MAX_BACKOFF_MS),
            base * 2 ** Math.min(failures - 1, 6),
          );
          const wait = Math.round(delay / 2 + (Math.random() * delay) / 2);
          // One status line per failure, not the failure and then its retry.
          this.status_.fail(failure, retryMessage(failure, wait));
          await this.sleep(wait, signal);
        }
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      if (this.recheckTimer) clearTimeout(this.recheckTimer);
      await this.watcher?.close();
      this.watcher = null;
      this.status_.flush();
    }
  }

  private async startWatching(): Promise<void> {
    if (this.watcher || this.opts.watch === false) return;
    // Changes made while the watcher starts are caught by the full scan that follows.
    this.state.dirty = 'all';
    this.watcher = await watchLocal({
      root: this.opts.root,
      ignore: (rel: string, isDir: boolean) => this.ignores(rel, isDir),
      onChange: (dirs: Set<string>) => this.markDirty(dirs),
      onWarning: (message: Words | string) => {
        this.log.warn(englishOf(message));
        this.status_.notice(message);
      },
      log: this.log,
    });
  }

  private ignores(rel: string, isDir: boolean): boolean {
    return this.excluded.covers(rel) || this.ignoresByRules(rel, isDir);
  }

  private ignoresByRules(rel: string, isDir: boolean): boolean {
    this.ignore ??= this.loadIgnore();
    return this.ignore.ignores(rel, isDir);
  }

  private loadIgnore(): IgnoreRules {
    const rules = IgnoreRules.load(this.opts.root, this.extraIgnore);
    for (const problem of rules.problems) this.log.warn('ignore rule skipped', { problem });
    return rules;
  }

  private held(): HeldDeletes {
    return { local: this.heldDeletes(), remote: this.heldRemoteDeletes() };
  }

  private setIdle(): void {
    this.status_.setIdle(heldWords(this.held()));
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
    try {
      await this.rounds(summary, signal, once);
    } finally {
      // What a person did meanwhile is applied now: a pause is then said at the pass's end.
      await this.inbox.passEnds();
    }
  }

  private async rounds(summary: SyncSummary, signal?: AbortSignal, once = false): Promise<void> {
    const { remote, local } = this.passes!;
    await this.resolveOpenIntents();
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      if (signal?.aborted) return;
      if (pass > 0) await this.inbox.between();
      await this.applySelection();
      const remoteDid = await remote.run(summary, signal, once);
      if (signal?.aborted) return;
      await this.inbox.between();
      await this.applySelection();
      if (this.state.dirty === 'all' || this.state.dirty.has('')) this.ignore = this.loadIgnore();
      const localResult = await local.run(summary, signal, (dirs, at) =>
        this.recheckLater(dirs, at),
      );
      if (localResult.wait && !localResult.did) {
        // Files still being written, or a removal seen once: look again shortly.
        await delay(once ? this.writeQuietMs : CONFIRM_DELAY_MS, signal);
        continue;
      }
      if (!remoteDid && !localResult.did) return;
    }
    this.log.warn('the service kept changing; stopping this round', { passes: MAX_PASSES });
  }

  /** Folders newly left out are applied; the paths not synced here are known again. */
  private async applySelection(): Promise<void> {
    this.excluded = await applySelection(this.passes!.ctx, (rel, isDir) =>
      this.ignoresByRules(rel, isDir),
    );
  }

  /**
   * Changes a crash or a failed pass left unfinished are resolved by looking at the service before
   * the feed is read: its events for them are then our own, not someone else's.
   */
  private async resolveOpenIntents(): Promise<void> {
    const { journal } = this.opts;
    if (journal.outbox.open().length === 0) return;
    const { local } = this.passes!;
    this.markDirty(await local.resolveOpenIntents());
  }

  /** Checks the sync folder and learns the workspace's root folder, once per start. */
  private async prepare(): Promise<void> {
    const { journal, root, client, workspaceId } = this.opts;
    await checkRoot(journal, root);
    if (!this.passes) {
      const local = new LocalRoot(root);
      local.language = this.language;
      this.status_.setLocal(local);
      const profile = this.opts.profile ?? (await probeVolume(root));
      this.status_.setState('starting', { key: 'engine.starting' });
      tidyCache(local, journal);
      const ctx: LoopContext = {
        opts: this.opts,
        log: this.log,
        concurrency: this.concurrency,
        overlapMs: this.opts.overlapMs ?? 5_000,
        writeQuietMs: this.writeQuietMs,
        now: this.opts.now ?? Date.now,
        status: this.status_,
        state: this.state,
        local,
        profile,
        rootId: await rootFolderId(client, journal, workspaceId),
        moves: this.moves,
        ignores: (rel, isDir) => this.ignores(rel, isDir),
      };
      const localPass = new LocalPass(ctx, this.confirmed);
      const remotePass = new RemotePass(ctx, this.fullWalkIntervalMs, this.remoteAnswer);
      this.passes = { ctx, remote: remotePass, local: localPass };
      return;
    }
    tidyCache(this.passes.ctx.local, journal);
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
  private poke(force = false): void {
    if (this.gone && !force) return;
    this.wake?.();
  }

  /**
   * The state `gone`: waits for the slow check (or Retry now), then asks the service for the
   * workspace once. Says whether it is back (syncing goes on as before).
   */
  private async cameBack(signal: AbortSignal): Promise<boolean> {
    await this.sleep(GONE_CHECK_MS, signal);
    if (signal.aborted) return false;
    try {
      await checkWorkspace(this.opts.client, this.opts.workspaceId);
    } catch (err) {
      // Still gone, or the service out of reach: the state stays as it is until the next check.
      this.log.info('workspace still not reachable', { kind: describeFailure(err).kind });
      return false;
    }
    this.gone = false;
    this.state.dirty = 'all';
    return true;
  }
}
