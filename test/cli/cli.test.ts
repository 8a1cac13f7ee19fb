import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { loginOptions, logoutOptions, workspacesOptions } from '../../src/main/cli/commands';
import { syncOptions } from '../../src/main/cli/sync';
import { signInWithPassword } from '../../src/main/api/oauth';
import { FileAccountStore } from '../../src/main/accounts/accounts';
import {
  KEYCHAIN_TEST_SERVICE,
  NO_BUS,
  requirePrivateKeyring,
  runCli,
  tempDir,
  type CliRun,
  requireKeytar,
} from './run-cli';

// Where keytar did not build, every test here fails with one line saying what to install.
const keytar = await requireKeytar();

// The `workspace-sync` command as a person runs it: a real child process against the sandbox
// over HTTP, with its own state directory, accounts in a private gnome-keyring
// (scripts/with-keyring.mjs) under a keychain service of this file's.

let sb: RunningSandbox;
let state: { dir: string; remove(): Promise<void> };

beforeAll(async () => {
  // Short-lived access tokens, so that a test can make the stored one expire.
  sb = await startSandbox({ seed: 'demo', accessTokenTtlSeconds: 600 });
  state = await tempDir('state');
});
afterAll(async () => {
  await sb?.close();
  await state?.remove();
});

const owner = () => sb.users[0]!;
const accountsFile = () => path.join(state.dir, 'accounts.json');

interface StoredAccount {
  server: string;
  email: string;
  accessToken: string;
  refreshToken: string;
}
/** What the keychain holds for this file's sandbox, read as the CLI wrote it. */
async function storedAccounts(): Promise<StoredAccount[]> {
  return (await keytar.findCredentials(KEYCHAIN_TEST_SERVICE))
    .map((e) => JSON.parse(e.password) as StoredAccount)
    .filter((a) => a.server === sb.baseUrl);
}

/** Every file under `dir`, as text. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return Promise.all(
    entries
      .filter((e) => e.isFile())
      .map((e) => readFile(path.join(e.parentPath, e.name), 'latin1')),
  );
}

/** No secret in what the command printed, nor in any file of the state directory (its log). */
async function expectNoSecrets(
  runs: CliRun[],
  secrets: string[],
  stateDir = state.dir,
): Promise<void> {
  const files = existsSync(stateDir) ? await filesUnder(stateDir) : [];
  for (const secret of secrets) {
    expect(secret.length).toBeGreaterThan(5);
    for (const run of runs) {
      expect(run.stdout).not.toContain(secret);
      expect(run.stderr).not.toContain(secret);
    }
    for (const text of files) expect(text).not.toContain(secret);
  }
}

describe('workspace-sync --help and usage errors', () => {
  it('prints the top-level usage with --help and -h, naming every command', async () => {
    for (const flag of ['--help', '-h']) {
      const run = await runCli([flag]);
      expect(run.code, run.stderr).toBe(0);
      for (const command of ['login', 'logout', 'workspaces', 'sync']) {
        expect(run.stdout).toContain(command);
      }
      expect(run.stdout).toContain('WORKSPACE_SYNC_TOKEN');
      expect(run.stderr).toBe('');
    }
  });

  const commands: [string, Record<string, unknown>][] = [
    ['login', loginOptions],
    ['logout', logoutOptions],
    ['workspaces', workspacesOptions],
    ['sync', syncOptions],
  ];
  for (const [command, options] of commands) {
    it(`${command} --help exits 0 and names each of its options`, async () => {
      const run = await runCli([command, '--help']);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`^usage: workspace-sync ${command}`));
      for (const option of Object.keys(options)) expect(run.stdout).toContain(`--${option}`);
      // -h works too, even beside options that would otherwise be refused or required.
      const short = await runCli([command, '--bogus', '-h']);
      expect(short.code).toBe(0);
      expect(short.stdout).toBe(run.stdout);
    });
  }

  it('refuses an unknown option, an unknown command, a missing one, and a missing value with exit 2', async () => {
    const unknownOption = await runCli(['workspaces', '--bogus']);
    expect(unknownOption.code).toBe(2);
    expect(unknownOption.stderr).toContain('workspace-sync: unknown option --bogus');
    expect(unknownOption.stderr).toContain('workspace-sync workspaces --help');
    expect(unknownOption.stdout).toBe('');

    const unknownCommand = await runCli(['frobnicate']);
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.stderr).toContain('unknown command "frobnicate"');

    const none = await runCli([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no command given');

    const missing = await runCli(['login', '--email', 'ann@example.com', '--state', state.dir]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--server is required');

    const noValue = await runCli(['sync', '--dir']);
    expect(noValue.code).toBe(2);
    expect(noValue.stderr).toMatch(/^workspace-sync: .*--dir/);

    const badNumber = await runCli([
      'sync',
      '--server',
      sb.baseUrl,
      '--workspace',
      'x',
      '--dir',
      'd',
    ]);
    expect(badNumber.code).toBe(2);
    expect(badNumber.stderr).toContain('--workspace must be a positive whole number');

    for (const [option, value] of [
      ['--limit-up', 'fast'],
      ['--limit-down', '-5'],
      ['--limit-up', '2.5'],
      ['--limit-down', '10000001'],
    ]) {
      const badLimit = await runCli(['sync', '--sandbox', '--dir', 'd', option!, value!]);
      expect(badLimit.code).toBe(2);
      expect(badLimit.stderr.split('\n')[0]).toBe(
        `workspace-sync: ${option} must be a whole number of KB/s from 0 (no limit) to 10,000,000, not "${value}"`,
      );
    }
  });
});

