import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import type { z } from 'zod';
import {
  AppCallError,
  Events,
  type ActivityEvent,
  isMethod,
  Methods,
  type AppError,
  type EventName,
  type EventOf,
  type MethodName,
  type KeepAccount,
  type Settings,
} from '../../shared/app-api';
import { ApiError } from '../api/errors';
import type { ContentSort, FolderEntry, ServiceClient } from '../api/client';
import { processTransfers } from '../api/throttle';
import { silentLogger, type Logger } from '../sync/ports';
import type { AccountStore } from '../accounts/accounts';
import { ActivityFeed } from './activity';
import { AccountSessions, type SignedIn } from './accounts';
import { appError, describeIssues, fail, toAppError } from './errors';
import { languageOfEnv, resolveLanguage, type Words } from '../../shared/i18n';
import { FolderIndex } from './folders';
import { gather } from './bounded';
import { activityOf, commentOf, entryOf, linkOf, viewToService, workspaceOf, type Me } from './map';
import type * as S from '../api/schemas';
import { openInFileManager, showInFileManager } from '../os/open-path';
import { attentionHandlers } from './attention';
import { listTrash, restoreFromTrash, trashedPath } from './trash';
import { memberHandlers } from './members';
import { browseHandlers } from './browse';
import { Pairs } from './pairs';
import { checkLocalFolder, listLocalFolders } from './pick-folder';
import { downloadZip } from './zip';
import { failOpen } from './open-failed';
import { aboutFacts, diagnosticsText } from './diagnostics';
import { SettingsStore } from '../state/settings';
import { configureProxy } from '../api/proxy';

/** What `call` answers: the `Reply` of the wire format without its id. */
export type CallResult = { ok: true; result: unknown } | { ok: false; error: AppError };

/** An event pushed to the window. */
export type PushMessage = { [E in EventName]: { event: E; data: EventOf<E> } }[EventName];

type Params<M extends MethodName> = z.output<(typeof Methods)[M]['params']>;
type Result<M extends MethodName> = z.input<(typeof Methods)[M]['result']>;
type Handlers = { [M in MethodName]: (params: Params<M>) => Promise<Result<M>> };

export interface BackendOptions {
  /** Journals and the engine's trash. */
  stateDir: string;
  /** settings.json and pairs.json (default: the state directory). */
  configDir?: string;
  accounts: AccountStore;
  log?: Logger;
  env?: NodeJS.ProcessEnv;
  /** The demo sandbox's user, when the backend was started with one (`accounts.tryDemo`). */
  demo?: { server: string; email: string; password: string } | null;
  /** The server `cli ui --server` was given (`app.info`): the sign-in view fills it in. */
  server?: string;
  /** How often signed-in accounts' events are polled for the `activity` stream; default 5 s. */
  activityPollMs?: number;
  /** The engines' remote poll, over the settings' `pollIntervalSeconds` (tests use it). */
  pollIntervalMs?: number;
  /**
   * The desktop app (`app.info`): its version (Electron's, since package.json is not beside the
   * bundle) and this OS. The web bridge leaves it out.
   */
  desktop?: { version: string };
  /**
   * Shows the service's sign-in page of "Sign in with your browser". Default: the `open-url`
   * push, which the web window opens in a new tab (the app passes the system browser instead).
   */
  openUrl?: (url: string) => void | Promise<void>;
  /** Shows a sync folder; default: the system's file manager (`xdg-open`, `open`, Explorer). */
  openPath?: (dir: string) => Promise<void>;
  /** Shows a file in the file manager, selected (Show in folder); default: `showInFileManager`. */
  showPath?: (file: string) => Promise<void>;
  /** How long "Sign in with your browser" waits for the person; default 5 minutes. */
  browserSignInTimeoutMs?: number;
  /** The home folder: `~` in a pair's folder, the top of the folder picker (default: the OS's). */
  home?: string;
  /** Where the logs are (About's Open logs); default `logs` in the state directory. */
  logsDir?: string;
  /**
   * The system's language, which the `language` setting System follows (the app's
   * `app.getLocale()`); default: the environment's LC_ALL, LC_MESSAGES or LANG.
   */
  locale?: string;
}

