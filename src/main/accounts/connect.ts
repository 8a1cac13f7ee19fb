import { ServiceClient } from '../api/client';
import { NotAuthenticatedError } from '../api/errors';
import { openSession } from '../api/oauth';
import type { RetryPolicy } from '../api/retry';
import { Session, type SharedTokens } from '../api/session';
import { Transport } from '../api/transport';
import { PROGRAM, UserError } from '../errors/user-error';
import { SyncFatalError } from '../engine';
import type { Logger } from '../core/logger';
import { normalizeServer, type Account, type AccountStore } from './accounts';
import { findApiBase } from './api-base';
import { oauthClient } from './oauth-client';

/**
 * A short retry budget for the engine's requests (the CLI's `sync`, the window's pairs): the
 * transport gives up quickly, the engine goes offline and its own backoff takes over (with
 * status the user can see).
 */
export const ENGINE_RETRY = { maxAttempts: 4, maxTotalMs: 5000 };

const signedOut = (err: unknown) => err instanceof SyncFatalError && err.kind === 'signed-out';

/**
 * The account's tokens as other processes sharing `store` renew them (two syncs of one account):
 * renewals take turns and start from what is stored (`Session`).
 */
export function sharedTokens(store: AccountStore, server: string, email: string): SharedTokens {
  return {
    reload: async () => {
      const a = await store.get(server, email);
      return a && { accessToken: a.accessToken, refreshToken: a.refreshToken };
    },
    exclusive: (fn) => (store.renewing ? store.renewing(server, email, fn) : fn()),
  };
}

/** The access token given (`--token`, or WORKSPACE_SYNC_TOKEN) is blank. */
export class EmptyTokenError extends UserError {
  constructor() {
    super({ key: 'account.emptyToken' });
    this.name = 'EmptyTokenError';
  }
}

export interface ServerConnectOptions {
  server: string;
  token?: string;
  email?: string;
  env: NodeJS.ProcessEnv;
  accounts: AccountStore;
  log: Logger;
  retry?: Partial<RetryPolicy>;
  /** Told when `server` is not the API but a known prefix under it is (which is then used). */
  onApiBase?(found: string, given: string): void;
  /**
   * `server` is the API's base already (a pair's, found when it was made): not probed again, a
   * request saved (a double-clicked placeholder waits on each).
   */
  knownApiBase?: boolean;
}

/** A signed-in service client, however the credentials came. */
export interface Connection {
  client: ServiceClient;
  /** The API's base URL: as given (normalized), or the known API prefix found under it. */
  server: string;
  /** The account's email; '' for a pasted token. */
  user: string;
  how: 'token' | 'account';
  /** Words a person can act on for an error of this connection (a refused token, signed out). */
  explain(err: unknown): unknown;
  close(): Promise<void>;
}

/**
 * Connects to a server: with a pasted token (`token`, or WORKSPACE_SYNC_TOKEN) without
 * refresh, or as a stored account whose renewed tokens are saved back to the store.
 */
export async function connectToServer(opts: ServerConnectOptions): Promise<Connection> {
  const { log } = opts;
  const transportOptions = { retry: opts.retry, log };
  const given = normalizeServer(opts.server);
  // Before a token or an account is looked up: both belong to the API's base URL.
  const server = opts.knownApiBase ? given : await findApiBase(given, { log });
  if (server !== given) opts.onApiBase?.(server, given);
  const token = opts.token ?? (opts.env.WORKSPACE_SYNC_TOKEN || undefined);
  if (token !== undefined) {
    if (token.trim() === '') throw new EmptyTokenError();
    const transport = new Transport({ ...transportOptions, baseUrl: server });
    transport.tokens = new Session({ accessToken: token.trim(), refreshToken: null }, null);
    return {
      client: new ServiceClient(transport),
      server,
      user: opts.email ?? '',
      how: 'token',
      explain: (err) =>
        err instanceof NotAuthenticatedError || signedOut(err)
          ? new UserError({ key: 'account.tokenRefused', params: { server, program: PROGRAM } })
          : err,
      close: async () => {},
    };
  }

  const account = await opts.accounts.get(server, opts.email);
  if (!account) {
    throw new UserError(
      opts.email
        ? { key: 'account.notSignedInAs', params: { server, email: opts.email, program: PROGRAM } }
        : { key: 'account.notSignedIn', params: { server, program: PROGRAM } },
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
    shared: sharedTokens(opts.accounts, server, account.email),
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
    explain: (err) =>
      err instanceof NotAuthenticatedError && err.signedOut
        ? new UserError({
            key: 'account.signedOut',
            params: { server, email: account.email, program: PROGRAM },
          })
        : err,
    close: async () => {},
  };
}
