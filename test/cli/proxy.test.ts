import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { startTestProxy, type TestProxy, type TestProxyOptions } from '../api/test-proxy';
import { runCli, tempDir } from './run-cli';

// `workspace-sync sync --once` behind a proxy: a real child process, a real proxy on 127.0.0.1
// in front of the real sandbox (also on 127.0.0.1: a proxy on this computer is used for it).

let sb: RunningSandbox;
let tmp: { dir: string; remove(): Promise<void> };
const proxies: TestProxy[] = [];
let runs = 0;

beforeAll(async () => {
  sb = await startSandbox({ seed: 'demo' });
  tmp = await tempDir('proxy');
});
afterAll(async () => {
  await Promise.all(proxies.map((p) => p.close()));
  await sb?.close();
  await tmp?.remove();
});

async function proxy(opts: TestProxyOptions = {}): Promise<TestProxy> {
  const p = await startTestProxy(opts);
  proxies.push(p);
  return p;
}

/** No proxy variable from the machine running the tests: each test says its own. */
const NONE = {
  http_proxy: '',
  HTTP_PROXY: '',
  https_proxy: '',
  HTTPS_PROXY: '',
  no_proxy: '',
  NO_PROXY: '',
};

/** `sync --once` of the demo workspace into a fresh folder, with `env` and `args` added. */
async function syncOnce(
  env: Record<string, string>,
  args: string[] = [],
  server: string = sb.baseUrl,
) {
  const run = ++runs;
  const dir = path.join(tmp.dir, `workspace-${run}`);
  const result = await runCli(
    [
      'sync',
      '--once',
      '--server',
      server,
      '--token-file',
      '-',
      '--workspace',
      String(sb.workspaceId),
      '--dir',
      dir,
      '--state',
      path.join(tmp.dir, `state-${run}`),
      ...args,
    ],
    { stdin: `${sb.users[0]!.token}\n`, env: { ...NONE, ...env } },
  );
  return { ...result, dir };
}

const host = () => new URL(sb.baseUrl).host;

describe('workspace-sync sync --once behind a proxy', { timeout: 120_000 }, () => {
  it('goes through HTTP_PROXY, every request, and the sync completes', async () => {
    const p = await proxy();
    const run = await syncOnce({ HTTP_PROXY: p.url });
    expect(run.code, run.stderr).toBe(0);
    expect((await readdir(run.dir)).includes('Reports')).toBe(true);
    // Listings and the files' content alike: nothing went around it.
    expect(p.seen.length).toBeGreaterThan(3);
    expect(p.seen.every((r) => r.startsWith('GET ') || r.startsWith('POST '))).toBe(true);
    expect(p.seen.every((r) => r.includes(` http://${host()}/`))).toBe(true);
    expect(p.seen.some((r) => r.includes('/folders/'))).toBe(true);
    expect(p.seen.some((r) => /\/(download|archive)/.test(r))).toBe(true);
  });

  it('goes direct to a server NO_PROXY names: the proxy sees nothing', async () => {
    const p = await proxy();
    const run = await syncOnce({ http_proxy: p.url, NO_PROXY: '127.0.0.1' });
    expect(run.code, run.stderr).toBe(0);
    expect((await readdir(run.dir)).includes('Reports')).toBe(true);
    expect(p.seen).toEqual([]);
  });

  it('takes --proxy over the environment', async () => {
    const fromEnv = await proxy();
    const given = await proxy();
    const run = await syncOnce({ HTTP_PROXY: fromEnv.url }, ['--proxy', given.url]);
    expect(run.code, run.stderr).toBe(0);
    expect(given.seen.length).toBeGreaterThan(3);
    expect(fromEnv.seen).toEqual([]);
  });

  it('reaches an https server through a CONNECT tunnel, end to end', async () => {
    const tls = await startTlsFront();
    try {
      const p = await proxy();
      const run = await syncOnce(
        { https_proxy: p.url, NODE_EXTRA_CA_CERTS: tls.certFile },
        [],
        tls.url,
      );
      expect(run.code, run.stderr).toBe(0);
      expect((await readdir(run.dir)).includes('Reports')).toBe(true);
      // One tunnel per connection, and nothing else: the requests inside it are encrypted.
      const port = new URL(tls.url).port;
      expect(p.seen.length).toBeGreaterThan(0);
      expect(new Set(p.seen)).toEqual(new Set([`CONNECT localhost:${port}`]));
    } finally {
      await tls.close();
    }
  });

  it('a proxy asking for a password it was not given: one line naming it, no stack', async () => {
    const p = await proxy({ credentials: { user: 'ann', password: 'the-right-one' } });
    const wrong = p.url.replace('the-right-one', 'not-the-right-one');
    const run = await syncOnce({}, ['--proxy', wrong]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^workspace-sync: The proxy http:\/\/ann:\*\*\*@127\.0\.0\.1:\d+ refused the connection to 127\.0\.0\.1:\d+ \(HTTP 407\): it asks for a user and password: put user:password@ before its host, or check them\.\n$/,
    );
    expect(run.stdout + run.stderr).not.toContain('not-the-right-one');
  });

  it('a proxy answering 502: one line naming it, after the retries, no stack', async () => {
    const p = await proxy({ refuse: 502 });
    const run = await syncOnce({ HTTP_PROXY: p.url });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^workspace-sync: HTTP 502 through the proxy http:\/\/127\.0\.0\.1:\d+: it could not reach 127\.0\.0\.1:\d+, or the service is down; it will be tried again later\.\n$/,
    );
    expect(p.seen.length).toBeGreaterThan(0);
  });

  it('a --proxy that is not a URL is a usage error, saying what is wrong', async () => {
    const run = await syncOnce({}, ['--proxy', 'proxy.example.com:3128']);
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe(
      'workspace-sync: --proxy: write the proxy as a URL starting with http://, like http://proxy.example.com:3128',
    );
  });
});

/**
 * An https server for `localhost` in front of the sandbox, with a certificate made for the test
 * (openssl, as Debian has it) that the child trusts through NODE_EXTRA_CA_CERTS.
 */
async function startTlsFront(): Promise<{ url: string; certFile: string; close(): Promise<void> }> {
  const keyFile = path.join(tmp.dir, 'localhost.key');
  const certFile = path.join(tmp.dir, 'localhost.crt');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  const target = new URL(sb.baseUrl);
  const server: HttpsServer = createHttpsServer(
    { key: await readFile(keyFile), cert: await readFile(certFile) },
    (req, res) => {
      const upstream = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://localhost:${port}`,
    certFile,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
