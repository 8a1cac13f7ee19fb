// A fake of the part of Electron the main process uses, so that the wiring runs under plain
// Node in tests (the Electron binary cannot be fetched here). vitest.config.ts aliases
// `electron` to this file; tests reach its recorded state through `fake`.
import { EventEmitter } from 'node:events';

type Listener = (...args: never[]) => unknown;

class Emitter {
  private readonly ee = new EventEmitter();
  on(event: string, listener: Listener): this {
    this.ee.on(event, listener as (...a: unknown[]) => void);
    return this;
  }
  once(event: string, listener: Listener): this {
    this.ee.once(event, listener as (...a: unknown[]) => void);
    return this;
  }
  removeListener(event: string, listener: Listener): this {
    this.ee.removeListener(event, listener as (...a: unknown[]) => void);
    return this;
  }
  emit(event: string, ...args: unknown[]): boolean {
    return this.ee.emit(event, ...args);
  }
  listenerCount(event: string): number {
    return this.ee.listenerCount(event);
  }
}

/** An event whose default can be prevented, as Electron passes them. */
export class FakeEvent {
  defaultPrevented = false;
  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

export class FakeFrame {
  constructor(public url: string) {}
}

let nextContentsId = 1;

export class FakeWebContents extends Emitter {
  readonly id = nextContentsId++;
  readonly mainFrame = new FakeFrame('about:blank');
  readonly sent: { channel: string; data: unknown }[] = [];
  windowOpenHandler: ((details: { url: string }) => { action: 'allow' | 'deny' }) | null = null;
  loading = true;
  send(channel: string, data: unknown): void {
    this.sent.push({ channel, data });
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'allow' | 'deny' }): void {
    this.windowOpenHandler = handler;
  }
  isLoading(): boolean {
    return this.loading;
  }
}

