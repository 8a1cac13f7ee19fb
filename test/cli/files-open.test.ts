import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/main/api/client';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { clientFor, localTree, remoteTree, sha, tokenOf } from '../sync/harness';
import { runCli, syncArgs, tempDir } from './run-cli';

// `files open|download` with no sync running the pair (loop/fetch-asked.ts): the plain case
// (a placeholder untouched here, its item unchanged there but for its content) brings just the
// asked files down, with no round: no feed read, no listing, no scan. Anything else falls back
// to the round, which decides as it always did. Real child processes against the sandbox.

let sb: RunningSandbox;
let tmp: { dir: string; remove(): Promise<void> };
let token: string;
let client: ServiceClient;
let root: number;

beforeAll(async () => {
  sb = await startSandbox({ seed: 'empty' });
  tmp = await tempDir('files-open');
  const owner = sb.users.find((u) => u.role === 'Administrator')!;
  token = owner.token;
  client = clientFor(sb.baseUrl, tokenOf(owner));
  root = (await client.rootFolder(sb.workspaceId)).id;
});
afterAll(async () => {
  await sb?.close();
  await tmp?.remove();
});

const upload = (folder: number, name: string, data: string) =>
  client.uploadFile(folder, name, () => Readable.from([Buffer.from(data)]));

/** Requests of the round: the feed, a listing, or an upload. */
const roundRequests = () =>
  Object.entries(sb.stats()).filter(([route]) => /activity|events|folders|upload|POST/.test(route));

