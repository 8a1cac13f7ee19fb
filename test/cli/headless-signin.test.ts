import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError, MethodName, ParamsOf } from '../../src/shared/app-api';
import { translator } from '../../src/shared/i18n';
import { openAccountStore, PLAIN_ACCOUNTS_FILE } from '../../src/main/accounts/keychain';
import { AppBackend } from '../../src/main/backend/backend';
import { windowDir } from '../../src/main/cli/ui';
import { silentLogger } from '../../src/main/sync/ports';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { callOk } from '../backend/backend-calls';
import { signInOnPage } from './oauth-page';
import { runCli, tempDir } from './run-cli';

// Issue 39, items 2 and 6: `cli ui` on a machine without a keychain (what it exists for). The
// backend as `ui` builds it, over the store `login` uses with no keychain at all, a real sandbox
// over HTTP, the real state directory.

let sb: RunningSandbox;
let tmp: { dir: string; remove(): Promise<void> };
const open: AppBackend[] = [];

const ann = () => sb.users.find((u) => u.email === 'ann@example.com')!;

/** A backend as `ui --server` makes it where no keychain answers; `opened` urls land in `urls`. */
async function noKeychainBackend(stateDir: string, urls: string[] = []): Promise<AppBackend> {
  const accounts = await openAccountStore({ stateDir, log: silentLogger, keychain: null });
  const backend = new AppBackend({
    stateDir,
    accounts,
    log: silentLogger,
    server: sb.baseUrl,
    openUrl: (url) => void urls.push(url),
  });
  open.push(backend);
  return backend;
}

async function refused<M extends MethodName>(
  backend: AppBackend,
  method: M,
  params: ParamsOf<M>,
): Promise<AppError> {
  const reply = await backend.call(method, params);
  if (reply.ok) throw new Error(`${method} succeeded: ${JSON.stringify(reply.result)}`);
  return reply.error;
}

/** The refusal in German, as the window says it. */
const german = (e: AppError) => (e.words ? translator('de').say(e.words) : e.message);

beforeAll(async () => {
  sb = await startSandbox({ seed: 'demo' });
  tmp = await tempDir('headless-signin');
});

afterAll(async () => {
  for (const b of open) await b.close();
  await sb?.close();
  await tmp?.remove();
});

