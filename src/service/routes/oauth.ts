import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  issueTokens,
  newToken,
  safeEqual,
  tokenHash,
  userForRefreshToken,
  verifyPassword,
} from '../auth';
import type { Sandbox, User } from '../context';
import type { UserRow } from '../db';
import { escapeHtml, parseBody, type Reply, type Router } from '../http';

const CODE_TTL_MS = 10 * 60 * 1000;

function oauthError(status: number, error: string, description: string): Reply {
  return {
    status,
    json: { error, error_description: description },
    headers: { 'cache-control': 'no-store' },
  };
}

/** Client credentials from HTTP Basic or the body (the two ways OAuth allows). */
function clientCredentials(
  req: IncomingMessage,
  body: Record<string, unknown>,
): { id: string; secret: string } | null {
  const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? '');
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return null;
    return {
      id: decodeURIComponent(decoded.slice(0, colon)),
      secret: decodeURIComponent(decoded.slice(colon + 1)),
    };
  }
  if (typeof body.client_id === 'string' && typeof body.client_secret === 'string') {
    return { id: body.client_id, secret: body.client_secret };
  }
  return null;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** A redirect URI is https, or plain http to a loopback address (desktop apps' listener). */
export function isAllowedRedirect(uri: string): boolean {
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    return false;
  }
  if (u.hash) return false;
  if (u.protocol === 'https:') return true;
  return (
    u.protocol === 'http:' &&
    (u.hostname === '127.0.0.1' || u.hostname === 'localhost' || u.hostname === '[::1]')
  );
}

function pkceS256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

function signInPage(fields: Record<string, string>, error?: string): string {
  const hidden = Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join('\n      ');
  return `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Sign in · Workspace Content Service</title>
  <meta name="viewport" content="width=device-width, initial-scale=1"></head>
  <body>
    <main>
      <h1>Sign in</h1>
      <p>An application asks to access your workspaces.</p>
      ${error ? `<p role="alert" class="error">${escapeHtml(error)}</p>` : ''}
      <form method="post" action="authorize">
      ${hidden}
      <label>Email <input type="email" name="email" autocomplete="username" required></label>
      <label>Password <input type="password" name="password" autocomplete="current-password" required></label>
      <button type="submit">Sign in and allow</button>
      </form>
    </main>
  </body>
</html>
`;
}

/**
 * `redirectTo`: the checked redirect_uri of the sign-in form. Browsers (Chromium) apply
 * `form-action` to the redirect that follows a submission too, so its origin is allowed, or the
 * code never reaches the app's loopback listener.
 */
function sendHtml(res: ServerResponse, status: number, html: string, redirectTo?: string): Reply {
  const formAction = redirectTo ? `'self' ${new URL(redirectTo).origin}` : "'self'";
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'cache-control': 'no-store',
    'content-security-policy': `default-src 'none'; form-action ${formAction}; style-src 'unsafe-inline'`,
    'x-frame-options': 'DENY',
  });
  res.end(html);
  return 'handled';
}

const AUTHORIZE_FIELDS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'state',
  'code_challenge',
  'code_challenge_method',
] as const;

