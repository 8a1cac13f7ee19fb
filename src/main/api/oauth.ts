import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { ApiError, NotAuthenticatedError, ValidationError, registerSecret } from './errors';
import { Session, type SharedTokens, type Tokens } from './session';
import { Transport, type TransportOptions } from './transport';
import { parseAnswer } from './validate';
import { pickLanguage, translator } from '../../shared/i18n';

/** The OAuth client this app is registered as. */
export interface OAuthClient {
  clientId: string;
  clientSecret: string;
}

const TOKEN_ENDPOINT = 'POST /oauth/token';

const TokenAnswer = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.number().optional(),
  refresh_token: z.string().min(1).nullish(),
});

async function tokenGrant(
  transport: Transport,
  client: OAuthClient,
  params: Record<string, string>,
  idempotent: boolean,
): Promise<Tokens> {
  registerSecret(client.clientSecret);
  let answer;
  try {
    answer = await transport.requestJson({
      method: 'POST',
      path: '/oauth/token',
      endpoint: TOKEN_ENDPOINT,
      auth: false,
      idempotent,
      form: { ...params, client_id: client.clientId, client_secret: client.clientSecret },
    });
  } catch (err) {
    // The OAuth error codes (invalid_grant, invalid_client) arrive as 400/401.
    if (err instanceof ValidationError || err instanceof NotAuthenticatedError) {
      throw new NotAuthenticatedError(TOKEN_ENDPOINT, false, err.message.replace(/^.*?: /, ''));
    }
    throw err;
  }
  const tokens = parseAnswer(TokenAnswer, answer.json, TOKEN_ENDPOINT);
  registerSecret(tokens.access_token);
  registerSecret(tokens.refresh_token);
  return { accessToken: tokens.access_token, refreshToken: tokens.refresh_token ?? null };
}

export interface SignInOptions extends OAuthClient {
  baseUrl: string;
  /** A name for this device, shown by the service in the user's list of authorized apps. */
  device?: string;
  transport?: Omit<TransportOptions, 'baseUrl' | 'tokens'>;
}

/** The password grant: server URL, email and password. */
export async function signInWithPassword(
  opts: SignInOptions & { email: string; password: string },
): Promise<Tokens> {
  registerSecret(opts.password);
  const transport = new Transport({ ...opts.transport, baseUrl: opts.baseUrl });
  return tokenGrant(
    transport,
    opts,
    {
      grant_type: 'password',
      username: opts.email,
      password: opts.password,
      ...(opts.device ? { device: opts.device } : {}),
    },
    true,
  );
}

/** A Refresher for Session: the refresh-token grant. */
export function refresherFor(transport: Transport, client: OAuthClient) {
  return (refreshToken: string) =>
    tokenGrant(
      transport,
      client,
      { grant_type: 'refresh_token', refresh_token: refreshToken },
      true,
    );
}

/** A client-ready session for stored or fresh tokens (a pasted token has no refresh token). */
export function openSession(
  opts: SignInOptions & {
    tokens: Tokens;
    onTokens?: (t: Tokens) => void | Promise<void>;
    /** The store other processes renew the same account in. */
    shared?: SharedTokens;
  },
): { session: Session; transport: Transport } {
  const transport = new Transport({ ...opts.transport, baseUrl: opts.baseUrl });
  const session = new Session(
    opts.tokens,
    refresherFor(transport, opts),
    opts.onTokens,
    opts.shared,
  );
  transport.tokens = session;
  return { session, transport };
}

export interface BrowserSignInOptions extends SignInOptions {
  /** Opens the system browser on the service's sign-in page (shell.openExternal in the app). */
  openBrowser(url: string): void | Promise<void>;
  signal?: AbortSignal;
  /** How long to wait for the user to finish signing in; default 5 minutes. */
  timeoutMs?: number;
}

/**
 * The page the browser's tab shows when the service sends the person back. It answers before
 * the code is exchanged and the account kept, so it says only what is known: the sign-in went
 * back to the app, whose window says how it ended. In the browser's language.
 */
