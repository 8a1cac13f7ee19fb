import { EventEmitter } from 'node:events';
import type { SyncStatus, SyncSummary } from '../../../shared/sync-status';
import type { Language } from '../../../shared/i18n';
import { LocalRoot } from '../local';
import type { WalkReason } from '../walk-reason';
import { silentLogger } from '../ports';
import * as attention from './attention';
import { EngineLoop } from './engine-loop';
import { engineState, type EngineState } from './engine-state';
import { Inbox, type Action } from './inbox';
import type { LocalDeleteHold } from './local-guard';
import { fetchAsked, type FetchAskedOutcome } from './fetch-asked';
import { applyOnDemand, type OnDemandOp } from './on-demand-actions';
import type { EngineOptions } from './options';
import type { RemoteDeleteAnswer, RemoteDeleteHold } from './remote-guard';
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

/**
 * The sync engine, the one object a host holds: a person's actions on a pair (pause, held
 * deletes, the selection, a conflict's choice, a problem's retry, settings) enter here as
 * messages (loop/inbox.ts), applied between passes by their own modules (remote-guard,
 * selection, attention); the loop that runs the passes is `engine-loop.ts`. The two share only
 * `EngineState`. It knows nothing of Electron; its status is plain data, emitted as `status`
 * events for the CLI, the tray and the window.
 */
export class SyncEngine extends EventEmitter<EngineEvents> {
  private readonly s: EngineState;
  private readonly loop: EngineLoop;
  /** A person's actions, applied between passes (never written into a running one). */
  private readonly inbox = new Inbox((action) => this.apply(action));

  constructor(readonly opts: EngineOptions) {
    super();
    const log = opts.log ?? silentLogger;
    const status = new StatusModel(opts.journal, log, this, opts.now);
    this.s = engineState(opts, log, status, new PassState());
    this.loop = new EngineLoop(this.s, this.inbox, this);
  }

  /**
   * Syncs until nothing is left to do; throws SyncFatalError, an ApiError, or SyncPassError (a
   * full disk, in words) on failure.
   */
  syncOnce(signal?: AbortSignal): Promise<SyncSummary> {
    return this.loop.syncOnce(signal);
  }

  /** Syncs continuously until `signal` aborts; rejects with SyncFatalError when it must stop. */
  run(signal: AbortSignal): Promise<void> {
    return this.loop.run(signal);
  }

  /** Lets the deletes the guard held back go to the service (the person confirmed them). */
  confirmDeletes(): void {
    this.post({ kind: 'confirm-deletes' });
  }

  /** Deletes waiting for a confirmation, if any. */
  heldDeletes(): LocalDeleteHold | null {
    return this.s.passes?.local.held() ?? null;
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
    return this.s.passes?.remote.held() ?? null;
  }

  /** Marks local folders to look at (the watcher's reports; also usable by hosts). */
  markDirty(dirs: Iterable<string>): void {
    this.loop.markDirty(dirs);
  }

