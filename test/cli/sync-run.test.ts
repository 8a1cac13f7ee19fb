import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { runCli, spawnCli, tempDir } from './run-cli';

// `workspace-sync sync` running continuously until a signal, and against its embedded sandbox.

let sb: RunningSandbox;
let tmp: { dir: string; remove(): Promise<void> };

beforeAll(async () => {
  sb = await startSandbox({ seed: 'demo' });
  tmp = await tempDir('sync-run');
});
afterAll(async () => {
  await sb?.close();
  await tmp?.remove();
});

type Line = { type: string } & Record<string, unknown>;

describe('workspace-sync sync', () => {
  it('runs until SIGINT, then closes cleanly with exit 0', async () => {
    const dir = path.join(tmp.dir, 'continuous');
    const child = spawnCli(
      [
        'sync',
        '--json',
        '--server',
        sb.baseUrl,
        '--workspace',
        String(sb.workspaceId),
        '--dir',
        dir,
        '--state',
        path.join(tmp.dir, 'state-continuous'),
        '--poll',
        '0.5',
      ],
      { env: { WORKSPACE_SYNC_TOKEN: sb.users[0]!.token } },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    const lines: Line[] = [];
    // Up to date once: then interrupt it the way Ctrl-C does.
    await new Promise<void>((resolve, reject) => {
      const rl = createInterface({ input: child.stdout });
      rl.on('line', (line) => {
        const obj = JSON.parse(line) as Line;
        lines.push(obj);
        if (obj.type === 'status' && obj.state === 'idle' && obj.lastSyncAt !== null) {
          child.kill('SIGINT');
          resolve();
        }
      });
      child.once('close', () => reject(new Error(`exited early: ${stderr}`)));
    });
    expect(await exited, stderr).toBe(0);
    expect(stderr).toBe('');
    expect(lines.some((l) => l.type === 'status' && l.state === 'syncing')).toBe(true);
    expect(existsSync(path.join(dir, 'Reports'))).toBe(true);
  });

  it('never syncs a folder against the demo unless asked: no --server and no --sandbox is a usage error', async () => {
    // A real folder, named as a person would, with no --server: it must not fill with demo files.
    const dir = path.join(tmp.dir, 'Q3');
    for (const command of [
      ['sync', '--once', '--dir', dir, '--workspace', '42'],
      ['workspaces'],
      ['ui'],
    ]) {
      const run = await runCli([...command, '--state', path.join(tmp.dir, 'state-no-server')]);
      expect(run.code, command.join(' ')).toBe(2);
      expect(run.stderr).toMatch(
        /^workspace-sync: --server URL is required \(or --sandbox, .*\)\n/,
      );
      expect(run.stdout).toBe('');
    }
    expect(existsSync(dir)).toBe(false);
  });

  it('starts an embedded demo sandbox with --sandbox', async () => {
    const dir = path.join(tmp.dir, 'embedded');
    const run = await runCli([
      'sync',
      '--sandbox',
      '--once',
      '--json',
      '--dir',
      dir,
      '--state',
      path.join(tmp.dir, 'state-embedded'),
    ]);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Line);
    expect(lines[0]).toMatchObject({
      type: 'sandbox',
      baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      email: 'ann@example.com',
    });
    expect(lines.at(-1)!.type).toBe('summary');
    expect(existsSync(path.join(dir, 'Reports'))).toBe(true);
    // The sandbox's seeded password is never printed.
    expect(run.stdout).not.toContain('ann-sandbox-pass');
  });

  it('says --dir is a file (or under one) as a usage error, exit 2, touching nothing', async () => {
    const file = path.join(tmp.dir, 'notes.txt');
    await writeFile(file, 'mine\n');
    const cases: [string, string][] = [
      [file, `--dir ${file} is a file, not a folder`],
      [
        path.join(file, 'Q3', 'sub'),
        `--dir ${path.join(file, 'Q3', 'sub')} cannot be a folder: ${file} is a file`,
      ],
    ];
    for (const [dir, message] of cases) {
      const run = await runCli(
        [
          'sync',
          '--once',
          '--server',
          sb.baseUrl,
          '--workspace',
          String(sb.workspaceId),
          '--dir',
          dir,
          '--state',
          path.join(tmp.dir, 'state-file-dir'),
        ],
        { env: { WORKSPACE_SYNC_TOKEN: sb.users[0]!.token } },
      );
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toBe(
        `workspace-sync: ${message}\nRun "workspace-sync sync --help" for the usage.\n`,
      );
    }
    expect(await readFile(file, 'utf8')).toBe('mine\n');
  });

  it('fails with one line and exit 1 when the workspace does not exist', async () => {
    const run = await runCli(
      [
        'sync',
        '--once',
        '--server',
        sb.baseUrl,
        '--workspace',
        '9999',
        '--dir',
        path.join(tmp.dir, 'missing'),
        '--state',
        path.join(tmp.dir, 'state-missing'),
      ],
      { env: { WORKSPACE_SYNC_TOKEN: sb.users[0]!.token } },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^workspace-sync: [^\n]+\n$/);
    expect(run.stderr).not.toContain(sb.users[0]!.token);
  });
});