export class BrowserWindow extends Emitter {
  static readonly all: BrowserWindow[] = [];
  readonly webContents = new FakeWebContents();
  visible = false;
  focused = false;
  destroyed = false;
  minimized = false;
  loaded: string | null = null;
  constructor(readonly options: Record<string, unknown>) {
    super();
    BrowserWindow.all.push(this);
    fake.app.emit('web-contents-created', new FakeEvent(), this.webContents);
  }
  /** No loadFile: the app's window loads app://…, never file://. */
  async loadURL(url: string): Promise<void> {
    this.loaded = url;
    this.webContents.mainFrame.url = url;
    this.webContents.loading = false;
    this.webContents.emit('did-finish-load');
  }
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
  }
  focus(): void {
    this.focused = true;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  restore(): void {
    this.minimized = false;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  /** What the person's click on the close button does. */
  close(): void {
    const event = new FakeEvent();
    this.emit('close', event);
    if (!event.defaultPrevented) {
      this.destroyed = true;
      this.visible = false;
    }
  }
}

class FakeApp extends Emitter {
  isPackaged = false;
  locked = true;
  lockData: unknown = null;
  quitCalls = 0;
  exitCode: number | null = null;
  loginItems: { openAtLogin: boolean; args?: string[] }[] = [];
  private ready = false;
  private readyResolve!: () => void;
  private readonly readyPromise = new Promise<void>((r) => (this.readyResolve = r));
  requestSingleInstanceLock(data?: unknown): boolean {
    this.lockData = data ?? null;
    return this.locked;
  }
  whenReady(): Promise<void> {
    return this.readyPromise;
  }
  isReady(): boolean {
    return this.ready;
  }
  /** The test's "Electron is ready". */
  makeReady(): void {
    this.ready = true;
    this.readyResolve();
    this.emit('ready');
  }
  /** Electron's quit: `before-quit` may prevent it. */
  quit(): void {
    this.quitCalls++;
    const event = new FakeEvent();
    this.emit('before-quit', event);
    if (!event.defaultPrevented) this.emit('quit');
    fake.changed();
  }
  exit(code = 0): void {
    this.exitCode = code;
  }
  getVersion(): string {
    return '0.0.0-test';
  }
  /** The OS's language as Electron reports it; a test sets another. */
  locale = 'en-US';
  getLocale(): string {
    return this.locale;
  }
  getAppPath(): string {
    return process.cwd();
  }
  /** The OS's places (only Downloads is asked): under a folder a test may set. */
  places = '/home/fake';
  getPath(name: string): string {
    return `${this.places}/${name === 'downloads' ? 'Downloads' : name}`;
  }
  setLoginItemSettings(settings: { openAtLogin: boolean; args?: string[] }): void {
    this.loginItems.push(settings);
  }
}

export class Notification extends Emitter {
  static supported = true;
  static isSupported(): boolean {
    return Notification.supported;
  }
  constructor(readonly options: { title: string; body: string; silent?: boolean }) {
    super();
  }
  show(): void {
    fake.notifications.push(this);
    fake.changed();
  }
  click(): void {
    this.emit('click', new FakeEvent());
  }
}

export interface FakeMenuItem {
  label?: string;
  type?: string;
  enabled?: boolean;
  click?: () => void;
  submenu?: FakeMenuItem[];
}

export const Menu = {
  buildFromTemplate(items: FakeMenuItem[]): { items: FakeMenuItem[] } {
    return { items };
  },
};

export const nativeImage = {
  createFromPath(file: string): { file: string } {
    return { file };
  },
};

export class Tray extends Emitter {
  image: { file: string };
  tooltip = '';
  menu: { items: FakeMenuItem[] } | null = null;
  destroyed = false;
  constructor(image: { file: string }) {
    super();
    this.image = image;
    fake.trays.push(this);
  }
  setImage(image: { file: string }): void {
    this.image = image;
    fake.changed();
  }
  setToolTip(text: string): void {
    this.tooltip = text;
    fake.changed();
  }
  setContextMenu(menu: { items: FakeMenuItem[] }): void {
    this.menu = menu;
    fake.changed();
  }
  destroy(): void {
    this.destroyed = true;
  }
}

type Handler = (event: unknown, ...args: unknown[]) => unknown;

export const ipcMain = {
  handlers: new Map<string, Handler>(),
  handle(channel: string, handler: Handler): void {
    this.handlers.set(channel, handler);
  },
};

export const ipcRenderer = {
  invoked: [] as unknown[][],
  listeners: new Map<string, ((...args: unknown[]) => void)[]>(),
  invoke(...args: unknown[]): Promise<unknown> {
    this.invoked.push(args);
    return Promise.resolve(fake.rendererReply(args));
  },
  on(channel: string, listener: (...args: unknown[]) => void): void {
    this.listeners.set(channel, [...(this.listeners.get(channel) ?? []), listener]);
  },
  removeListener(channel: string, listener: (...args: unknown[]) => void): void {
    this.listeners.set(
      channel,
      (this.listeners.get(channel) ?? []).filter((l) => l !== listener),
    );
  },
};

export const contextBridge = {
  exposed: new Map<string, unknown>(),
  exposeInMainWorld(name: string, api: unknown): void {
    this.exposed.set(name, api);
  },
};

export const clipboard = {
  text: '',
  writeText(text: string): void {
    this.text = text;
    fake.changed();
  },
  readText(): string {
    return this.text;
  },
};

/** A reversible stand-in for the OS's encryption (the real one needs a desktop session). */
export const safeStorage = {
  available: true,
  backend: 'gnome_libsecret',
  isEncryptionAvailable(): boolean {
    return this.available;
  },
  getSelectedStorageBackend(): string {
    return this.backend;
  },
  encryptString(plain: string): Buffer {
    return Buffer.from(`enc:${Buffer.from(plain).toString('base64')}`);
  },
  decryptString(data: Buffer): string {
    const text = data.toString();
    if (!text.startsWith('enc:')) throw new Error('not encrypted by this fake');
    return Buffer.from(text.slice(4), 'base64').toString();
  },
};

export const shell = {
  external: [] as string[],
  paths: [] as string[],
  async openExternal(url: string): Promise<void> {
    this.external.push(url);
    fake.changed();
  },
  /** What openPath answers next (Electron's reason it could not open a path), once. */
  refusals: [] as string[],
  async openPath(p: string): Promise<string> {
    this.paths.push(p);
    fake.changed();
    return this.refusals.shift() ?? '';
  },
  shown: [] as string[],
  showItemInFolder(p: string): void {
    this.shown.push(p);
  },
};

export const protocol = {
  privileged: [] as { scheme: string; privileges?: Record<string, boolean> }[],
  handlers: new Map<string, (request: Request) => Response | Promise<Response>>(),
  registerSchemesAsPrivileged(
    schemes: { scheme: string; privileges?: Record<string, boolean> }[],
  ): void {
    if (fake.app.isReady()) throw new Error('registerSchemesAsPrivileged after ready');
    this.privileged.push(...schemes);
  },
  handle(scheme: string, handler: (request: Request) => Response | Promise<Response>): void {
    if (!fake.app.isReady()) throw new Error('protocol.handle before ready');
    this.handlers.set(scheme, handler);
  },
};

/** The person's answers to message boxes: the next one is shifted off; none left is Cancel. */
export const dialog = {
  asked: [] as { message: string; detail?: string; buttons?: string[] }[],
  answers: [] as number[],
  async showMessageBox(options: {
    message: string;
    detail?: string;
    buttons?: string[];
    cancelId?: number;
  }): Promise<{ response: number; checkboxChecked: boolean }> {
    this.asked.push(options);
    fake.changed();
    return { response: this.answers.shift() ?? options.cancelId ?? 0, checkboxChecked: false };
  },
  /** The save dialogs opened (their window and options), and the paths to answer (null: Cancel). */
  saved: [] as { parent: unknown; options: { defaultPath?: string; filters?: unknown } }[],
  savePaths: [] as (string | null)[],
  async showSaveDialog(
    ...args: [unknown, { defaultPath?: string }] | [{ defaultPath?: string }]
  ): Promise<{ canceled: boolean; filePath: string }> {
    const [parent, options] = args.length === 2 ? args : [null, args[0]];
    this.saved.push({ parent, options });
    fake.changed();
    const chosen = this.savePaths.shift() ?? null;
    return chosen === null
      ? { canceled: true, filePath: '' }
      : { canceled: false, filePath: chosen };
  },
  /** The folder dialogs opened (their window, if any, and options), and the folders to answer. */
  opened: [] as { parent: unknown; options: { properties?: string[]; defaultPath?: string } }[],
  folders: [] as (string | null)[],
  async showOpenDialog(
    ...args:
      [unknown, { properties?: string[]; defaultPath?: string }] | [{ properties?: string[] }]
  ): Promise<{ canceled: boolean; filePaths: string[] }> {
    const [parent, options] = args.length === 2 ? args : [null, args[0]];
    this.opened.push({ parent, options });
    fake.changed();
    const folder = this.folders.shift() ?? null;
    return folder === null
      ? { canceled: true, filePaths: [] }
      : { canceled: false, filePaths: [folder] };
  },
};

type PermissionHandler = (...args: unknown[]) => unknown;

export const session = {
  defaultSession: {
    permissionRequest: null as PermissionHandler | null,
    permissionCheck: null as PermissionHandler | null,
    devicePermission: null as PermissionHandler | null,
    setPermissionRequestHandler(h: PermissionHandler): void {
      this.permissionRequest = h;
    },
    setPermissionCheckHandler(h: PermissionHandler): void {
      this.permissionCheck = h;
    },
    setDevicePermissionHandler(h: PermissionHandler): void {
      this.devicePermission = h;
    },
  },
};

type FakeChild = Emitter & { postMessage(m: unknown): void; kill(): boolean; posted: unknown[] };

export const utilityProcess = {
  forks: [] as { modulePath: string; options: Record<string, unknown> }[],
  children: [] as FakeChild[],
  lastChild(): FakeChild {
    return this.children.at(-1)!;
  },
  fork(modulePath: string, _args: string[], options: Record<string, unknown>) {
    this.forks.push({ modulePath, options });
    const child = new Emitter() as FakeChild;
    this.children.push(child);
    child.posted = [];
    child.postMessage = (m) => void child.posted.push(m);
    child.kill = () => true;
    return child;
  },
};

const waiters = new Set<() => void>();

export const fake = {
  app: new FakeApp(),
  notifications: [] as Notification[],
  trays: [] as Tray[],
  /** What the fake ipcRenderer answers (tests of the preload set it). */
  rendererReply: (_args: unknown[]): unknown => undefined,
  /** Wakes the tests waiting for a state of the fake. */
  changed(): void {
    for (const w of [...waiters]) w();
  },
  /**
   * Resolves once `check` holds, re-checked whenever the fake changes (a tray update, a
   * notification, the clipboard): waiting on events, not on time.
   */
  until<T>(
    check: () => T | undefined | null | false,
    what: string,
    timeoutMs = 20_000,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const test = () => {
        const value = check();
        if (value) {
          waiters.delete(test);
          clearTimeout(timer);
          resolve(value);
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(test);
        reject(new Error(`timed out waiting for ${what}`));
      }, timeoutMs);
      waiters.add(test);
      test();
    });
  },
};

export const app = fake.app;
export default {
  app,
  BrowserWindow,
  Notification,
  Menu,
  nativeImage,
  Tray,
  ipcMain,
  ipcRenderer,
  contextBridge,
  clipboard,
  safeStorage,
  shell,
  session,
  utilityProcess,
  protocol,
  dialog,
};
