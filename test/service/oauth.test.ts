import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { api, userOf } from './helpers';

let sb: RunningSandbox;

beforeAll(async () => {
  sb = await startSandbox({ seed: 'empty' });
});

afterAll(async () => {
  await sb?.close();
});

function basic(id: string, secret: string): string {
  return (
    'Basic ' +
    Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')
  );
}

function token(
  s: RunningSandbox,
  form: Record<string, string>,
  headers: Record<string, string> = {},
) {
  return api(s.baseUrl, 'POST', '/oauth/token', { form, headers });
}

function passwordGrant(s: RunningSandbox, extra: Record<string, string> = {}) {
  const ann = userOf(s, 'Administrator');
  return token(s, {
    grant_type: 'password',
    client_id: s.clientId,
    client_secret: s.clientSecret,
    username: ann.email,
    password: ann.password,
    ...extra,
  });
}

async function workspacesWith(s: RunningSandbox, accessToken: string): Promise<number> {
  return (await api(s.baseUrl, 'GET', '/workspaces', { token: accessToken })).status;
}

describe('password grant', () => {
  it('issues tokens with the client credentials in the body', async () => {
    const res = await passwordGrant(sb, { device: 'Test laptop' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
    expect(typeof res.json.access_token).toBe('string');
    expect(typeof res.json.refresh_token).toBe('string');
    expect(res.headers['cache-control']).toBe('no-store');
    const list = await api(sb.baseUrl, 'GET', '/workspaces', { token: res.json.access_token });
    expect(list.status).toBe(200);
    expect(list.json.items[0].workspace.id).toBe(sb.workspaceId);
  });

  it('accepts the client credentials as HTTP Basic', async () => {
    const ann = userOf(sb, 'Administrator');
    const res = await token(
      sb,
      { grant_type: 'password', username: ann.email, password: ann.password },
      { authorization: basic(sb.clientId, sb.clientSecret) },
    );
    expect(res.status).toBe(200);
    expect(await workspacesWith(sb, res.json.access_token)).toBe(200);
  });

  it('answers 400 invalid_grant for a wrong password or an unknown user', async () => {
    const wrong = await passwordGrant(sb, { password: 'not-the-password' });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error).toBe('invalid_grant');
    expect(wrong.json.access_token).toBeUndefined();
    const unknown = await passwordGrant(sb, { username: 'nobody@example.com' });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toBe('invalid_grant');
  });

  it('answers 401 invalid_client for a wrong client secret or client', async () => {
    const res = await passwordGrant(sb, { client_secret: 'guess' });
    expect(res.status).toBe(401);
    expect(res.json.error).toBe('invalid_client');
    const viaBasic = await token(
      sb,
      { grant_type: 'password', username: 'ann@example.com', password: 'x' },
      { authorization: basic(sb.clientId, 'guess') },
    );
    expect(viaBasic.status).toBe(401);
    expect(viaBasic.json.error).toBe('invalid_client');
    const none = await token(sb, { grant_type: 'password', username: 'a', password: 'b' });
    expect(none.status).toBe(401);
    expect(none.json.error).toBe('invalid_client');
  });

  it('answers unsupported_grant_type for other grants', async () => {
    const res = await token(sb, {
      grant_type: 'client_credentials',
      client_id: sb.clientId,
      client_secret: sb.clientSecret,
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('unsupported_grant_type');
  });

  it('rejects missing, malformed and unknown bearer tokens with 401', async () => {
    expect((await api(sb.baseUrl, 'GET', '/workspaces')).status).toBe(401);
    const malformed = await api(sb.baseUrl, 'GET', '/workspaces', {
      headers: { authorization: 'Bearer ' },
    });
    expect(malformed.status).toBe(401);
    const unknown = await api(sb.baseUrl, 'GET', '/workspaces', { token: 'not-a-real-token' });
    expect(unknown.status).toBe(401);
    expect(unknown.json.errors.base).toBeDefined();
  });
});

describe('expiry and refresh', () => {
  it('expires access tokens after the configured lifetime; refresh gives a working one', async () => {
    const s = await startSandbox({ seed: 'empty', accessTokenTtlSeconds: 5 });
    try {
      const issued = await passwordGrant(s);
      expect(issued.json.expires_in).toBe(5);
      expect(await workspacesWith(s, issued.json.access_token)).toBe(200);
      s.advanceClock(6);
      const expired = await api(s.baseUrl, 'GET', '/workspaces', {
        token: issued.json.access_token,
      });
      expect(expired.status).toBe(401);
      expect(expired.headers['www-authenticate']).toContain('invalid_token');

      const refreshed = await token(s, {
        grant_type: 'refresh_token',
        refresh_token: issued.json.refresh_token,
        client_id: s.clientId,
        client_secret: s.clientSecret,
      });
      expect(refreshed.status).toBe(200);
      expect(refreshed.json.access_token).not.toBe(issued.json.access_token);
      expect(await workspacesWith(s, refreshed.json.access_token)).toBe(200);

      const bad = await token(s, {
        grant_type: 'refresh_token',
        refresh_token: 'forged',
        client_id: s.clientId,
        client_secret: s.clientSecret,
      });
      expect(bad.status).toBe(400);
      expect(bad.json.error).toBe('invalid_grant');
    } finally {
      await s.close();
    }
  });

  it('rotates refresh tokens when asked: each refresh answers a new one and retires the old', async () => {
    const s = await startSandbox({ seed: 'empty', rotateRefreshTokens: true });
    try {
      const issued = await passwordGrant(s);
      const refresh = (refresh_token: string) =>
        token(s, {
          grant_type: 'refresh_token',
          refresh_token,
          client_id: s.clientId,
          client_secret: s.clientSecret,
        });
      const first = await refresh(issued.json.refresh_token);
      expect(first.status).toBe(200);
      expect(first.json.refresh_token).not.toBe(issued.json.refresh_token);
      expect(await workspacesWith(s, first.json.access_token)).toBe(200);
      const spent = await refresh(issued.json.refresh_token);
      expect(spent.status).toBe(400);
      expect(spent.json.error).toBe('invalid_grant');
      expect((await refresh(first.json.refresh_token)).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('expires the default one-hour tokens when the clock moves past 3600 s', async () => {
    const s = await startSandbox({ seed: 'empty' });
    try {
      const issued = await passwordGrant(s);
      s.advanceClock(3599);
      expect(await workspacesWith(s, issued.json.access_token)).toBe(200);
      s.advanceClock(2);
      expect(await workspacesWith(s, issued.json.access_token)).toBe(401);
    } finally {
      await s.close();
    }
  });
});

describe('authorization code with PKCE, driven like a browser', () => {
  const redirectUri = 'http://127.0.0.1:53682/callback';

  function pkce() {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    return { verifier, challenge };
  }

  function hiddenFields(html: string): Record<string, string> {
    const out: Record<string, string> = {};
    for (const m of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
      out[m[1]!] = m[2]!.replace(/&amp;/g, '&').replace(/&quot;/g, '"');
    }
    return out;
  }

  /** Opens the sign-in page, submits the form, and returns the answer to the form post. */
  async function signIn(challenge: string, state: string, email: string, password: string) {
    const q = new URLSearchParams({
      response_type: 'code',
      client_id: sb.clientId,
      redirect_uri: redirectUri,
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const pageUrl = `${sb.baseUrl}/oauth/authorize?${q}`;
    const page = await api(pageUrl, 'GET', '');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const action = /<form method="post" action="([^"]*)"/.exec(page.text)![1]!;
    const target = new URL(action, pageUrl);
    const fields = hiddenFields(page.text);
    expect(fields).toMatchObject({ state, code_challenge: challenge, redirect_uri: redirectUri });
    return api(target.origin, 'POST', target.pathname, {
      form: { ...fields, email, password },
    });
  }

  async function codeFor(challenge: string, state: string): Promise<string> {
    const ann = userOf(sb, 'Administrator');
    const res = await signIn(challenge, state, ann.email, ann.password);
    expect(res.status).toBe(302);
    const location = new URL(res.headers.location as string);
    expect(`${location.origin}${location.pathname}`).toBe(redirectUri);
    expect(location.searchParams.get('state')).toBe(state);
    return location.searchParams.get('code')!;
  }

  function exchange(code: string, verifier?: string, uri = redirectUri) {
    const form: Record<string, string> = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: uri,
      client_id: sb.clientId,
      client_secret: sb.clientSecret,
    };
    if (verifier !== undefined) form.code_verifier = verifier;
    return token(sb, form);
  }

  it('signs in, redirects to the loopback listener and exchanges the code once', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(challenge, 'state-123 &x');
    expect(code.length).toBeGreaterThan(20);
    const res = await exchange(code, verifier);
    expect(res.status).toBe(200);
    expect(res.json.token_type).toBe('bearer');
    expect(await workspacesWith(sb, res.json.access_token)).toBe(200);
    const again = await exchange(code, verifier);
    expect(again.status).toBe(400);
    expect(again.json.error).toBe('invalid_grant');
  });

  it('rejects a wrong or missing code verifier and a different redirect_uri', async () => {
    const { challenge } = pkce();
    const wrong = await exchange(await codeFor(challenge, 's1'), pkce().verifier);
    expect(wrong.status).toBe(400);
    expect(wrong.json.error).toBe('invalid_grant');
    const missing = await exchange(await codeFor(challenge, 's2'));
    expect(missing.status).toBe(400);
    expect(missing.json.error).toBe('invalid_grant');
    const { verifier, challenge: c2 } = pkce();
    const otherUri = await exchange(await codeFor(c2, 's3'), verifier, 'http://127.0.0.1:1/other');
    expect(otherUri.status).toBe(400);
    expect(otherUri.json.error).toBe('invalid_grant');
  });

  it('answers 401 with the page again for a wrong password, without a redirect', async () => {
    const res = await signIn(pkce().challenge, 's', 'ann@example.com', 'wrong password');
    expect(res.status).toBe(401);
    expect(res.headers.location).toBeUndefined();
    expect(res.text).toContain('Wrong email or password');
    expect(res.text).toContain('<form');
  });

  it('never redirects to a non-loopback http redirect_uri', async () => {
    const q = new URLSearchParams({
      response_type: 'code',
      client_id: sb.clientId,
      redirect_uri: 'http://evil.example.com/cb',
      state: 's',
    });
    const page = await api(sb.baseUrl, 'GET', `/oauth/authorize?${q}`);
    expect(page.status).toBe(400);
    expect(page.headers.location).toBeUndefined();
    expect(page.text).toContain('redirect_uri');
    const ann = userOf(sb, 'Administrator');
    const post = await api(sb.baseUrl, 'POST', '/oauth/authorize', {
      form: { ...Object.fromEntries(q), email: ann.email, password: ann.password },
    });
    expect(post.status).toBe(400);
    expect(post.headers.location).toBeUndefined();
    const badClient = await api(
      sb.baseUrl,
      'GET',
      `/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: 'other', redirect_uri: redirectUri })}`,
    );
    expect(badClient.status).toBe(400);
  });
});
