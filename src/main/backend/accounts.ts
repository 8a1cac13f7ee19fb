import { hostname } from 'node:os';
import type { Account, AccountStorage, KeepAccount } from '../../shared/app-api';
import { ServiceClient } from '../api/client';
import { NotAuthenticatedError, registerSecret } from '../api/errors';
import { openSession, signInWithBrowser, signInWithPassword } from '../api/oauth';
import type { Session, Tokens } from '../api/session';
import { Transport } from '../api/transport';
import type { Logger } from '../core/logger';
import {
  normalizeServer,
  type Account as StoredAccount,
  type AccountStore,
} from '../accounts/accounts';
import { fail, failWith } from './errors';
import { ENGINE_RETRY, sharedTokens } from '../accounts/connect';
import { NoKeychainError } from '../accounts/keychain';
import { oauthClient } from '../accounts/oauth-client';
import {
  findApiBase,
  NotAnApiBaseError,
  ServerUnreachableError,
  withScheme,
} from '../accounts/api-base';
import { SessionFirstStore } from '../accounts/session-store';
import { identify, type Identity } from './identity';
import { reasonOf, windowWords } from './sign-in-words';

/** One signed-in account, ready to talk to its service. */
export interface SignedIn {
  info: Account;
  server: string;
  email: string;
  /** For the window's calls: the transport's default retries. */
  client: ServiceClient;
  /** The user's id on the service, once known (own comments may be deleted). */
  userId: number | null;
  /** A client for a sync engine: the same session, a short retry budget (the engine backs off). */
  engineClient(): ServiceClient;
  /** The service refused the session's tokens and renewing them failed: sign in again. */
  signedOut(): boolean;
}

/**
 * The window's calls give up sooner than a background job: a person is waiting, and the
 * 'offline' answer tells them more than a spinner.
 */
export const WINDOW_RETRY = { maxAttempts: 3, maxTotalMs: 5000 };

/**
 * How long a server typed into the sign-in view has to answer at all: a closed port fails at
 * once, a host that takes the connection and never answers after this, before any sign-in page
 * opens (a tab waiting on a dead server would wait for the sign-in's five minutes).
 */
export const SIGN_IN_ANSWER_MS = 5000;

/** The account id the window holds: stable across runs, never a secret. */
export function accountId(server: string, email: string): string {
  return `${server}#${email.toLowerCase()}`;
}

/** The server and email of an account id (a normalized server URL holds no '#'). */
function parseAccountId(id: string): { server: string; email: string } | null {
  const at = id.indexOf('#');
  if (at <= 0) return null;
  return { server: id.slice(0, at), email: id.slice(at + 1) };
}

/**
 * The accounts the window works with: signed in through the store (the same file the CLI's
 * `login` writes), their sessions opened once and kept, renewed tokens saved back.
 */
export class AccountSessions {
  private readonly live = new Map<string, Promise<SignedIn>>();
  /** The store, with the accounts kept for this session only in front of it. */
  private readonly store: SessionFirstStore;

  constructor(private readonly opts: { store: AccountStore; env: NodeJS.ProcessEnv; log: Logger }) {
    this.store = new SessionFirstStore(opts.store);
  }

  /** Whether a new sign-in can be kept as it is, and the plain file offered where not. */
  async storage(): Promise<AccountStorage> {
    const problem = await this.store.cannotRemember();
    const file = await this.store.plainFile().catch(() => null);
    return { remembers: problem === null, file };
  }

  async signInWithPassword(
    server: string,
    email: string,
    password: string,
    keep: KeepAccount = 'store',
  ): Promise<SignedIn> {
    this.server(server); // a URL at all, before the rest is checked
    const who = email.trim();
    if (who === '') fail('invalid', { key: 'backend.enterEmail' });
    if (password === '') fail('invalid', { key: 'backend.enterPassword' });
    registerSecret(password);
    await this.canKeep(keep);
    const base = await this.apiBase(server);
    const client = oauthClient(this.opts.env);
    const tokens = await signInWithPassword({
      baseUrl: base,
      email: who,
      password,
      ...client,
      device: hostname(),
      transport: { log: this.opts.log, retry: WINDOW_RETRY },
    }).catch((err: unknown) => {
      if (!(err instanceof NotAuthenticatedError)) throw err;
      // "The service did not accept the sign-in (Wrong email or password.)." → its reason.
      fail('not-authenticated', {
        key: 'backend.signInRefusedOf',
        params: { server: base, email: who, reason: reasonOf(err) },
      });
    });
    const stored: StoredAccount = {
      server: base,
      email: who,
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken ?? null,
      ...client,
    };
    await this.remember(stored, keep);
    return this.open(stored, { fresh: true });
  }

