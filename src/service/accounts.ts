import { hashPassword, issueTokens } from './auth';
import type { Sandbox, User } from './context';
import { HttpError } from './http';
import { isValidZone } from './time';

export interface NewUser {
  name: string;
  email: string;
  password: string;
  time_zone: string;
}

export async function createUser(
  sb: Sandbox,
  input: NewUser,
): Promise<{ user: User; token: string; refreshToken: string }> {
  if (!input.name?.trim()) throw HttpError.validation('name', "can't be blank");
  if (!/^[^@\s]+@[^@\s]+$/.test(input.email ?? ''))
    throw HttpError.validation('email', 'is invalid');
  if (!input.password) throw HttpError.validation('password', "can't be blank");
  if (!input.time_zone || !isValidZone(input.time_zone)) {
    throw HttpError.validation('time_zone', 'is not a known IANA time zone');
  }
  const exists = sb.db.prepare(`SELECT 1 FROM users WHERE email = ?`).get(input.email);
  if (exists) throw HttpError.validation('email', 'has already been taken');
  const hash = await hashPassword(input.password);
  const result = sb.db
    .prepare(
      `INSERT INTO users (name, email, password_hash, time_zone, created_at) VALUES (?, ?, ?, ?, ?)`,
    )
    .run(input.name.trim(), input.email, hash, input.time_zone, sb.clock.now());
  const user = sb.db
    .prepare(`SELECT * FROM users WHERE id = ?`)
    .get(Number(result.lastInsertRowid)) as User;
  const tokens = issueTokens(sb, user.id, 'sandbox');
  return { user, token: tokens.access_token, refreshToken: tokens.refresh_token };
}
