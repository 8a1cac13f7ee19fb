import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, rmSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import type { MethodName, ParamsOf, ResultOf } from '../../src/shared/app-api';
import { SETTINGS_FILE } from '../../src/main/state/settings';
import { createInterface } from 'node:readline';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
} from 'playwright-core';
import { beforeEach, expect, onTestFailed } from 'vitest';
import { builtRenderer, programArgv } from '../bundles';
import { cliEnv, repoRoot, requirePrivateKeyring } from '../cli/run-cli';

export { repoRoot };
export const artifacts = path.join(repoRoot, 'test-artifacts', 'window');

/**
 * A child process with test/cli's environment: no WORKSPACE_SYNC_* of the machine, this file's
 * keychain service, never the developer's keyring.
 */
function start(args: string[], extraEnv: Record<string, string> = {}): ChildProcess {
  const env = cliEnv(extraEnv);
  return spawn(process.execPath, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The first stdout line that parses as JSON; the process's stderr goes into the error if it exits first. */
function firstJsonLine(child: ChildProcess, what: string): Promise<unknown> {
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      try {
        resolve(JSON.parse(line));
      } catch {
        // a log line before the JSON one
      }
    });
    child.once('exit', (code) => reject(new Error(`${what} exited (${code}):\n${stderr}`)));
    child.once('error', reject);
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/**
 * Where this test file's renderer is built: a folder of its own, since test files run at the same
 * time and Vite empties its output folder first (a shared out/renderer would vanish under a
 * bridge that is serving it).
 */
let builtDir: string | null = null;

/**
 * The renderer built with Vite, which the bridges serve (and a bridge the test starts in its own
 * process, from the folder returned): this run's, else built into a folder of this test file's.
 */
export async function buildRenderer(): Promise<string> {
  // Built once for the whole run, before any file started (test/bundles.global-setup.ts).
  const provided = builtRenderer();
  if (provided) return (builtDir = provided);
  const outDir = await mkdtemp(path.join(tmpdir(), 'ws-window-renderer-'));
  const child = spawn(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'error', '--outDir', outDir],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`vite build failed (${code}):\n${output}`);
  builtDir = outDir;
  process.once('exit', () => rmSync(outDir, { recursive: true, force: true }));
  return outDir;
}

export interface SandboxUser {
  id: number;
  name: string;
  email: string;
  password: string;
  role: string;
  token: string;
}

export interface Sandbox {
  baseUrl: string;
  workspaceId: number;
  users: SandboxUser[];
  user(email: string): SandboxUser;
  close(): Promise<void>;
}

/** A sandbox of its own with the demo seed: its base URL is what a person types to sign in. */
export async function startSandbox(): Promise<Sandbox> {
  const child = start([...programArgv('sandbox'), '--port', '0', '--seed', 'demo']);
  const info = (await firstJsonLine(child, 'sandbox')) as {
    base_url: string;
    workspace_id: number;
    users: SandboxUser[];
  };
  return {
    baseUrl: info.base_url,
    workspaceId: info.workspace_id,
    users: info.users,
    user(email) {
      const u = info.users.find((x) => x.email === email);
      if (!u) throw new Error(`no sandbox user ${email}`);
      return u;
    },
    close: () => stop(child),
  };
}

export interface Bridge {
  url: string;
  stateDir: string;
  close(): Promise<void>;
}

/**
 * `workspace-sync ui --port 0` with a state directory of its own: against `server` (the window
 * opens on the sign-in view), or with `--sandbox` (the bridge signs its demo owner in and syncs
 * the demo workspace, so the window opens signed in).
 */
