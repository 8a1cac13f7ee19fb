import { english, type Translator } from '../../shared/i18n';
import { AppCallError } from '../../shared/app-api';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MemoryAccountStore, normalizeServer } from '../accounts/accounts';
import { AppBackend } from '../backend/backend';
import { startBridge, type RunningBridge } from '../backend/bridge';
import {
  CliError,
  commonOptions,
  EXIT,
  cliLanguage,
  messageOf,
  parseCommandLine,
  parseOptions,
  UsageError,
  writeLine,
  type CommandContext,
} from './common';
import {
  requireServerOrSandbox,
  sandboxAvailable,
  startEmbeddedSandbox,
  type EmbeddedSandbox,
} from './sandbox';
import { packageRoot } from '../core/package-root';
import { locate, type Located } from '../links/link';
import { isFileUri, localPathOf } from '../os/file-arg';
import { openInFileManager } from '../os/open-path';
import { linkOptionsQuery } from '../../shared/link-options';
import type { Account } from '../../shared/app-api';

/** The help of `ui`; the demo sandbox only where this program has one. */
export function uiUsage(demo = sandboxAvailable(), tr: Translator = english): string {
  return tr.t('cli.help.ui', {
    demo: demo ? 'yes' : 'no',
    json: '{"url": "http://127.0.0.1:PORT/#secret=..."}',
  });
}

export const uiOptions = {
  ...commonOptions,
  sandbox: { type: 'boolean' },
  server: { type: 'string' },
  port: { type: 'string' },
  static: { type: 'string' },
  'link-options': { type: 'boolean' },
} as const;

/**
 * `ui`'s options; with `--link-options PATH` (a file manager's "Copy link with options…", issue
 * 42) the synced item PATH names its service, and the page opens at its link options.
 */
export const parseUi = (args: string[]) => {
  const linkOptions = args.includes('--link-options');
  const { values, positionals } = linkOptions
    ? parseCommandLine('ui', args, uiOptions)
    : { values: parseOptions('ui', args, uiOptions), positionals: [] };
  if (linkOptions && positionals.length !== 1)
    throw new UsageError({ key: 'cli.err.oneItem', params: { option: '--link-options' } }, 'ui');
  if (!linkOptions) requireServerOrSandbox(values, 'ui');
  if (values.port !== undefined) {
    const n = Number(values.port);
    if (!/^\d+$/.test(values.port) || n > 65535)
      throw new UsageError({ key: 'cli.err.port', params: { value: values.port } }, 'ui');
  }
  if (values.server !== undefined) {
    try {
      normalizeServer(values.server);
    } catch {
      throw new UsageError(
        { key: 'cli.err.notUrl', params: { option: '--server', value: values.server } },
        'ui',
      );
    }
  }
  const paths = positionals.map((p) => (isFileUri(p) ? localPathOf(p, '/') : p));
  return { ...values, linkOptions, paths };
};

/** Where `npm run build` writes the window (scripts/build.mjs). */
const BUILT_RENDERER = path.join(packageRoot(import.meta.dirname) ?? '.', 'out/renderer');

/**
 * The folder of the window to serve, checked before anything starts: a checkout never built
 * would otherwise serve "Not found" at / and say nothing.
 */
export async function windowDir(
  given: string | undefined,
  built = BUILT_RENDERER,
): Promise<string> {
  const dir = given ?? built;
  try {
    await access(path.join(dir, 'index.html'));
  } catch {
    throw new CliError(
      given === undefined
        ? { key: 'cli.err.notBuilt', params: { dir } }
        : { key: 'cli.err.noWindowIn', params: { dir } },
    );
  }
  return dir;
}

/** Opens the page in the desktop's browser; where none opens, the line printed says where. */
async function openPage(url: string, ctx: CommandContext): Promise<void> {
  try {
    await openInFileManager(url, ctx.io.env);
  } catch (err) {
    ctx.log.warn('the browser could not be opened', { err: messageOf(err) });
    writeLine(ctx.io.stderr, cliLanguage(ctx.io.env).t('cli.ui.openTheUrl'));
  }
}

/**
 * How long `ui --link-options` waits, once its page is closed, for one to connect again (a
 * reload) before it ends: a file manager's click must not leave a server behind for good.
 */
const PAGE_GONE_MS = 10_000;

/** Aborted once no page has been connected for PAGE_GONE_MS, after one was. */
function pageClosed(): { signal: AbortSignal; count: (n: number) => void } {
  const done = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  return {
    signal: done.signal,
    count: (n) => {
      clearTimeout(timer);
      if (n === 0) timer = setTimeout(() => done.abort(), PAGE_GONE_MS).unref();
    },
  };
}

/** Resolves once the signal aborts. */
const aborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });

/**
 * The page's address at one item's link options: the synced item PATH, located in the journals
 * before anything starts (its service is the one the page serves), and the account of its pair.
 */