  /**
   * The authorization-code grant with PKCE: the service's sign-in page is handed to `openBrowser`
   * (the window opens it in a tab, the app the system browser), which sends the person back to a
   * one-shot listener on this computer's loopback address. The account is stored like a password
   * sign-in's (with its refresh token); who the user is comes from the service, as for a token.
   */
  async signInWithBrowser(
    server: string,
    opts: {
      openBrowser(url: string): void | Promise<void>;
      signal?: AbortSignal;
      timeoutMs?: number;
      keep?: KeepAccount;
    },
  ): Promise<SignedIn> {
    const keep = opts.keep ?? 'store';
    // Before the service's page opens: a tab must never say "signed in" for nothing.
    await this.canKeep(keep);
    const base = await this.apiBase(server);
    const client = oauthClient(this.opts.env);
    const tokens = await signInWithBrowser({
      baseUrl: base,
      ...client,
      device: hostname(),
      transport: { log: this.opts.log, retry: WINDOW_RETRY },
      openBrowser: opts.openBrowser,
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
    }).catch((err: unknown) => {
      if (!(err instanceof NotAuthenticatedError)) throw err;
      if (/took too long/.test(err.message)) fail('invalid', { key: 'backend.browserIncomplete' });
      fail('not-authenticated', {
        key: 'backend.signInRefused',
        params: { server: base, reason: reasonOf(err) },
      });
    });
    const probe = this.session(base, tokens);
    const identity = await identify(probe.client, null).catch((): Identity => ({
      userId: null,
      name: null,
      email: null,
    }));
    const stored: StoredAccount = {
      server: base,
      email: identity.email ?? '',
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken ?? null,
      ...client,
    };
    await this.remember(stored, keep);
    return this.open(stored, { fresh: true, identity });
  }

  /** A pasted access token: checked against the service, kept without a refresh token. */
  async signInWithToken(
    server: string,
    token: string,
    keep: KeepAccount = 'store',
  ): Promise<SignedIn> {
    this.server(server);
    const accessToken = token.trim();
    if (accessToken === '') fail('invalid', { key: 'backend.enterToken' });
    registerSecret(accessToken);
    await this.canKeep(keep);
    const base = await this.apiBase(server);
    const probe = this.session(base, { accessToken, refreshToken: null });
    let identity: Identity;
    try {
      identity = await identify(probe.client, null);
    } catch (err) {
      if (err instanceof NotAuthenticatedError)
        fail('not-authenticated', { key: 'backend.tokenRefused', params: { server: base } });
      throw err;
    }
    const stored: StoredAccount = {
      server: base,
      email: identity.email ?? '',
      accessToken,
      refreshToken: null,
    };
    await this.remember(stored, keep);
    return this.open(stored, { fresh: true, identity });
  }

  async list(): Promise<Account[]> {
    const infos = await this.store.list();
    const out: Account[] = [];
    for (const a of infos) {
      const signed = await this.get(accountId(a.server, a.email)).catch(() => null);
      const info = signed?.info ?? {
        id: accountId(a.server, a.email),
        server: a.server,
        email: a.email,
        name: a.email,
      };
      // Said only when true: the sidebar says "Signed out" instead of "Signed in as".
      const flags = {
        ...(signed?.signedOut() ? { signedOut: true } : {}),
        ...((await this.store.forSession(a.server, a.email)) ? { sessionOnly: true } : {}),
      };
      out.push({ ...info, ...flags });
    }
    return out;
  }

  /** The signed-in account of this id; 'not-authenticated' when there is none. */
  get(id: string): Promise<SignedIn> {
    const known = this.live.get(id);
    if (known) return known;
    const key = parseAccountId(id);
    const notSignedIn = () => fail('not-authenticated', { key: 'backend.notSignedInAgain' });
    if (!key) return Promise.resolve().then(notSignedIn);
    const opening = (async () => {
      const stored = await this.store.get(key.server, key.email);
      if (!stored) return notSignedIn();
      return this.open(stored, { fresh: false });
    })();
    // A failed open is not cached: the next call tries again.
    opening.catch(() => this.live.delete(id));
    this.live.set(id, opening);
    return opening;
  }

