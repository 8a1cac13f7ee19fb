import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionWords } from '../../src/main/api/errors';
import { runMain } from './in-process';
import { KEYCHAIN_TEST_SERVICE, NO_BUS, tempDir } from './run-cli';

// Issue 38, "Also seen": what reaches a person is words with a way out, in English and German,
// never a library's text (undici's parser, OpenSSL's `0A00010B:SSL routines…`, a bare
// ENAMETOOLONG with the whole path), and a redirect is said as one.

let garbage: TcpServer;
let badBody: TcpServer;
let redirect: Server;
let plain: Server;
let selfSigned: Server;
let tmp: Awaited<ReturnType<typeof tempDir>>;
let tokenFile: string;
const portOf = (s: { address(): unknown }) => (s.address() as AddressInfo).port;
const listen = (s: { listen(port: number, host: string, cb: () => void): unknown }) =>
  new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));

beforeAll(async () => {
  tmp = await tempDir('error-words');
  await mkdir(tmp.dir, { recursive: true });
  tokenFile = path.join(tmp.dir, 'token');
  await writeFile(tokenFile, 'a-token-of-the-test', { mode: 0o600 });
  // Not HTTP at all: bytes back to whatever is asked.
  garbage = createTcpServer((socket) => {
    socket.on('error', () => {});
    socket.once('data', () => socket.end('\u0000\u0001 garbage, not HTTP\r\n\r\n'));
  });
  // HTTP headers, then a body HTTP does not allow (a chunk size that is not hex).
  badBody = createTcpServer((socket) => {
    socket.on('error', () => {});
    socket.once('data', () =>
      socket.end(
        'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
      ),
    );
  });
  // A sign-in portal in front of the address given.
  redirect = createServer((_req, res) => {
    res.writeHead(302, { location: 'https://login.example.com/sso?ticket=abc123' });
    res.end();
  });
  // Plain HTTP, asked for with https://.
  plain = createServer((_req, res) => res.end('{}'));
  // HTTPS with a certificate no one signed (made here by openssl, for this run only).
  const key = path.join(tmp.dir, 'key.pem');
  const cert = path.join(tmp.dir, 'cert.pem');
  const made = spawnSync('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=127.0.0.1',
    '-days',
    '1',
    '-keyout',
    key,
    '-out',
    cert,
  ]);
  if (made.status !== 0) throw new Error(`openssl failed: ${String(made.stderr)}`);
  selfSigned = createTlsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_q, res) =>
    res.end('{}'),
  );
  await Promise.all([
    listen(garbage),
    listen(badBody),
    listen(redirect),
    listen(plain),
    listen(selfSigned),
  ]);
});
afterAll(async () => {
  for (const s of [garbage, badBody, redirect, plain, selfSigned])
    await new Promise((resolve) => s?.close(resolve));
  await tmp?.remove();
});

const workspaces = (server: string, lang: string, env: NodeJS.ProcessEnv = {}) =>
  runMain(['workspaces', '--server', server, '--token-file', tokenFile], {
    LANG: lang,
    WORKSPACE_SYNC_STATE: path.join(tmp.dir, 'state'),
    WORKSPACE_SYNC_KEYCHAIN_SERVICE: KEYCHAIN_TEST_SERVICE,
    DBUS_SESSION_BUS_ADDRESS: NO_BUS,
    HOME: tmp.dir,
    ...env,
  });

/** One line on stderr, exit 1, none of the library's own text. */
async function saysOneLine(run: Promise<{ code: number; err: string }>): Promise<string> {
  const { code, err } = await run;
  expect(code, err).toBe(1);
  expect(err.trimEnd().split('\n'), err).toHaveLength(1);
  expect(err).not.toMatch(/HTTP\/1\.1 protocol|SSL routines|ENAMETOOLONG|had a problem/);
  return err.trimEnd();
}

