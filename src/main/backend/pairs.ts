import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { ExcludedFolder, SyncPair, SyncPairStatus } from '../../shared/app-api';
import { excludedPath } from '../folders/folder-choice';
import {
  changeSelection,
  lookAtSyncFolder,
  openSync,
  type OpenSync,
  refusePlace,
  rootFolderId,
  type SyncEngine,
} from '../engine';
import type { Logger } from '../core/logger';
import type { SignedIn } from './accounts';
import { fail } from './errors';
import type { Words } from '../../shared/i18n';
import { pairStatusOf } from './map';
import { absoluteOf } from './pick-folder';
import { applySettings, type EngineSettings } from './engine-settings';
import { PairFile, type PairRecord } from './pair-file';

/** Status pushes per pair: at most one per this many ms (~4 a second), the latest state wins. */
export const STATUS_PUSH_MS = 250;

interface Running {
  info: Omit<SyncPair, 'status' | 'paused'>;
  /** The sign-in its engine talks through: a new sign-in of the account restarts it. */
  signed: SignedIn;
  /** Its engine stopped for good (signed out, folder gone): Retry now starts it again. */
  stopped: boolean;
  paused: boolean;
  engine: SyncEngine;
  opened: OpenSync;
  controller: AbortController;
  running: Promise<void>;
  lastPush: number;
  timer: NodeJS.Timeout | null;
}

const inside = (a: string, b: string) => a === b || a.startsWith(b + path.sep);

/**
 * The sync pairs: each a SyncEngine in continuous mode, as `workspace-sync sync` runs it,
 * remembered in the state directory so that the next run syncs them again. Removing a pair
 * stops its engine and closes its journal; the local folder is left exactly as it is.
 */
export class Pairs {
  private readonly pairs = new Map<string, Running>();
  private readonly records: PairFile;
  private settings: EngineSettings = { ignorePatterns: [] };

  constructor(
    private readonly opts: {
      stateDir: string;
      /** Where pairs.json is. */
      configDir: string;
      log: Logger;
      push: (pairId: string, status: SyncPairStatus) => void;
      /** Where `~` leads in a folder the window gives. */
      home: string;
    },
  ) {
    this.records = new PairFile(opts.configDir, opts.log);
  }

  /** Settings for the engines started from now on, and applied to the running ones. */
  configure(next: EngineSettings): void {
    const before = this.settings;
    this.settings = { ...next, ignorePatterns: [...next.ignorePatterns] };
    for (const p of this.pairs.values()) this.apply(p.engine, before);
  }

  /** What changed since `before`, on one engine (engine-settings.ts). */
  private apply(engine: SyncEngine, before: EngineSettings): void {
    applySettings(engine, this.settings, before);
  }

  async add(
    signed: SignedIn,
    workspaceId: number,
    dir: string,
    excluded: readonly ExcludedFolder[] = [],
  ): Promise<SyncPair> {
    const root = absoluteOf(dir, this.opts.home);
    // Where the folder leads too: a link to another pair's folder is that folder.
    const real = await lookAtSyncFolder(root).then(
      (found) => found.real,
      () => root, // what is wrong with it, the engine's own check says below
    );
    // The window's home (a test's own, under `ui`), and this app's own folders: the engine's
    // check knows neither.
    const places = { home: this.opts.home, appDirs: this.appDirs() };
    refusePlace(root, root, places);
    refusePlace(real, root, places);
    const taken = this.overlapping(root) ?? this.overlapping(real);
    if (taken) fail('conflict', taken);
    const workspace = await signed.client.getWorkspace(workspaceId);
    const pair = await this.start(
      signed,
      {
        id: randomBytes(8).toString('hex'),
        accountId: signed.info.id,
        workspaceId,
        workspaceName: workspace.name,
        dir: root,
        paused: false,
      },
      // Before the first pass: a folder left out at setup is never downloaded.
      (journal) =>
        changeSelection(journal, { exclude: excludedOf(excluded, workspace.root_folder_id) }),
    );
    await this.save();
    return this.view(pair);
  }

  /**
   * Starts the pairs remembered by an earlier run, those of `accounts` still signed in; one
   * that cannot start (its folder gone, its journal unreadable) is logged and kept for later.
   */
  async restore(account: (accountId: string) => Promise<SignedIn | null>): Promise<void> {
    for (const record of await this.records.load()) {
      if (this.pairs.has(record.id)) continue;
      const signed = await account(record.accountId).catch(() => null);
      if (!signed) {
        this.opts.log.warn('sync pair not restored: account signed out', { pair: record.id });
        continue;
      }
      try {
        await this.start(signed, record);
      } catch (err) {
        this.opts.log.error('sync pair not restored', { pair: record.id, err });
      }
    }
  }

