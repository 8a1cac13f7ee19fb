import { createUser } from '../accounts';
import type { Sandbox, User } from '../context';
import { parseFaults } from '../faults';
import { HttpError, type Router } from '../http';

// Test hooks under /_sandbox/: not part of the service contract; the client never calls them.
export function registerHooks(router: Router<User>, sb: Sandbox): void {
  router.add(
    'POST',
    '/_sandbox/users',
    async ({ body }) => {
      const b = await body();
      const { user, token, refreshToken } = await createUser(sb, {
        name: String(b.name ?? ''),
        email: String(b.email ?? ''),
        password: String(b.password ?? ''),
        time_zone: String(b.time_zone ?? 'UTC'),
      });
      return {
        status: 201,
        json: {
          id: user.id,
          name: user.name,
          email: user.email,
          time_zone: user.time_zone,
          token,
          refresh_token: refreshToken,
        },
      };
    },
    { auth: 'none' },
  );

  router.add(
    'POST',
    '/_sandbox/clock',
    async ({ body }) => {
      const b = jsonSentAsForm(await body());
      // A body it cannot read is refused, not taken as "move by 0": a test that misspelt the
      // key would otherwise go on at the wrong time without a word.
      const unknown = Object.keys(b).filter((k) => k !== 'advance_seconds' && k !== 'hold');
      if (unknown.length > 0 || (b.advance_seconds === undefined && b.hold === undefined)) {
        throw HttpError.badRequest(
          `expected {"advance_seconds": N} and/or {"hold": true|false}${unknown.length > 0 ? `, not ${unknown.join(', ')}` : ''}`,
          'advance_seconds',
        );
      }
      const raw = b.advance_seconds ?? 0;
      const seconds = typeof raw === 'number' || typeof raw === 'string' ? Number(raw) : NaN;
      if (!Number.isFinite(seconds) || seconds < 0 || raw === '') {
        throw HttpError.validation('advance_seconds', 'must be a non-negative number');
      }
      // {"hold": true} stops the clock (everything until {"hold": false} gets the same time).
      if (b.hold !== undefined && typeof b.hold !== 'boolean') {
        throw HttpError.validation('hold', 'must be true or false');
      }
      sb.clock.advance(seconds * 1000);
      if (b.hold === true) sb.clock.hold();
      else if (b.hold === false) sb.clock.release();
      return {
        status: 200,
        json: { now: new Date(sb.clock.now()).toISOString(), held: sb.clock.held },
      };
    },
    { auth: 'none' },
  );

  router.add(
    'POST',
    '/_sandbox/policy',
    async ({ body }) => {
      const b = jsonSentAsForm(await body());
      if (typeof b.link_password_required !== 'boolean') {
        throw HttpError.badRequest(
          'expected {"link_password_required": true|false}',
          'link_password_required',
        );
      }
      sb.config.linkPasswordRequired = b.link_password_required;
      return { status: 200, json: { link_password_required: sb.config.linkPasswordRequired } };
    },
    { auth: 'none' },
  );

  router.add(
    'GET',
    '/_sandbox/stats',
    () => {
      const requests = Object.fromEntries([...sb.stats.entries()].sort());
      const total = [...sb.stats.values()].reduce((a, b) => a + b, 0);
      return { status: 200, json: { total, requests, faults: sb.faults.injected } };
    },
    { auth: 'none' },
  );

  router.add(
    'DELETE',
    '/_sandbox/stats',
    () => {
      sb.stats.clear();
      return { status: 204 };
    },
    { auth: 'none' },
  );

  // Every token of one user is revoked (access and refresh): the client's next request gets a
  // 401 that renewing cannot cure, as when the service signs a device out.
  router.add(
    'POST',
    '/_sandbox/revoke',
    async ({ body }) => {
      const email = String(jsonSentAsForm(await body()).email ?? '');
      const user = sb.db.prepare(`SELECT id FROM users WHERE email = ?`).get(email) as
        { id: number } | undefined;
      if (!user) throw HttpError.validation('email', 'no user has this email');
      const revoked = sb.db.prepare(`DELETE FROM tokens WHERE user_id = ?`).run(user.id).changes;
      return { status: 200, json: { revoked } };
    },
    { auth: 'none' },
  );

  const showFaults = () => ({ status: 200, json: { faults: sb.faults.current } });
  router.add('GET', '/_sandbox/faults', showFaults, { auth: 'none' });
  router.add(
    'POST',
    '/_sandbox/faults',
    async ({ body }) => {
      const b = await body();
      const spec =
        typeof b.spec === 'string' ? b.spec : typeof b.faults === 'string' ? b.faults : '';
      try {
        // A new spec replaces the settings: "" clears every fault.
        sb.faults.set(parseFaults(spec));
      } catch (err) {
        throw HttpError.validation('spec', (err as Error).message);
      }
      return showFaults();
    },
    { auth: 'none' },
  );
}

/**
 * `curl -d '{"advance_seconds": 60}'` sends JSON labelled as a form, which reads as one key
 * holding the whole text: a hook for people at a terminal takes it as the JSON it is.
 */
function jsonSentAsForm(b: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(b);
  if (keys.length !== 1 || !keys[0]!.trimStart().startsWith('{') || b[keys[0]!] !== '') return b;
  try {
    const parsed: unknown = JSON.parse(keys[0]!);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : b;
  } catch {
    return b;
  }
}
