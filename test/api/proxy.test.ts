import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import type { ApiError } from '../../src/main/api/errors';
import {
  configureProxy,
  noProxyMatcher,
  ProxyError,
  proxyShownFor,
} from '../../src/main/api/proxy';
import type { RetryPolicy } from '../../src/main/api/retry';
import { Transport } from '../../src/main/api/transport';
import { proxyUrlProblem, shownProxyUrl } from '../../src/shared/proxy-url';
import { translator, wordsOf } from '../../src/shared/i18n';
import { startTestProxy, type TestProxy } from './test-proxy';

/** An error as a German reader gets it (its words; none would fail the test). */
const german = (err: unknown): string => translator('de').say(wordsOf(err)!);

// Every request of the client goes through the process's dispatcher (`api/proxy.ts`): through
// the proxy the setting or the environment names, past it where NO_PROXY says, and a proxy's
// refusal is one line. A real proxy on 127.0.0.1 in front of the real sandbox.

let sb: RunningSandbox;
const proxies: TestProxy[] = [];

beforeAll(async () => {
  sb = await startSandbox({ seed: 'empty' });
});
afterEach(() => configureProxy({ setting: '', env: {} }));
afterAll(async () => {
  await Promise.all(proxies.map((p) => p.close()));
  await sb?.close();
});

async function proxy(opts: Parameters<typeof startTestProxy>[0] = {}): Promise<TestProxy> {
  const p = await startTestProxy(opts);
  proxies.push(p);
  return p;
}

/** One unauthenticated request to the sandbox (a 401 is its answer: the route is what counts). */
async function ask(
  baseUrl = sb.baseUrl,
  retry: Partial<RetryPolicy> = { maxAttempts: 1 },
): Promise<number> {
  const transport = new Transport({ baseUrl, retry });
  const res = await transport.request({
    method: 'GET',
    path: '/workspaces',
    endpoint: 'GET /workspaces',
    auth: false,
    accept: [401],
  });
  await res.body.dump();
  return res.status;
}

const origin = () => new URL(sb.baseUrl).host;

describe('the proxy of each request', () => {
  it('goes through HTTP_PROXY to an http service, forwarding the absolute URL', async () => {
    const p = await proxy();
    configureProxy({ env: { HTTP_PROXY: p.url } });
    expect(await ask()).toBe(401);
    expect(p.seen).toEqual([`GET http://${origin()}/workspaces`]);
  });

  it('reads the lowercase variable before the uppercase one, as curl does', async () => {
    const lower = await proxy();
    const upper = await proxy();
    configureProxy({ env: { http_proxy: lower.url, HTTP_PROXY: upper.url } });
    await ask();
    expect(lower.seen).toHaveLength(1);
    expect(upper.seen).toEqual([]);
  });

  it('goes direct to a host NO_PROXY names (by name, with its port, or *)', async () => {
    const p = await proxy();
    const port = new URL(sb.baseUrl).port;
    for (const noProxy of ['127.0.0.1', `127.0.0.1:${port}`, 'example.com, 127.0.0.0/8', '*']) {
      configureProxy({ env: { HTTP_PROXY: p.url, no_proxy: noProxy } });
      expect(await ask()).toBe(401);
    }
    // Another port of the host does not match.
    configureProxy({ env: { HTTP_PROXY: p.url, NO_PROXY: '127.0.0.1:1' } });
    await ask();
    expect(p.seen).toHaveLength(1);
  });

  it('takes the setting over the environment, and a change of it at the next request', async () => {
    const fromEnv = await proxy();
    const fromSetting = await proxy();
    const env = { HTTP_PROXY: fromEnv.url };
    configureProxy({ setting: fromSetting.url, env });
    const transport = new Transport({ baseUrl: sb.baseUrl, retry: { maxAttempts: 1 } });
    const once = async () =>
      (
        await transport.request({
          method: 'GET',
          path: '/workspaces',
          endpoint: 'GET /workspaces',
          auth: false,
          accept: [401],
        })
      ).body.dump();
    await once();
    expect(fromSetting.seen).toHaveLength(1);
    expect(fromEnv.seen).toEqual([]);
    // The same transport, the setting cleared: the environment's proxy from the next request on.
    configureProxy({ setting: '', env });
    await once();
    expect(fromEnv.seen).toHaveLength(1);
    expect(fromSetting.seen).toHaveLength(1);
  });

  it('sends the proxy its user and password, and never shows the password', async () => {
    const password = 'pr0xy-secret-pw';
    const p = await proxy({ credentials: { user: 'ann', password } });
    configureProxy({ setting: p.url });
    expect(await ask()).toBe(401);
    expect(p.authorizations).toEqual([
      'Basic ' + Buffer.from(`ann:${password}`).toString('base64'),
    ]);
    const shown = proxyShownFor(new URL(sb.baseUrl));
    expect(shown).toMatch(/^http:\/\/ann:\*\*\*@127\.0\.0\.1:\d+$/);
  });

  it('never sends this computer’s requests to a proxy elsewhere (it would reach its own)', async () => {
    // Nothing listens there: the request succeeds only by going direct.
    configureProxy({ env: { HTTP_PROXY: 'http://proxy.invalid:3128' } });
    expect(await ask()).toBe(401);
    expect(proxyShownFor(new URL(sb.baseUrl))).toBeNull();
    expect(proxyShownFor(new URL('https://files.example.com'))).toBeNull(); // HTTPS_PROXY unset
    configureProxy({ env: { HTTPS_PROXY: 'http://proxy.invalid:3128' } });
    expect(proxyShownFor(new URL('https://files.example.com'))).toBe('http://proxy.invalid:3128');
  });
});

