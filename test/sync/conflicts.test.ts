import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/main/api/client';
import { Moves } from '../../src/main/api/moves';
import { translator } from '../../src/shared/i18n';
import { SyncFatalError } from '../../src/main/sync/errors';
import type { RunningSandbox } from '../../src/service/sandbox';
import {
  TempDirs,
  clientFor,
  localTree,
  openPair,
  remoteTree,
  sha,
  tokenOf,
  type Pair,
} from './harness';
import { closeBoth, pairWithSandbox } from './sandbox-pair';

// Each conflict case of docs/SYNC.md, made on both sides between two syncs: the outcome is the
// documented one, and no bytes are lost (every version written is still somewhere).

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

let sb: RunningSandbox;
let client: ServiceClient;
let pair: Pair;
let root: number;

beforeEach(async () => {
  ({ sb, client, pair } = await pairWithSandbox(dirs));
  root = (await client.rootFolder(sb.workspaceId)).id;
});
afterEach(() => closeBoth(pair, sb));

const disk = (rel: string) => path.join(pair.dir, rel);
const put = (rel: string, data: string) => {
  mkdirSync(path.dirname(disk(rel)), { recursive: true });
  writeFileSync(disk(rel), data);
};
const upload = (folderId: number, name: string, data: string) =>
  client.uploadFile(folderId, name, () => Readable.from([Buffer.from(data)]));
const idOf = (rel: string) => pair.journal.items.atPath(rel)!.remoteId;

/** Every file's content on a side, as a multiset of hashes. */
const contents = (tree: Map<string, string>) => [...tree.values()].filter((v) => v !== 'dir');
const conflictCopies = (tree: Map<string, string>) =>
  [...tree.keys()].filter((k) => k.includes('(conflict '));

async function syncedBothWays(): Promise<void> {
  await pair.engine.syncOnce();
  expect(localTree(pair.dir)).toEqual(remoteTree(sb));
}

