import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { clientFor, remoteTree, tokenOf } from '../sync/harness';
import { runCli, syncArgs, tempDir } from './run-cli';

// Selective sync from the terminal: `sync --exclude PATH` at setup, `folders DIR` to show and
// change it later; real child processes against the sandbox, a token on standard input.

let sb: RunningSandbox;
let tmp: { dir: string; remove(): Promise<void> };
let token: string;

beforeAll(async () => {
  sb = await startSandbox({ seed: 'empty' });
  tmp = await tempDir('folders');
  const owner = sb.users.find((u) => u.role === 'Administrator')!;
  token = owner.token;
  const client = clientFor(sb.baseUrl, tokenOf(owner));
  const root = (await client.rootFolder(sb.workspaceId)).id;
  const up = (folder: number, name: string) =>
    client.uploadFile(folder, name, () => Readable.from([Buffer.from(name)]));
  const docs = (await client.createFolder(sb.workspaceId, root, 'Docs')).id;
  const photos = (await client.createFolder(sb.workspaceId, root, 'Photos')).id;
  const year = (await client.createFolder(sb.workspaceId, photos, '2024')).id;
  await up(docs, 'a.txt');
  await up(photos, 'p.jpg');
  await up(year, 'q.jpg');
});
afterAll(async () => {
  await sb?.close();
  await tmp?.remove();
});

describe('workspace-sync selective sync', () => {
  const dir = () => path.join(tmp.dir, 'workspace');
  const state = () => path.join(tmp.dir, 'state');
  const once = (...extra: string[]) =>
    runCli([...syncArgs(sb, dir(), state(), '--once', '--token-file', '-', ...extra)], {
      stdin: `${token}\n`,
    });
  const foldersOf = (...extra: string[]) =>
    runCli(['folders', dir(), '--state', state(), '--token-file', '-', ...extra], {
      stdin: `${token}\n`,
    });

  it('refuses a folder the workspace does not have, in one line, exit 2', async () => {
    const run = await once('--exclude', 'Nope/There');
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe(
      'workspace-sync: --exclude Nope/There: no such folder in the workspace',
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('leaves out at setup, lists, takes back and leaves out again', async () => {
    const first = await once('--exclude', 'Photos/2024');
    expect(first.code, first.stderr).toBe(0);
    expect(existsSync(path.join(dir(), 'Photos/p.jpg'))).toBe(true);
    expect(existsSync(path.join(dir(), 'Photos/2024'))).toBe(false);

    const listed = await foldersOf();
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout.trimEnd().split('\n')).toEqual([
      'synced      Docs',
      'synced      Photos',
      'not synced  Photos/2024',
    ]);

    const changed = await foldersOf('--include', 'Photos/2024', '--exclude', 'Docs');
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stdout.trimEnd().split('\n')).toEqual([
      'not synced  Docs',
      'synced      Photos',
    ]);
    expect(changed.stderr).toMatch(/Left out: Docs\./);

    const before = remoteTree(sb);
    const second = await once();
    expect(second.code, second.stderr).toBe(0);
    expect(existsSync(path.join(dir(), 'Photos/2024/q.jpg'))).toBe(true);
    expect(existsSync(path.join(dir(), 'Docs'))).toBe(false);
    // The copy of Docs went to the CLI's trash; the service still has it.
    const trash = path.join(state(), 'trash');
    const batches = readdirSync(trash);
    expect(batches.some((b) => existsSync(path.join(trash, b, 'Docs', 'a.txt')))).toBe(true);
    expect(remoteTree(sb)).toEqual(before);

    const wrong = await foldersOf('--include', 'Nope');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr.split('\n')[0]).toBe(
      'workspace-sync: --include Nope: no such folder in the workspace',
    );
  });

  it('has help naming its options, and sync --help names --exclude', async () => {
    const help = await runCli(['folders', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: workspace-sync folders DIR/);
    for (const o of ['--exclude', '--include', '--token-file', '--state', '--proxy']) {
      expect(help.stdout).toContain(o);
    }
    expect((await runCli(['sync', '--help'])).stdout).toContain('--exclude PATH');
    const none = await runCli(['folders']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('DIR is required');
  });

  it('says so for a folder that is not a sync folder', async () => {
    const run = await runCli(['folders', tmp.dir, '--state', state()]);
    expect(run.code).toBe(1);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/is not a sync folder/);
  });
});
