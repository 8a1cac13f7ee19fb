// The main process's wiring: the window, the tray, notices, the clipboard and the keychain's
// fallback, with the engine host (engine-process.ts) running the backend and its engines. It
// answers `api:call` only from our window's main frame showing the bundled renderer; a second
// launch hands its argv to the first (args.ts; what it asks is done by app-opens.ts); a quit
// waits for the host to stop its engines (15 s at most); a crashed host is started again, three
// times a minute at most. The window's own calls (trust, dialogs) are window-calls.ts; how the
// host is started, engine-host.ts.
import { app, BrowserWindow, clipboard, ipcMain, type IpcMainInvokeEvent } from 'electron';
import { copyLinkFor, onDemandFor, openFor } from './app-opens';
import path from 'node:path';
import {
  IpcChannel,
  isMethod,
  type ActivityEvent,
  type AppError,
  type Settings,
  type SyncPair,
} from '../shared/app-api';
import { resolveLanguage, translator } from '../shared/i18n';
import { RENDERER_URL, registerAppScheme, serveRenderer } from './app-protocol';
import { isHandover, parseAppArgs, type AppArgs } from './args';
import { dropSecrets } from './os/child-env';
import type { EngineClient } from './engine-client';
import type { DesktopOptions } from './desktop-options';
import type { PushMessage } from './backend/backend';
import { setStartAtLogin } from './platform/login-item';
import { showNotification } from './platform/notifications';
import { eventTarget, NoticeBatcher, type Notice } from './platform/notify-batch';
import {
  AttentionNotices,
  summarizeCauses,
  type AttentionCause,
} from './platform/attention-notices';
import { setMainLanguage } from './platform/language';
import { hardenApp, openExternal, trustServers, whileSigningIn } from './platform/security';
import { AppTray } from './platform/tray';
import { TRAY_RECENT, trayMenu, type RecentEvent, type TrayCommand } from './platform/tray-menu';
import { trayStateOf, trayStatusLine } from './platform/tray-state';
import { mainWindowOptions } from './window-options';
import {
  CHANGES_ACCOUNTS,
  CHANGES_PAIRS,
  chooseFolder,
  chooseZipFile,
  trustedSender,
} from './window-calls';
import { openFolderFromTray, startEngineHost } from './engine-host';

export type { DesktopOptions };

/** A burst of others' activity ends after this much quiet (or this long after it began). */
const NOTICE_QUIET_MS = 2_000;
const NOTICE_MAX_WAIT_MS = 20_000;
/** A crashed engine host is started again, up to this many times a minute. */
const ENGINE_RESTARTS = 3;
const ENGINE_RESTART_WINDOW_MS = 60_000;

/**
 * The desktop app's main process: one instance, one window (closing it keeps the app in the
 * tray), the engine in a utility process, the typed API relayed to it over IPC from our own
 * window only, the tray, notifications of others' activity and copy-link requests from the
 * file manager. Returns false when another instance already runs (it was handed our arguments).
 */
export function startDesktop(opts: DesktopOptions): boolean {
  // Electron's shell (openExternal, openPath, showItemInFolder) starts the browser, xdg-open and
  // the file manager with this process's environment: our secrets leave it (the engine host,
  // ours, is given its environment by the caller, taken before).
  dropSecrets(process.env);
  const first = parseAppArgs(opts.argv, opts.cwd);
  if (!app.requestSingleInstanceLock({ argv: [...opts.argv], cwd: opts.cwd })) {
    app.quit();
    return false;
  }
  return new Desktop(opts, first).start();
}

class Desktop {
  private win: BrowserWindow | null = null;
  private tray: AppTray | null = null;
  private engine!: EngineClient;
  private pairs: SyncPair[] = [];
  private recent: RecentEvent[] = [];
  private quitting = false;
  private settings: Settings | null = null;
  private applying: Promise<void> = Promise.resolve();
  /** When the engine host was last started again after a crash. */
  private restarts: number[] = [];
  private readonly notices: NoticeBatcher;
  /** A new conflict, a sign-out, a full disk: each once, batched like others' events. */
  private readonly attention = new AttentionNotices();
  private readonly attentionNotices: NoticeBatcher<AttentionCause>;

  constructor(
    private readonly opts: DesktopOptions,
    private readonly args: AppArgs,
  ) {
    this.notices = new NoticeBatcher({
      quietMs: opts.noticeQuietMs ?? NOTICE_QUIET_MS,
      maxWaitMs: NOTICE_MAX_WAIT_MS,
      notify: (n) => this.notify(n),
    });
    this.attentionNotices = new NoticeBatcher<AttentionCause>({
      quietMs: opts.noticeQuietMs ?? NOTICE_QUIET_MS,
      maxWaitMs: NOTICE_MAX_WAIT_MS,
      notify: (n) => this.notify(n),
      summarize: summarizeCauses,
    });
  }

