import { downloadAt, onDemandAt } from './download-at';
import type { OnDemandOp } from '../engine';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import {
  AppCallError,
  Events,
  isMethod,
  Methods,
  type AppError,
  type EventName,
  type EventOf,
  type Settings,
} from '../../shared/app-api';
import { ApiError } from '../api/errors';
import { processTransfers } from '../api/throttle';
import { silentLogger, type Logger } from '../core/logger';
import type { AccountStore } from '../accounts/accounts';
import { ActivityFeed } from './activity';
import { AccountSessions, type SignedIn } from './accounts';
import { appError, describeIssues, toAppError } from './errors';
import { languageOfEnv, resolveLanguage } from '../../shared/i18n';
import { FolderIndex } from './folders';
import { openInFileManager, showInFileManager } from '../os/open-path';
import { makeHandlers, type HandlerContext, type Handlers } from './handlers';
import { Pairs } from './pairs';
import { SettingsStore } from '../state/settings';
import { configureProxy } from '../api/proxy';
import { packageRoot } from '../core/package-root';

/** What `call` answers: the `Reply` of the wire format without its id. */
export type CallResult = { ok: true; result: unknown } | { ok: false; error: AppError };

/** An event pushed to the window. */
export type PushMessage = { [E in EventName]: { event: E; data: EventOf<E> } }[EventName];

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

/** The app's version when no desktop gave one: package.json's. */
function appVersion(): string {
  try {
    const root = packageRoot(import.meta.dirname);
    if (!root) return '0.0.0';
    const file = path.join(root, 'package.json');
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
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
  private readonly browserSignIn: { current: AbortController | null } = { current: null };
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
    this.handlers = makeHandlers(this.handlerContext());
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

  /**
   * A placeholder opened where the app is installed (`--open PATH`): its file downloaded by
   * the pair's engine; the file's path once it is here (download-at.ts).
   */
  downloadAt(p: string): Promise<string> {
    return downloadAt(p, this.pairs);
  }

  /** A files-on-demand menu entry where the app is installed (`--files ACTION PATH…`). */
  async onDemandAt(op: OnDemandOp, paths: readonly string[]): Promise<void> {
    await onDemandAt(op, paths, this.pairs);
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
    this.browserSignIn.current?.abort(
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

  /** What the handlers (handlers/, one file per namespace) are given. */
  private handlerContext(): HandlerContext {
    const { opts } = this;
    const env = opts.env ?? process.env;
    return {
      log: this.log,
      stateDir: opts.stateDir,
      home: this.home,
      sessions: this.sessions,
      pairs: this.pairs,
      account: (p) => this.sessions.get(p.accountId),
      folderIndex: (s) => this.folderIndex(s),
      forgetFolders: (accountId) => this.folders.delete(accountId),
      settings: () => this.settings,
      updateSettings: (patch) => this.updateSettings(patch),
      emit: (event, data) => this.emit(event, data),
      open: opts.openPath ?? ((f) => openInFileManager(f, env)),
      show: opts.showPath ?? ((f) => showInFileManager(f, env)),
      openUrl: opts.openUrl ?? ((url) => this.emit('open-url', { url })),
      browserSignIn: this.browserSignIn,
      browserSignInTimeoutMs: opts.browserSignInTimeoutMs ?? 5 * 60_000,
      demo: opts.demo ?? null,
      server: opts.server,
      desktop: opts.desktop !== undefined,
      version: () => opts.desktop?.version ?? appVersion(),
      logsDir: opts.logsDir ?? path.join(opts.stateDir, 'logs'),
    };
  }
}
