import { hostname } from 'node:os';
import { startSandbox, type RunningSandbox } from '../../service/sandbox';
import { ServiceClient } from '../api/client';
import { NotAuthenticatedError } from '../api/errors';
import { openSession, signInWithPassword } from '../api/oauth';
import type { RetryPolicy } from '../api/retry';
import { Session } from '../api/session';
import { Transport } from '../api/transport';
import { SyncFatalError } from '../sync/errors';
import type { Logger } from '../sync/ports';
import { normalizeServer, type Account, type AccountStore } from './accounts';
import { CliError, PROGRAM, UsageError, oauthClient } from './common';

const signedOut = (err: unknown) => err instanceof SyncFatalError && err.kind === 'signed-out';

export interface ConnectOptions {
  command: string;
  server?: string;
  token?: string;
  email?: string;
  /** Use an embedded demo sandbox (also when no server is given). */
  sandbox?: boolean;
  env: NodeJS.ProcessEnv;
  accounts: AccountStore;
  log: Logger;
  retry?: Partial<RetryPolicy>;
}

/** A signed-in service client, however the credentials came. */
export interface Connection {
  client: ServiceClient;
  /** The base URL as given (normalized). */
  server: string;
  /** The account's email; '' for a pasted token. */
  user: string;
  how: 'sandbox' | 'token' | 'account';
  /** The embedded sandbox, when one was started. */
  sandbox: RunningSandbox | null;
  /** Words a person can act on for an error of this connection (a refused token, signed out). */
  explain(err: unknown): unknown;
  close(): Promise<void>;
}

/**
 * Connects the way the options say: an embedded sandbox (`--sandbox`, or no server at all),
 * a pasted token (`--token`, or WORKSPACE_SYNC_TOKEN) without refresh, or a stored account
 * whose renewed tokens are saved back to the store.
 */
export async function connect(opts: ConnectOptions): Promise<Connection> {
  const { log } = opts;
  const transportOptions = { retry: opts.retry, log };

  if (opts.sandbox || opts.server === undefined) {
    if (opts.server !== undefined)
      throw new UsageError('--sandbox and --server exclude each other', opts.command);
    if (opts.token !== undefined) throw new UsageError('--token needs --server', opts.command);
    const sandbox = await startSandbox({ seed: 'demo' });
    try {
      const wanted = opts.email?.toLowerCase();
      const user = wanted
        ? sandbox.users.find((u) => u.email.toLowerCase() === wanted)
        : sandbox.users[0];
      if (!user) {
        throw new CliError(
          `The embedded sandbox has no user ${opts.email}; its users are ${sandbox.users.map((u) => u.email).join(', ')}.`,
        );
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
        transport: transportOptions,
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

  const server = normalizeServer(opts.server);
  const token = opts.token ?? (opts.env.WORKSPACE_SYNC_TOKEN || undefined);
  if (token !== undefined) {
    if (token.trim() === '') throw new UsageError('--token is empty', opts.command);
    const transport = new Transport({ ...transportOptions, baseUrl: server });
    transport.tokens = new Session({ accessToken: token.trim(), refreshToken: null }, null);
    return {
      client: new ServiceClient(transport),
      server,
      user: opts.email ?? '',
      how: 'token',
      sandbox: null,
      explain: (err) =>
        err instanceof NotAuthenticatedError || signedOut(err)
          ? new CliError(
              `${server} refused the access token (expired or revoked): get a new one, or sign in with "${PROGRAM} login --server ${server} --email EMAIL".`,
            )
          : err,
      close: async () => {},
    };
  }

  const account = await opts.accounts.get(server, opts.email);
  if (!account) {
    throw new CliError(
      `Not signed in to ${server}${opts.email ? ` as ${opts.email}` : ''}: run "${PROGRAM} login --server ${server} --email ${opts.email ?? 'EMAIL'}" first, or pass --token.`,
    );
  }
  const client = oauthClient(opts.env, {
    clientId: account.clientId,
    clientSecret: account.clientSecret,
  });
  let stored: Account = account;
  const { transport } = openSession({
    baseUrl: server,
    ...client,
    tokens: { accessToken: account.accessToken, refreshToken: account.refreshToken },
    transport: transportOptions,
    onTokens: async (t) => {
      stored = {
        ...stored,
        accessToken: t.accessToken,
        refreshToken: t.refreshToken ?? stored.refreshToken,
      };
      try {
        await opts.accounts.put(stored);
        log.info('renewed tokens saved', { server, user: account.email });
      } catch (err) {
        // The session goes on with the new tokens; the next run signs in again if need be.
        log.warn('could not save the renewed tokens', { server, err });
      }
    },
  });
  return {
    client: new ServiceClient(transport),
    server,
    user: account.email,
    how: 'account',
    sandbox: null,
    explain: (err) =>
      err instanceof NotAuthenticatedError && err.signedOut
        ? new CliError(
            `You are signed out of ${server}: run "${PROGRAM} login --server ${server} --email ${account.email}" again.`,
          )
        : err,
    close: async () => {},
  };
}