describe('conflicts', () => {
  it('the same file changed on both sides: both kept, the local one as a conflict copy', async () => {
    put('plan.txt', 'original');
    await syncedBothWays();
    put('plan.txt', 'changed here');
    await upload(root, 'plan.txt', 'changed on the service');
    await syncedBothWays();
    const remote = remoteTree(sb);
    expect(remote.get('plan.txt')).toBe(sha('changed on the service'));
    const copies = conflictCopies(remote);
    expect(copies).toHaveLength(1);
    expect(copies[0]).toMatch(/^plan \(conflict \d{4}-\d\d-\d\d \d{6} .+\)\.txt$/);
    expect(remote.get(copies[0]!)).toBe(sha('changed here'));
    expect(pair.engine.status().conflicts.at(-1)!.message).toMatch(/both kept/);
  });

  it('a file name taken on both sides with different contents: both kept', async () => {
    await syncedBothWays();
    put('report.txt', 'mine');
    await upload(root, 'report.txt', 'theirs');
    await syncedBothWays();
    const remote = remoteTree(sb);
    expect(remote.get('report.txt')).toBe(sha('theirs'));
    expect(contents(remote).sort()).toEqual([sha('mine'), sha('theirs')].sort());
  });

  it('a file name taken on both sides with the same contents: one file', async () => {
    await syncedBothWays();
    put('same.txt', 'identical');
    await upload(root, 'same.txt', 'identical');
    await syncedBothWays();
    expect([...remoteTree(sb).keys()]).toEqual(['same.txt']);
  });

  it('a folder name taken on both sides: the folders merge', async () => {
    await syncedBothWays();
    put('Shared/mine.txt', 'mine');
    const theirs = await client.createFolder(sb.workspaceId, root, 'Shared');
    await upload(theirs.id, 'theirs.txt', 'theirs');
    await syncedBothWays();
    expect([...remoteTree(sb).keys()].sort()).toEqual([
      'Shared',
      'Shared/mine.txt',
      'Shared/theirs.txt',
    ]);
  });

  it('deleted here, changed there: the change wins', async () => {
    put('doc.txt', 'v1');
    await syncedBothWays();
    rmSync(disk('doc.txt'));
    await upload(root, 'doc.txt', 'v2 from the service');
    await syncedBothWays();
    expect(readFileSync(disk('doc.txt'), 'utf8')).toBe('v2 from the service');
  });

  it('changed here, deleted there: the change wins', async () => {
    put('doc.txt', 'v1');
    await syncedBothWays();
    put('doc.txt', 'v2 from here');
    await client.deleteFile(idOf('doc.txt'));
    await syncedBothWays();
    expect(remoteTree(sb).get('doc.txt')).toBe(sha('v2 from here'));
  });

  it('renamed on both sides: the local name wins, one file, and the status says so', async () => {
    put('draft.txt', 'text');
    await syncedBothWays();
    const id = idOf('draft.txt');
    await client.renameFile(id, 'their-name.txt');
    const { renameSync } = await import('node:fs');
    renameSync(disk('draft.txt'), disk('my-name.txt'));
    await syncedBothWays();
    expect([...remoteTree(sb).keys()]).toEqual(['my-name.txt']);
    expect((await client.getFile(id)).filename).toBe('my-name.txt');
    expect(
      pair.engine
        .status()
        .conflicts.map((c) => c.message)
        .join('\n'),
    ).toMatch(/renamed on the service/i);
  });

  it('renamed there, deleted here: the delete is sent', async () => {
    put('old-name.txt', 'text');
    await syncedBothWays();
    await client.renameFile(idOf('old-name.txt'), 'new-name.txt');
    rmSync(disk('old-name.txt'));
    await syncedBothWays();
    expect([...remoteTree(sb).keys()]).toEqual([]);
  });

  it('moved the same way on both sides: only recorded, no conflict', async () => {
    put('Inbox/Q3/report.txt', 'numbers');
    put('Archive/keep.txt', 'k');
    await syncedBothWays();
    await new Moves(client).moveFolder(idOf('Inbox/Q3'), idOf('Archive'));
    const { renameSync } = await import('node:fs');
    renameSync(disk('Inbox/Q3'), disk('Archive/Q3'));
    sb.resetStats();
    await syncedBothWays();
    const changes = Object.keys(sb.stats()).filter((k) => !k.startsWith('GET '));
    expect(changes).toEqual([]);
    expect(remoteTree(sb).get('Archive/Q3/report.txt')).toBe(sha('numbers'));
    expect(pair.engine.status().conflicts).toEqual([]);
    expect(pair.journal.items.atPath('Archive/Q3/report.txt')).toBeDefined();
  });

  it('a folder deleted here while a file was added to it there: that file survives', async () => {
    put('Team/old.txt', 'old');
    await syncedBothWays();
    rmSync(disk('Team'), { recursive: true });
    await upload(idOf('Team'), 'added.txt', 'added on the service');
    await syncedBothWays();
    expect(readFileSync(disk('Team/added.txt'), 'utf8')).toBe('added on the service');
    expect(remoteTree(sb).get('Team/added.txt')).toBe(sha('added on the service'));
    expect(existsSync(disk('Team/old.txt'))).toBe(false);
  });

  it('a folder deleted there while files were added to it here: the new files survive', async () => {
    put('Project/old.txt', 'old');
    await syncedBothWays();
    const folder = idOf('Project');
    put('Project/new.txt', 'new work');
    await client.deleteFolder(folder);
    await syncedBothWays();
    const remote = remoteTree(sb);
    expect(remote.get('Project/new.txt')).toBe(sha('new work'));
    expect(remote.has('Project/old.txt')).toBe(false);
    // The synced, unchanged file went to the trash, not away.
    const trashed = readdirSync(path.join(pair.state, 'trash'), { recursive: true }).map(String);
    expect(trashed.some((p) => p.endsWith('old.txt'))).toBe(true);
  });
});

