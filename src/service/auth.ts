import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { Sandbox, User } from './context';
import { prepared } from './db';

// Passwords: scrypt (slow on purpose), salted, parameters stored with the hash.
const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 };

function scryptAsync(password: string, salt: Buffer, opts = SCRYPT): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, opts.keylen, { N: opts.N, r: opts.r, p: opts.p }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    keylen: expected.length,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Tokens are stored only as their SHA-256, so the database never holds a usable one. */
export function tokenHash(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** Constant-time string comparison (through fixed-length digests). */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(tokenHash(a), tokenHash(b));
}

export function newToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export interface IssuedTokens {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  refresh_token: string;
}

export function issueTokens(
  sb: Sandbox,
  userId: number,
  device: string | null,
  refreshToken?: string,
): IssuedTokens {
  const now = sb.clock.now();
  const access = newToken();
  const insert = sb.db.prepare(
    `INSERT INTO tokens (user_id, kind, token_hash, device, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  insert.run(userId, 'access', tokenHash(access), device, now + sb.config.accessTokenTtlMs, now);
  let refresh = refreshToken;
  if (!refresh) {
    refresh = newToken();
    insert.run(userId, 'refresh', tokenHash(refresh), device, null, now);
  }
  return {
    access_token: access,
    token_type: 'bearer',
    expires_in: Math.round(sb.config.accessTokenTtlMs / 1000),
    refresh_token: refresh,
  };
}

/** The user behind a refresh token, or null. */
export function userForRefreshToken(
  sb: Sandbox,
  token: string,
): { userId: number; device: string | null } | null {
  const row = sb.db
    .prepare(`SELECT user_id, device FROM tokens WHERE token_hash = ? AND kind = 'refresh'`)
    .get(tokenHash(token)) as { user_id: number; device: string | null } | undefined;
  return row ? { userId: row.user_id, device: row.device } : null;
}

/** The bearer token of a request, or null when there is none or it is malformed. */
export function bearerOf(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i.exec(header.trim());
  return m ? m[1]! : null;
}

export type AuthResult = { user: User } | { error: 'missing' | 'invalid' | 'expired' };

export function authenticate(sb: Sandbox, header: string | undefined): AuthResult {
  const token = bearerOf(header);
  if (!token) return { error: header ? 'invalid' : 'missing' };
  const row = prepared(
    sb.db,
    `SELECT u.*, t.expires_at AS token_expires_at FROM tokens t JOIN users u ON u.id = t.user_id
       WHERE t.token_hash = ? AND t.kind = 'access'`,
  ).get(tokenHash(token)) as (User & { token_expires_at: number }) | undefined;
  if (!row) return { error: 'invalid' };
  if (row.token_expires_at <= sb.clock.now()) return { error: 'expired' };
  const { token_expires_at: _ignored, ...user } = row;
  return { user };
}