  private async start(
    signed: SignedIn,
    record: PairRecord,
    before?: (journal: OpenSync['journal']) => void,
  ): Promise<Running> {
    const settings = this.settings;
    const opened = await openSync({
      client: signed.engineClient(),
      server: signed.server,
      user: signed.email,
      workspaceId: record.workspaceId,
      dir: record.dir,
      stateDir: this.opts.stateDir,
      log: this.opts.log,
      pollIntervalMs: settings.pollIntervalMs,
      language: settings.language,
    });
    before?.(opened.journal);
    const { id, paused, ...info } = record;
    const controller = new AbortController();
    const { engine } = opened;
    const pair: Running = {
      info: { id, ...info },
      signed,
      stopped: false,
      paused,
      engine,
      opened,
      controller,
      running: Promise.resolve(),
      lastPush: 0,
      timer: null,
    };
    engine.on('status', () => this.schedule(pair));
    if (settings.ignorePatterns.length > 0) engine.setExtraIgnore(settings.ignorePatterns);
    // Settings changed while the journal was being opened: this engine was not configured yet.
    this.apply(engine, settings);
    if (paused) engine.pause();
    this.run(pair);
    this.pairs.set(id, pair);
    this.opts.log.info('sync pair started', { pair: id, workspaceId: record.workspaceId });
    return pair;
  }

  private run(pair: Running): void {
    pair.stopped = false;
    pair.running = pair.engine.run(pair.controller.signal).catch((err: unknown) => {
      // A fatal stop (signed out, folder gone) is in the status as needs-attention.
      pair.stopped = true;
      this.opts.log.error('sync pair stopped', { pair: pair.info.id, err });
    });
  }

  /**
   * Retry now: a pass starts at once, the wait after a failure cut short; an engine that stopped
   * (its folder was missing, say) starts again and checks again.
   */
  retry(id: string): void {
    const p = this.get(id);
    if (p.paused) return fail('conflict', { key: 'backend.retryPaused' });
    if (!p.stopped) return p.engine.retryNow();
    p.controller = new AbortController();
    this.run(p);
  }

  /**
   * The account signed in again: its pairs (kept while it was signed out) start again through
   * the new sign-in, each from its journal.
   */
  async restartAccount(signed: SignedIn): Promise<void> {
    for (const p of [...this.pairs.values()]) {
      if (p.info.accountId !== signed.info.id || p.signed === signed) continue;
      await this.stop(p);
      if (this.pairs.get(p.info.id) !== p) continue; // removed meanwhile
      try {
        await this.start(signed, { ...p.info, paused: p.paused });
      } catch (err) {
        // Kept (pairs.json still lists it): the next start of the backend tries again.
        p.stopped = true;
        this.opts.log.error('sync pair not restarted', { pair: p.info.id, err });
      }
    }
  }

  /** Why `root` cannot be a new pair's folder (one is inside or around it), or null. */
  overlapping(root: string): Words | null {
    for (const p of this.pairs.values()) {
      if (inside(root, p.info.dir) || inside(p.info.dir, root))
        return {
          key: 'backend.overlaps',
          params: { dir: p.info.dir, workspace: p.info.workspaceName },
        };
    }
    return null;
  }

  /** The settings' ignore patterns, which every pair's engine leaves out. */
  ignorePatterns(): readonly string[] {
    return this.settings.ignorePatterns;
  }

  /** This app's own folders, where no sync folder may be (nor hold one). */
  appDirs(): string[] {
    return [this.opts.stateDir, this.opts.configDir];
  }

  /** The local folder of a pair. */
  dirOf(id: string): string {
    return this.get(id).info.dir;
  }

  /** A pair's engine: the person's actions on its conflicts and problems (attention.ts). */
  engineOf(id: string): SyncEngine {
    return this.get(id).engine;
  }

  /** A pair's journal file: Browse reads the synced tree from it (read-only, handlers/synced.ts). */
  journalOf(id: string): string {
    return this.get(id).opened.journalFile;
  }

  list(): SyncPair[] {
    return [...this.pairs.values()].map((p) => this.view(p));
  }

  async pause(id: string): Promise<void> {
    const p = this.get(id);
    p.paused = true;
    p.engine.pause();
    await this.save();
  }

  async resume(id: string): Promise<void> {
    const p = this.get(id);
    p.paused = false;
    p.engine.resume();
    await this.save();
  }

