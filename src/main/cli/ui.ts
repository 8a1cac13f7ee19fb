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
} as const;

export const parseUi = (args: string[]) => {
  const values = parseOptions('ui', args, uiOptions);
  requireServerOrSandbox(values, 'ui');
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
  return values;
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

/** Resolves once the signal aborts. */
const aborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });

export async function ui(values: ReturnType<typeof parseUi>, ctx: CommandContext): Promise<number> {
  const { log, signal } = ctx;
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
    if (!sandbox) await backend.restorePairs();
    if (sandbox && demo) {
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
      log.info('demo pair syncing', { dir, server: sandbox.baseUrl });
    }
    bridge = await startBridge({
      backend,
      staticDir,
      port: values.port === undefined ? 0 : Number(values.port),
      log,
    });
    writeLine(ctx.io.stdout, JSON.stringify({ url: bridge.url }));
    await aborted(signal);
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