function callbackPage(ok: boolean, acceptLanguage: string | undefined): string {
  const tags = (acceptLanguage ?? '').split(',').map((t) => t.split(';')[0]?.trim());
  const tr = translator(pickLanguage(tags));
  const title = tr.t(ok ? 'oauth.pageDoneTitle' : 'oauth.pageFailedTitle');
  const text = tr.t(ok ? 'oauth.pageDone' : 'oauth.pageFailed');
  const esc = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<!doctype html><html lang="${tr.lang}"><head><meta charset="utf-8"><title>Workspace Sync</title></head>
<body><main><h1>${esc(title)}</h1><p>${esc(text)}</p></main></body></html>`;
}

/**
 * The authorization-code grant with PKCE, the way desktop apps sign in: the service's sign-in
 * page opens in the system browser, which is redirected to a one-shot listener on this
 * computer's loopback address with the code (RFC 8252).
 */
export async function signInWithBrowser(opts: BrowserSignInOptions): Promise<Tokens> {
  const transport = new Transport({ ...opts.transport, baseUrl: opts.baseUrl });
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const state = randomBytes(16).toString('base64url');
  registerSecret(verifier);

  let server: Server | undefined;
  try {
    const { redirectUri, code } = await new Promise<{ redirectUri: string; code: Promise<string> }>(
      (resolveListening, rejectListening) => {
        let settle: { resolve(code: string): void; reject(err: unknown): void };
        const code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
        const srv = createServer((req, res) => {
          const url = new URL(req.url ?? '/', 'http://127.0.0.1');
          if (url.pathname !== '/callback') {
            res.writeHead(404).end();
            return;
          }
          const gotState = url.searchParams.get('state');
          const gotCode = url.searchParams.get('code');
          const ok = gotState === state && !!gotCode;
          res.writeHead(ok ? 200 : 400, {
            'content-type': 'text/html; charset=utf-8',
            'cache-control': 'no-store',
            'content-security-policy': "default-src 'none'",
          });
          res.end(callbackPage(ok, req.headers['accept-language']));
          if (ok) settle.resolve(gotCode);
          else
            settle.reject(
              new NotAuthenticatedError(
                'GET /oauth/authorize',
                false,
                url.searchParams.get('error') ?? { key: 'service.signInMismatch' },
              ),
            );
        });
        server = srv;
        srv.once('error', rejectListening);
        srv.listen(0, '127.0.0.1', () => {
          const port = (srv.address() as AddressInfo).port;
          resolveListening({ redirectUri: `http://127.0.0.1:${port}/callback`, code });
        });
      },
    );
    const authorize = transport.url('/oauth/authorize', {
      response_type: 'code',
      client_id: opts.clientId,
      redirect_uri: redirectUri,
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    await opts.openBrowser(authorize.toString());
    const gotCode = await withDeadline(code, opts.timeoutMs ?? 5 * 60_000, opts.signal);
    registerSecret(gotCode);
    return await tokenGrant(
      transport,
      opts,
      {
        grant_type: 'authorization_code',
        code: gotCode,
        redirect_uri: redirectUri,
        code_verifier: verifier,
        ...(opts.device ? { device: opts.device } : {}),
      },
      false, // a code is single-use: a lost exchange cannot be repeated
    );
  } finally {
    server?.close();
    server?.closeAllConnections();
  }
}

function withDeadline<T>(promise: Promise<T>, ms: number, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const fail = (err: unknown) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      reject(err);
    };
    const timer = setTimeout(
      () =>
        fail(
          new NotAuthenticatedError('GET /oauth/authorize', false, {
            key: 'service.signInTooLong',
          }),
        ),
      ms,
    );
    const onAbort = () => fail(signal?.reason ?? new Error('Sign-in cancelled'));
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    promise.then((v) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(v);
    }, fail);
  });
}

export { ApiError };