export async function startBridge(
  server: string | 'sandbox',
  /** More environment for the bridge (a HOME of the test's own for the folder picker). */
  extraEnv: Record<string, string> = {},
  /** Settings stored before it starts (its settings.json, field by field over the defaults). */
  opts: { settings?: Record<string, unknown> } = {},
): Promise<Bridge> {
  // Signing in to a server remembers the account in the keychain: a private one only.
  if (server !== 'sandbox') requirePrivateKeyring();
  const stateDir = await mkdtemp(path.join(tmpdir(), 'ws-window-state-'));
  if (opts.settings)
    await writeFile(path.join(stateDir, SETTINGS_FILE), JSON.stringify(opts.settings));
  const child = start(
    [
      ...programArgv('cli'),
      'ui',
      ...(server === 'sandbox' ? ['--sandbox'] : ['--server', server]),
      '--port',
      '0',
      '--state',
      stateDir,
      ...(builtDir ? ['--static', builtDir] : []),
      ...(process.env.WINDOW_TEST_BRIDGE_LOG ? ['--verbose'] : []),
    ],
    extraEnv,
  );
  // For a failure to look into: the bridge's log (--verbose mirrors it to stderr) in a file.
  if (process.env.WINDOW_TEST_BRIDGE_LOG)
    child.stderr!.pipe(createWriteStream(process.env.WINDOW_TEST_BRIDGE_LOG, { flags: 'a' }));
  const line = (await firstJsonLine(child, 'cli ui')) as { url?: unknown };
  if (typeof line.url !== 'string') throw new Error(`cli ui printed ${JSON.stringify(line)}`);
  return {
    url: line.url,
    stateDir,
    close: async () => {
      await stop(child);
      await rm(stateDir, { recursive: true, force: true });
    },
  };
}

export function launchBrowser(): Promise<Browser> {
  // Debian's Chromium: playwright-core never downloads a browser.
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

export interface Watched {
  context: BrowserContext;
  page: Page;
  /** Every JavaScript dialog (alert, confirm, prompt) the page opened: must stay empty. */
  dialogs: string[];
  /** Console errors and CSP violations, for the failure message. */
  errors: string[];
}

export async function openWindow(
  browser: Browser,
  url: string,
  /** The browser's language (navigator.languages): English unless a test asks for another. */
  locale = 'en-US',
): Promise<Watched> {
  const context = await browser.newContext({
    colorScheme: 'light',
    locale,
    timezoneId: 'Europe/Berlin',
    viewport: { width: 1280, height: 860 },
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: new URL(url).origin,
  });
  const page = await context.newPage();
  const dialogs: string[] = [];
  const errors: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  return { context, page, dialogs, errors };
}

const axeSource = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * Serious and critical accessibility violations of what the page shows now. axe runs through
 * evaluate: a <script> tag with its source would be refused by the window's CSP, which these
 * tests keep in force.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const already = await page.evaluate('"axe" in window');
  if (!already) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    // Runs in the page: its globalThis is the window axe registered itself on.
    const axe = (
      globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }
    ).axe;
    const result = await axe.run();
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

export async function screenshot(page: Page, view: string): Promise<void> {
  await mkdir(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, `${view}.png`), fullPage: true });
}

/** Waits until the locator is visible (playwright's own timeout unless one is given). */
export const shown = (l: Locator, timeout?: number) => l.waitFor({ state: 'visible', timeout });

/** axe finds no serious or critical violation in what the page shows now; `what` names it. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, `${what}: ${JSON.stringify(violations, null, 1)}`).toEqual([]);
}

export type ColorScheme = 'light' | 'dark';
export interface Size {
  width: number;
  height: number;
}

/** The sizes every view is looked at: the house's wide and narrow window. */
const SHOT_SIZES: readonly Size[] = [
  { width: 1280, height: 800 },
  { width: 800, height: 600 },
];

/** The size openWindow starts at, which most tests go back to after their screenshots. */
const TEST_SIZE: Size = { width: 1280, height: 860 };