async function linkOptionsUrl(url: string, at: Located, backend: AppBackend): Promise<string> {
  const listed = await backend.call('accounts.list', {});
  if (!listed.ok) throw new AppCallError(listed.error);
  const server = normalizeServer(at.pair.server);
  const account = (listed.result as Account[]).find(
    (a) =>
      normalizeServer(a.server) === server &&
      (at.pair.user === '' || a.email.toLowerCase() === at.pair.user.toLowerCase()),
  );
  if (!account) throw new CliError({ key: 'cli.err.noAccount', params: { server } });
  const page = new URL(url);
  page.search = linkOptionsQuery({
    accountId: account.id,
    workspaceId: at.pair.workspaceId,
    kind: at.kind,
    itemId: at.remoteId,
    name: at.name ?? path.basename(at.abs),
  });
  return page.toString();
}

/** The embedded sandbox's owner signed in, its demo workspace syncing into a temporary folder. */
async function syncDemo(
  backend: AppBackend,
  sandbox: EmbeddedSandbox,
  cleanups: (() => Promise<unknown>)[],
  ctx: CommandContext,
): Promise<void> {
  const signedIn = await backend.call('accounts.tryDemo', {});
  if (!signedIn.ok) throw new AppCallError(signedIn.error);
  const account = signedIn.result as { id: string };
  const dir = await mkdtemp(path.join(tmpdir(), 'workspace-sync-demo-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const added = await backend.call('pairs.add', {
    accountId: account.id,
    workspaceId: sandbox.workspaceId,
    dir,
  });
  if (!added.ok) throw new AppCallError(added.error);
  ctx.log.info('demo pair syncing', { dir, server: sandbox.baseUrl });
}

export async function ui(values: ReturnType<typeof parseUi>, ctx: CommandContext): Promise<number> {
  const { log, signal } = ctx;
  // A file manager's "Copy link with options…": the item's pair names the service.
  const at = values.linkOptions
    ? locate(values.paths[0]!, {
        stateDir: ctx.stateDir,
        accounts: ctx.accounts,
        env: ctx.io.env,
        log,
      })
    : null;
  if (at) values = { ...values, server: at.pair.server };
  const closed = pageClosed();
  const embedded = values.server === undefined;
  const cleanups: (() => Promise<unknown>)[] = [];
  let sandbox: EmbeddedSandbox | null = null;
  let bridge: RunningBridge | null = null;
  let backend: AppBackend | null = null;
  const staticDir = await windowDir(values.static);
  try {
    // A throwaway sandbox's journals must not pile up in the real state directory, nor its
    // tokens (worthless once it stops) in the keychain: they stay in memory.
    let stateDir = ctx.stateDir;
    let configDir = ctx.places.config;
    const accounts = embedded ? new MemoryAccountStore() : ctx.accounts;
    if (embedded && values.state === undefined) {
      stateDir = await mkdtemp(path.join(tmpdir(), 'workspace-sync-ui-state-'));
      configDir = stateDir;
      cleanups.push(() => rm(stateDir, { recursive: true, force: true }));
    }
    let demo: { server: string; email: string; password: string } | null = null;
    if (embedded) {
      const sb = await startEmbeddedSandbox();
      sandbox = sb;
      const owner = sb.users[0];
      if (!owner) throw new CliError({ key: 'cli.err.sandboxNoUsers' });
      demo = { server: sb.baseUrl, email: owner.email, password: owner.password };
    }
    backend = new AppBackend({
      stateDir,
      configDir,
      accounts,
      log,
      env: ctx.io.env,
      demo,
      logsDir: ctx.places.logs,
      ...(values.server !== undefined ? { server: values.server } : {}),
    });
    // The pairs of an earlier run sync again; a sandbox's would point to a server now gone.
    // Link options need no engine (and one may run already: the app's, a `sync`).
    if (!sandbox && !at) await backend.restorePairs();
    if (sandbox && demo) await syncDemo(backend, sandbox, cleanups, ctx);
    bridge = await startBridge({
      backend,
      staticDir,
      port: values.port === undefined ? 0 : Number(values.port),
      log,
      ...(at ? { onClients: closed.count } : {}),
    });
    const url = at ? await linkOptionsUrl(bridge.url, at, backend) : bridge.url;
    writeLine(ctx.io.stdout, JSON.stringify({ url }));
    // From a file manager there is no terminal to read the line: the browser opens the page.
    if (at) await openPage(url, ctx);
    await Promise.race([aborted(signal), aborted(closed.signal)]);
    log.info('ui stopping');
    return EXIT.ok;
  } finally {
    await bridge?.close().catch((err: unknown) => log.error('closing the bridge failed', { err }));
    await backend
      ?.close()
      .catch((err: unknown) => log.error('stopping the engines failed', { err }));
    await sandbox
      ?.close()
      .catch((err: unknown) => log.error('closing the sandbox failed', { err }));
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }
}
