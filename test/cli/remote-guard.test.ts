import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { clientFor, localTree, remoteTree, tokenOf } from '../sync/harness';
import { runCli, tempDir } from './run-cli';

// `workspace-sync sync --once` when the service lists most synced items as deleted (issue 24,
// row 11): a real child process against a real sandbox, a colleague deleting through the API.

let sb: RunningSandbox;
let tmp: { dir: string; remove(): Promise<void> };

beforeAll(async () => {
  sb = await startSandbox({ seed: 'demo' });
  tmp = await tempDir('remote-guard');
});
afterAll(async () => {
  await sb?.close();
  await tmp?.remove();
});

const owner = () => sb.users.find((u) => u.role === 'Administrator')!;
const syncOnce = (dir: string, state: string, ...extra: string[]) =>
  runCli(
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
      state,
      ...extra,
    ],
    { env: { WORKSPACE_SYNC_TOKEN: owner().token } },
  );

/** Every file below `dir`, relative. */
const filesIn = async (dir: string) =>
  (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));

describe('workspace-sync sync --once: the service lists most synced items as deleted', () => {
  it('stops with exit 1 and trashes nothing, until --confirm-remote-deletes', async () => {
    const dir = path.join(tmp.dir, 'workspace');
    const state = path.join(tmp.dir, 'state');
    const first = await syncOnce(dir, state);
    expect(first.code, first.stderr).toBe(0);
    const before = localTree(dir);

    // A colleague deletes every top folder (all but the loose files at the root): many
    // deletions leaving nearly nothing, as a server listing an empty root would.
    const client = clientFor(sb.baseUrl, tokenOf(owner()));
    const root = (await client.rootFolder(sb.workspaceId)).id;
    for await (const entry of client.folderContents(root)) {
      if (entry.kind === 'folder') await client.deleteFolder(entry.folder.id);
    }
    const after = remoteTree(sb);
    expect(after.size).toBeLessThan(before.size / 2);

    const held = await syncOnce(dir, state);
    expect(held.code).toBe(1);
    expect(held.stderr).toMatch(/The service lists \d+ of \d+ synced items as deleted/);
    expect(held.stderr).toContain('--confirm-remote-deletes');
    expect(held.stderr).toContain('--keep-local-copies');
    expect(localTree(dir)).toEqual(before);

    // Asked again at the next run: the hold is remembered, not forgotten with the events.
    const again = await syncOnce(dir, state);
    expect(again.code).toBe(1);
    expect(localTree(dir)).toEqual(before);

    const confirmed = await syncOnce(dir, state, '--confirm-remote-deletes');
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(localTree(dir)).toEqual(after);
    // Moved to the trash in the state directory, not deleted.
    const trashedFiles = await filesIn(path.join(state, 'trash'));
    const goneFiles = [...before].filter(([p, v]) => v !== 'dir' && !after.has(p));
    expect(trashedFiles).toHaveLength(goneFiles.length);
  });

  it('one folder deleted by a colleague goes to the trash at once, and says so', async () => {
    const dir = path.join(tmp.dir, 'one-folder');
    const state = path.join(tmp.dir, 'state-one-folder');
    const client = clientFor(sb.baseUrl, tokenOf(owner()));
    const root = (await client.rootFolder(sb.workspaceId)).id;
    const big = await client.createFolder(sb.workspaceId, root, 'Minutes');
    for (let i = 0; i < 40; i++) {
      const data = Buffer.from(`minutes ${i}`);
      await client.uploadFile(big.id, `m${i}.txt`, () => [data], data.length);
    }
    const first = await syncOnce(dir, state);
    expect(first.code, first.stderr).toBe(0);
    await client.deleteFolder(big.id);

    const run = await syncOnce(dir, state);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout + run.stderr).toContain(
      'Minutes was deleted on the service (41 items): moved to the trash on this computer, where it can be restored',
    );
    expect(localTree(dir)).toEqual(remoteTree(sb));
    expect(await filesIn(path.join(state, 'trash'))).toHaveLength(40);
  });

  it('refuses both answers at once', async () => {
    const run = await syncOnce(
      path.join(tmp.dir, 'both'),
      path.join(tmp.dir, 'state-both'),
      '--confirm-remote-deletes',
      '--keep-local-copies',
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/cannot both be given/);
  });
});

// Issue 38, row 6: a service deleting 9 files per pass stays under the per-pass floor of 10;
// counted over the last hour (loop/delete-budget.ts), the pass that crosses the line waits.
describe('workspace-sync sync --once: the service deletes a few files per pass', () => {
  let own: RunningSandbox;
  beforeAll(async () => {
    own = await startSandbox({ seed: 'empty' });
  });
  afterAll(async () => {
    await own?.close();
  });

  it('holds the pass that takes the deletions of the last hour past the rule', async () => {
    const dir = path.join(tmp.dir, 'budget');
    const state = path.join(tmp.dir, 'state-budget');
    const admin = own.users.find((u) => u.role === 'Administrator')!;
    const run = (...extra: string[]) =>
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
        { env: { WORKSPACE_SYNC_TOKEN: admin.token } },
      );
    const client = clientFor(own.baseUrl, tokenOf(admin));
    const root = (await client.rootFolder(own.workspaceId)).id;
    const ids: number[] = [];
    for (let i = 0; i < 40; i++) {
      const data = Buffer.from(`file ${i}`);
      ids.push((await client.uploadFile(root, `f${i}.txt`, () => [data], data.length)).id);
    }
    const first = await run();
    expect(first.code, first.stderr).toBe(0);
    expect(await filesIn(dir)).toHaveLength(40);

    // Three passes of 9: 27 of 40 in one folder, 13 left, a person's clean-up: applied.
    for (let pass = 1; pass <= 3; pass++) {
      for (const id of ids.splice(0, 9)) await client.deleteFile(id);
      const applied = await run();
      expect(applied.code, applied.stderr).toBe(0);
      expect(await filesIn(dir)).toHaveLength(40 - 9 * pass);
    }
    // The fourth would leave 4 of 40: nearly nothing, after many deletions. Held, nothing moved.
    for (const id of ids.splice(0, 9)) await client.deleteFile(id);
    const held = await run();
    expect(held.code).toBe(1);
    expect(held.stderr).toContain(
      'The service lists 9 more of 13 synced items as deleted, after 27 deleted there were moved to the trash here in the last hour',
    );
    expect(held.stderr.trim().split('\n')).toHaveLength(1);
    expect(await filesIn(dir)).toHaveLength(13);

    // The same answer as any hold: confirmed, they go to the trash too.
    const confirmed = await run('--confirm-remote-deletes');
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(await filesIn(dir)).toHaveLength(4);
    expect(await filesIn(path.join(state, 'trash'))).toHaveLength(36);
  });
});
