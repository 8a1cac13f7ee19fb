// The status's problems: kept in the journal (all of them; the status shows the first 200),
// each said once, dismissed or forgotten by the person, and over when their cause is gone.
import type { Journal } from '../../journal/journal';
import type { ProblemsRepo } from '../../journal/problems';
import type { Words } from '../../../shared/i18n';
import type { SyncProblem, SyncStatus } from '../../../shared/sync-status';
import type { LocalRoot } from '../local';
import { isItemError } from '../local-error';
import { parentOf } from '../paths';
import type { Logger } from '../ports';
import type { Refusals } from '../up/refusals';

/** The status the problems are part of: its data, and how a change is said. */
export interface StatusSink {
  readonly st: SyncStatus;
  touch(): void;
  flush(): void;
}

export class ProblemList {
  constructor(
    private readonly journal: Journal,
    private readonly attention: ProblemsRepo,
    private readonly log: Logger,
    private readonly sink: StatusSink,
    /** A new problem, for the engine's `problem` event. */
    private readonly emit: (p: SyncProblem) => void,
  ) {}

  /** The problems the status shows: the first 200 (the journal keeps them all). */
  stored(): SyncProblem[] {
    return this.all().slice(0, 200);
  }

  private all(): SyncProblem[] {
    const dismissed = this.attention.dismissedProblems();
    return this.journal.problems.all().map((p) => ({
      path: p.path,
      remoteId: p.remoteId,
      reason: p.reason as SyncProblem['reason'],
      message: p.message,
      // Kept in the journal beside the English (rows from before have none: English).
      ...(p.words ? { words: p.words as Words } : {}),
      at: p.at,
      key: p.key,
      ...(dismissed.get(p.key) === p.message ? { dismissed: true } : {}),
    }));
  }

  /** Hides a problem until it happens again with another message (kept in the journal). */
  dismissProblem(key: string): boolean {
    const p = this.all().find((q) => q.key === key);
    if (!p) return false;
    this.attention.dismissProblem(key, p.message);
    this.sink.st.problems = this.stored();
    this.sink.flush();
    return true;
  }

  /** Forgets a problem (Retry): the next pass tries its item again. Says whether there was one. */
  forgetProblem(key: string): SyncProblem | undefined {
    const p = this.all().find((q) => q.key === key);
    if (!p || !this.journal.problems.clear(key)) return undefined;
    this.sink.st.problems = this.stored();
    this.sink.flush();
    return p;
  }

  /**
   * After a partial scan: a problem about a local path in a folder just listed whose item is no
   * longer there (deleted, renamed away) is over, as a full scan would find (before, it stayed
   * until the next full scan, up to 10 minutes). Not bad names: their paths are not real ones.
   */
  clearGonePathProblems(
    listed: ReadonlySet<string>,
    badNames: ReadonlySet<string>,
    refusals: Refusals,
    local: LocalRoot,
  ): void {
    let changed = false;
    for (const p of this.all()) {
      if (p.remoteId !== null || badNames.has(p.path) || !listed.has(parentOf(p.path))) continue;
      if (stillThere(local, p.path)) continue;
      refusals.clearPath(p.path);
      changed = this.journal.problems.clear(problemKey(null, p.path)) || changed;
    }
    if (!changed) return;
    this.sink.st.problems = this.stored();
    this.sink.touch();
  }

  addProblem(p: Omit<SyncProblem, 'at'>): void {
    // Found again by the next look at its folder: already said.
    const same = (q: SyncProblem) =>
      q.path === p.path && q.remoteId === p.remoteId && q.message === p.message;
    if (this.sink.st.problems.some(same)) return;
    const problem: SyncProblem = { ...p, at: Date.now() };
    const key = problemKey(p.remoteId, p.path);
    this.journal.problems.set({ key, ...problem });
    this.sink.st.problems = this.stored();
    this.log.warn('could not sync an item', { path: p.path, reason: p.reason, message: p.message });
    this.emit(problem);
    this.sink.touch();
  }

  /** A problem about this local path is over (asked of the journal: the status lists 200). */
  clearPathProblem(path: string): void {
    if (this.journal.problems.clear(problemKey(null, path))) {
      this.sink.st.problems = this.stored();
    }
  }

  clearProblem(remoteId: number): void {
    // Every placed file says it is solved: while the status lists all problems (fewer than
    // 200), one not listed is not stored either, and the journal is not asked.
    const all = this.sink.st.problems.length < 200;
    if (all && !this.sink.st.problems.some((p) => p.remoteId === remoteId)) return;
    if (this.journal.problems.clear(problemKey(remoteId, ''))) {
      this.sink.st.problems = this.stored();
    }
  }

  /**
   * A folder placed at last ends the problem that said it could not be (`engine.fs.subtree`),
   * and only that one: a folder's listing problem, or a kept folder's (sync/unplaced.ts), is about
   * something else and ends by its own rule.
   */
  clearNotPlaced(remoteId: number): void {
    const shown = this.sink.st.problems.find((p) => p.remoteId === remoteId);
    if (shown?.words?.key !== 'engine.fs.subtree') return;
    if (this.journal.problems.clear(problemKey(remoteId, ''))) {
      this.sink.st.problems = this.stored();
    }
  }

  /**
   * An item gone from the service takes its problem along; so does one below a folder that could
   * not be placed here (`engine.fs.subtree`): that folder's problem says it for everything below
   * it, and nothing there is synced. Left, a download refused while the role was lower would stay
   * for good after the role came back (seed 20261302 history 879).
   */
  clearVanishedProblems(there: (remoteId: number, path: string) => boolean): void {
    // All of them, not the 200 the status shows: a problem past those would stay for good.
    const all = this.all();
    const notPlaced = all.filter((p) => p.words?.key === 'engine.fs.subtree').map((p) => p.path);
    const below = (path: string) => notPlaced.some((dir) => path.startsWith(dir + '/'));
    for (const p of all) {
      if (p.remoteId !== null && (!there(p.remoteId, p.path) || below(p.path))) {
        this.journal.problems.clear(problemKey(p.remoteId, ''));
      }
    }
    this.sink.st.problems = this.stored();
  }

  /**
   * After a full scan: a problem about a local path that the scan no longer finds (a bad name
   * renamed, a refused item removed) and that no refusal still holds is over.
   */
  clearStalePathProblems(
    badNames: ReadonlySet<string>,
    refusals: Refusals,
    local: LocalRoot,
  ): void {
    const held = refusals.paths();
    for (const p of this.all()) {
      if (p.remoteId !== null || badNames.has(p.path)) continue;
      // A name refused for a new item, now held by a synced one (the new one was moved aside to
      // make way for it): over. Not for other refusals: a synced file's refused version is one.
      const madeWay = p.reason === 'name' && this.journal.items.atPath(p.path)?.state === 'synced';
      if (!madeWay && held.has(p.path) && stillThere(local, p.path)) continue;
      refusals.clearPath(p.path);
      this.clearPathProblem(p.path);
    }
  }
}

/**
 * Whether the item a local problem names is still at its path, as far as a path can tell: a bad
 * name (`budget\v2.txt`) or a path past PATH_MAX cannot be looked up, only listed, and the
 * listing (its folder's bad names) said it is not there any more.
 */
function stillThere(local: LocalRoot, rel: string): boolean {
  if (!local.canName(rel)) return false;
  try {
    return local.stat(rel) !== undefined;
  } catch (err) {
    if (isItemError(err)) return false;
    throw err;
  }
}

const problemKey = (remoteId: number | null, path: string) =>
  remoteId !== null ? `item:${remoteId}` : `path:${path}`;