  async signOut(id: string): Promise<void> {
    const key = parseAccountId(id);
    // Forget the session only once the store has: a `get` in between (the activity poller's)
    // would otherwise reopen it from the store and keep it after the sign-out.
    const removed = key ? await this.store.remove(key.server, key.email) : false;
    this.live.delete(id);
    if (!removed) fail('not-found', { key: 'backend.notSignedIn' });
  }

  /**
   * Whether a sign-in can be kept where the person chose, asked before anything is typed into
   * the service: without a keychain, the window's words (the CLI's name its options).
   */
  private async canKeep(keep: KeepAccount): Promise<void> {
    if (keep === 'session') return;
    if (keep === 'file') {
      await this.store.plainFile().catch((err: Error) => failWith('unsupported', err));
      return;
    }
    const problem = await this.store.cannotRemember();
    if (problem) fail('unsupported', windowWords(problem));
  }

  /** Stores a new sign-in where the person chose; without a keychain, says why in words. */
  private async remember(stored: StoredAccount, keep: KeepAccount): Promise<void> {
    try {
      if (keep === 'session') await this.store.keepForSession(stored);
      else if (keep === 'file') await this.store.putInFile(stored);
      else await this.store.keepInStore(stored);
    } catch (err) {
      if (err instanceof NoKeychainError) fail('unsupported', windowWords(err.words ?? null));
      throw err;
    }
  }

  private server(raw: string): string {
    try {
      // A bare host is what people type (and what the service's own pages show).
      return normalizeServer(withScheme(raw));
    } catch {
      return fail('invalid', { key: 'backend.notAServer', params: { raw } });
    }
  }

  /** The API's base URL of what the person typed (a known prefix under a bare host is found). */
  private async apiBase(raw: string): Promise<string> {
    const base = this.server(raw);
    try {
      return await findApiBase(base, { log: this.opts.log, answerWithinMs: SIGN_IN_ANSWER_MS });
    } catch (err) {
      if (err instanceof NotAnApiBaseError) failWith('invalid', err);
      if (err instanceof ServerUnreachableError) failWith('offline', err);
      throw err;
    }
  }

  private session(
    server: string,
    tokens: Tokens,
    store?: StoredAccount,
  ): { client: ServiceClient; session: Session } {
    const client = oauthClient(this.opts.env, {
      clientId: store?.clientId,
      clientSecret: store?.clientSecret,
    });
    let saved = store;
    const { session, transport } = openSession({
      baseUrl: server,
      ...client,
      tokens,
      transport: { log: this.opts.log, retry: WINDOW_RETRY },
      shared: store && sharedTokens(this.store, server, store.email),
      onTokens: async (t) => {
        if (!saved) return;
        saved = {
          ...saved,
          accessToken: t.accessToken,
          refreshToken: t.refreshToken ?? saved.refreshToken,
        };
        // The session goes on with the new tokens even when they cannot be saved.
        await this.store
          .put(saved)
          .catch((err: unknown) => this.opts.log.warn('could not save renewed tokens', { err }));
      },
    });
    return { client: new ServiceClient(transport), session };
  }

  private async open(
    stored: StoredAccount,
    opts: { fresh: boolean; identity?: Identity },
  ): Promise<SignedIn> {
    const id = accountId(stored.server, stored.email);
    const { client, session } = this.session(
      stored.server,
      { accessToken: stored.accessToken, refreshToken: stored.refreshToken },
      stored,
    );
    // Who the user is matters for names and own comments, never enough to refuse a sign-in.
    const identity =
      opts.identity ??
      (await identify(client, stored.email || null).catch((err: unknown) => {
        if (err instanceof NotAuthenticatedError && !opts.fresh) throw err;
        return { userId: null, name: null, email: null };
      }));
    const log = this.opts.log;
    const signed: SignedIn = {
      info: {
        id,
        server: stored.server,
        email: stored.email,
        name: identity.name ?? (stored.email || 'Access token'),
      },
      server: stored.server,
      email: stored.email,
      client,
      userId: identity.userId,
      engineClient() {
        const transport = new Transport({ baseUrl: stored.server, retry: ENGINE_RETRY, log });
        transport.tokens = session;
        return new ServiceClient(transport);
      },
      signedOut: () => session.isSignedOut,
    };
    this.live.set(id, Promise.resolve(signed));
    return signed;
  }
}