  start(): boolean {
    hardenApp();
    registerAppScheme();
    app.on('second-instance', (_e, argv, cwd, data) => {
      const handed = isHandover(data) ? data : { argv, cwd };
      this.handle(parseAppArgs(handed.argv, handed.cwd), true);
    });
    ipcMain.handle(IpcChannel.call, (event, id: unknown, method: unknown, params: unknown) =>
      this.relay(event, id, method, params),
    );
    app.on('before-quit', (event) => {
      if (this.quitting) return;
      event.preventDefault();
      void this.quit();
    });
    // Closing the window keeps the app in the tray: nothing to do here.
    app.on('window-all-closed', () => undefined);
    app.on('activate', () => this.showWindow());
    void app.whenReady().then(() => this.ready());
    return true;
  }

  private async ready(): Promise<void> {
    const { opts } = this;
    serveRenderer(path.dirname(opts.paths.renderer));
    // The OS's language until the settings say otherwise (applySettings).
    setMainLanguage(translator(resolveLanguage('system', [app.getLocale()])));
    this.engine = this.startEngine();
    this.tray = new AppTray({
      iconDir: opts.paths.trayIcons,
      platform: process.platform,
      run: (c) => this.runTrayCommand(c),
      onClick: () => this.showWindow(),
    });
    this.refreshTray();
    const { hidden, copyLink, open, files } = this.args;
    if (!hidden && copyLink.length === 0 && open.length === 0 && !files) this.showWindow();
    if (!(await this.engineUp())) return;
    this.handle(this.args, false);
    if (opts.integrate)
      opts.integrate().catch((err: unknown) => opts.log.warn('integration failed', { err }));
  }

  private startEngine(): EngineClient {
    return startEngineHost(this.opts, {
      push: (p) => this.onPush(p),
      othersActivity: (events) => this.notices.add(events),
      exited: (code) => this.engineExited(code),
    });
  }

  /** Waits for the engine host, then reads what the tray and the settings need from it. */
  private async engineUp(): Promise<boolean> {
    try {
      await this.engine.whenReady();
    } catch (err) {
      this.opts.log.error('the engine did not start', { err });
      showNotification({
        title: 'Workspace Sync could not start syncing',
        body: err instanceof Error ? err.message : String(err),
      });
      return false;
    }
    await Promise.all([this.refreshPairs(), this.refreshTrust()]);
    const settings = await this.engine.call('settings.get', {});
    if (settings.ok) await this.applySettings(settings.result as Settings);
    return true;
  }

  /** Arguments of this launch or of a second one. */
  private handle(args: AppArgs, secondLaunch: boolean): void {
    for (const p of args.copyLink) void copyLinkFor(this.engine, p);
    for (const p of args.open) void openFor(this.engine, p);
    if (args.files) void onDemandFor(this.engine, args.files);
    const asked = args.copyLink.length > 0 || args.open.length > 0 || args.files !== null;
    if (secondLaunch && !asked) this.showWindow();
  }

  /**
   * One call from the window. Only our window's main frame, showing the bundled renderer, may
   * call: a message from anything else (another frame, a page it navigated to) is refused.
   */
  private async relay(
    event: IpcMainInvokeEvent,
    id: unknown,
    method: unknown,
    params: unknown,
  ): Promise<unknown> {
    const reqId = typeof id === 'number' && Number.isInteger(id) ? id : -1;
    const refuse = (error: AppError) => ({ id: reqId, ok: false, error });
    if (!trustedSender(event, this.win)) {
      this.opts.log.warn('refused an IPC call from an unknown sender', {
        url: event.senderFrame?.url ?? null,
      });
      return refuse({ kind: 'forbidden', message: 'This window may not use Workspace Sync.' });
    }
    if (typeof method !== 'string' || !isMethod(method))
      return refuse({ kind: 'invalid', message: `There is no method "${String(method)}".` });
    // The OS's folder dialog is main's: the engine host has no window to put it over.
    if (method === 'local.chooseFolder')
      return { id: reqId, ...(await chooseFolder(this.win, this.opts.log, params)) };
    if (method === 'local.chooseZipFile')
      return { id: reqId, ...(await chooseZipFile(this.win, this.opts.log, params)) };
    const call = () => this.engine.call(method, params);
    const r =
      method === 'accounts.signInWithBrowser'
        ? await whileSigningIn((params as { server?: unknown } | null)?.server, call)
        : await call();
    if (CHANGES_ACCOUNTS.test(method)) await this.refreshTrust();
    if (r.ok) {
      // The desktop host puts a copied link on the clipboard itself (CopyLink.tsx).
      if (method === 'links.copy' || method === 'app.diagnostics')
        clipboard.writeText((r.result as { text: string }).text);
      if (CHANGES_PAIRS.has(method)) void this.refreshPairs();
      if (method === 'settings.update') await this.applySettings(r.result as Settings);
    }
    return { id: reqId, ...r };
  }

  private onPush(push: PushMessage): void {
    if (this.win && !this.win.isDestroyed()) this.win.webContents.send(IpcChannel.event, push);
    switch (push.event) {
      case 'pair-status': {
        const pair = this.pairs.find((p) => p.id === push.data.pairId);
        if (pair) pair.status = push.data.status;
        else void this.refreshPairs();
        if (pair) this.attentionNotices.add(this.attention.update(pair));
        this.refreshTray();
        return;
      }
      case 'activity':
        this.recent = [push.data, ...this.recent].slice(0, TRAY_RECENT);
        this.refreshTray();
        return;
      case 'settings':
        void this.applySettings(push.data);
        return;
      case 'open-url':
        void openExternal(push.data.url);
        return;
      default:
        return;
    }
  }