  status(): SyncStatus {
    return this.s.status.snapshot();
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
      status: this.s.status,
      journal,
      trash,
      refusals: this.s.pass.refusals,
      local: this.s.passes?.ctx.local ?? new LocalRoot(root),
      markDirty: (dirs) => this.markDirty(dirs),
      requestWalk: (reason) => this.requestFullWalk(reason),
    };
  }

  /**
   * Files on demand: download, free, pin or unpin `paths` (relative to the root), applied between
   * passes; the next round downloads what was asked for. A refusal (AttentionError) rejects.
   */
  filesOnDemand(op: OnDemandOp, paths: readonly string[]): Promise<void> {
    return this.inbox.send({ kind: 'files-on-demand', op, paths: [...paths] });
  }

  /**
   * Downloads the online files of `paths` now, without a round, when that is all a round would
   * do for them (loop/fetch-asked.ts); `round` when a round must decide (nothing was done).
   * Applied between rounds, as every action is.
   */
  async fetchAsked(paths: readonly string[], signal?: AbortSignal): Promise<FetchAskedOutcome> {
    let outcome: FetchAskedOutcome = 'round';
    const answer = (o: FetchAskedOutcome) => (outcome = o);
    await this.inbox.send({ kind: 'fetch-asked', paths: [...paths], signal, answer });
    return outcome;
  }

  /**
   * A files-on-demand action, and the round that does it (the download a pin or Download now
   * asks for): `applied` settles once the inbox applied it (rejecting with its refusal), `round`
   * once a round that started after it has ended (rejecting with that round's failure).
   */
  filesOnDemandRound(
    op: OnDemandOp,
    paths: readonly string[],
  ): { applied: Promise<void>; round: Promise<void> } {
    const round = this.loop.roundWaiters.next();
    // A caller that stops waiting (the pair paused) leaves it: never an unhandled rejection.
    round.catch(() => undefined);
    return { applied: this.filesOnDemand(op, paths), round };
  }

  /** Whether a person paused it (no round runs until `resume`). */
  get paused(): boolean {
    return this.s.paused;
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
    this.loop.retryNow();
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
      this.s.log.error('an action on the pair failed', { action: action.kind, error: String(err) });
    });
  }

  /** Applies one action (the inbox calls it between passes, or at once when none runs). */
  private apply(action: Action): void | Promise<void> {
    const { s } = this;
    switch (action.kind) {
      case 'pause':
        s.paused = true;
        // A workspace gone stays said as such (nothing runs anyway); paused once it is back.
        if (!s.gone) s.status.setState('paused', { key: 'engine.paused' });
        return;
      case 'resume':
        s.paused = false;
        return this.loop.poke();
      case 'confirm-deletes':
        s.confirmed = true;
        s.passes?.local.confirmDeletes();
        s.pass.dirty = 'all';
        return this.loop.poke();
      case 'answer-remote-deletes':
        if (s.passes) s.passes.remote.answerHold(action.answer);
        else s.remoteAnswer = action.answer;
        return this.loop.poke();
      case 'choose-for-conflict':
        return attention.chooseForConflict(this.attentionContext(), action.id, action.keep);
      case 'retry-problem':
        return attention.retryProblem(this.attentionContext(), action.key);
      case 'dismiss-problem':
        return attention.dismissProblem(this.attentionContext(), action.key);
      case 'set-language':
        s.language = action.language;
        if (s.passes) s.passes.ctx.local.language = action.language;
        return;
      case 'set-poll-interval':
        s.pollIntervalMs = action.ms;
        return this.loop.poke();
      case 'set-extra-ignore':
        s.extraIgnore = action.lines;
        return this.ignoreAgain();
      case 'selection-changed':
        return this.ignoreAgain();
      case 'files-on-demand':
        return this.onDemand(action.op, action.paths);
      case 'fetch-asked':
        return fetchAsked(s, action.paths, action.signal).then(action.answer);
    }
  }

  /** Files on demand (on-demand-actions.ts); the next round does the rest. */
  private async onDemand(op: OnDemandOp, paths: readonly string[]): Promise<void> {
    const { s } = this;
    const { journal, trash, root } = this.opts;
    const local = s.passes?.ctx.local ?? new LocalRoot(root);
    if (!s.passes) local.language = s.language;
    try {
      await applyOnDemand({ journal, local, trash, state: s.pass, log: s.log }, op, paths);
    } finally {
      this.loop.pokeForAction();
    }
  }

  /** New ignore lines or a new selection: the whole folder is scanned and watched again. */
  private ignoreAgain(): void {
    const { s } = this;
    s.ignore = null;
    s.pass.dirty = 'all';
    // The watcher never watched what the old rules hid: the next round starts a fresh one.
    const watcher = s.watcher;
    s.watcher = null;
    void watcher?.close();
    this.loop.poke();
  }

  /** Asks for a full walk on the next pass (and starts it now in continuous mode). */
  requestFullWalk(reason: WalkReason = { kind: 'asked' }): void {
    this.loop.requestFullWalk(reason);
  }
}
