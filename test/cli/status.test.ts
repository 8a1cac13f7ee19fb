import type { ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNNING_DIR } from '../../src/main/state/running';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { runCli, spawnCli, tempDir, syncArgs } from './run-cli';

// `workspace-sync status` reads what a running `sync` keeps in the state directory: the pair,
// its state, its last sync and its problems, without starting a sync or making a request.

let sb: RunningSandbox;
let tmp: { dir: string; remove(): Promise<void> };
const children: ChildProcess[] = [];

beforeAll(async () => {
  sb = await startSandbox({ seed: 'demo' });
  tmp = await tempDir('status');
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await sb?.close();
  await tmp?.remove();
});

type Line = { type: string; state?: string; lastSyncAt?: number | null; problems?: unknown[] };

/** A continuous sync as `role`, and a promise of its first status line that `until` accepts. */
function startSync(role: string, state: string, dir: string) {
  const user = sb.users.find((u) => u.role === role)!;
  const child = spawnCli(syncArgs(sb, dir, state, '--poll', '30'), {
    env: { WORKSPACE_SYNC_TOKEN: user.token },
  });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const lines: Line[] = [];
  const waiters: { test: (l: Line) => boolean; resolve: () => void }[] = [];
  createInterface({ input: child.stdout }).on('line', (text) => {
    const line = JSON.parse(text) as Line;
    lines.push(line);
    for (const w of waiters.splice(0)) {
      if (w.test(line)) w.resolve();
      else waiters.push(w);
    }
  });
  const until = (test: (l: Line) => boolean) =>
    new Promise<void>((resolve, reject) => {
      if (lines.some(test)) return resolve();
      waiters.push({ test, resolve });
      child.once('close', () => reject(new Error(`sync exited: ${stderr}`)));
    });
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  return { child, until, exited, stderr: () => stderr };
}

const settled = (l: Line) =>
  l.type === 'status' &&
  (l.state === 'idle' || l.state === 'needs-attention') &&
  typeof l.lastSyncAt === 'number';

describe('workspace-sync status', () => {
  it('says that no sync runs, exit 3', async () => {
    const run = await runCli(['status', '--state', path.join(tmp.dir, 'none')]);
    expect(run.code).toBe(3);
    expect(run.stdout).toBe(
      `No sync is running (state directory ${path.join(tmp.dir, 'none')}).\n`,
    );
    expect(run.stderr).toBe('');
  });

  it("reads a running sync's pair, state, last sync and problems; nothing once it stops", async () => {
    const state = path.join(tmp.dir, 'state');
    const dir = path.join(tmp.dir, 'viewer');
    // A Viewer may not download: every file of the demo is a problem of this pair.
    const sync = startSync('Viewer', state, dir);
    await sync.until(settled);
    const before = sb.sandbox.stats.get('GET /workspaces') ?? 0;

    const text = await runCli(['status', '--state', state]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stderr).toBe('');
    const lines = text.stdout.split('\n');
    const viewer = sb.users.find((u) => u.role === 'Viewer')!;
    expect(lines[0]).toBe(`${dir} ⇄ workspace ${sb.workspaceId} on ${sb.baseUrl}`);
    expect(lines[1]).toMatch(
      new RegExp(`^  .+ · last sync (just now|\\d+ s ago) · pid ${sync.child.pid}, running since `),
    );
    expect(text.stdout).toMatch(
      /\n {2}\d+ problems:\n {4}\S.*: Your role in this workspace does not allow downloading it\.\n/,
    );
    expect(viewer.token.length).toBeGreaterThan(0);
    expect(text.stdout).not.toContain(viewer.token);

    const json = await runCli(['status', '--json', '--state', state]);
    expect(json.code).toBe(0);
    const records = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      running: true,
      pid: sync.child.pid,
      server: sb.baseUrl,
      workspaceId: sb.workspaceId,
      dir,
    });
    expect(records[0]!.problemCount).toBeGreaterThan(0);
    // It asked the service nothing.
    expect(sb.sandbox.stats.get('GET /workspaces') ?? 0).toBe(before);

    sync.child.kill('SIGINT');
    expect(await sync.exited, sync.stderr()).toBe(0);
    const after = await runCli(['status', '--state', state]);
    expect(after.code).toBe(3);
    expect(after.stdout).toContain('No sync is running');
  });

  it('tells a sync that ended without closing (killed) from a running one', async () => {
    const state = path.join(tmp.dir, 'state-killed');
    const sync = startSync('Administrator', state, path.join(tmp.dir, 'killed'));
    await sync.until(settled);
    sync.child.kill('SIGKILL');
    await sync.exited;
    // Its file stays (a write cut by the kill leaves at most a hidden temporary file beside it).
    const left = readdirSync(path.join(state, RUNNING_DIR)).filter((n) => !n.startsWith('.'));
    expect(left).toHaveLength(1);
    const run = await runCli(['status', '--state', state]);
    expect(run.code).toBe(3);
    expect(run.stdout).toMatch(
      new RegExp(
        `\\n {2}not running: it ended without closing \\(pid ${sync.child.pid}\\); last seen .+, ".+"\\n`,
      ),
    );
  });
});
