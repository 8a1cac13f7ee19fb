import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PLAIN_ACCOUNTS_FILE } from '../../src/main/accounts/keychain';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { api } from '../service/helpers';
import { clientFor } from '../sync/harness';
import { NO_BUS, runCli, spawnCli, tempDir, syncArgs } from './run-cli';

// A headless server without a Secret Service: `login --store file` keeps the account in a file
// only the user can read, and a continuous `sync` renews its tokens there for as long as the
// refresh token lives. Against a sandbox whose access tokens live 5 s, a sync runs until the
// service has renewed them ten times (about a minute) and still syncs a change made then.

const TTL_S = 3;
const RENEWALS = 4;
/** No keychain, even inside the private keyring `npm test` starts: a session bus that is not there. */
const NO_KEYCHAIN = { DBUS_SESSION_BUS_ADDRESS: NO_BUS };

let sb: RunningSandbox;
let tmp: { dir: string; remove(): Promise<void> };
let child: ChildProcess | null = null;
const children: ChildProcess[] = [];

beforeAll(async () => {
  sb = await startSandbox({
    seed: 'demo',
    accessTokenTtlSeconds: TTL_S,
    rotateRefreshTokens: true,
  });
  tmp = await tempDir('store-file');
});
afterAll(async () => {
  for (const c of [child, ...children]) if (c && c.exitCode === null) c.kill('SIGKILL');
  await sb?.close();
  await tmp?.remove();
});

const ann = () => sb.users.find((u) => u.role === 'Administrator')!;
const grants = () => sb.sandbox.stats.get('POST /oauth/token') ?? 0;

/** A token of Ann's, fresh from a password grant (the seeded one lives 5 s too). */
async function freshToken(): Promise<string> {
  const res = await api(sb.baseUrl, 'POST', '/oauth/token', {
    form: {
      grant_type: 'password',
      client_id: 'workspace-sync',
      client_secret: 'sandbox-secret',
      username: ann().email,
      password: ann().password,
    },
  });
  expect(res.status).toBe(200);
  return (res.json as { access_token: string }).access_token;
}

/** `login` as Ann, the password piped in, without a keychain. */
const login = (state: string, ...extra: string[]) =>
  runCli(
    [
      'login',
      '--server',
      sb.baseUrl,
      '--email',
      ann().email,
      '--password-stdin',
      '--state',
      state,
      ...extra,
    ],
    { stdin: `${ann().password}\n`, env: NO_KEYCHAIN },
  );