  /**
   * Applies settings from the window's update and from the `settings` push alike; one at a
   * time, so that whoever awaits it sees the change done (start at login written or removed).
   */
  private applySettings(next: Settings): Promise<void> {
    this.applying = this.applying.then(async () => {
      const before = this.settings;
      this.settings = next;
      // The tray, notices and dialogs follow the setting, else the OS's language.
      setMainLanguage(translator(resolveLanguage(next.language, [app.getLocale()])));
      this.refreshTray();
      this.notices.setEnabled(next.notifications);
      this.attentionNotices.setEnabled(next.notifications);
      if (before?.startAtLogin === next.startAtLogin) return;
      await setStartAtLogin(next.startAtLogin).catch((err: unknown) =>
        this.opts.log.warn('start at login could not be set', { err }),
      );
    });
    return this.applying;
  }

  private async refreshPairs(): Promise<void> {
    const r = await this.engine.call('pairs.list', {});
    if (r.ok) this.pairs = r.result as SyncPair[];
    this.attention.retain(this.pairs.map((p) => p.id));
    for (const p of this.pairs) this.attentionNotices.add(this.attention.update(p));
    this.refreshTray();
  }

  private async refreshTrust(): Promise<void> {
    const r = await this.engine.call('accounts.list', {});
    if (r.ok) trustServers((r.result as { server: string }[]).map((a) => a.server));
  }

  private refreshTray(): void {
    this.tray?.update(
      trayStateOf(this.pairs),
      trayMenu(this.pairs, this.recent),
      trayStatusLine(this.pairs),
    );
  }

  private runTrayCommand(command: TrayCommand): void {
    switch (command.kind) {
      case 'open-window':
        return this.showWindow();
      case 'open-folder':
        return void openFolderFromTray(this.engine, command.pairId);
      case 'open-event':
        return this.openEvent(command.accountId, command.event);
      case 'pause-all':
      case 'resume-all': {
        const method = command.kind === 'pause-all' ? 'pairs.pause' : 'pairs.resume';
        void Promise.all(this.pairs.map((p) => this.engine.call(method, { pairId: p.id }))).then(
          () => this.refreshPairs(),
        );
        return;
      }
      case 'retry':
        for (const pairId of command.pairIds) void this.engine.call('pairs.retry', { pairId });
        return;
      case 'quit':
        app.quit();
        return;
    }
  }

  private openEvent(accountId: string, event: ActivityEvent): void {
    this.navigate(eventTarget(accountId, event));
  }

  private notify(notice: Notice): void {
    showNotification(notice, () => this.navigate(notice.target));
  }

  /** Shows the window, at an item or at the activity feed. */
  private navigate(target: Notice['target']): void {
    this.showWindow();
    const win = this.win;
    if (!win) return;
    const push: PushMessage = { event: 'show', data: target };
    const send = () => win.webContents.send(IpcChannel.event, push);
    if (win.webContents.isLoading()) win.webContents.once('did-finish-load', send);
    else send();
  }

  private showWindow(): void {
    if (!app.isReady()) return;
    if (!this.win || this.win.isDestroyed()) this.win = this.createWindow();
    if (this.win.isMinimized()) this.win.restore();
    this.win.show();
    this.win.focus();
  }

  private createWindow(): BrowserWindow {
    const win = new BrowserWindow(mainWindowOptions(this.opts.paths.preload));
    win.on('close', (event) => {
      // The app lives in the tray: closing the window hides it, quitting is in the tray menu.
      if (this.quitting) return;
      event.preventDefault();
      win.hide();
    });
    void win.loadURL(RENDERER_URL);
    return win;
  }

  /**
   * The engine host ended on its own (a crash): it is started again, its engines carrying on
   * from their journals, unless it keeps ending; then the person is told.
   */
  private engineExited(code: number): void {
    this.opts.log.error('the engine exited', { code });
    if (this.quitting) return;
    const now = Date.now();
    this.restarts = this.restarts.filter((t) => now - t < ENGINE_RESTART_WINDOW_MS);
    if (this.restarts.length >= ENGINE_RESTARTS) {
      showNotification({
        title: 'Workspace Sync stopped syncing',
        body: 'The sync engine keeps stopping. Quit and start Workspace Sync again; the log says why.',
      });
      return;
    }
    this.restarts.push(now);
    this.engine = this.startEngine();
    void this.engineUp();
  }

  /** Quit: the engines finish or journal their step, then the app ends. */
  private async quit(): Promise<void> {
    this.quitting = true;
    this.notices.setEnabled(false);
    this.attentionNotices.setEnabled(false);
    this.opts.log.info('quitting');
    await this.engine?.stop(this.opts.stopTimeoutMs ?? 15_000);
    this.tray?.destroy();
    app.quit();
  }
}
