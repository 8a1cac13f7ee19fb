import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { loginOptions, logoutOptions, workspacesOptions } from '../../src/main/cli/commands';
import { syncOptions } from '../../src/main/cli/sync';
import { signInWithPassword } from '../../src/main/api/oauth';
import { runCli, tempDir, type CliRun } from './run-cli';

// The `workspace-sync` command as a person runs it: a real child process against the sandbox
// over HTTP, with its own state directory.

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
const logFile = () => path.join(state.dir, 'logs', 'workspace-sync.log');
const accountsFile = () => path.join(state.dir, 'accounts.json');

interface StoredAccounts {
  accounts: { server: string; email: string; accessToken: string; refreshToken: string }[];
}
async function storedAccounts(): Promise<StoredAccounts> {
  return JSON.parse(await readFile(accountsFile(), 'utf8')) as StoredAccounts;
}

/** No secret in what the command printed, nor in the log file. */
async function expectNoSecrets(runs: CliRun[], secrets: string[]): Promise<void> {
  const log = existsSync(logFile()) ? await readFile(logFile(), 'utf8') : '';
  for (const secret of secrets) {
    expect(secret.length).toBeGreaterThan(5);
    for (const run of runs) {
      expect(run.stdout).not.toContain(secret);
      expect(run.stderr).not.toContain(secret);
    }
    expect(log).not.toContain(secret);
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
  });
});

describe('workspace-sync login, workspaces, logout', () => {
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

  it('signs in with --password-stdin, stores the account 0600, and lists workspaces with --server alone', async () => {
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

    const info = await stat(accountsFile());
    if (process.platform !== 'win32') expect(info.mode & 0o777).toBe(0o600);
    const stored = await storedAccounts();
    expect(stored.accounts).toHaveLength(1);
    const account = stored.accounts[0]!;
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
    const before = (await storedAccounts()).accounts[0]!;
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
    const after = (await storedAccounts()).accounts[0]!;
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.refreshToken).toBe(before.refreshToken);
    await expectNoSecrets([run], [before.accessToken, after.accessToken, after.refreshToken]);
  });

  it('lists workspaces with a pasted --token (or WORKSPACE_SYNC_TOKEN), no account needed', async () => {
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

      const refused = await runCli([
        'workspaces',
        '--server',
        sb.baseUrl,
        '--token',
        'not-a-valid-token-at-all',
        '--state',
        other.dir,
      ]);
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
    } finally {
      await other.remove();
    }
  });

  it('says how to sign in when no account is stored for the server', async () => {
    const empty = await tempDir('empty-state');
    try {
      const run = await runCli(['workspaces', '--server', sb.baseUrl, '--state', empty.dir]);
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
    expect((await storedAccounts()).accounts).toEqual([]);
    const again = await runCli(['logout', '--server', sb.baseUrl, '--state', state.dir]);
    expect(again.code).toBe(1);
  });
});