describe('workspace-sync login, workspaces, sync, logout', () => {
  beforeEach(requirePrivateKeyring);

  it('refuses a wrong password with exit 1 and a clear message, storing nothing', async () => {
    const run = await runCli(
      [
        'login',
        '--server',
        sb.baseUrl,
        '--email',
        owner().email,
        '--password-stdin',
        '--state',
        state.dir,
      ],
      { stdin: 'not-the-password\n' },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `workspace-sync: ${sb.baseUrl} refused the sign-in of ${owner().email}: Wrong email or password.\n`,
    );
    expect(run.stdout).toBe('');
    expect(existsSync(accountsFile())).toBe(false);
    expect(await storedAccounts()).toEqual([]);
    await expectNoSecrets([run], ['not-the-password']);
  });

  it('will not prompt for a password without a terminal', async () => {
    const run = await runCli(
      ['login', '--server', sb.baseUrl, '--email', owner().email, '--state', state.dir],
      { stdin: `${owner().password}\n` },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^workspace-sync: .*not a terminal.*--password-stdin/);
    expect(run.stderr).not.toContain('    at ');
  });

  it('signs in with --password-stdin, keeps the account in the keychain (no file holds a token), and lists workspaces with --server alone', async () => {
    const login = await runCli(
      [
        'login',
        '--server',
        `${sb.baseUrl}/`,
        '--email',
        owner().email,
        '--password-stdin',
        '--state',
        state.dir,
      ],
      { stdin: `${owner().password}\nthe second line is not read\n` },
    );
    expect(login.stderr).toBe('');
    expect(login.code).toBe(0);
    expect(login.stdout).toBe(`Signed in as ${owner().email} on ${sb.baseUrl}\n`);

    const stored = await storedAccounts();
    expect(stored).toHaveLength(1);
    const account = stored[0]!;
    expect(account).toMatchObject({ server: sb.baseUrl, email: owner().email });
    expect(account.accessToken.length).toBeGreaterThan(20);
    expect(account.refreshToken.length).toBeGreaterThan(20);
    expect(JSON.stringify(stored)).not.toContain(owner().password);

    const table = await runCli(['workspaces', '--server', sb.baseUrl, '--state', state.dir]);
    expect(table.stderr).toBe('');
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+NAME\s+ROLE$/);
    expect(lines).toContainEqual(
      expect.stringMatching(new RegExp(`^${sb.workspaceId}\\s+Q3 Planning\\s+Administrator$`)),
    );
    // The columns line up.
    expect(lines[1]!.indexOf('Q3 Planning')).toBe(lines[0]!.indexOf('NAME'));

    const json = await runCli([
      'workspaces',
      '--server',
      sb.baseUrl,
      '--state',
      state.dir,
      '--json',
      '--verbose',
    ]);
    expect(json.code, json.stderr).toBe(0);
    const rows = json.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as unknown);
    expect(rows).toContainEqual({ id: sb.workspaceId, name: 'Q3 Planning', role: 'Administrator' });
    // --verbose mirrors the log (JSON lines) to stderr.
    expect(json.stderr).toContain('"msg":"listed workspaces"');

    await expectNoSecrets(
      [login, table, json],
      [owner().password, account.accessToken, account.refreshToken],
    );
  });

  it('renews an expired access token with the stored refresh token and saves the new one', async () => {
    const before = (await storedAccounts())[0]!;
    sb.advanceClock(3600); // the stored access token (10 minutes) has expired
    const run = await runCli([
      'workspaces',
      '--server',
      sb.baseUrl,
      '--state',
      state.dir,
      '--json',
      '--verbose',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('"role":"Administrator"');
    const after = (await storedAccounts())[0]!;
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.refreshToken).toBe(before.refreshToken);
    await expectNoSecrets([run], [before.accessToken, after.accessToken, after.refreshToken]);
  });

  it('syncs --once without --token with the account login stored, from another state directory', async () => {
    const other = await tempDir('sync-state');
    try {
      const dir = path.join(other.dir, 'workspace');
      const stateDir = path.join(other.dir, 'state');
      const run = await runCli([
        'sync',
        '--once',
        '--json',
        '--server',
        sb.baseUrl,
        '--workspace',
        String(sb.workspaceId),
        '--dir',
        dir,
        '--state',
        stateDir,
      ]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout.trimEnd().split('\n').at(-1)!)).toMatchObject({
        type: 'summary',
      });
      expect((await readdir(dir)).sort()).toContain('Reports');
      const account = (await storedAccounts())[0]!;
      await expectNoSecrets([run], [account.accessToken, account.refreshToken], stateDir);
    } finally {
      await other.remove();
    }
  });

  it('lists workspaces with a pasted --token (or WORKSPACE_SYNC_TOKEN), which win over the remembered account', async () => {
    const other = await tempDir('token-state');
    try {
      const user = sb.users.find((u) => u.role === 'Collaborator')!;
      // A fresh token: an earlier test moved the sandbox's clock past the seeded ones' expiry.
      const { accessToken } = await signInWithPassword({
        baseUrl: sb.baseUrl,
        clientId: sb.clientId,
        clientSecret: sb.clientSecret,
        email: user.email,
        password: user.password,
      });
      const collaborator = { token: accessToken };
      // The owner (an Administrator) is remembered in the keychain; the token is a Collaborator's.
      expect((await storedAccounts()).map((a) => a.email)).toEqual([owner().email]);
      const run = await runCli([
        'workspaces',
        '--server',
        sb.baseUrl,
        '--token',
        collaborator.token,
        '--state',
        other.dir,
        '--verbose',
      ]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(
        new RegExp(`^${sb.workspaceId}\\s+Q3 Planning\\s+Collaborator$`, 'm'),
      );

      const viaEnv = await runCli(
        ['workspaces', '--server', sb.baseUrl, '--json', '--state', other.dir],
        {
          env: { WORKSPACE_SYNC_TOKEN: collaborator.token },
        },
      );
      expect(viaEnv.code, viaEnv.stderr).toBe(0);
      expect(JSON.parse(viaEnv.stdout.trim())).toEqual({
        id: sb.workspaceId,
        name: 'Q3 Planning',
        role: 'Collaborator',
      });

      const refused = await runCli(
        ['workspaces', '--server', sb.baseUrl, '--token-file', '-', '--state', other.dir],
        { stdin: 'not-a-valid-token-at-all\n' },
      );
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^workspace-sync: .*refused the access token/);
      expect(refused.stderr.trimEnd().split('\n')).toHaveLength(1);

      const log = await readFile(path.join(other.dir, 'logs', 'workspace-sync.log'), 'utf8');
      for (const r of [run, viaEnv, refused]) {
        expect(r.stdout + r.stderr).not.toContain(collaborator.token);
        expect(r.stdout + r.stderr).not.toContain('not-a-valid-token-at-all');
      }
      expect(log).not.toContain(collaborator.token);
      expect(log).not.toContain('not-a-valid-token-at-all');
      expect(existsSync(path.join(other.dir, 'accounts.json'))).toBe(false);
      // A pasted token is never remembered.
      expect((await storedAccounts()).map((a) => a.email)).toEqual([owner().email]);
    } finally {
      await other.remove();
    }
  });

  it('says how to sign in when no account is stored for the server', async () => {
    const empty = await tempDir('empty-state');
    try {
      // Accounts are the keychain's, whatever the state directory: an empty keychain service.
      const run = await runCli(['workspaces', '--server', sb.baseUrl, '--state', empty.dir], {
        env: { WORKSPACE_SYNC_KEYCHAIN_SERVICE: `${KEYCHAIN_TEST_SERVICE} empty` },
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`workspace-sync: Not signed in to ${sb.baseUrl}`);
      expect(run.stderr).toContain('workspace-sync login --server');
    } finally {
      await empty.remove();
    }
  });

  it('forgets the account with logout', async () => {
    const run = await runCli(['logout', '--server', sb.baseUrl, '--state', state.dir]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(`Signed out ${owner().email} on ${sb.baseUrl}\n`);
    expect(await storedAccounts()).toEqual([]);
    const again = await runCli(['logout', '--server', sb.baseUrl, '--state', state.dir]);
    expect(again.code).toBe(1);
  });
});

