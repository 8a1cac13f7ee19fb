// The engine's status as the person sees it, one model: the state line, progress, conflicts and
// notices here; the problems (kept in the journal) in status-problems.ts.
import type { EventEmitter } from 'node:events';
import type { Stats } from 'node:fs';
import type { ProblemsRepo } from '../../journal/problems';
import type { Journal } from '../../journal/journal';
import { englishOf, type Words } from '../../../shared/i18n';
import {
  initialStatus,
  type SyncBacklog,
  type SyncConflict,
  type SyncHeld,
  type SyncNotice,
  type SyncProblem,
  type SyncState,
  type SyncStatus,
  type SyncSummary,
} from '../../../shared/sync-status';
import type { ExecutionEvents } from '../down/execute';
import type { LocalRoot } from '../local';
import type { Logger } from '../ports';
import type { Refusals } from '../up/refusals';
import type { SendEvents } from '../up/send';
import type { Failure } from './failure';
import { RateMeter } from './rate';
import { ProblemList } from './status-problems';

export interface EngineEvents {
  status: [SyncStatus];
  problem: [SyncProblem];
  /** A conflict and how it was resolved. */
  conflict: [SyncConflict];
  /** A limit worked around (the watcher polling, a server without moves). */
  notice: [SyncNotice];
  /** After each round of passes that left nothing to do, with what it did. */
  settled: [SyncSummary];
}

/**
 * The engine's status as the person sees it: state and message, progress, problems (kept in the
 * journal, the first 200 shown), conflicts and notices, the remote backlog. Plain data, emitted as
 * `status` events (progress at most every 100 ms, a state change at once).
 *
 * Progress is one model for both passes (docs/SYNC.md, Progress): a pass sets its totals from its
 * plan (`beginWork`), each item done and each byte moved counts once, and work found beyond the
 * plan grows the total, so `done` never passes `total` whatever a view shows of it.
 */
export class StatusModel {
  readonly st: SyncStatus = initialStatus();
  private lastEmit = 0;
  private emitTimer: NodeJS.Timeout | null = null;
  private readonly meter: RateMeter;
  /** Conflicts that left a copy and dismissed problems, in the journal. */
  readonly attention: ProblemsRepo;
  private readonly problems: ProblemList;
  /** Notes of conflicts that need nothing more (no copy), the latest 50, in memory only. */
  private notes: SyncConflict[] = [];
  /** The sync root, once the engine has checked it (`prepare`): the copies are looked at there. */
  private local: LocalRoot | null = null;

  constructor(
    private readonly journal: Journal,
    private readonly log: Logger,
    private readonly emitter: EventEmitter<EngineEvents>,
    now: () => number = Date.now,
  ) {
    this.attention = journal.problems;
    this.problems = new ProblemList(journal, this.attention, log, this, (p) =>
      emitter.emit('problem', p),
    );
    this.st.problems = this.problems.stored();
    this.st.conflicts = this.allConflicts();
    this.meter = new RateMeter(now);
  }

  setLocal(local: LocalRoot): void {
    this.local = local;
  }

  snapshot(): SyncStatus {
    const s = structuredClone(this.st);
    // Only while there is work: an idle status stays as it always was.
    if (s.items.total > 0) s.rate = this.meter.rate(s.bytes, s.items);
    return s;
  }

  /** What the executor and the sender report as they work, into the status. */
  progressEvents(refusals: Refusals, side: 'down' | 'up'): ExecutionEvents & SendEvents {
    return {
      begin: (op, path, files) => {
        this.st.current = files === undefined ? { op, path, side } : { op, path, side, files };
        this.touch();
      },
      done: () => this.countDone(1, 0),
      bytes: (n) => this.countDone(0, n),
      problem: (p) => this.addProblem(p),
      solved: (remoteId) => this.clearProblem(remoteId),
      placed: (remoteId) => this.problems.clearNotPlaced(remoteId),
      sent: (path) => {
        // A change reached the service at this path: a refusal reported there is over.
        refusals.clearPath(path);
        this.clearPathProblem(path);
      },
      note: (path: string, message: Words | string, copy?: string) =>
        this.note(path, message, copy),
      notice: (message) => this.notice(message),
    };
  }

  /** Adds a stage's counts (the executor's, the sender's) to the round's summary. */
  addCounts(summary: SyncSummary, counts: Partial<Record<keyof SyncSummary, unknown>>): void {
    for (const key of Object.keys(summary) as (keyof SyncSummary)[]) {
      const n = counts[key];
      if (key !== 'problems' && typeof n === 'number') summary[key] = (summary[key] ?? 0) + n;
    }
    summary.problems = this.st.problems.length;
  }