describe('login --store file, without a keychain', () => {
  it('is refused without --store file, saying that option exists', async () => {
    const run = await login(path.join(tmp.dir, 'state-refused'));
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^workspace-sync: No keychain is available.*--store file\.\n$/);
  });

  it('keeps the account in a file only the user can read, and sync renews it there', async () => {
    const state = path.join(tmp.dir, 'state');
    const dir = path.join(tmp.dir, 'synced');
    const signedIn = await login(state, '--store', 'file');
    expect(signedIn.code, signedIn.stderr).toBe(0);
    expect(signedIn.stdout).toBe(`Signed in as ${ann().email} on ${sb.baseUrl}\n`);
    const file = path.join(state, PLAIN_ACCOUNTS_FILE);
    // Said once, naming the file.
    expect(signedIn.stderr).toBe(
      `Your tokens are kept in ${file}, in plain text that only your user can read (not in a keychain, as --store file asks). "logout" deletes them.\n`,
    );
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const refreshOf = () =>
      (JSON.parse(readFileSync(file, 'utf8')) as { accounts: { refreshToken: string }[] })
        .accounts[0]!.refreshToken;
    const firstRefresh = refreshOf();

    // A continuous sync, no token given: the account of the file.
    const sync = spawnCli(syncArgs(sb, dir, state, '--poll', '1'), { env: NO_KEYCHAIN });
    child = sync;
    let stderr = '';
    sync.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => sync.once('close', resolve));
    const statuses: string[] = [];
    createInterface({ input: sync.stdout }).on('line', (line) => {
      const obj = JSON.parse(line) as { type: string; state?: string };
      if (obj.type === 'status' && obj.state) statuses.push(obj.state);
    });

    // The service makes the tokens expire every 3 s: wait for four renewals (about 15 s).
    const before = grants();
    await vi.waitFor(
      () => {
        if (sync.exitCode !== null) throw new Error(`sync exited early: ${stderr}`);
        expect(grants() - before).toBeGreaterThanOrEqual(RENEWALS);
      },
      { timeout: (RENEWALS + 6) * TTL_S * 1000, interval: 250 },
    );
    // Each renewal's new refresh token was written back to the file (the old ones are spent).
    expect(refreshOf()).not.toBe(firstRefresh);

    // A change made now still comes down.
    const client = clientFor(sb.baseUrl, { accessToken: await freshToken(), refreshToken: null });
    const root = await client.rootFolder(sb.workspaceId);
    const text = 'made after four renewals\n';
    await client.uploadFile(
      root.id,
      'late.txt',
      () => Readable.from([Buffer.from(text)]),
      Buffer.byteLength(text),
    );
    await vi.waitFor(
      () => {
        if (sync.exitCode !== null) throw new Error(`sync exited early: ${stderr}`);
        expect(existsSync(path.join(dir, 'late.txt'))).toBe(true);
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(await readFile(path.join(dir, 'late.txt'), 'utf8')).toBe(text);
    expect(statuses).not.toContain('error');
    expect(statuses).toContain('idle');

    sync.kill('SIGINT');
    expect(await exited, stderr).toBe(0);
    expect(stderr).toBe('');

    // Every refresh token but the last is spent: a new process signs in with the file's.
    const list = await runCli(['workspaces', '--server', sb.baseUrl, '--state', state], {
      env: NO_KEYCHAIN,
    });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('Q3 Planning');

    // logout takes the tokens off the disk.
    const out = await runCli(['logout', '--server', sb.baseUrl, '--state', state], {
      env: NO_KEYCHAIN,
    });
    expect(out.code, out.stderr).toBe(0);
    expect((JSON.parse(readFileSync(file, 'utf8')) as { accounts: unknown[] }).accounts).toEqual(
      [],
    );
  }, 150_000);

  it('lets two syncs of the same account renew its rotating tokens in turn', async () => {
    // Two workspaces of one account, each its own sync (two systemd units): the service retires
    // a refresh token when it is used, so the second sync renewing with the token both read at
    // start was signed out at its first renewal ("You are signed out", exit 1).
    const state = path.join(tmp.dir, 'state-two');
    expect((await login(state, '--store', 'file')).code).toBe(0);
    const dirs = [path.join(tmp.dir, 'two-a'), path.join(tmp.dir, 'two-b')];
    const stderr = ['', ''];
    const syncs = dirs.map((dir, i) => {
      const sync = spawnCli(syncArgs(sb, dir, state, '--poll', '1'), { env: NO_KEYCHAIN });
      children.push(sync);
      sync.stderr.on('data', (d: Buffer) => (stderr[i] += d.toString()));
      sync.stdout.resume();
      return sync;
    });
    const running = () =>
      syncs.forEach((s, i) => {
        if (s.exitCode !== null) throw new Error(`sync ${i} exited: ${stderr[i]}`);
      });

    // Each access token lives 5 s and both syncs poll every second: both renew, again and again.
    const before = grants();
    await vi.waitFor(
      () => {
        running();
        expect(grants() - before).toBeGreaterThanOrEqual(4);
      },
      { timeout: 10 * TTL_S * 1000, interval: 250 },
    );

    // Both are still signed in: a change made now reaches both folders.
    const client = clientFor(sb.baseUrl, { accessToken: await freshToken(), refreshToken: null });
    const root = await client.rootFolder(sb.workspaceId);
    const text = 'seen by both\n';
    await client.uploadFile(
      root.id,
      'both.txt',
      () => Readable.from([Buffer.from(text)]),
      Buffer.byteLength(text),
    );
    await vi.waitFor(
      () => {
        running();
        for (const dir of dirs) expect(existsSync(path.join(dir, 'both.txt'))).toBe(true);
      },
      { timeout: 30_000, interval: 100 },
    );
    for (const [i, sync] of syncs.entries()) {
      const exited = new Promise<number | null>((resolve) => sync.once('close', resolve));
      sync.kill('SIGINT');
      expect(await exited, stderr[i]).toBe(0);
      expect(stderr[i]).toBe('');
    }
  }, 120_000);
});