  /**
   * The person's answer to the deletions a pair holds back: 'confirm' lets them go (whichever
   * side held them), 'keep' keeps what the service lists as deleted and uploads it again.
   */
  answerDeletes(id: string, answer: 'confirm' | 'keep'): void {
    const { engine } = this.get(id);
    const local = engine.heldDeletes();
    const remote = engine.heldRemoteDeletes();
    if (!local && !remote) return fail('conflict', { key: 'backend.noHeldDeletes' });
    if (answer === 'keep' && !remote) {
      return fail('invalid', { key: 'backend.putBack' });
    }
    if (local && answer === 'confirm') engine.confirmDeletes();
    if (remote) engine.answerRemoteDeletes(answer === 'confirm' ? 'trash' : 'keep');
  }

  /** The pair's folders not synced here (selective sync), shown by their paths. */
  async selection(id: string): Promise<ExcludedFolder[]> {
    const { opened, info } = this.get(id);
    const { journal } = opened;
    const root = await rootFolderId(opened.engine.opts.client, journal, info.workspaceId);
    return journal.selection.all().map((e) => ({
      id: e.id,
      path: excludedPath(journal, root, e) ?? e.name ?? String(e.id),
      parentId: e.parentId === root ? null : e.parentId,
    }));
  }

  /**
   * A new exclusion list for the pair: the engine applies it before its next pass (a folder left
   * out goes to the trash here unless something in it is unsent; one taken back comes down).
   */
  async setSelection(id: string, excluded: readonly ExcludedFolder[]): Promise<void> {
    const { opened, info } = this.get(id);
    const { journal, engine } = opened;
    const root = await rootFolderId(engine.opts.client, journal, info.workspaceId);
    const keep = new Set(excluded.map((e) => e.id));
    const include = journal.selection.ids();
    for (const e of keep) include.delete(e);
    changeSelection(journal, { exclude: excludedOf(excluded, root), include: [...include] });
    engine.selectionChanged();
  }

  /**
   * Stops syncing a pair: the folder and its files stay as they are; the journal goes, so that
   * nothing (copy link, a later pair on the same folder) takes the folder for synced any more.
   */
  async remove(id: string): Promise<void> {
    const p = this.get(id);
    this.pairs.delete(id);
    await this.save();
    await this.stop(p);
    const file = p.opened.journalFile;
    await Promise.all([file, `${file}-wal`, `${file}-shm`].map((f) => rm(f, { force: true })));
    this.opts.log.info('sync pair removed', { pair: id });
  }

  async removeForAccount(accountId: string): Promise<void> {
    for (const p of [...this.pairs.values()])
      if (p.info.accountId === accountId) await this.remove(p.info.id);
  }

  /** Stops every engine; the pairs are remembered for the next run. */
  async close(): Promise<void> {
    const all = [...this.pairs.values()];
    await this.records.settled();
    this.pairs.clear();
    for (const p of all) await this.stop(p);
  }

  private async stop(p: Running): Promise<void> {
    p.controller.abort();
    await p.running;
    if (p.timer) clearTimeout(p.timer);
    await p.opened.close();
  }

  /** Remembers the pairs as they are now (pairs.json, pair-file.ts). */
  private save(): Promise<void> {
    return this.records.save(
      [...this.pairs.values()].map((p) => ({ ...p.info, paused: p.paused })),
    );
  }

  private get(id: string): Running {
    const p = this.pairs.get(id);
    return p ?? fail('not-found', { key: 'backend.pairNotFound' });
  }

  private view(p: Running): SyncPair {
    const onDemand = p.engine.opts.journal.onDemand.mode();
    return { ...p.info, paused: p.paused, status: pairStatusOf(p.engine.status()), onDemand };
  }

  /** Pushes the latest status now, or once the throttle window has passed. */
  private schedule(p: Running): void {
    if (p.timer) return;
    const wait = p.lastPush + STATUS_PUSH_MS - Date.now();
    const send = () => {
      p.timer = null;
      p.lastPush = Date.now();
      if (this.pairs.get(p.info.id) === p)
        this.opts.push(p.info.id, pairStatusOf(p.engine.status()));
    };
    if (wait <= 0) send();
    else p.timer = setTimeout(send, wait);
  }
}

/** The window's excluded folders as the journal keeps them: by id, with their place there. */
const excludedOf = (excluded: readonly ExcludedFolder[], rootId: number) =>
  excluded.map((e) => ({
    id: e.id,
    parentId: e.parentId ?? rootId,
    name: e.path.slice(e.path.lastIndexOf('/') + 1),
  }));
