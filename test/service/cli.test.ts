import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exitOf, spawnSandbox, type SandboxLine } from '../../src/service/child';
import { afterEach, describe, expect, it } from 'vitest';
import { api } from './helpers';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const children: ChildProcess[] = [];

afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill();
});

async function startCli(args: string[]): Promise<{ child: ChildProcess; info: SandboxLine }> {
  const started = await spawnSandbox(args);
  children.push(started.child);
  return started;
}

describe('npm run sandbox (src/service/cli.ts)', () => {
  it('prints one JSON line, serves the API, and exits 0 on SIGTERM', async () => {
    const { child, info } = await startCli(['--port', '0', '--seed', 'demo']);
    expect(info.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(info.client_id).toBe('workspace-sync');
    expect(info.client_secret).toBe('sandbox-secret');
    expect(info.workspace_id).toBeGreaterThan(0);
    expect(info.users.map((u) => u.role).sort()).toEqual(
      ['Administrator', 'Collaborator', 'Creator', 'Downloader', 'Moderator', 'Viewer'].sort(),
    );
    for (const u of info.users) {
      expect(u.time_zone).not.toBe('UTC');
      expect(u.token.length).toBeGreaterThan(20);
    }
    const admin = info.users.find((u) => u.role === 'Administrator')!;
    const res = await api(info.base_url, 'GET', `/workspaces/${info.workspace_id}`, {
      token: admin.token,
    });
    expect(res.status).toBe(200);
    expect(res.json.workspace.effective_role).toBe('Administrator');

    const exited = exitOf(child);
    child.kill('SIGTERM');
    expect(await exited).toEqual({ code: 0, signal: null });
  });

  it('serves everything under --base-path', async () => {
    const { child, info } = await startCli([
      '--port',
      '0',
      '--seed',
      'empty',
      '--base-path',
      '/api/v1',
    ]);
    expect(info.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    const token = info.users[0]!.token;
    const under = await api(info.base_url, 'GET', '/workspaces', { token });
    expect(under.status).toBe(200);
    expect(under.json.total_entries).toBe(1);
    const origin = new URL(info.base_url).origin;
    const bare = await api(origin, 'GET', '/workspaces', { token });
    expect(bare.status).toBe(404);
    expect(bare.json.errors).toBeDefined();
    const grant = await api(info.base_url, 'POST', '/oauth/token', {
      form: {
        grant_type: 'password',
        client_id: info.client_id,
        client_secret: info.client_secret,
        username: 'ann@example.com',
        password: 'ann-sandbox-pass',
      },
    });
    expect(grant.status).toBe(200);

    const exited = exitOf(child);
    child.kill('SIGINT');
    expect((await exited).code).toBe(0);
  });

  it('makes the --data folder it is given, and finds its data there on the next start', async () => {
    const base = await mkdtemp(path.join(tmpdir(), 'sandbox-data-'));
    try {
      const data = path.join(base, 'not', 'there', 'yet');
      const first = await startCli(['--port', '0', '--seed', 'demo', '--data', data]);
      expect(existsSync(path.join(data, 'sandbox.db'))).toBe(true);
      const exited = exitOf(first.child);
      first.child.kill('SIGTERM');
      expect(await exited).toEqual({ code: 0, signal: null });
      const again = await startCli(['--port', '0', '--data', data]);
      expect(again.info.workspace_id).toBe(first.info.workspace_id);
      const back = exitOf(again.child);
      again.child.kill('SIGTERM');
      expect(await back).toEqual({ code: 0, signal: null });
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });

  it('refuses a bad option with a non-zero exit', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/service/cli.ts', '--seed', 'bogus'],
      { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(child);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const { code } = await exitOf(child);
    expect(code).toBe(1);
    expect(stderr).toContain('--seed');
  });
});