export interface ShotsOptions {
  /**
   * What must show at each size before its screenshot: a locator waited for, or a step of the
   * test's own (opening a menu the narrow window hides). Nothing waited for when left out.
   */
  ready?: Locator | ((size: Size) => Promise<void>);
  /** After each size's screenshot (and its axe check, with `axe: 'shot'`): undoing `ready`. */
  after?: (size: Size) => Promise<void>;
  /** The file name without `.png`; `${name}-${scheme}-${width}x${height}` unless given. */
  file?: (scheme: ColorScheme, size: Size) => string;
  /** axe once per scheme after its sizes (the default), or after every screenshot. */
  axe?: 'scheme' | 'shot';
  /** What the axe failure names; `${name} (${scheme})` unless given. */
  what?: (scheme: ColorScheme, size: Size) => string;
  /** The size to go back to after; 1280×860 unless given, null to leave the last one. */
  restore?: Size | null;
  /** Both schemes at one size before the next size, instead of both sizes per scheme. */
  sizesFirst?: boolean;
}

/**
 * The view's screenshots at 1280×800 and 800×600, light and dark, into test-artifacts/window,
 * axe clean in each scheme; then back to light and the test's own size.
 */
export async function shots(page: Page, name: string, options: ShotsOptions = {}): Promise<void> {
  const { ready, after, axe = 'scheme', restore = TEST_SIZE } = options;
  const file =
    options.file ?? ((scheme, { width, height }) => `${name}-${scheme}-${width}x${height}`);
  const what = options.what ?? ((scheme) => `${name} (${scheme})`);
  const schemes: ColorScheme[] = ['light', 'dark'];
  const steps = options.sizesFirst
    ? SHOT_SIZES.flatMap((size) => schemes.map((scheme) => ({ scheme, size })))
    : schemes.flatMap((scheme) => SHOT_SIZES.map((size) => ({ scheme, size })));
  for (const [i, { scheme, size }] of steps.entries()) {
    // emulateMedia only where the scheme changes, as the tests' own loops did.
    if (i === 0 || steps[i - 1]!.scheme !== scheme)
      await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize(size);
    if (typeof ready === 'function') await ready(size);
    else if (ready) await shown(ready);
    await screenshot(page, file(scheme, size));
    if (axe === 'shot') await expectAccessible(page, what(scheme, size));
    if (after) await after(size);
    const lastOfScheme = i === steps.length - 1 || steps[i + 1]!.scheme !== scheme;
    if (axe === 'scheme' && lastOfScheme) await expectAccessible(page, what(scheme, size));
  }
  await page.emulateMedia({ colorScheme: 'light' });
  if (restore) await page.setViewportSize(restore);
}

/** A REST call to the sandbox as one of its users: what another person does meanwhile. */
export async function asUser<T>(
  sandbox: Sandbox,
  email: string,
  method: string,
  route: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(sandbox.baseUrl + route, {
    method,
    headers: {
      authorization: `Bearer ${sandbox.user(email).token}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** The window's API over the bridge, as the page reaches it (the secret, the bridge's Origin). */
export class BridgeClient {
  private next = 1;
  private constructor(private readonly socket: WebSocket) {}

  static async connect(url: string): Promise<BridgeClient> {
    const page = new URL(url);
    const secret = new URLSearchParams(page.hash.slice(1)).get('secret') ?? '';
    const socket = new WebSocket(`ws://${page.host}/api?secret=${encodeURIComponent(secret)}`, {
      origin: page.origin,
    });
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    return new BridgeClient(socket);
  }

  call<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      const onMessage = (raw: WebSocket.RawData) => {
        const reply = JSON.parse(String(raw)) as {
          id?: number;
          ok?: boolean;
          result?: unknown;
          error?: { message: string };
        };
        if (reply.id !== id) return; // a push, or another call's reply
        this.socket.off('message', onMessage);
        if (reply.ok) resolve(reply.result as ResultOf<M>);
        else reject(new Error(`${method}: ${reply.error?.message}`));
      };
      this.socket.on('message', onMessage);
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  close(): void {
    this.socket.close();
  }
}