describe('a proxy that refuses', () => {
  it('407 to a forwarded request: one line naming the proxy and what to do, not retried', async () => {
    const p = await proxy({ credentials: { user: 'ann', password: 'right-password' } });
    const wrong = p.url.replace('right-password', 'wrong-password');
    configureProxy({ setting: wrong });
    const err = await ask(sb.baseUrl, { maxAttempts: 5 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProxyError);
    const message = (err as ApiError).message;
    expect(message).toMatch(
      /^The proxy http:\/\/ann:\*\*\*@127\.0\.0\.1:\d+ refused the connection to 127\.0\.0\.1:\d+ \(HTTP 407\): it asks for a user and password/,
    );
    expect(message).not.toContain('wrong-password');
    expect(message).not.toContain('\n');
    expect(p.seen).toHaveLength(1);
    // A German reader: the same line in German, the proxy (its password hidden) as a parameter.
    expect(german(err)).toMatch(
      /^Der Proxy http:\/\/ann:\*\*\*@127\.0\.0\.1:\d+ hat die Verbindung zu 127\.0\.0\.1:\d+ abgelehnt \(HTTP 407\): er verlangt Benutzer und Passwort/,
    );
    expect(german(err)).not.toContain('wrong-password');
  });

  it('502 to a CONNECT for an https service: one line, and https always goes by CONNECT', async () => {
    const p = await proxy({ refuse: 502 });
    configureProxy({ env: { https_proxy: p.url } });
    const err = await ask('https://files.example.com/api/v1').catch((e: unknown) => e);
    expect(p.seen).toEqual(['CONNECT files.example.com:443']);
    expect(err).toBeInstanceOf(ProxyError);
    expect((err as ApiError).message).toMatch(
      /^The proxy http:\/\/127\.0\.0\.1:\d+ refused the connection to files\.example\.com \(HTTP 502\): it could not reach the service\.$/,
    );
    expect((err as ApiError).retryable).toBe(true);
    expect(german(err)).toMatch(
      /^Der Proxy http:\/\/127\.0\.0\.1:\d+ hat die Verbindung zu files\.example\.com abgelehnt \(HTTP 502\): er konnte den Dienst nicht erreichen\.$/,
    );
  });

  it('502 to a forwarded request: retried, then one line naming the proxy too', async () => {
    const p = await proxy({ refuse: 502 });
    configureProxy({ env: { HTTP_PROXY: p.url } });
    const err = await ask(sb.baseUrl, { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 }).catch(
      (e: unknown) => e,
    );
    expect(p.seen).toEqual([
      `GET http://${origin()}/workspaces`,
      `GET http://${origin()}/workspaces`,
    ]);
    expect(err).toBeInstanceOf(ProxyError);
    expect((err as ApiError).message).toBe(
      `HTTP 502 through the proxy ${p.url}: it could not reach ${origin()}, or the service is down; it will be tried again later.`,
    );
    expect(german(err)).toBe(
      `HTTP 502 über den Proxy ${p.url}: Er konnte ${origin()} nicht erreichen, oder der Dienst ist ausgefallen; es wird später erneut versucht.`,
    );
  });

  it('a variable that is not a proxy URL fails each request with one line naming it', async () => {
    configureProxy({ env: { HTTP_PROXY: 'proxy.example.com:3128' } });
    const err = await ask().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProxyError);
    expect((err as ApiError).message).toBe(
      'HTTP_PROXY is not a usable proxy: write the proxy as a URL starting with http://, like http://proxy.example.com:3128.',
    );
    expect(german(err)).toBe(
      'HTTP_PROXY ist kein verwendbarer Proxy: geben Sie den Proxy als URL an, die mit http:// beginnt, etwa http://proxy.example.com:3128.',
    );
    configureProxy({ setting: 'socks5://proxy.example.com:1080' });
    const setting = await ask().catch((e: unknown) => e);
    expect((setting as ApiError).message).toBe(
      'The proxy setting is not a usable proxy: only http:// (or https://) proxies can be used, not socks5://: write it like http://proxy.example.com:3128.',
    );
    expect(german(setting)).toBe(
      'Die Proxy-Einstellung ist kein verwendbarer Proxy: nur http://- (oder https://-)Proxys sind möglich, nicht socks5://: geben Sie ihn etwa als http://proxy.example.com:3128 an.',
    );
  });
});