describe('ui without a keychain: the window chooses where the account is kept', () => {
  it('says before a sign-in that the store cannot keep it, and offers the plain file by name', async () => {
    const state = path.join(tmp.dir, 'ask');
    const backend = await noKeychainBackend(state);
    expect(await callOk(backend, 'accounts.storage', {})).toEqual({
      remembers: false,
      file: path.join(state, PLAIN_ACCOUNTS_FILE),
    });
    expect((await callOk(backend, 'app.info', {})).server).toBe(sb.baseUrl);
    // Asked to keep it in a store that cannot: window words, no command-line options.
    const e = await refused(backend, 'accounts.signIn', {
      server: sb.baseUrl,
      email: ann().email,
      password: ann().password,
    });
    expect(e.kind).toBe('unsupported');
    expect(e.message).toMatch(/^No keychain is available on this computer.*for this session/);
    expect(e.message).not.toMatch(/--|WORKSPACE_SYNC_TOKEN/);
    expect(german(e)).toMatch(/^Auf diesem Computer ist kein Schlüsselbund/);
  });

  it('a password sign-in for this session only works, writes nothing, and is gone with the process', async () => {
    const state = path.join(tmp.dir, 'session');
    const backend = await noKeychainBackend(state);
    const account = await callOk(backend, 'accounts.signIn', {
      server: sb.baseUrl,
      email: ann().email,
      password: ann().password,
      keep: 'session',
    });
    expect(account.email).toBe(ann().email);
    const listed = await callOk(backend, 'accounts.list', {});
    expect(listed.map((a) => [a.email, a.sessionOnly])).toEqual([[ann().email, true]]);
    // It works: the workspaces are listed through it.
    const ws = await callOk(backend, 'workspaces.list', { accountId: account.id });
    expect(ws.items.length).toBeGreaterThan(0);
    expect(existsSync(path.join(state, PLAIN_ACCOUNTS_FILE))).toBe(false);
    // The next `ui` (a new backend over the same state directory) knows nothing of it.
    const next = await noKeychainBackend(state);
    expect(await callOk(next, 'accounts.list', {})).toEqual([]);
    await callOk(backend, 'accounts.signOut', { accountId: account.id });
    expect(await callOk(backend, 'accounts.list', {})).toEqual([]);
  });

  it('a token sign-in kept in the plain file is there with mode 0600, and the next ui finds it', async () => {
    const state = path.join(tmp.dir, 'file');
    const backend = await noKeychainBackend(state);
    const account = await callOk(backend, 'accounts.signInWithToken', {
      server: sb.baseUrl,
      token: ann().token,
      keep: 'file',
    });
    const file = path.join(state, PLAIN_ACCOUNTS_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toContain(ann().token);
    const next = await noKeychainBackend(state);
    const listed = await callOk(next, 'accounts.list', {});
    expect(listed.map((a) => a.id)).toEqual([account.id]);
    expect(listed[0]!.signedOut).toBeUndefined();
    expect(listed[0]!.sessionOnly).toBeUndefined();
  });

  it('a browser sign-in the store cannot keep never opens the service page; kept for the session, it signs in', async () => {
    const state = path.join(tmp.dir, 'browser');
    const urls: string[] = [];
    const backend = await noKeychainBackend(state, urls);
    const e = await refused(backend, 'accounts.signInWithBrowser', { server: sb.baseUrl });
    expect(e.kind).toBe('unsupported');
    // No tab was sent to the service (which would have said the person was signed in).
    expect(urls).toEqual([]);

    const call = backend.call('accounts.signInWithBrowser', {
      server: sb.baseUrl,
      keep: 'session',
    });
    // openUrl is called before the wait for the person begins; nothing else is awaited.
    while (urls.length === 0) await new Promise((r) => setImmediate(r));
    await signInOnPage(urls[0]!, 'moritz@example.com', 'moritz-sandbox-pass');
    const reply = await call;
    if (!reply.ok) throw new Error(`${reply.error.kind}: ${reply.error.message}`);
    expect((reply.result as { email: string }).email).toBe('moritz@example.com');
    expect(existsSync(path.join(state, PLAIN_ACCOUNTS_FILE))).toBe(false);
  });
});

describe('a server that does not answer: a sign-in fails in words, no tab opens', () => {
  let silent: Server;
  const sockets = new Set<Socket>();
  let closedPort: number;

  beforeAll(async () => {
    // Accepts the connection and never says a word.
    silent = createTcpServer((s) => {
      sockets.add(s);
      s.on('error', () => {});
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    // A port that was just free: nothing listens there.
    const probe = createTcpServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    closedPort = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
  });

  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => silent?.close(r));
  });

  it('a closed port: offline, named, in English and German; the browser way opens nothing', async () => {
    const urls: string[] = [];
    const backend = await noKeychainBackend(path.join(tmp.dir, 'closed'), urls);
    const server = `http://127.0.0.1:${closedPort}`;
    const e = await refused(backend, 'accounts.signInWithBrowser', { server, keep: 'session' });
    expect(e.kind).toBe('offline');
    expect(e.message).toBe(
      `${server} cannot be reached (ECONNREFUSED): check the server address and this computer’s connection.`,
    );
    expect(german(e)).toMatch(/^http:\/\/127\.0\.0\.1:\d+ ist nicht erreichbar \(ECONNREFUSED\)/);
    expect(urls).toEqual([]);
    const p = await refused(backend, 'accounts.signIn', {
      server,
      email: ann().email,
      password: ann().password,
      keep: 'session',
    });
    expect(p.message).toMatch(/cannot be reached \(ECONNREFUSED\)/);
  });

  it('a host that takes the connection and never answers: refused after seconds, before any tab', async () => {
    const urls: string[] = [];
    const backend = await noKeychainBackend(path.join(tmp.dir, 'silent'), urls);
    const server = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const e = await refused(backend, 'accounts.signInWithBrowser', { server, keep: 'session' });
    expect(e.kind).toBe('offline');
    expect(e.message).toBe(
      `${server} did not answer within 5 seconds: check the server address and this computer’s connection.`,
    );
    expect(german(e)).toMatch(/hat nicht innerhalb von 5 Sekunden geantwortet/);
    expect(urls).toEqual([]);
    const t = await refused(backend, 'accounts.signInWithToken', {
      server,
      token: 'x',
      keep: 'session',
    });
    expect(t.message).toMatch(/did not answer within 5 seconds/);
  }, 30_000);
});

describe('ui from a checkout never built', () => {
  it('says in one line the one command that builds the window', async () => {
    const empty = await tempDir('unbuilt');
    try {
      await expect(windowDir(undefined, empty.dir)).rejects.toThrow(
        `The window is not built (${empty.dir} has no index.html): run "npm run build" first, then "ui" again.`,
      );
      const run = await runCli(['ui', '--server', sb.baseUrl, '--static', empty.dir]);
      expect(run.code).not.toBe(0);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(
        `workspace-sync: --static ${empty.dir} holds no window (no index.html in it).\n`,
      );
    } finally {
      await empty.remove();
    }
  });
});