export function registerOAuth(router: Router<User>, sb: Sandbox): void {
  router.add(
    'POST',
    '/oauth/token',
    async ({ req, body }) => {
      const b = await body();
      const client = clientCredentials(req, b);
      if (
        !client ||
        !safeEqual(client.id, sb.config.clientId) ||
        !safeEqual(client.secret, sb.config.clientSecret)
      ) {
        return oauthError(401, 'invalid_client', 'Unknown client or wrong client secret');
      }
      const device = str(b.device) ?? null;
      switch (b.grant_type) {
        case 'password': {
          const email = str(b.username);
          const password = str(b.password);
          if (!email || !password) {
            return oauthError(400, 'invalid_request', 'username and password are required');
          }
          const user = sb.db.prepare(`SELECT * FROM users WHERE email = ?`).get(email) as
            UserRow | undefined;
          // Verify against a dummy hash for unknown users so timing does not reveal accounts.
          const ok = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
          if (!user || !ok) return oauthError(400, 'invalid_grant', 'Wrong email or password');
          return { status: 200, json: issueTokens(sb, user.id, device), headers: NO_STORE };
        }
        case 'refresh_token': {
          const token = str(b.refresh_token);
          const owner = token ? userForRefreshToken(sb, token) : null;
          if (!token || !owner) {
            return oauthError(400, 'invalid_grant', 'The refresh token is not valid');
          }
          if (sb.config.rotateRefreshTokens) {
            // Spent: a client that kept the old one (and not the answer's) is signed out.
            sb.db
              .prepare(`DELETE FROM tokens WHERE kind = 'refresh' AND token_hash = ?`)
              .run(tokenHash(token));
          }
          return {
            status: 200,
            json: issueTokens(
              sb,
              owner.userId,
              owner.device,
              sb.config.rotateRefreshTokens ? undefined : token,
            ),
            headers: NO_STORE,
          };
        }
        case 'authorization_code': {
          const code = str(b.code);
          const redirectUri = str(b.redirect_uri);
          if (!code || !redirectUri) {
            return oauthError(400, 'invalid_request', 'code and redirect_uri are required');
          }
          const row = sb.db
            .prepare(`SELECT * FROM auth_codes WHERE code_hash = ?`)
            .get(tokenHash(code)) as
            | {
                user_id: number;
                client_id: string;
                redirect_uri: string;
                code_challenge: string | null;
                device: string | null;
                expires_at: number;
                used: number;
              }
            | undefined;
          if (!row || row.used || row.expires_at <= sb.clock.now()) {
            return oauthError(400, 'invalid_grant', 'The authorization code is not valid');
          }
          // A code is single-use even when the exchange below fails.
          sb.db.prepare(`UPDATE auth_codes SET used = 1 WHERE code_hash = ?`).run(tokenHash(code));
          if (row.redirect_uri !== redirectUri || row.client_id !== client.id) {
            return oauthError(400, 'invalid_grant', 'redirect_uri does not match');
          }
          if (row.code_challenge) {
            const verifier = str(b.code_verifier);
            if (!verifier || !safeEqual(pkceS256(verifier), row.code_challenge)) {
              return oauthError(400, 'invalid_grant', 'The code verifier does not match');
            }
          }
          return {
            status: 200,
            json: issueTokens(sb, row.user_id, device ?? row.device),
            headers: NO_STORE,
          };
        }
        default:
          return oauthError(400, 'unsupported_grant_type', 'Unsupported grant_type');
      }
    },
    { auth: 'none' },
  );

  const checkAuthorizeRequest = (fields: Record<string, string>): string | null => {
    if (fields.response_type !== 'code') return 'response_type must be code';
    if (!safeEqual(fields.client_id ?? '', sb.config.clientId)) return 'Unknown client';
    if (!fields.redirect_uri || !isAllowedRedirect(fields.redirect_uri)) {
      return 'redirect_uri must be https or a loopback address';
    }
    if (fields.code_challenge && (fields.code_challenge_method ?? 'S256') !== 'S256') {
      return 'Only the S256 code challenge method is supported';
    }
    return null;
  };

  router.add(
    'GET',
    '/oauth/authorize',
    ({ query, res }) => {
      const fields: Record<string, string> = {};
      for (const k of AUTHORIZE_FIELDS) {
        const v = query.get(k);
        if (v !== null) fields[k] = v;
      }
      const problem = checkAuthorizeRequest(fields);
      // A bad client or redirect is never redirected to: the page says what is wrong.
      if (problem) return sendHtml(res, 400, `<!doctype html><p>${escapeHtml(problem)}</p>`);
      return sendHtml(res, 200, signInPage(fields), fields.redirect_uri);
    },
    { auth: 'none' },
  );

  router.add(
    'POST',
    '/oauth/authorize',
    async ({ req, res }) => {
      const b = await parseBody(req);
      const fields: Record<string, string> = {};
      for (const k of AUTHORIZE_FIELDS) {
        const v = b[k];
        if (typeof v === 'string') fields[k] = v;
      }
      const problem = checkAuthorizeRequest(fields);
      if (problem) return sendHtml(res, 400, `<!doctype html><p>${escapeHtml(problem)}</p>`);
      const email = str(b.email);
      const password = str(b.password);
      const user = email
        ? (sb.db.prepare(`SELECT * FROM users WHERE email = ?`).get(email) as UserRow | undefined)
        : undefined;
      const ok = await verifyPassword(password ?? '', user?.password_hash ?? DUMMY_HASH);
      if (!user || !ok)
        return sendHtml(
          res,
          401,
          signInPage(fields, 'Wrong email or password'),
          fields.redirect_uri,
        );
      const code = newToken();
      sb.db
        .prepare(
          `INSERT INTO auth_codes (code_hash, user_id, client_id, redirect_uri, code_challenge, device, expires_at)
           VALUES (?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          tokenHash(code),
          user.id,
          fields.client_id!,
          fields.redirect_uri!,
          fields.code_challenge ?? null,
          str(b.device) ?? null,
          sb.clock.now() + CODE_TTL_MS,
        );
      const target = new URL(fields.redirect_uri!);
      target.searchParams.set('code', code);
      if (fields.state !== undefined) target.searchParams.set('state', fields.state);
      res.writeHead(302, { location: target.toString(), 'cache-control': 'no-store' });
      res.end();
      return 'handled';
    },
    { auth: 'none' },
  );
}

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

// scrypt hash of a random password nobody knows: makes unknown-user sign-ins cost the same.
const DUMMY_HASH =
  'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';