describe('errors a person sees are words', () => {
  it('a server that does not speak HTTP', async () => {
    const base = `http://127.0.0.1:${portOf(garbage)}`;
    expect(await saysOneLine(workspaces(base, 'C'))).toBe(
      `workspace-sync: The server at ${base} did not answer in HTTP: check the server address and its port.`,
    );
    expect(await saysOneLine(workspaces(base, 'de_DE.UTF-8'))).toBe(
      `workspace-sync: Der Server unter ${base} antwortete nicht mit HTTP: Prüfen Sie die Serveradresse und ihren Port.`,
    );
  });

  it('an answer whose body is not HTTP is not said as "cannot reach"', async () => {
    const base = `http://127.0.0.1:${portOf(badBody)}`;
    expect(await saysOneLine(workspaces(base, 'C'))).toBe(
      'workspace-sync: The server’s answer is not valid HTTP: check the server address; if it is right, the server or a proxy on the way is at fault.',
    );
    expect(await saysOneLine(workspaces(base, 'de_DE.UTF-8'))).toContain(
      'Die Antwort des Servers ist kein gültiges HTTP',
    );
  });

  it('https:// to a plain-HTTP port', async () => {
    const base = `https://127.0.0.1:${portOf(plain)}`;
    expect(await saysOneLine(workspaces(base, 'C'))).toBe(
      `workspace-sync: The server at ${base} does not speak HTTPS on that port: check the server address (http:// or https://) and its port.`,
    );
    expect(await saysOneLine(workspaces(base, 'de_DE.UTF-8'))).toContain(
      `Der Server unter ${base} spricht an diesem Port kein HTTPS`,
    );
  });

  it('a certificate this computer does not trust', async () => {
    const base = `https://127.0.0.1:${portOf(selfSigned)}`;
    expect(await saysOneLine(workspaces(base, 'C'))).toMatch(
      new RegExp(
        `^workspace-sync: The certificate of ${base} is not trusted on this computer \\([A-Z_]+\\): check the server address`,
      ),
    );
    expect(await saysOneLine(workspaces(base, 'de_DE.UTF-8'))).toContain(
      `Dem Zertifikat von ${base} vertraut dieser Computer nicht`,
    );
  });

  it('a redirect is said as a redirect, without its query', async () => {
    const base = `http://127.0.0.1:${portOf(redirect)}`;
    const en = await saysOneLine(workspaces(base, 'C'));
    expect(en).toContain(
      'The server answered with a redirect to https://login.example.com/sso; check the server address',
    );
    expect(en).not.toContain('ticket');
    expect(await saysOneLine(workspaces(base, 'de_DE.UTF-8'))).toContain(
      'Der Server antwortete mit einer Weiterleitung nach https://login.example.com/sso',
    );
  });

  it('a state folder whose name is too long', async () => {
    const long = path.join(tmp.dir, 'x'.repeat(300));
    const env = { WORKSPACE_SYNC_STATE: long };
    const base = `http://127.0.0.1:${portOf(plain)}`;
    const en = await saysOneLine(workspaces(base, 'C', env));
    expect(en).toMatch(/^workspace-sync: A name in .*x{32}….* is too long for this computer/);
    expect(en).not.toContain('x'.repeat(41));
    expect(await saysOneLine(workspaces(base, 'de_DE.UTF-8', env))).toMatch(
      /Ein Name in .* ist für diesen Computer zu lang/,
    );
  });

  it('certificate and other TLS failures have words too', () => {
    expect(connectionWords('DEPTH_ZERO_SELF_SIGNED_CERT', 'https://x')?.key).toBe(
      'service.certificate',
    );
    expect(connectionWords('ERR_TLS_CERT_ALTNAME_INVALID', 'https://x')?.key).toBe(
      'service.certificate',
    );
    expect(connectionWords('ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE', 'https://x')?.key).toBe(
      'service.tls',
    );
    expect(connectionWords('ECONNRESET', 'https://x')).toBeUndefined();
  });
});
