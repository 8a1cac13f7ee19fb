import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenHash } from '../../src/service/auth';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { local, NAMES, syncedFolder, urlOf } from './link-harness';
import { TOKEN_ON_COMMAND_LINE } from '../../src/main/cli/token';
import { runCli, tempDir, type CliRun } from './run-cli';
import { clientFor, tokenOf } from '../sync/harness';

// `--token TOKEN` with a token that begins with '-', for each command that takes one: a real
// child process against the sandbox over HTTP. The sandbox's tokens are random base64url, and
// one in 64 begins with '-': strict parseArgs used to refuse it ("argument is ambiguous").

let sb: RunningSandbox;
let tmp: { dir: string; remove(): Promise<void> };

beforeAll(async () => {
  sb = await startSandbox({ seed: 'empty' });
  tmp = await tempDir('dash-token');
});
afterAll(async () => {
  await sb?.close();
  await tmp?.remove();
});

const owner = () => sb.users[0]!;

/**
 * An access token of `user` that begins with '-': issued as the sandbox issues its own (random
 * base64url, kept only as its hash, valid for the configured lifetime), the '-' chosen rather
 * than waited for.
 */
function dashToken(user: { id: number }): string {
  const token = `-${randomBytes(32).toString('base64url')}`;
  const { db, clock, config } = sb.sandbox;
  const now = clock.now();
  db.prepare(
    `INSERT INTO tokens (user_id, kind, token_hash, device, expires_at, created_at)
     VALUES (?, 'access', ?, 'dash-token test', ?, ?)`,
  ).run(user.id, tokenHash(token), now + config.accessTokenTtlMs, now);
  return token;
}

/** The token appears nowhere in what the command printed, nor in its log. */
async function expectNotShown(run: CliRun, token: string, state: string): Promise<void> {
  expect(run.stdout + run.stderr).not.toContain(token);
  const log = await readFile(path.join(state, 'logs', 'workspace-sync.log'), 'utf8');
  expect(log).not.toContain(token);
}

describe('--token with a token that begins with -', () => {
  it('workspaces lists the workspaces the token gives access to', async () => {
    const token = dashToken(owner());
    const state = path.join(tmp.dir, 'workspaces-state');
    const run = await runCli([
      'workspaces',
      '--server',
      sb.baseUrl,
      '--token',
      token,
      '--json',
      '--state',
      state,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe(`${TOKEN_ON_COMMAND_LINE}\n`);
    expect(
      run.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown),
    ).toContainEqual(expect.objectContaining({ id: sb.workspaceId }));
    await expectNotShown(run, token, state);

    // The service checks the whole token: one it never issued (also beginning with '-') is
    // refused, so the one accepted above reached it intact.
    const unknown = `-${randomBytes(32).toString('base64url')}`;
    const refused = await runCli([
      'workspaces',
      '--server',
      sb.baseUrl,
      '--token',
      unknown,
      '--state',
      state,
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^workspace-sync: warning: --token .*\nworkspace-sync: .*refused the access token.*\n$/,
    );
    await expectNotShown(refused, unknown, state);
  });

  it('sync --once syncs the workspace with it', async () => {
    const api = clientFor(sb.baseUrl, tokenOf(owner()));
    const root = await api.rootFolder(sb.workspaceId);
    const text = 'synced with a dash token\n';
    await api.uploadFile(
      root.id,
      '-dash.txt',
      () => Readable.from([Buffer.from(text)]),
      Buffer.byteLength(text),
    );
    const token = dashToken(owner());
    const dir = path.join(tmp.dir, 'sync');
    const state = path.join(tmp.dir, 'sync-state');
    const run = await runCli([
      'sync',
      '--once',
      '--server',
      sb.baseUrl,
      '--token',
      token,
      '--workspace',
      String(sb.workspaceId),
      '--dir',
      dir,
      '--state',
      state,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(await readFile(path.join(dir, '-dash.txt'), 'utf8')).toBe(text);
    await expectNotShown(run, token, state);
  });

  it("link prints a synced file's share link, asking the service with it", async () => {
    const folder = await syncedFolder(sb, {
      dir: path.join(tmp.dir, 'link'),
      state: path.join(tmp.dir, 'link-state'),
    });
    const file = folder.ids[`${NAMES.folder}/${NAMES.file}`]!;
    const token = dashToken(owner());
    const run = await runCli(
      [
        'link',
        '--state',
        folder.state,
        '--token',
        token,
        local(folder, `${NAMES.folder}/${NAMES.file}`),
      ],
      { env: { DISPLAY: '', WAYLAND_DISPLAY: '' } },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(`${await urlOf(sb, folder.client, file)}\n`);
    await expectNotShown(run, token, folder.state);
  });
});