export interface SessionOptions<D extends string = never> {
  /**
   * `'sandbox'`: the bridge's own demo (`cli ui --sandbox`, the window opens signed in); unless
   * given, a sandbox of the test's own with the demo seed (the window opens on sign-in).
   */
  server?: 'sandbox';
  /** Temporary folders by name (the value is the mkdtemp prefix), made before the bridge starts. */
  dirs?: Record<D, string>;
  /**
   * Before the bridge starts (seeding the sandbox, filling a HOME): what it returns is more
   * environment for the bridge.
   */
  prepare?: (
    sandbox: Sandbox | null,
    dirs: Record<D, string>,
  ) => Promise<Record<string, string> | void> | Record<string, string> | void;
  /** The browser's language; openWindow's English unless given. */
  locale?: string;
  /** The page's default timeout, in milliseconds. */
  timeout: number;
  /** A BridgeClient to the bridge too, connected after the window opened. */
  api?: boolean;
  /**
   * The engines' remote poll, in seconds (the `pollIntervalSeconds` setting, stored before the
   * bridge starts): for a test that waits on a colleague's changes; the settings' default else.
   */
  pollSeconds?: number;
}

export interface Session<D extends string = never> {
  /** The test's own sandbox; null with `server: 'sandbox'`. */
  sandbox: Sandbox | null;
  bridge: Bridge;
  browser: Browser;
  win: Watched;
  page: Page;
  /** null unless `api: true`. */
  api: BridgeClient | null;
  dirs: Record<D, string>;
  /** Closes what was opened, in reverse order; safe to call twice. */
  close(): Promise<void>;
}

/**
 * What most window tests set up before their first step: the renderer built (beside their own
 * sandbox), temporary folders, the bridge, Chromium and the window, maybe a BridgeClient. If a
 * step fails, what was opened is closed before the error is thrown.
 */
export async function openSession<D extends string = never>(
  options: SessionOptions<D>,
): Promise<Session<D>> {
  // Undo steps in the order they must run: newest first.
  const undo: (() => unknown)[] = [];
  const close = async () => {
    for (const step of undo.splice(0)) await step();
  };
  try {
    let sandbox: Sandbox | null = null;
    if (options.server === 'sandbox') await buildRenderer();
    else {
      [sandbox] = await Promise.all([startSandbox(), buildRenderer()]);
      const opened = sandbox;
      undo.unshift(() => opened.close());
    }
    const dirs = {} as Record<D, string>;
    for (const [name, prefix] of Object.entries(options.dirs ?? {}) as [D, string][]) {
      const dir = await mkdtemp(path.join(tmpdir(), prefix));
      undo.unshift(() => rm(dir, { recursive: true, force: true }));
      dirs[name] = dir;
    }
    const env = (await options.prepare?.(sandbox, dirs)) ?? {};
    const bridge = await startBridge(sandbox ? sandbox.baseUrl : 'sandbox', env, {
      ...(options.pollSeconds !== undefined && {
        settings: { pollIntervalSeconds: options.pollSeconds },
      }),
    });
    undo.unshift(() => bridge.close());
    const browser = await launchBrowser();
    undo.unshift(() => browser.close());
    const win = await openWindow(browser, bridge.url, options.locale);
    const page = win.page;
    page.setDefaultTimeout(options.timeout);
    let api: BridgeClient | null = null;
    if (options.api) {
      const client = await BridgeClient.connect(bridge.url);
      undo.unshift(() => client.close());
      api = client;
    }
    return { sandbox, bridge, browser, win, page, api, dirs, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/**
 * Before each test of the enclosing block: if it fails, a screenshot of what the window showed,
 * `failed-${prefix}-${test name}` (no prefix when empty).
 */
export function screenshotOnFailure(get: () => Page, prefix: string): void {
  beforeEach((ctx) => {
    const name = ctx.task.name.replace(/\W+/g, '-');
    onTestFailed(() => screenshot(get(), `failed-${prefix ? `${prefix}-` : ''}${name}`));
  });
}