const AUDIT_FORBIDDEN: Words = { key: 'backend.auditForbidden' };

function appVersion(): string {
  try {
    const file = path.resolve(import.meta.dirname, '../../../package.json');
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** An instant from the window, as epoch ms; 'invalid' naming the field otherwise. */
function epochOf(value: string | undefined, field: 'expiry' | 'from' | 'to'): number | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : fail('invalid', { key: 'backend.badDate', params: { field } });
}

/** Reads `offset + limit` items at most (one more to know whether a next page exists). */
async function page<T, U>(
  items: AsyncIterable<T>,
  offset: number,
  limit: number,
  map: (item: T) => U,
): Promise<{ items: U[]; nextOffset: number | null }> {
  const out: U[] = [];
  let index = 0;
  for await (const item of items) {
    if (index >= offset + limit) return { items: out, nextOffset: offset + limit };
    if (index >= offset) out.push(map(item));
    index++;
  }
  return { items: out, nextOffset: null };
}

/** Files of a burst asked for at once (activity.burstFolder). */
const BURST_READS = 6;

/** Events read past the ones kept, at most, before a folded page answers what it has. */
const FOLD_SCAN = 1000;

/**
 * A page of events without the person's own downloads and views (`ownRead`), counted in
 * `folded`: read from the service's `offset` until `limit` are kept. A sync that brought down
 * 10,000 files leaves 10,000 such events in a row; a page stops after FOLD_SCAN of them and
 * answers the service's offset to go on from, so no call reads the whole feed.
 */
async function foldedPage(
  events: AsyncIterable<S.Event>,
  offset: number,
  limit: number,
  me: Me,
): Promise<{ items: ActivityEvent[]; nextOffset: number | null; folded: number }> {
  const items: ActivityEvent[] = [];
  let read = 0;
  let folded = 0;
  for await (const e of events) {
    if (items.length >= limit || folded >= FOLD_SCAN)
      return { items, nextOffset: offset + read, folded };
    read++;
    const event = activityOf(e, me);
    if (event.ownRead) folded++;
    else items.push(event);
  }
  return { items, nextOffset: null, folded };
}

/**
 * `limit` items of a folder from `offset` on: the service is asked from that offset (a page at
 * the end of a 20,000-item folder costs what the first one does), page after page until the
 * limit is reached, and no page beyond it.
 */
async function contentsAt(
  client: ServiceClient,
  folderId: number,
  opts: { offset: number; limit: number; query?: string; sort?: ContentSort },
): Promise<{ seen: FolderEntry[]; nextOffset: number | null; total: number | null }> {
  const seen: FolderEntry[] = [];
  let at: number | null = opts.offset;
  let total: number | null = null;
  let cut = false;
  while (at !== null && seen.length < opts.limit) {
    const page = await client.folderContentsPage(folderId, {
      offset: at,
      ...(opts.query ? { query: opts.query } : {}),
      ...(opts.sort ? { sort: opts.sort } : {}),
    });
    total = page.total;
    const room = opts.limit - seen.length;
    cut = page.entries.length > room;
    seen.push(...page.entries.slice(0, room));
    at = page.next;
  }
  const end = opts.offset + seen.length;
  // More follows when the last page was cut at the limit, or when the service has a next one.
  const more = cut || (at !== null && (total === null || end < total));
  return { seen, nextOffset: more ? end : null, total };
}

/**
 * The window's typed API (src/shared/app-api.ts) over the service client, the account store and
 * sync engines, in plain Node: the web bridge serves it over a WebSocket, the app over IPC.
 * Every call's parameters and result are checked against the contract's schemas; every failure
 * leaves as an AppError, never a stack or a secret.
 */
export class AppBackend {
  private readonly log: Logger;
  private readonly listeners = new Set<(push: PushMessage) => void>();
  private readonly sessions: AccountSessions;
  private readonly pairs: Pairs;
  private readonly feed: ActivityFeed;
  private readonly folders = new Map<string, FolderIndex>();
  private readonly handlers: Handlers;
  private readonly settingsStore: SettingsStore;
  /** The settings as last loaded or stored; engines start only once they are known. */
  private settings: Promise<Settings>;
  /** The browser sign-in still waiting for the person: a new one, or close, replaces it. */
  private browserSignIn: AbortController | null = null;
  private closed = false;
  private readonly home: string;

  constructor(private readonly opts: BackendOptions) {
    this.log = opts.log ?? silentLogger;
    this.home = opts.home ?? homedir();
    this.sessions = new AccountSessions({
      store: opts.accounts,
      env: opts.env ?? process.env,
      log: this.log,
    });
    this.pairs = new Pairs({
      stateDir: opts.stateDir,
      configDir: opts.configDir ?? opts.stateDir,
      log: this.log,
      push: (pairId, status) => this.emit('pair-status', { pairId, status }),
      home: this.home,
    });
    this.settingsStore = SettingsStore.inDir(opts.configDir ?? opts.stateDir, this.log);
    this.settings = this.settingsStore.load().then((s) => this.applySettings(s));
    this.feed = new ActivityFeed({
      intervalMs: opts.activityPollMs ?? 5000,
      accounts: () => this.signedIn(),
      push: (accountId, event) => this.emit('activity', { accountId, event }),
      log: this.log,
    });
    this.handlers = this.makeHandlers();
  }

  /** Runs one method: validated in, validated out, failures as AppError. */
  async call(method: string, params: unknown): Promise<CallResult> {
    if (!isMethod(method)) {
      return {
        ok: false,
        error: appError('invalid', { key: 'backend.noMethod', params: { method } }),
      };
    }
    const spec = Methods[method];
    const parsed = spec.params.safeParse(params ?? {});
    if (!parsed.success) {
      return { ok: false, error: appError('invalid', describeIssues(method, parsed.error)) };
    }
    try {
      const handler = this.handlers[method] as (p: unknown) => Promise<unknown>;
      const raw = await handler(parsed.data);
      const result = spec.result.safeParse(raw);
      if (!result.success) {
        // Our own mistake, not the person's: logged in full, answered generically.
        this.log.error('result does not match the contract', {
          method,
          issues: result.error.issues,
        });
        return { ok: false, error: toAppError(new Error('bad result')) };
      }
      return { ok: true, result: result.data };
    } catch (err) {
      const error = toAppError(err);
      if (error.kind === 'internal' && !(err instanceof ApiError))
        this.log.error('call failed', { method, err });
      else this.log.info('call refused', { method, kind: error.kind });
      return { ok: false, error };
    }
  }

  /** Listens to pushed events; the activity stream runs while anyone listens. */
  on(listener: (push: PushMessage) => void): () => void {
    this.listeners.add(listener);
    if (!this.closed) this.feed.start();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) void this.feed.stop();
    };
  }

  /** Starts the sync pairs an earlier run with this state directory remembered. */
  async restorePairs(): Promise<void> {
    await this.settings;
    return this.pairs.restore((id) => this.sessions.get(id).catch(() => null));
  }

  /**
   * Polls every signed-in account's events now (the timer does it every few seconds): the first
   * poll of an account notes where its feed stands; later ones push what is new.
   */
  pollActivity(): Promise<void> {
    return this.feed.poll();
  }

  /**
   * Stops every engine (their folders stay as they are; the pairs are remembered for the next
   * run) and the activity stream.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.browserSignIn?.abort(
      new AppCallError(appError('offline', { key: 'backend.shuttingDown' })),
    );
    this.listeners.clear();
    await this.feed.stop();
    await this.pairs.close();
  }

  /**
   * Hands the engines their part of the settings (the poll option, when given, wins). The
   * transfer limits are the process's, shared by every engine, and hold at once for the
   * transfers under way; so is the proxy (every request of the process goes through one
   * dispatcher).
   */
  private applySettings(s: Settings): Settings {
    configureProxy({ setting: s.proxy, env: this.opts.env ?? process.env });
    const env = this.opts.env ?? process.env;
    this.pairs.configure({
      pollIntervalMs: this.opts.pollIntervalMs ?? s.pollIntervalSeconds * 1000,
      ignorePatterns: s.ignorePatterns,
      // The words of conflict copies: the app's language, as the window and the tray speak it.
      language:
        this.opts.locale !== undefined
          ? resolveLanguage(s.language, [this.opts.locale])
          : s.language === 'system'
            ? languageOfEnv(env)
            : s.language,
    });
    processTransfers.setKBps({ upKBps: s.uploadLimitKBps, downKBps: s.downloadLimitKBps });
    return s;
  }

  private async updateSettings(patch: Partial<Settings>): Promise<Settings> {
    await this.settings;
    const next = await this.settingsStore.update(patch);
    this.settings = Promise.resolve(this.applySettings(next));
    this.emit('settings', next);
    return next;
  }

  private emit<E extends EventName>(event: E, data: EventOf<E>): void {
    const checked = Events[event].safeParse(data);
    if (!checked.success) {
      this.log.error('event does not match the contract', { event });
      return;
    }
    const push = { event, data: checked.data } as PushMessage;
    for (const listener of this.listeners) {
      try {
        listener(push);
      } catch (err) {
        this.log.warn('a push listener failed', { event, err });
      }
    }
  }

  private async signInWithBrowser(server: string, keep: KeepAccount | undefined) {
    // One person, one sign-in page at a time: an earlier attempt still waiting gives way.
    this.browserSignIn?.abort(
      new AppCallError(appError('invalid', { key: 'backend.browserReplaced' })),
    );
    const controller = new AbortController();
    this.browserSignIn = controller;
    try {
      const signed = await this.sessions.signInWithBrowser(server, {
        openBrowser: this.opts.openUrl ?? ((url) => this.emit('open-url', { url })),
        signal: controller.signal,
        timeoutMs: this.opts.browserSignInTimeoutMs ?? 5 * 60_000,
        ...(keep ? { keep } : {}),
      });
      return await this.signedInAgain(signed);
    } finally {
      if (this.browserSignIn === controller) this.browserSignIn = null;
    }
  }

  /** A sign-in of an account whose pairs were kept (signed out): they start again through it. */
  private async signedInAgain(signed: SignedIn) {
    await this.pairs.restartAccount(signed);
    // Pairs not started at this run's start (the account was signed out then) start now.
    await this.pairs.restore((id) => Promise.resolve(id === signed.info.id ? signed : null));
    return signed.info;
  }

  private async signedIn(): Promise<SignedIn[]> {
    const out: SignedIn[] = [];
    for (const a of await this.sessions.list()) {
      const s = await this.sessions.get(a.id).catch(() => null);
      if (s) out.push(s);
    }
    return out;
  }

  private folderIndex(s: SignedIn): FolderIndex {
    let index = this.folders.get(s.info.id);
    if (!index) this.folders.set(s.info.id, (index = new FolderIndex(s.client)));
    return index;
  }

  /**
   * The folder that holds every one of `fileIds` (each file's last ancestor), or null: they are
   * in several, one is gone or hidden from this person. Read a few at a time, and it stops at
   * the second folder found.
   */
  private async folderOfAll(
    s: SignedIn,
    fileIds: readonly number[],
  ): Promise<{ id: number; name: string } | null> {
    let parent: number | null = null;
    try {
      for (let i = 0; i < fileIds.length; i += BURST_READS) {
        const files = await Promise.all(
          fileIds.slice(i, i + BURST_READS).map((id) => s.client.getFile(id)),
        );
        for (const f of files) {
          const up = f.ancestor_ids?.at(-1);
          if (up === undefined || (parent !== null && up !== parent)) return null;
          parent = up;
        }
      }
      if (parent === null) return null;
      const trail = await this.folderIndex(s).path(parent);
      const name = trail.at(-1)?.name;
      return name === undefined ? null : { id: parent, name };
    } catch (err) {
      if (err instanceof ApiError && (err.kind === 'not-found' || err.kind === 'forbidden'))
        return null;
      throw err;
    }
  }

  private async roleIn(s: SignedIn, workspaceId: number): Promise<string | null> {
    return (await s.client.getWorkspace(workspaceId)).effective_role ?? null;
  }

  /** The user's role in the workspace holding an item. */
  private async roleForItem(s: SignedIn, kind: 'folder' | 'file', itemId: number) {
    let workspaceId: number;
    if (kind === 'file') {
      const file = await s.client.getFile(itemId);
      workspaceId =
        file.workspace_id ??
        (await this.folderIndex(s).workspaceOf(file.ancestor_ids?.[0] ?? itemId));
    } else {
      workspaceId = await this.folderIndex(s).workspaceOf(itemId);
    }
    return this.roleIn(s, workspaceId);
  }

  /** The app's version: Electron's in the app (package.json is not beside the bundle). */
  /** The engines' trash and its records (sync/loop/open.ts puts both in the state directory). */
  private trashDirs(): [string, string] {
    return [path.join(this.opts.stateDir, 'trash'), path.join(this.opts.stateDir, 'trash-records')];
  }

  private version(): string {
    return this.opts.desktop?.version ?? appVersion();
  }

  private makeHandlers(): Handlers {
    const acct = (p: { accountId: string }) => this.sessions.get(p.accountId);
    return {
      'app.info': async () => {
        const desktop = this.opts.desktop;
        const os = process.platform;
        return {
          name: 'Workspace Sync',
          version: this.version(),
          platform: !desktop ? 'web' : os === 'darwin' || os === 'win32' ? os : 'linux',
          demo: !!this.opts.demo,
          desktop: desktop !== undefined,
          ...(this.opts.server !== undefined ? { server: this.opts.server } : {}),
        };
      },

      'accounts.storage': () => this.sessions.storage(),
      'accounts.signIn': async (p) =>
        this.signedInAgain(
          await this.sessions.signInWithPassword(p.server, p.email, p.password, p.keep),
        ),
      'accounts.signInWithBrowser': (p) => this.signInWithBrowser(p.server, p.keep),
      'accounts.signInWithToken': async (p) =>
        this.signedInAgain(await this.sessions.signInWithToken(p.server, p.token, p.keep)),
      'accounts.tryDemo': async () => {
        const demo = this.opts.demo;
        if (!demo) return fail('unsupported', { key: 'backend.demoOnlySandbox' });
        return (await this.sessions.signInWithPassword(demo.server, demo.email, demo.password))
          .info;
      },
      'accounts.list': () => this.sessions.list(),
      'accounts.signOut': async (p) => {
        await this.pairs.removeForAccount(p.accountId);
        this.folders.delete(p.accountId);
        await this.sessions.signOut(p.accountId);
        return null;
      },

      'pairs.add': async (p) => {
        const signed = await acct(p);
        await this.settings;
        return this.pairs.add(signed, p.workspaceId, p.dir, p.excluded);
      },
      'pairs.list': async () => this.pairs.list(),
      'pairs.remove': async (p) => {
        await this.pairs.remove(p.pairId);
        return null;
      },
      'pairs.pause': async (p) => {
        await this.pairs.pause(p.pairId);
        return null;
      },
      'pairs.resume': async (p) => {
        await this.pairs.resume(p.pairId);
        return null;
      },
      'pairs.retry': (p) => {
        this.pairs.retry(p.pairId);
        return Promise.resolve(null);
      },
      'pairs.answerDeletes': (p) => {
        this.pairs.answerDeletes(p.pairId, p.answer);
        return Promise.resolve(null);
      },
      ...attentionHandlers({
        pairs: this.pairs,
        open: this.opts.openPath ?? ((f) => openInFileManager(f, this.opts.env ?? process.env)),
        show: this.opts.showPath ?? ((f) => showInFileManager(f, this.opts.env ?? process.env)),
      }),
      ...browseHandlers({
        account: acct,
        folderIndex: (s) => this.folderIndex(s),
        pairs: this.pairs,
        open: this.opts.openPath ?? ((f) => openInFileManager(f, this.opts.env ?? process.env)),
        show: this.opts.showPath ?? ((f) => showInFileManager(f, this.opts.env ?? process.env)),
        openUrl: this.opts.openUrl ?? ((url) => this.emit('open-url', { url })),
        log: this.log,
      }),
      // The engines' trash, in the state directory (sync/loop/open.ts).
      'trash.list': () => listTrash(...this.trashDirs()),
      'trash.restore': (p) => restoreFromTrash(...this.trashDirs(), p.id),
      'trash.show': async (p) => {
        const file = await trashedPath(...this.trashDirs(), p.id);
        const show =
          this.opts.showPath ?? ((f) => showInFileManager(f, this.opts.env ?? process.env));
        try {
          await show(file);
        } catch (err) {
          this.log.warn('the file manager did not show it', { err });
          failOpen(err, file, 'item');
        }
        return null;
      },
      'pairs.openFolder': async (p) => {
        const dir = this.pairs.dirOf(p.pairId);
        const open =
          this.opts.openPath ?? ((d) => openInFileManager(d, this.opts.env ?? process.env));
        try {
          await open(dir);
        } catch (err) {
          this.log.warn('the file manager did not open it', { err });
          failOpen(err, dir, 'folder');
        }
        return null;
      },

      'workspaces.list': async (p) => {
        const s = await acct(p);
        return gather(s.client.listWorkspaces(), workspaceOf);
      },
      'workspaces.create': async (p) => {
        const s = await acct(p);
        const name = p.name.trim();
        if (name === '') return fail('invalid', { key: 'backend.nameWorkspace' });
        const view = p.defaultView === undefined ? undefined : viewToService(p.defaultView);
        if (view === null) return fail('invalid', { key: 'backend.defaultView' });
        const w = await s.client.createWorkspace({
          name,
          ...(p.color !== undefined ? { background_color: p.color } : {}),
          ...(view !== undefined ? { default_view: view } : {}),
        });
        return workspaceOf(w);
      },
      'workspaces.update': async (p) => {
        const s = await acct(p);
        const view = p.defaultView === undefined ? undefined : viewToService(p.defaultView);
        if (view === null) return fail('invalid', { key: 'backend.defaultView' });
        if (p.name !== undefined && p.name.trim() === '')
          return fail('invalid', { key: 'backend.nameWorkspace' });
        const w = await s.client.updateWorkspace(p.workspaceId, {
          ...(p.name !== undefined ? { name: p.name.trim() } : {}),
          ...(p.color !== undefined ? { background_color: p.color } : {}),
          ...(view !== undefined ? { default_view: view } : {}),
        });
        return workspaceOf(w);
      },
      'workspaces.delete': async (p) => {
        const s = await acct(p);
        const w = await s.client.getWorkspace(p.workspaceId);
        // Exactly the name: deleting a workspace deletes everything in it for everyone.
        if (p.confirmName !== w.name) return fail('invalid', { key: 'backend.confirmName' });
        await s.client.deleteWorkspace(p.workspaceId);
        return null;
      },

      'folders.contents': async (p) => {
        const s = await acct(p);
        const got = await contentsAt(s.client, p.folderId, {
          offset: p.offset ?? 0,
          limit: p.limit ?? 100,
          ...(p.query ? { query: p.query } : {}),
          ...(p.sort ? { sort: p.sort } : {}),
        });
        this.folderIndex(s).remember(got.seen);
        return { items: got.seen.map(entryOf), nextOffset: got.nextOffset, total: got.total };
      },
      'folders.path': async (p) => this.folderIndex(await acct(p)).path(p.folderId),
      'folders.downloadZip': async (p) => {
        const s = await acct(p);
        const trail = await this.folderIndex(s).path(p.folderId);
        const name = trail[trail.length - 1]?.name ?? `folder-${p.folderId}`;
        return downloadZip({
          client: s.client,
          folderId: p.folderId,
          folderName: name,
          to: p.to,
          home: this.home,
          progress: (bytes) =>
            this.emit('zip-progress', { folderId: p.folderId, bytes, total: null }),
        });
      },

      'comments.list': async (p) => {
        const s = await acct(p);
        const role = await this.roleForItem(s, p.kind, p.itemId);
        return gather(s.client.listComments(p.kind, p.itemId), (c) =>
          commentOf(c, { userId: s.userId, role }),
        );
      },
      'comments.add': async (p) => {
        const s = await acct(p);
        if (p.body.trim() === '') return fail('invalid', { key: 'backend.writeSomething' });
        const c = await s.client.addComment(p.kind, p.itemId, p.body);
        // The service names the author: that is this user (the contract has no "me").
        if (s.userId === null && typeof c.user_id === 'number') s.userId = c.user_id;
        return commentOf(c, { userId: s.userId, role: null });
      },
      'comments.delete': async (p) => {
        const s = await acct(p);
        await s.client.deleteComment(p.kind, p.itemId, p.commentId);
        return null;
      },

      'links.get': async (p) => {
        const s = await acct(p);
        const [link, role] = await Promise.all([
          s.client.getLink(p.kind, p.itemId),
          this.roleForItem(s, p.kind, p.itemId),
        ]);
        return linkOf(link, s.server, role);
      },
      'links.update': async (p) => {
        const s = await acct(p);
        if (p.requirePassword === true && !p.password)
          return fail('invalid', { key: 'backend.linkPassword' });
        const expiresAt =
          p.expiresAt === undefined || p.expiresAt === null
            ? p.expiresAt
            : epochOf(p.expiresAt, 'expiry');
        const link = await s.client.updateLink(p.kind, p.itemId, {
          ...(p.tokenAccessible !== undefined ? { token_accessible: p.tokenAccessible } : {}),
          ...(p.requirePassword !== undefined ? { require_password: p.requirePassword } : {}),
          ...(p.password !== undefined ? { password: p.password } : {}),
          ...(expiresAt !== undefined ? { expiresAt } : {}),
        });
        return linkOf(link, s.server, await this.roleForItem(s, p.kind, p.itemId));
      },
      'links.copy': async (p) => {
        const s = await acct(p);
        const link = await s.client.getLink(p.kind, p.itemId);
        return { text: linkOf(link, s.server, null).url };
      },

      'activity.list': async (p) => {
        const s = await acct(p);
        const offset = p.offset ?? 0;
        const startTime = epochOf(p.from, 'from');
        const endTime = epochOf(p.to, 'to');
        if (startTime !== undefined && endTime !== undefined && startTime > endTime)
          return fail('invalid', { key: 'backend.fromBeforeTo' });
        const events = s.client.listEvents({
          ...(p.workspaces ? { workspaces: p.workspaces } : {}),
          ...(p.verbs ? { verbs: p.verbs } : {}),
          ...(p.actor !== undefined ? { actor: p.actor } : {}),
          ...(p.othersOnly !== undefined ? { filterSelf: p.othersOnly } : {}),
          ...(startTime !== undefined ? { startTime } : {}),
          ...(endTime !== undefined ? { endTime } : {}),
          offset,
        });
        const me = { userId: s.userId, name: s.info.name };
        // The service skips to the offset: a page costs the same at the end of a long feed.
        if (!p.foldOwnReads) {
          const got = await page(events, 0, p.limit ?? 50, (e) => activityOf(e, me));
          return {
            items: got.items,
            nextOffset: got.nextOffset === null ? null : offset + got.nextOffset,
          };
        }
        return foldedPage(events, offset, p.limit ?? 50, me);
      },
      'activity.auditTrail': async (p) => {
        const s = await acct(p);
        try {
          const me = { userId: s.userId, name: s.info.name };
          return await gather(s.client.fileAuditTrail(p.fileId), (e) => activityOf(e, me));
        } catch (err) {
          if (err instanceof ApiError && (err.kind === 'forbidden' || err.kind === 'not-found'))
            return fail('forbidden', AUDIT_FORBIDDEN);
          throw err;
        }
      },
      'activity.burstFolder': async (p) => ({
        folder: await this.folderOfAll(await acct(p), p.fileIds),
      }),
      'activity.role': async (p) => ({ role: await this.roleIn(await acct(p), p.workspaceId) }),

      // Selective sync: the choices (one folder's folders at a time) and a pair's selection.
      'selection.folders': async (p) => {
        const s = await acct(p);
        const root = (await s.client.getWorkspace(p.workspaceId)).root_folder_id;
        const at = p.folderId ?? root;
        const parentId = at === root ? null : at;
        // The folders only, read through the files beside them within the bound.
        const got = await gather(s.client.folderContents(at), (e) =>
          e.kind === 'folder' ? { id: e.folder.id, name: e.folder.filename, parentId } : null,
        );
        got.items.sort((a, b) => a.name.localeCompare(b.name, 'en'));
        return got;
      },
      'pairs.selection': async (p) => ({ excluded: await this.pairs.selection(p.pairId) }),
      'pairs.setSelection': async (p) => {
        await this.pairs.setSelection(p.pairId, p.excluded);
        return null;
      },
      ...memberHandlers({ session: acct }),

      'settings.get': () => this.settings,
      'settings.update': (p) => this.updateSettings(p),

      'local.listFolders': (p) => listLocalFolders(p.dir, { home: this.home, ...p }),
      'local.checkFolder': (p) =>
        checkLocalFolder(p.dir, {
          home: this.home,
          taken: (dir) => this.pairs.overlapping(dir),
          appDirs: this.pairs.appDirs(),
          ignorePatterns: this.pairs.ignorePatterns(),
        }),
      // The desktop's main process answers this one with the OS's dialog before it gets here.
      'local.chooseFolder': () => fail('unsupported', { key: 'backend.noSystemDialog' }),
      'local.chooseZipFile': () => fail('unsupported', { key: 'backend.noSaveDialog' }),

      'app.about': async () => aboutFacts(this.version(), this.pairs.list()),
      'app.diagnostics': async (p) => {
        const pairs = this.pairs.list();
        const servers = new Map((await this.sessions.list()).map((a) => [a.id, a.server]));
        const secrets = this.opts.demo ? [this.opts.demo.password] : [];
        const about = aboutFacts(this.version(), pairs);
        return {
          text: diagnosticsText({ about, pairs, servers, secrets, includeNames: p.includeNames }),
        };
      },
      'app.openLogs': async () => {
        const dir = this.opts.logsDir ?? path.join(this.opts.stateDir, 'logs');
        await mkdir(dir, { recursive: true });
        const open =
          this.opts.openPath ?? ((d) => openInFileManager(d, this.opts.env ?? process.env));
        try {
          await open(dir);
        } catch (err) {
          this.log.warn('the file manager did not open it', { err });
          failOpen(err, dir, 'logs');
        }
        return null;
      },
    };
  }
}
