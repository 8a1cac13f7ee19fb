import { ApiError, NotAuthenticatedError, registerSecret } from './errors';
import type { TokenSource } from './transport';

export interface Tokens {
  accessToken: string;
  /** Absent for a pasted access token: it cannot be renewed. */
  refreshToken?: string | null;
}

/** Asks the token endpoint for new tokens with a refresh token (see oauth.ts). */
export type Refresher = (refreshToken: string) => Promise<Tokens>;

/** How a session shares its stored tokens with other processes signed in as the same account. */
export interface SharedTokens {
  /** The tokens as stored now (another process may have renewed them); null when gone. */
  reload(): Promise<Tokens | null>;
  /** Runs a renewal while no other process renews this account's tokens. */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
}

/**
 * The tokens of one signed-in account. Renews the access token with the refresh token when the
 * service refuses it, once for all the requests that were refused together, and reports
 * "signed out" only when that fails.
 */
export class Session implements TokenSource {
  private tokens: Tokens;
  private inflight: Promise<void> | null = null;
  private signedOut = false;

  constructor(
    tokens: Tokens,
    private readonly refresher: Refresher | null,
    /** Called with new tokens after a refresh, to store them (keychain, account store). */
    private readonly onTokens?: (tokens: Tokens) => void | Promise<void>,
    /** The store other processes renew the same account in, when there is one. */
    private readonly shared?: SharedTokens,
  ) {
    this.tokens = tokens;
    registerSecret(tokens.accessToken);
    registerSecret(tokens.refreshToken);
  }

  accessToken(): string | null {
    return this.signedOut ? null : this.tokens.accessToken;
  }

  get canRefresh(): boolean {
    return !this.signedOut && !!this.tokens.refreshToken && this.refresher !== null;
  }

  get isSignedOut(): boolean {
    return this.signedOut;
  }

  async refresh(failedToken: string | null): Promise<void> {
    // Another request already renewed the token this one was sent with.
    if (failedToken !== null && failedToken !== this.tokens.accessToken) return;
    this.inflight ??= this.doRefresh().finally(() => {
      this.inflight = null;
    });
    return this.inflight;
  }

  private doRefresh(): Promise<void> {
    return this.shared ? this.shared.exclusive(() => this.renewShared()) : this.renew();
  }

  /**
   * Under the account's lock: the stored tokens first. When another process renewed them since
   * this one read them, they are this session's now (with a rotating service, the refresh token
   * this one holds was retired by that renewal); a request refused again renews from them.
   */
  private async renewShared(): Promise<void> {
    if (await this.adoptStored()) return;
    try {
      await this.renew();
    } catch (err) {
      // Renewed elsewhere between the read and the grant (a process without the lock: an older
      // version, another machine's copy of the file): still not signed out.
      if (err instanceof NotAuthenticatedError && (await this.adoptStored())) return;
      throw err;
    }
  }

  private async adoptStored(): Promise<boolean> {
    const stored = await this.shared!.reload().catch(() => null);
    if (!stored?.refreshToken || stored.refreshToken === this.tokens.refreshToken) return false;
    this.signedOut = false;
    this.tokens = { accessToken: stored.accessToken, refreshToken: stored.refreshToken };
    registerSecret(this.tokens.accessToken);
    registerSecret(this.tokens.refreshToken);
    return true;
  }

  private async renew(): Promise<void> {
    const refreshToken = this.tokens.refreshToken;
    if (!refreshToken || !this.refresher) {
      this.signedOut = true;
      throw new NotAuthenticatedError('POST /oauth/token', true);
    }
    let next: Tokens;
    try {
      next = await this.refresher(refreshToken);
    } catch (err) {
      // Only the service's "no" signs the user out; a network error leaves the tokens as they are.
      if (
        err instanceof ApiError &&
        (err.kind === 'validation' || err.kind === 'not-authenticated')
      ) {
        this.signedOut = true;
        throw new NotAuthenticatedError('POST /oauth/token', true);
      }
      throw err;
    }
    this.tokens = {
      accessToken: next.accessToken,
      refreshToken: next.refreshToken ?? refreshToken,
    };
    // Old tokens stay registered: they must not show up in a late log line either.
    registerSecret(this.tokens.accessToken);
    registerSecret(this.tokens.refreshToken);
    await this.onTokens?.(this.tokens);
  }

  /** The current tokens, to store them. */
  current(): Tokens {
    return { ...this.tokens };
  }
}