describe('workspace-sync files open, no sync running', () => {
  const dir = () => path.join(tmp.dir, 'workspace');
  const state = () => path.join(tmp.dir, 'state');
  const at = (rel: string) => path.join(dir(), rel);
  const bin = () => path.join(tmp.dir, 'bin');
  const said = () => path.join(tmp.dir, 'opened.txt');
  const filesCli = (args: string[]) =>
    runCli(['files', ...args, '--state', state(), '--token-file', '-'], {
      stdin: `${token}\n`,
      env: { PATH: `${bin()}:${process.env.PATH ?? ''}` },
    });
  const syncOnce = async () => {
    const r = await runCli(
      syncArgs(sb, dir(), state(), '--once', '--on-demand', 'online', '--token-file', '-'),
      { stdin: `${token}\n` },
    );
    expect(r.code, r.stderr).toBe(0);
  };

  beforeAll(() => {
    mkdirSync(bin(), { recursive: true });
    writeFileSync(path.join(bin(), 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${said()}'\n`);
    chmodSync(path.join(bin(), 'xdg-open'), 0o755);
  });

  it('brings only the opened file: no feed, no listing; the other placeholder stays', async () => {
    const two = (await client.createFolder(sb.workspaceId, root, 'Two')).id;
    const a = await upload(two, 'a.txt', 'a content');
    await upload(two, 'b.txt', 'b content');
    await syncOnce();
    expect(existsSync(at('Two/a.txt.wsync'))).toBe(true);
    expect(existsSync(at('Two/b.txt.wsync'))).toBe(true);
    // Its content changed there since: the new version comes (the plain case still).
    expect((await upload(two, 'a.txt', 'a, version 2')).id).toBe(a.id);

    sb.resetStats();
    const opened = await filesCli(['open', at('Two/a.txt.wsync')]);
    expect(opened.code, opened.stderr).toBe(0);
    expect(readFileSync(at('Two/a.txt'), 'utf8')).toBe('a, version 2');
    expect(existsSync(at('Two/a.txt.wsync'))).toBe(false);
    expect(readFileSync(said(), 'utf8')).toBe(at('Two/a.txt'));
    expect(existsSync(at('Two/b.txt.wsync'))).toBe(true);
    expect(existsSync(at('Two/b.txt'))).toBe(false);
    const stats = sb.stats();
    expect(roundRequests()).toEqual([]);
    expect(stats['GET /files/:id']).toBe(1);
    expect(stats['GET /download/:id']).toBe(1);

    // Recorded as a round would have: the next one finds nothing to do.
    sb.resetStats();
    await syncOnce();
    expect(sb.stats()['GET /download/:id']).toBeUndefined();
    expect(Object.keys(sb.stats()).filter((r) => !r.startsWith('GET'))).toEqual([]);
    expect(readFileSync(at('Two/a.txt'), 'utf8')).toBe('a, version 2');
    expect(existsSync(at('Two/b.txt.wsync'))).toBe(true);
    const status = await filesCli(['status', at('Two/a.txt'), at('Two/b.txt.wsync')]);
    expect(status.stdout.trimEnd().split('\n')).toEqual([
      `${at('Two/a.txt')}: on this device`,
      `${at('Two/b.txt.wsync')}: online only`,
    ]);

    // A folder: its placeholders, the same way.
    sb.resetStats();
    const folder = await filesCli(['download', at('Two')]);
    expect(folder.code, folder.stderr).toBe(0);
    expect(readFileSync(at('Two/b.txt'), 'utf8')).toBe('b content');
    expect(existsSync(at('Two/b.txt.wsync'))).toBe(false);
    expect(roundRequests()).toEqual([]);
    expect(sb.stats()['GET /download/:id']).toBe(1);

    // Here already: nothing to do, and nothing asked (not even the probe of the API's base: the
    // pair's server is its base, found when it was made).
    sb.resetStats();
    const again = await filesCli(['open', at('Two/a.txt')]);
    expect(again.code, again.stderr).toBe(0);
    expect(sb.stats()).toEqual({});

    // Deleted here since: not "done" without a look; the round decides (as before).
    rmSync(at('Two/a.txt'));
    sb.resetStats();
    await filesCli(['download', at('Two/a.txt')]);
    expect(roundRequests().length).toBeGreaterThan(0);
  });

  it('falls back to the round for a placeholder written into here: both are kept', async () => {
    await upload(root, 'written.txt', 'written content');
    await syncOnce();
    writeFileSync(at('written.txt.wsync'), 'my notes, typed into the placeholder');
    sb.resetStats();
    const down = await filesCli(['download', at('written.txt.wsync')]);
    expect(down.code, down.stderr).toBe(0);
    expect(roundRequests().length).toBeGreaterThan(0);
    expect(readFileSync(at('written.txt'), 'utf8')).toBe('written content');
    // What was written is a file of its own, here and there; never lost, never the file's version.
    const notes = sha('my notes, typed into the placeholder');
    const written = (tree: Map<string, string>) =>
      [...tree.entries()].filter(([p]) => p.startsWith('written'));
    const both = [
      ['written.txt', sha('written content')],
      ['written.txt.wsync', notes],
    ];
    expect(written(localTree(dir()))).toEqual(both);
    expect(written(remoteTree(sb))).toEqual(both);
  });

  it('falls back to the round for a file renamed there: it comes, under its new name', async () => {
    const f = await upload(root, 'old name.txt', 'renamed content');
    await syncOnce();
    expect(existsSync(at('old name.txt.wsync'))).toBe(true);
    await client.renameFile(f.id, 'new name.txt');
    sb.resetStats();
    const down = await filesCli(['download', at('old name.txt.wsync')]);
    expect(down.code).toBe(1);
    expect(down.stderr.trimEnd()).toBe(
      'workspace-sync: old name.txt is no longer on the service (deleted or moved there meanwhile): nothing to download.',
    );
    expect(roundRequests().length).toBeGreaterThan(0);
    expect(existsSync(at('old name.txt.wsync'))).toBe(false);
    expect(existsSync(at('old name.txt'))).toBe(false);
    // The round brought the asked file, under its name there.
    expect(readFileSync(at('new name.txt'), 'utf8')).toBe('renamed content');
    expect(existsSync(at('new name.txt.wsync'))).toBe(false);
  });

  it('falls back to the round for a file deleted there: said gone, its placeholder removed', async () => {
    const f = await upload(root, 'deleted.txt', 'deleted content');
    await syncOnce();
    await client.deleteFile(f.id);
    sb.resetStats();
    const opened = await filesCli(['open', at('deleted.txt.wsync')]);
    expect(opened.code).toBe(1);
    expect(opened.stderr.trimEnd()).toBe(
      'workspace-sync: deleted.txt is no longer on the service (deleted or moved there meanwhile): nothing to download.',
    );
    expect(roundRequests().length).toBeGreaterThan(0);
    expect(existsSync(at('deleted.txt.wsync'))).toBe(false);
    expect(existsSync(at('deleted.txt'))).toBe(false);
  });
});
