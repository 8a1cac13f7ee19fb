import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { clientFor, localTree, tokenOf } from '../sync/harness';
import { runCli, spawnCli, syncArgs, tempDir } from './run-cli';

// Issue 37 in the terminal: a workspace deleted on the service ends `sync --once` with exit 1
// and one line in words (English, German), the files kept; a running `sync` stays in the state
// `gone` (no passes), which `status` and `status --json` show.

let sb: RunningSandbox | null = null;
let tmp: { dir: string; remove(): Promise<void> } | null = null;
afterEach(async () => {
  await sb?.close();
  sb = null;
});
afterAll(async () => {
  await tmp?.remove();
});

async function deletedAfterSync(name: string) {
  sb = await startSandbox({ seed: 'demo' });
  tmp ??= await tempDir('status-truth');
  const owner = sb.users.find((u) => u.role === 'Administrator')!;
  const dir = path.join(tmp.dir, `${name}-dir`);
  const state = path.join(tmp.dir, `${name}-state`);
  return { sb, owner, dir, state };
}

describe('a workspace deleted on the service, in the terminal', () => {
  it('sync --once exits 1 with one line in words; nothing is trashed', async () => {
    const { sb, owner, dir, state } = await deletedAfterSync('once');
    const env = { WORKSPACE_SYNC_TOKEN: owner.token };
    const args = ['sync', '--once', ...syncArgs(sb, dir, state).slice(2)];
    const first = await runCli(args, { env });
    expect(first.code, first.stderr).toBe(0);
    const before = localTree(dir);

    await clientFor(sb.baseUrl, tokenOf(owner)).deleteWorkspace(sb.workspaceId);
    writeFileSync(path.join(dir, 'new.txt'), 'mine');
    const run = await runCli(args, { env });
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      `workspace-sync: Workspace ${sb.workspaceId} was deleted or is no longer shared with you: syncing stopped, and the files here stay as they are.`,
    ]);
    const german = await runCli(args, { env: { ...env, LANG: 'de_DE.UTF-8' } });
    expect(german.code).toBe(1);
    expect(german.stderr).toContain('wurde gelöscht oder wird nicht mehr mit Ihnen geteilt');
    const after = localTree(dir);
    for (const [p, hash] of before) expect(after.get(p)).toBe(hash);
    expect(after.has('new.txt')).toBe(true);
    expect(existsSync(path.join(state, 'trash'))).toBe(false);
  });

  it('a running sync stays in the state gone, which status and --json show', async () => {
    const { sb, owner, dir, state } = await deletedAfterSync('running');
    const child = spawnCli(syncArgs(sb, dir, state, '--poll', '1'), {
      env: { WORKSPACE_SYNC_TOKEN: owner.token },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const states: string[] = [];
    const waiters: { state: string; resolve: () => void }[] = [];
    createInterface({ input: child.stdout }).on('line', (text) => {
      const line = JSON.parse(text) as { type: string; state?: string };
      if (line.type !== 'status' || !line.state) return;
      states.push(line.state);
      for (const w of waiters.splice(0))
        if (w.state === line.state) w.resolve();
        else waiters.push(w);
    });
    const until = (s: string) =>
      new Promise<void>((resolve, reject) => {
        if (states.includes(s)) return resolve();
        waiters.push({ state: s, resolve });
        child.once('close', () => reject(new Error(`sync exited: ${stderr}`)));
      });
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    try {
      await until('idle');
      await clientFor(sb.baseUrl, tokenOf(owner)).deleteWorkspace(sb.workspaceId);
      writeFileSync(path.join(dir, 'new.txt'), 'mine');
      await until('gone');

      const text = await runCli(['status', '--state', state]);
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toContain(
        `Workspace ${sb.workspaceId} was deleted or is no longer shared with you`,
      );
      expect(text.stdout).toMatch(/ · last successful sync /);
      // Said once: the state's line, not again as an error line.
      expect(text.stdout.split('was deleted or is no longer shared').length - 1).toBe(1);
      const json = await runCli(['status', '--json', '--state', state]);
      const [record] = json.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(record).toMatchObject({
        running: true,
        state: 'gone',
        lastError: { kind: 'workspace-gone' },
      });
      expect(existsSync(path.join(dir, 'new.txt'))).toBe(true);
    } finally {
      child.kill('SIGINT');
      await exited;
    }
  });
});