  /** The work a pass is about to do: its count of items and bytes. */
  beginWork(items: number, bytes: number, message: Words | string): void {
    this.st.items = { done: 0, total: items };
    this.st.bytes = { done: 0, total: bytes };
    this.meter.reset();
    if (items > 0) this.setState('syncing', message);
  }

  /**
   * Items and bytes done. Work beyond the plan's count (a file fetched again after its archive
   * was cut, an item missing here brought back, a download verified twice) grows the total with
   * it: clamped here, at the source, so that no reader ever sees more done than there is.
   */
  countDone(items: number, bytes: number): void {
    const { st } = this;
    st.items.done += items;
    st.bytes.done += bytes;
    st.items.total = Math.max(st.items.total, st.items.done);
    st.bytes.total = Math.max(st.bytes.total, st.bytes.done);
    this.meter.sample(st.bytes, st.items);
    this.touch();
  }

  /**
   * A conflict and what was done. With `copy` (the local version kept beside the original) it is
   * kept in the journal until the person resolves it or its cause is gone (`checkConflicts`).
   */
  note(path: string, said: Words | string, copy?: string): void {
    const message = englishOf(said);
    const words = typeof said === 'string' ? {} : { words: said };
    let conflict: SyncConflict = { path, message, at: Date.now(), ...words };
    if (copy !== undefined) {
      const st = this.local?.stat(copy);
      const copyFacts = st ? factsOf(st) : '';
      // The journal keeps the words beside the English: after a restart, still said in the
      // reader's language.
      const { id } = this.attention.addConflict({
        path,
        message,
        at: conflict.at,
        copy,
        copyFacts,
        ...words,
      });
      conflict = { ...conflict, id, copy };
    } else {
      this.notes.push(conflict);
      if (this.notes.length > 50) this.notes.splice(0, this.notes.length - 50);
    }
    this.st.conflicts = this.allConflicts();
    this.emitter.emit('conflict', conflict);
    this.log.info('conflict', { path, message, ...(copy !== undefined ? { copy } : {}) });
    this.touch();
  }

  /** The notes and the journal's conflicts, oldest first. */
  private allConflicts(): SyncConflict[] {
    const kept = this.attention.conflicts().map(({ id, path, copy, message, words, at }) => ({
      id,
      path,
      copy,
      message,
      at,
      // Written by this engine (or an older one: then none, and said in English).
      ...(words ? { words: words as Words } : {}),
    }));
    return [...this.notes, ...kept].sort((a, b) => a.at - b.at);
  }

  /**
   * A conflict leaves by itself when its cause is gone: its copy is no longer at its path
   * (deleted, renamed, moved, resolved) or the original is gone. Asked after each local scan,
   * where the engine learns of local changes: a handful of `lstat`s.
   */
  checkConflicts(): void {
    const local = this.local;
    if (!local) return;
    let changed = false;
    for (const c of this.attention.conflicts()) {
      if (local.stat(c.copy) && local.stat(c.path)) continue;
      this.attention.removeConflict(c.id);
      this.log.info('conflict over', { path: c.path, copy: c.copy });
      changed = true;
    }
    if (changed) this.conflictsChanged();
  }

  /** The journal's conflicts changed (resolved, dismissed): the status says so at once. */
  conflictsChanged(): void {
    this.st.conflicts = this.allConflicts();
    this.flush();
  }

  notice(said: Words | string): void {
    const message = englishOf(said);
    if (this.st.notices.some((n) => n.message === message)) return;
    const notice = {
      message,
      at: Date.now(),
      ...(typeof said === 'string' ? {} : { words: said }),
    };
    this.st.notices.push(notice);
    this.emitter.emit('notice', notice);
    this.log.info('notice', { message });
    this.touch();
  }

  /** Remote changes seen but not applied yet, with why: part of the status, not only a log. */
  setBacklog(backlog: SyncBacklog | null): void {
    const before = this.st.backlog;
    if (before?.changes === backlog?.changes && before?.reason === backlog?.reason) return;
    this.st.backlog = backlog;
    if (!backlog) return this.touch();
    this.log.info('remote backlog', { changes: backlog.changes, reason: backlog.reason });
    // Said at once, as a state: not "up to date" while the service's changes wait.
    this.setState('syncing', backlog.words ?? capitalize(backlog.reason));
  }

