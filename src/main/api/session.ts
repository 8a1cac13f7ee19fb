import { ApiError, NotAuthenticatedError, registerSecret } from './errors';
import type { TokenSource } from './transport';

export interface Tokens {
  accessToken: string;
  /** Absent for a pasted access token: it cannot be renewed. */
  refreshToken?: string | null;
}

/** Asks the token endpoint for new tokens with a refresh token (see oauth.ts). */
export type Refresher = (refreshToken: string) => Promise<Tokens>;

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

  private async doRefresh(): Promise<void> {
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