describe('NO_PROXY, as curl reads it', () => {
  const cases: [string, string, number, boolean][] = [
    ['example.com', 'example.com', 443, true],
    ['example.com', 'files.example.com', 443, true],
    ['.example.com', 'files.example.com', 443, true],
    ['*.example.com', 'files.example.com', 443, true],
    ['example.com', 'notexample.com', 443, false],
    ['example.com:8443', 'example.com', 443, false],
    ['example.com:8443', 'example.com', 8443, true],
    ['a.org  b.org,c.org', 'b.org', 80, true],
    ['*', 'anything.net', 80, true],
    ['10.0.0.0/8', '10.1.2.3', 80, true],
    ['10.0.0.0/8', '11.1.2.3', 80, false],
    ['[::1]:8080', '[::1]', 8080, true],
    ['fd00::/8', '[fd12::1]', 443, true],
    ['', 'example.com', 443, false],
  ];
  it.each(cases)('%j for %s:%i is %s', (value, host, port, bypass) => {
    expect(noProxyMatcher(value)(host, port)).toBe(bypass);
  });
});

describe('the proxy URL a person gives', () => {
  it.each([
    ['', null],
    ['http://proxy.example.com:3128', null],
    ['http://ann:pw@10.0.0.1:8080', null],
    ['https://proxy.example.com', null],
    ['proxy.example.com:3128', /^write the proxy as a URL starting with http:\/\//],
    [
      'socks5://127.0.0.1:1080',
      /^only http:\/\/ \(or https:\/\/\) proxies can be used, not socks5/,
    ],
    ['http://proxy:99999', /^the proxy is not a valid URL/],
    ['http://proxy:3128/path', /without a path/],
    ['http://:secret@proxy:3128', /has a password but no user name/],
  ])('%j', (text, problem) => {
    const said = proxyUrlProblem(text);
    if (problem === null) expect(said).toBeNull();
    else expect(said).toMatch(problem);
  });

  it('is shown without its password', () => {
    expect(shownProxyUrl(new URL('http://ann:s3cret@proxy:3128'))).toBe(
      'http://ann:***@proxy:3128',
    );
    expect(shownProxyUrl(new URL('http://proxy:3128'))).toBe('http://proxy:3128');
  });
});
