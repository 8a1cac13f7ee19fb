import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { clientFor, remoteTree, tokenOf } from '../sync/harness';
import { runCli, tempDir } from './run-cli';

// `workspace-sync sync --once --json` end to end: a real child process, the demo sandbox over
// HTTP, a pasted token.

let sb: RunningSandbox;
let tmp: { dir: string; remove(): Promise<void> };

beforeAll(async () => {
  sb = await startSandbox({ seed: 'demo' });
  tmp = await tempDir('sync-once');
});
afterAll(async () => {
  await sb?.close();
  await tmp?.remove();
});

describe('workspace-sync sync --once --json', () => {
  it('syncs the demo workspace into the folder and ends with a summary line', async () => {
    const dir = path.join(tmp.dir, 'workspace');
    const state = path.join(tmp.dir, 'state');
    const token = sb.users[0]!.token;
    // The token through standard input: never on the command line, and no warning.
    const run = await runCli(
      [
        'sync',
        '--once',
        '--json',
        '--server',
        sb.baseUrl,
        '--token-file',
        '-',
        '--workspace',
        String(sb.workspaceId),
        '--dir',
        dir,
        '--state',
        state,
      ],
      { stdin: `${token}\n` },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');

    const lines = run.stdout.trimEnd().split('\n');
    const objects = lines.map((line) => {
      expect(() => JSON.parse(line) as unknown, line).not.toThrow();
      return JSON.parse(line) as { type: string } & Record<string, unknown>;
    });
    expect(objects.every((o) => typeof o.type === 'string')).toBe(true);
    expect(objects.some((o) => o.type === 'status')).toBe(true);
    const last = objects.at(-1)!;
    expect(last.type).toBe('summary');
    expect(last).toMatchObject({
      foldersCreated: expect.any(Number),
      filesDownloaded: expect.any(Number),
      problems: expect.any(Number),
    });

    const entries = await readdir(dir, { withFileTypes: true });
    expect(entries.find((e) => e.name === 'Reports')?.isDirectory()).toBe(true);
    expect(run.stdout).not.toContain(token);
  });
});

describe('workspace-sync sync --once: the safety nets', () => {
  let own: RunningSandbox;
  let work: { dir: string; remove(): Promise<void> };
  beforeAll(async () => {
    own = await startSandbox({ seed: 'demo' });
    work = await tempDir('sync-nets');
  });
  afterAll(async () => {
    await own?.close();
    await work?.remove();
  });

  const syncOnce = (dir: string, state: string, ...extra: string[]) =>
    runCli(
      [
        'sync',
        '--once',
        '--server',
        own.baseUrl,
        '--workspace',
        String(own.workspaceId),
        '--dir',
        dir,
        '--state',
        state,
        ...extra,
      ],
      { env: { WORKSPACE_SYNC_TOKEN: own.users[0]!.token } },
    );

  const emptyFolder = async (dir: string) => {
    for (const name of await readdir(dir)) {
      if (!name.startsWith('.')) await rm(path.join(dir, name), { recursive: true });
    }
  };

  it('an emptied folder stops with exit 1 and deletes nothing, until --confirm-deletes', async () => {
    const dir = path.join(work.dir, 'emptied');
    const state = path.join(work.dir, 'state-emptied');
    const first = await syncOnce(dir, state);
    expect(first.code, first.stderr).toBe(0);
    const before = remoteTree(own);
    expect(before.size).toBeGreaterThan(10);

    await emptyFolder(dir);
    const held = await syncOnce(dir, state);
    expect(held.code).toBe(1);
    expect(held.stderr).toContain('--confirm-deletes');
    expect(held.stderr).toMatch(/nothing was deleted on the service/i);
    expect(remoteTree(own)).toEqual(before);

    const confirmed = await syncOnce(dir, state, '--confirm-deletes');
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(remoteTree(own).size).toBe(0);
  });

  it('an unchanged folder right after its bulk upload costs at most 3 requests', async () => {
    const dir = path.join(work.dir, 'bulk');
    const state = path.join(work.dir, 'state-bulk');
    const first = await syncOnce(dir, state);
    expect(first.code, first.stderr).toBe(0);
    // The bulk upload: 10 folders of 20 files, 210 events of this client's own.
    for (let f = 0; f < 10; f++) {
      await mkdir(path.join(dir, `Bulk ${f}`));
      for (let i = 0; i < 20; i++) await writeFile(path.join(dir, `Bulk ${f}`, `${i}.txt`), `${i}`);
    }
    const bulk = await syncOnce(dir, state);
    expect(bulk.code, bulk.stderr).toBe(0);
    expect(remoteTree(own).has('Bulk 9/19.txt')).toBe(true);
    own.resetStats();
    const again = await syncOnce(dir, state);
    expect(again.code, again.stderr).toBe(0);
    const requests = Object.values(own.stats()).reduce((a, b) => a + b, 0);
    expect(requests, JSON.stringify(own.stats())).toBeLessThanOrEqual(3);
  });

  it('a vanished sync folder stops with exit 1 and deletes nothing', async () => {
    const owner = clientFor(own.baseUrl, tokenOf(own.users[0]!));
    const root = (await owner.rootFolder(own.workspaceId)).id;
    await owner.createFolder(own.workspaceId, root, 'Still here');
    const dir = path.join(work.dir, 'vanished');
    const state = path.join(work.dir, 'state-vanished');
    const first = await syncOnce(dir, state);
    expect(first.code, first.stderr).toBe(0);
    const before = remoteTree(own);
    expect(before.has('Still here')).toBe(true);

    await rm(dir, { recursive: true });
    const stopped = await syncOnce(dir, state);
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toMatch(/sync folder .* (is missing|was replaced)/);
    expect(stopped.stderr).toMatch(/nothing (was|is) deleted on the service/i);
    expect(remoteTree(own)).toEqual(before);
  });
});