describe('accounts of earlier versions, and no keychain', () => {
  beforeEach(requirePrivateKeyring);
  const noKeychain = { env: { DBUS_SESSION_BUS_ADDRESS: NO_BUS } };

  it('without a keychain, login says what to do and stores nothing; --token still works', async () => {
    const other = await tempDir('no-keychain');
    try {
      const login = await runCli(
        [
          'login',
          '--server',
          sb.baseUrl,
          '--email',
          owner().email,
          '--password-stdin',
          '--state',
          other.dir,
        ],
        { ...noKeychain, stdin: `${owner().password}\n` },
      );
      expect(login.code).toBe(1);
      expect(login.stdout).toBe('');
      expect(login.stderr).toMatch(
        /^workspace-sync: No keychain is available to remember the account \(.+\)\. Use --token or WORKSPACE_SYNC_TOKEN, or start a Secret Service such as gnome-keyring, or keep it in a file with --store file\.\n$/,
      );
      expect(await storedAccounts()).toEqual([]);
      expect(existsSync(path.join(other.dir, 'accounts.json'))).toBe(false);
      // It says so before asking for a password: nobody types one for nothing.
      const asked = await runCli(
        ['login', '--server', sb.baseUrl, '--email', owner().email, '--state', other.dir],
        noKeychain,
      );
      expect(asked.code).toBe(1);
      expect(asked.stderr).toMatch(/^workspace-sync: No keychain is available/);

      const { accessToken } = await signInWithPassword({
        baseUrl: sb.baseUrl,
        clientId: sb.clientId,
        clientSecret: sb.clientSecret,
        email: owner().email,
        password: owner().password,
      });
      const viaToken = await runCli(
        ['workspaces', '--server', sb.baseUrl, '--json', '--state', other.dir],
        { env: { ...noKeychain.env, WORKSPACE_SYNC_TOKEN: accessToken } },
      );
      expect(viaToken.code, viaToken.stderr).toBe(0);
      expect(viaToken.stdout).toContain('"role":"Administrator"');
      await expectNoSecrets([login, viaToken], [owner().password, accessToken], other.dir);
    } finally {
      await other.remove();
    }
  });

  it('an accounts.json of an earlier version is used as it is without a keychain, and moves into the keychain when there is one', async () => {
    const other = await tempDir('legacy');
    try {
      const viewer = sb.users.find((u) => u.role === 'Viewer')!;
      const tokens = await signInWithPassword({
        baseUrl: sb.baseUrl,
        clientId: sb.clientId,
        clientSecret: sb.clientSecret,
        email: viewer.email,
        password: viewer.password,
      });
      // What versions before the keychain wrote.
      const legacy = FileAccountStore.inStateDir(other.dir);
      await legacy.put({
        server: sb.baseUrl,
        email: viewer.email,
        accessToken: tokens.accessToken,
        refreshToken: tokens.refreshToken ?? null,
        clientId: sb.clientId,
        clientSecret: sb.clientSecret,
      });
      const secrets = [tokens.accessToken, tokens.refreshToken!];

      const without = await runCli(
        ['workspaces', '--server', sb.baseUrl, '--json', '--state', other.dir],
        noKeychain,
      );
      expect(without.code, without.stderr).toBe(0);
      expect(without.stdout).toContain('"role":"Viewer"');
      expect(existsSync(legacy.file)).toBe(true);

      const moved = await runCli([
        'workspaces',
        '--server',
        sb.baseUrl,
        '--json',
        '--state',
        other.dir,
        '--verbose',
      ]);
      expect(moved.code, moved.stderr).toBe(0);
      expect(moved.stdout).toContain('"role":"Viewer"');
      expect(moved.stderr).toContain('accounts moved into the keychain');
      expect(existsSync(legacy.file)).toBe(false);
      expect(await storedAccounts()).toMatchObject([
        { email: viewer.email, accessToken: tokens.accessToken },
      ]);
      // No file of the state directory holds a token any more; neither did any output.
      await expectNoSecrets([without, moved], secrets, other.dir);

      const logout = await runCli(['logout', '--server', sb.baseUrl, '--state', state.dir]);
      expect(logout.code, logout.stderr).toBe(0);
      expect(await storedAccounts()).toEqual([]);
    } finally {
      await other.remove();
    }
  });
});
