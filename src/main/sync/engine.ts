import { EventEmitter } from 'node:events';
import { lstatSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ServiceClient } from '../api/client';
import { ApiError } from '../api/errors';
import type { Journal } from '../journal/journal';
import {
  emptySummary,
  initialStatus,
  type SyncProblem,
  type SyncState,
  type SyncStatus,
  type SyncSummary,
} from '../../shared/sync-status';
import { SyncFatalError } from './errors';
import { Executor, PARTIAL_DIR, type ExecutionResult } from './execute';
import { feedHead, pollFeed } from './feed';
import { LocalRoot } from './local';
import { probeVolume, type VolumeProfile } from './names';
import { CACHE_DIR, planChanges, type Plan } from './plan';
import { silentLogger, type Logger, type Trash } from './ports';
import { resolveEvents } from './resolve';
import type { RemoteView } from './remote';
import { walkRemote } from './walk';

export interface EngineEvents {
  status: [SyncStatus];
  problem: [SyncProblem];
  /** After each round of passes that left nothing to do, with what it did. */
  settled: [SyncSummary];
}

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
}

/** Passes one `syncOnce` may make before it stops chasing a service that keeps changing. */
const MAX_PASSES = 50;
/** More new events than this in one poll: a full walk is cheaper than looking each one up. */
const MAX_EVENTS = 1000;
const MAX_BACKOFF_MS = 60_000;
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
  private readonly pollIntervalMs: number;
  private readonly fullWalkIntervalMs: number;
  private readonly overlapMs: number;
  private local: LocalRoot | null = null;
  private profile: VolumeProfile | null = null;
  private rootId: number | null = null;
  /** Why the next pass must be a full walk, or null. */
  private walkDue: string | null = null;
  private lastEmit = 0;
  private emitTimer: NodeJS.Timeout | null = null;
  private paused = false;
  /** The role differs from the one of the last full walk (refused downloads are retried). */
  private roleChanged = false;
  private wake: (() => void) | null = null;

  constructor(readonly opts: EngineOptions) {
    super();
    this.log = opts.log ?? silentLogger;
    this.concurrency = opts.concurrency ?? 8;
    this.pollIntervalMs = opts.pollIntervalMs ?? 5_000;
    this.fullWalkIntervalMs = opts.fullWalkIntervalMs ?? 10 * 60_000;
    this.overlapMs = opts.overlapMs ?? 5_000;
    this.st.problems = this.storedProblems();
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
      await this.settle(summary, signal);
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
      this.flushStatus();
    }
  }

  // The pipeline

  /** Passes until one finds nothing to do. */
  private async settle(summary: SyncSummary, signal?: AbortSignal): Promise<void> {
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      if (signal?.aborted) return;
      const changed = await this.pass(summary, signal);
      if (!changed) return;
    }
    this.log.warn('the service kept changing; stopping this round', { passes: MAX_PASSES });
  }

  /** One pass: detect → reconcile → plan → execute → record. Says whether it did anything. */
  private async pass(summary: SyncSummary, signal?: AbortSignal): Promise<boolean> {
    const { client, journal, workspaceId } = this.opts;
    const rootId = this.rootId!;
    const lastWalk = Number(journal.getMeta('last_walk_ms') ?? NaN);
    const walkReason =
      this.walkDue ??
      (Number.isNaN(lastWalk)
        ? 'first sync'
        : Date.now() - lastWalk >= this.fullWalkIntervalMs
          ? 'scheduled check'
          : null);

    if (walkReason !== null) {
      if (journal.cursor().timeMs === null) {
        // The feed's position before the walk: whatever happens during it is read afterwards.
        const head = await feedHead(client, workspaceId, this.overlapMs);
        journal.resetCursor(head.timeMs ?? Date.now(), head.seen);
      }
      const started = Date.now();
      this.setState('scanning', 'Looking for changes on the service');
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
      return true;
    }

    const cursor = journal.cursor();
    const feed = await pollFeed(client, workspaceId, cursor, {
      overlapMs: this.overlapMs,
      maxEvents: MAX_EVENTS,
    });
    if (feed.gap) {
      // The walk covers everything before it; the feed restarts from its head at that moment.
      this.walkDue = feed.gap;
      journal.resetCursor(null);
      return true;
    }
    if (feed.refs.length === 0) {
      if (feed.seen.length > 0) journal.advanceCursor(feed.seen, this.overlapMs);
      return false;
    }
    this.setState('syncing', 'Applying changes from the service');
    const resolution = await resolveEvents(client, journal, rootId, feed.refs, this.concurrency);
    if (resolution.walk) {
      this.log.info('events need a full walk', { reason: resolution.walk });
      this.walkDue = resolution.walk;
      journal.advanceCursor(feed.seen, this.overlapMs);
      return true;
    }
    const result = await this.apply(resolution.view, false, summary, signal);
    // Only now: a crash before this point re-reads the same events, which is harmless.
    journal.advanceCursor(feed.seen, this.overlapMs);
    if (result.recheck) this.walkDue = 'the disk was not as recorded';
    return true;
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
      retryNotPermitted: full && this.roleChanged,
      mayDownload: !NO_DOWNLOAD_ROLES.has(role),
    });
    if (full) this.roleChanged = false;
    this.beginWork(plan);
    const executor = new Executor({
      client,
      journal,
      local: this.local!,
      trash,
      log: this.log,
      concurrency: this.concurrency,
      signal,
      events: {
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
      },
    });
    const result = await journal.batch(() => executor.run(plan));
    summary.foldersCreated += result.foldersCreated;
    summary.filesDownloaded += result.filesDownloaded;
    summary.bytesDownloaded += result.bytesDownloaded;
    summary.moved += result.moved;
    summary.trashed += result.trashed;
    summary.conflicts += result.conflicts;
    summary.problems = this.st.problems.length;
    return result;
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
   * costs no download requests, and a changed role retries what an earlier one refused.
   */
  private async readRole(): Promise<void> {
    const { client, journal, workspaceId } = this.opts;
    const workspace = await this.ofWorkspace(() => client.getWorkspace(workspaceId));
    const role = workspace.effective_role ?? '';
    if (journal.getMeta('role') !== role) {
      journal.setMeta('role', role);
      this.roleChanged = true;
    }
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

  private setIdle(): void {
    this.st.items = { done: 0, total: 0 };
    this.st.bytes = { done: 0, total: 0 };
    this.st.current = null;
    this.st.lastSyncAt = Date.now();
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

  private storedProblems(): SyncProblem[] {
    return this.opts.journal
      .problems()
      .slice(0, 200)
      .map((p) => ({
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

  private clearProblem(remoteId: number): void {
    if (!this.st.problems.some((p) => p.remoteId === remoteId)) return;
    this.opts.journal.clearProblem(problemKey(remoteId, ''));
    this.st.problems = this.storedProblems();
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