  /** A round left nothing to do; `held` says why it still needs the person (deletes held). */
  setIdle(held: { summary: Words; message: string; story?: Words; held: SyncHeld } | null): void {
    this.st.held = held?.held ?? null;
    this.st.items = { done: 0, total: 0 };
    this.st.bytes = { done: 0, total: 0 };
    this.st.current = null;
    if (this.st.backlog) {
      // Not "up to date": the service has changes this round left for later, on purpose.
      this.setState('syncing', this.st.backlog.words ?? capitalize(this.st.backlog.reason));
      return;
    }
    this.st.lastSyncAt = Date.now();
    if (held) {
      this.st.lastError = {
        kind: 'mass-delete',
        message: held.message,
        ...(held.story ? { words: held.story } : {}),
        at: Date.now(),
      };
      this.setState('needs-attention', held.summary);
      return;
    }
    this.setState('idle', { key: 'engine.upToDate' });
  }

  /** A failed pass: `shown` is the status line (by default the failure's message). */
  fail(failure: Failure, shown: Words | string = failure.words ?? failure.message): void {
    // The pass ended: its progress (a step "under way") is not shown beside the failure.
    this.st.items = { done: 0, total: 0 };
    this.st.bytes = { done: 0, total: 0 };
    this.st.current = null;
    this.st.lastError = {
      kind: failure.kind,
      message: failure.message,
      at: Date.now(),
      ...(failure.words ? { words: failure.words } : {}),
    };
    const state: SyncState =
      failure.kind === 'workspace-gone'
        ? 'gone'
        : failure.fatal
          ? 'needs-attention'
          : failure.kind === 'offline'
            ? 'offline'
            : 'error';
    this.log[failure.fatal ? 'error' : 'warn']('sync failed', {
      kind: failure.kind,
      message: failure.message,
    });
    this.setState(state, shown);
  }

  /**
   * The state and its sentence: as words (a key of the catalog and its parameters, said by each
   * reader in its language, `message` their English) or, for an error's own text, a string.
   */
  setState(state: SyncState, said: Words | string): void {
    const message = englishOf(said);
    const changed = this.st.state !== state || this.st.message !== message;
    this.st.state = state;
    this.st.message = message;
    if (typeof said === 'string') delete this.st.words;
    else this.st.words = said;
    if (changed) this.flush();
  }

  /** Progress changes are emitted at most every 100 ms; state changes at once. */
  touch(): void {
    const now = Date.now();
    if (now - this.lastEmit >= 100) this.flush();
    else this.emitTimer ??= setTimeout(() => this.flush(), 100 - (now - this.lastEmit));
  }

  flush(): void {
    if (this.emitTimer) clearTimeout(this.emitTimer);
    this.emitTimer = null;
    this.lastEmit = Date.now();
    this.emitter.emit('status', this.snapshot());
  }

  // Problems: kept by ProblemList (status-problems.ts), said here for the passes and the views.

  dismissProblem(key: string): boolean {
    return this.problems.dismissProblem(key);
  }

  forgetProblem(key: string): SyncProblem | undefined {
    return this.problems.forgetProblem(key);
  }

  clearGonePathProblems(
    listed: ReadonlySet<string>,
    badNames: ReadonlySet<string>,
    refusals: Refusals,
    local: LocalRoot,
  ): void {
    this.problems.clearGonePathProblems(listed, badNames, refusals, local);
  }

  addProblem(p: Omit<SyncProblem, 'at'>): void {
    this.problems.addProblem(p);
  }

  clearPathProblem(path: string): void {
    this.problems.clearPathProblem(path);
  }

  clearProblem(remoteId: number): void {
    this.problems.clearProblem(remoteId);
  }

  clearVanishedProblems(there: (remoteId: number, path: string) => boolean): void {
    this.problems.clearVanishedProblems(there);
  }

  clearStalePathProblems(
    badNames: ReadonlySet<string>,
    refusals: Refusals,
    local: LocalRoot,
  ): void {
    this.problems.clearStalePathProblems(badNames, refusals, local);
  }
}

/** What a copy's check compares: identity, size and time (the facts a refusal compares too). */
export const factsOf = (st: Stats): string => `${st.ino}:${st.size}:${st.mtimeMs}`;

export function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** "1 change", "1,500 changes". */
export function count(n: number, noun: string): string {
  return `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;
}