describe('safety nets', () => {
  it('a mass delete waits for a confirmation; nothing is deleted on the service until then', async () => {
    for (let i = 0; i < 30; i++) put(`f${i}.txt`, `file ${i}`);
    await syncedBothWays();
    for (let i = 0; i < 30; i++) rmSync(disk(`f${i}.txt`));
    const err = await pair.engine.syncOnce().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SyncFatalError);
    expect((err as SyncFatalError).kind).toBe('mass-delete');
    expect((err as Error).message).toMatch(/--confirm-deletes/);
    expect(translator('de').say((err as SyncFatalError).words!)).toMatch(
      /^30 von 30 synchronisierten Elementen wurden aus dem synchronisierten Ordner entfernt; im Dienst wurde nichts gelöscht\. .*--confirm-deletes/,
    );
    expect(remoteTree(sb).size).toBe(30);
    expect(pair.engine.status().state).toBe('needs-attention');
    pair.engine.confirmDeletes();
    await pair.engine.syncOnce();
    expect(remoteTree(sb).size).toBe(0);
  });

  it('a mass delete held ends once the files are back; nothing was deleted on the service', async () => {
    for (let i = 0; i < 30; i++) put(`f${i}.txt`, `file ${i}`);
    await syncedBothWays();
    // Taken out of the folder (a drive unmounted, a script gone wrong), then put back as they
    // were: the hold's own advice. The same engine goes on, as the app's does.
    const away = dirs.make('wsync-away-');
    const files = readdirSync(pair.dir).filter((n) => n.startsWith('f'));
    for (const n of files) renameSync(disk(n), path.join(away, n));
    const err = await pair.engine.syncOnce().catch((e: unknown) => e);
    expect((err as SyncFatalError).kind).toBe('mass-delete');
    for (const n of files) renameSync(path.join(away, n), disk(n));
    await syncedBothWays();
    expect(remoteTree(sb).size).toBe(30);
    expect(pair.engine.heldDeletes()).toBeNull();
    expect(pair.engine.status().state).toBe('idle');
  });

  it('a name the service refuses is kept here and reported; the rest goes on', async () => {
    put('Foo/a.txt', 'a');
    await syncedBothWays();
    // Folder names are unique without regard to case on the service (422), not on this disk.
    put('foo/b.txt', 'b');
    put('other.txt', 'other');
    await pair.engine.syncOnce();
    expect(existsSync(disk('foo/b.txt'))).toBe(true);
    expect(remoteTree(sb).has('other.txt')).toBe(true);
    const problem = pair.engine.status().problems.find((p) => p.path === 'foo');
    expect(problem?.reason).toBe('name');
  });

  it('a name the service repairs is recorded as a mapping; the local name stays', async () => {
    // A full-width solidus is how a remote '/' is written here: sent back, it is a '/', which
    // the service replaces with '-'.
    put('a\uFF0Fb/inside.txt', 'slash');
    await pair.engine.syncOnce();
    expect(remoteTree(sb).get('a-b/inside.txt')).toBe(sha('slash'));
    expect(existsSync(disk('a\uFF0Fb/inside.txt'))).toBe(true);
    expect(pair.journal.items.atPath('a\uFF0Fb')!.remoteName).toBe('a-b');
    // And the next pass changes nothing on either side.
    sb.resetStats();
    await pair.engine.syncOnce();
    expect(sb.stats()).toEqual({ 'GET /activity': 1 });
    expect(existsSync(disk('a-b'))).toBe(false);
  });

  it('a local name that cannot be sent is reported, not a crash', async () => {
    put('back\\slash.txt', 'x');
    put('fine.txt', 'y');
    await pair.engine.syncOnce();
    expect([...remoteTree(sb).keys()]).toEqual(['fine.txt']);
    const problem = pair.engine.status().problems.find((p) => p.path === 'back\\slash.txt');
    expect(problem?.reason).toBe('name');
    expect(problem!.message).toBe(
      'This name cannot be synced (it holds a backslash): rename it to sync it.',
    );
    expect(translator('de').say(problem!.words!)).toBe(
      'Dieser Name kann nicht synchronisiert werden (er enthält einen Backslash): Benennen Sie ihn um, um ihn zu synchronisieren.',
    );
  });
});

describe('a role that may not change anything', () => {
  it('keeps local changes, marks them not permitted and goes on', async () => {
    put('seed.txt', 'x');
    await syncedBothWays();
    const viewer = sb.users.find((u) => u.role === 'Viewer');
    expect(viewer).toBeDefined();
    const vpair = await openPair(sb, clientFor(sb.baseUrl, tokenOf(viewer!)), dirs, {});
    try {
      await vpair.engine.syncOnce();
      mkdirSync(path.join(vpair.dir, 'mine'));
      writeFileSync(path.join(vpair.dir, 'mine.txt'), 'kept');
      await vpair.engine.syncOnce();
      expect(existsSync(path.join(vpair.dir, 'mine.txt'))).toBe(true);
      const reasons = vpair.engine.status().problems.map((p) => `${p.path}:${p.reason}`);
      expect(reasons).toContain('mine:not-permitted');
      expect(reasons).toContain('mine.txt:not-permitted');
      // Not tried again while unchanged.
      sb.resetStats();
      await vpair.engine.syncOnce();
      expect(sb.stats()).toEqual({ 'GET /activity': 1 });
    } finally {
      await vpair.close();
    }
  });
});
