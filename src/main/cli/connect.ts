import { hostname } from 'node:os';
import {
  connectToServer,
  EmptyTokenError,
  type Connection as ServerConnection,
} from '../accounts/connect';
import type { AccountStore } from '../accounts/accounts';
import { ServiceClient } from '../api/client';
import { openSession, signInWithPassword } from '../api/oauth';
import type { RetryPolicy } from '../api/retry';
import type { Logger } from '../core/logger';
import { english, type Translator } from '../../shared/i18n';
import {
  cliLanguage,
  CliError,
  PROGRAM,
  UsageError,
  writeLine,
  type CommandContext,
  type Output,
} from './common';
import { requireServerOrSandbox, startEmbeddedSandbox, type EmbeddedSandbox } from './sandbox';
import { tokenFrom } from './token';

export interface ConnectOptions {
  command: string;
  server?: string;
  token?: string;
  email?: string;
  /** Use an embedded demo sandbox (only when asked: never implied by a missing --server). */
  sandbox?: boolean;
  env: NodeJS.ProcessEnv;
  accounts: AccountStore;
  log: Logger;
  retry?: Partial<RetryPolicy>;
  /** Where to say that the API was found under the given URL (stderr). */
  stderr: Output;
}

/** A signed-in service client, however the credentials came (an embedded sandbox too). */
export interface Connection extends Omit<ServerConnection, 'how'> {
  how: ServerConnection['how'] | 'sandbox';
  /** The embedded sandbox, when one was started. */
  sandbox: EmbeddedSandbox | null;
}

/**
 * Connects the way the options say: an embedded sandbox (`--sandbox`), a pasted token
 * (`--token`, `--token-file`, or WORKSPACE_SYNC_TOKEN) without refresh, or a stored account
 * whose renewed tokens are saved back to the store (`connectToServer`).
 */
export async function connect(opts: ConnectOptions): Promise<Connection> {
  const { log } = opts;

  requireServerOrSandbox(opts, opts.command);
  if (opts.sandbox || opts.server === undefined) {
    if (opts.token !== undefined)
      throw new UsageError({ key: 'cli.err.tokenNeedsServer' }, opts.command);
    const sandbox = await startEmbeddedSandbox();
    try {
      const wanted = opts.email?.toLowerCase();
      const user = wanted
        ? sandbox.users.find((u) => u.email.toLowerCase() === wanted)
        : sandbox.users[0];
      if (!user) {
        throw new CliError({
          key: 'cli.err.sandboxNoUser',
          params: { email: opts.email ?? '', users: sandbox.users.map((u) => u.email).join(', ') },
        });
      }
      const tokens = await signInWithPassword({
        baseUrl: sandbox.baseUrl,
        clientId: sandbox.clientId,
        clientSecret: sandbox.clientSecret,
        email: user.email,
        password: user.password,
        device: hostname(),
        transport: { log },
      });
      const { transport } = openSession({
        baseUrl: sandbox.baseUrl,
        clientId: sandbox.clientId,
        clientSecret: sandbox.clientSecret,
        tokens,
        transport: { retry: opts.retry, log },
      });
      log.info('embedded sandbox started', { server: sandbox.baseUrl, user: user.email });
      return {
        client: new ServiceClient(transport),
        server: sandbox.baseUrl,
        user: user.email,
        how: 'sandbox',
        sandbox,
        explain: (err) => err,
        close: () => sandbox.close(),
      };
    } catch (err) {
      await sandbox.close();
      throw err;
    }
  }

  try {
    return {
      ...(await connectToServer({
        ...opts,
        server: opts.server,
        onApiBase: (found, given) =>
          writeLine(opts.stderr, apiBaseNotice(found, given, cliLanguage(opts.env))),
      })),
      sandbox: null,
    };
  } catch (err) {
    throw usageOf(err, opts.command);
  }
}

/** One line: the API was not at the URL given, but under it; how to skip the search next time. */
export function apiBaseNotice(found: string, given: string, tr: Translator = english): string {
  return tr.t('cli.apiBase', { program: PROGRAM, given, found });
}

/** A blank token given on the command line (or in WORKSPACE_SYNC_TOKEN) is a usage mistake. */
export function usageOf(err: unknown, command: string): unknown {
  return err instanceof EmptyTokenError ? new UsageError(err.words ?? err.message, command) : err;
}

/**
 * A connection for a pair found on disk (`files`, `folders`): its server and account, the token
 * given on the command line or in the environment, else the remembered account's; a few quick
 * retries, since a person waits at a terminal.
 */
export async function connectToPair(
  pair: { server: string; user: string },
  values: { token?: string; 'token-file'?: string },
  ctx: CommandContext,
  command: string,
): Promise<ServerConnection> {
  let token: string | undefined;
  try {
    token = await tokenFrom(values, ctx.io, command);
  } catch (err) {
    throw usageOf(err, command);
  }
  return connectToServer({
    server: pair.server,
    email: pair.user || undefined,
    token,
    env: ctx.io.env,
    accounts: ctx.accounts,
    log: ctx.log,
    retry: { maxAttempts: 3, maxTotalMs: 5000 },
    // The pair was made with the API's base URL (found then): no probe.
    knownApiBase: true,
  }).catch((err: unknown) => {
    throw usageOf(err, command);
  });
}
