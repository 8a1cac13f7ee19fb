import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_ON_COMMAND_LINE } from '../../src/main/cli/token';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { runCli, tempDir, type CliRun } from './run-cli';

// Tokens never need the command line (where `ps` shows them to every local user):
// --token-file PATH, --token-file - (standard input), WORKSPACE_SYNC_TOKEN; --token still works,
// with a warning that says why and what to use instead.

let sb: RunningSandbox;
let tmp: { dir: string; remove(): Promise<void> };

beforeAll(async () => {
  sb = await startSandbox({ seed: 'demo' });
  tmp = await tempDir('token-file');
});
afterAll(async () => {
  await sb?.close();
  await tmp?.remove();
});

const token = () => sb.users[0]!.token;

function workspaces(extra: string[], stdin?: string): Promise<CliRun> {
  const state = path.join(tmp.dir, 'state');
  return runCli(['workspaces', '--server', sb.baseUrl, '--json', '--state', state, ...extra], {
    stdin,
  });
}

async function expectListed(run: CliRun): Promise<void> {
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain(`"id":${sb.workspaceId}`);
  expect(run.stdout + run.stderr).not.toContain(token());
  const log = await readFile(path.join(tmp.dir, 'state', 'logs', 'workspace-sync.log'), 'utf8');
  expect(log).not.toContain(token());
}

describe('--token-file', () => {
  it('reads the token from a file (its first line), saying nothing on stderr', async () => {
    const file = path.join(tmp.dir, 'token');
    await writeFile(file, `${token()}\n`, { mode: 0o600 });
    const run = await workspaces(['--token-file', file]);
    await expectListed(run);
    expect(run.stderr).toBe('');
  });

  it('reads the token from standard input with -', async () => {
    const run = await workspaces(['--token-file', '-'], `${token()}\n`);
    await expectListed(run);
    expect(run.stderr).toBe('');
  });

  it('--token still works, with a one-line warning that never holds the token', async () => {
    const run = await workspaces(['--token', token()]);
    await expectListed(run);
    expect(run.stderr).toBe(`${TOKEN_ON_COMMAND_LINE}\n`);
    expect(TOKEN_ON_COMMAND_LINE).toMatch(/ps.*--token-file.*WORKSPACE_SYNC_TOKEN/);
  });

  it('says in one line, exit 1, when the file is missing, empty or a folder, or stdin is empty', async () => {
    const missing = path.join(tmp.dir, 'no-such-token');
    const empty = path.join(tmp.dir, 'empty-token');
    const blank = path.join(tmp.dir, 'blank-token');
    const folder = path.join(tmp.dir, 'token-folder');
    await writeFile(empty, '');
    await writeFile(blank, '  \n');
    await mkdir(folder);
    const cases: [string[], string | undefined, string][] = [
      [['--token-file', missing], undefined, `--token-file ${missing} does not exist.`],
      [['--token-file', empty], undefined, `--token-file ${empty} is empty.`],
      [['--token-file', blank], undefined, `--token-file ${blank} is empty.`],
      [['--token-file', folder], undefined, `--token-file ${folder} is a folder, not a file.`],
      [['--token-file', '-'], '', '--token-file -: standard input held no token.'],
    ];
    for (const [args, stdin, message] of cases) {
      const run = await workspaces(args, stdin);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stderr).toBe(`workspace-sync: ${message}\n`);
      expect(run.stdout).toBe('');
    }
  });

  it('refuses --token with --token-file (exit 2)', async () => {
    const run = await workspaces(['--token', 'x', '--token-file', '-'], 'y\n');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^workspace-sync: --token and --token-file exclude each other\n/);
  });
});
