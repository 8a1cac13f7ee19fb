import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MemoryAccountStore } from '../../src/main/accounts/accounts';
import { withScheme } from '../../src/main/accounts/api-base';
import { AccountSessions } from '../../src/main/backend/accounts';
import { silentLogger } from '../../src/main/sync/ports';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import {
  KEYCHAIN_TEST_SERVICE,
  requirePrivateKeyring,
  runCli,
  tempDir,
  requireKeytar,
} from './run-cli';

// Where keytar did not build, every test here fails with one line saying what to install.
const keytar = await requireKeytar();

// A base URL given without its API path (http://host for http://host/api/v1): every request
// answered 404, read as "Not found … deleted, or you no longer have access". The known API
// prefixes are probed under it; what answers as the API is used (and said), or the message says
// which URL to give. The real sandbox, served under a base path, given without it.

let sb: RunningSandbox;
let odd: RunningSandbox;
let tmp: { dir: string; remove(): Promise<void> };
const originOf = (s: RunningSandbox) => new URL(s.baseUrl).origin;
const silent = silentLogger;

beforeAll(async () => {
  sb = await startSandbox({ seed: 'demo', basePath: '/api/v1' });
  // An API under a path no one could guess: refused, with the URL to give.
  odd = await startSandbox({ seed: 'demo', basePath: '/services/files' });
  tmp = await tempDir('api-base');
});
afterAll(async () => {
  await sb?.close();
  await odd?.close();
  await tmp?.remove();
});

describe('a base URL without its API path', () => {
  it('workspaces and sync find /api/v1 under the host, and say so in one line', async () => {
    const origin = originOf(sb);
    expect(sb.baseUrl).toBe(`${origin}/api/v1`);
    const env = { WORKSPACE_SYNC_TOKEN: sb.users[0]!.token };
    const notice = `workspace-sync: ${origin} is not the service's API; using ${sb.baseUrl} (give that as --server to skip this check).\n`;

    const list = await runCli(
      ['workspaces', '--server', origin, '--json', '--state', path.join(tmp.dir, 'state')],
      { env },
    );
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(`"id":${sb.workspaceId}`);
    expect(list.stderr).toBe(notice);

    const dir = path.join(tmp.dir, 'Q3');
    const synced = await runCli(
      [
        'sync',
        '--once',
        '--server',
        `${origin}/`,
        '--workspace',
        String(sb.workspaceId),
        '--dir',
        dir,
        '--state',
        path.join(tmp.dir, 'state'),
      ],
      { env },
    );
    expect(synced.code, synced.stderr).toBe(0);
    expect(synced.stderr).toBe(notice);
    expect(existsSync(path.join(dir, 'Reports'))).toBe(true);
  });

  it('the right base URL costs one request more and says nothing', async () => {
    sb.resetStats();
    const run = await runCli(
      ['workspaces', '--server', sb.baseUrl, '--json', '--state', path.join(tmp.dir, 'state')],
      { env: { WORKSPACE_SYNC_TOKEN: sb.users[0]!.token } },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    expect(sb.stats()).toEqual({ 'GET /workspaces': 2 });
  });

  it('refuses a host whose API is under no known prefix, saying which URL to give', async () => {
    const origin = originOf(odd);
    const dir = path.join(tmp.dir, 'odd');
    const run = await runCli(
      [
        'sync',
        '--once',
        '--server',
        origin,
        '--workspace',
        String(odd.workspaceId),
        '--dir',
        dir,
        '--state',
        path.join(tmp.dir, 'state-odd'),
      ],
      { env: { WORKSPACE_SYNC_TOKEN: odd.users[0]!.token } },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `workspace-sync: ${origin} is not the service's API (it has no workspaces there): give the API's base URL, such as ${origin}/api/v1.\n`,
    );
    expect(run.stderr).not.toMatch(/Not found|deleted/);
    expect(existsSync(dir)).toBe(false);
  });

  it("the window's sign-in finds it too, and keeps the account under the API's URL", async () => {
    const sessions = new AccountSessions({ store: new MemoryAccountStore(), env: {}, log: silent });
    const owner = sb.users[0]!;
    const signed = await sessions.signInWithPassword(originOf(sb), owner.email, owner.password);
    expect(signed.server).toBe(sb.baseUrl);
    expect(signed.info.server).toBe(sb.baseUrl);

    await expect(
      sessions.signInWithToken(originOf(odd), odd.users[0]!.token),
    ).rejects.toMatchObject({
      error: { kind: 'invalid', message: expect.stringContaining(`${originOf(odd)}/api/v1`) },
    });
  });
});

describe('a bare host, as a person types it in the window', () => {
  it('gets https://, or http:// when it is this computer; a typed scheme is kept', () => {
    expect(withScheme(' files.example.com ')).toBe('https://files.example.com');
    expect(withScheme('files.example.com:8443/api/v1')).toBe(
      'https://files.example.com:8443/api/v1',
    );
    expect(withScheme('127.0.0.1:3000')).toBe('http://127.0.0.1:3000');
    expect(withScheme('localhost/api/v1')).toBe('http://localhost/api/v1');
    expect(withScheme('[::1]:8080')).toBe('http://[::1]:8080');
    // A name that only starts like a loopback one is another computer.
    expect(withScheme('127.0.0.1.example.com')).toBe('https://127.0.0.1.example.com');
    expect(withScheme('http://files.example.com')).toBe('http://files.example.com');
    // One word is a slip, refused as no address; with a port or a scheme it is a host.
    expect(withScheme('files')).toBe('files');
    expect(withScheme('files:8443')).toBe('https://files:8443');
    expect(withScheme('https://files.example.com/api/v1')).toBe('https://files.example.com/api/v1');
  });

  it('signs in with 127.0.0.1:PORT alone: http added, /api/v1 found', async () => {
    const sessions = new AccountSessions({ store: new MemoryAccountStore(), env: {}, log: silent });
    const owner = sb.users[0]!;
    const bare = new URL(sb.baseUrl).host; // 127.0.0.1:PORT
    const signed = await sessions.signInWithPassword(bare, owner.email, owner.password);
    expect(signed.info.server).toBe(sb.baseUrl);
  });
});

describe('login with a base URL without its API path', () => {
  beforeEach(requirePrivateKeyring);

  it('finds /api/v1 before asking for the password, and remembers the account there', async () => {
    const origin = originOf(sb);
    const owner = sb.users[0]!;
    const state = path.join(tmp.dir, 'state-login');
    const login = await runCli(
      ['login', '--server', origin, '--email', owner.email, '--password-stdin', '--state', state],
      { stdin: `${owner.password}\n` },
    );
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toContain(`using ${sb.baseUrl}`);
    expect(login.stdout).toBe(`Signed in as ${owner.email} on ${sb.baseUrl}\n`);
    const stored = (await keytar.findCredentials(KEYCHAIN_TEST_SERVICE)).map(
      (e) => (JSON.parse(e.password) as { server: string }).server,
    );
    expect(stored).toContain(sb.baseUrl);
    expect(stored).not.toContain(origin);
    // The remembered account serves the host as given, too: the probe comes before the lookup.
    const list = await runCli(['workspaces', '--server', origin, '--json', '--state', state]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(`"id":${sb.workspaceId}`);
  });
});
