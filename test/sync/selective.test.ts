import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/main/api/client';
import { changeSelection } from '../../src/main/sync/loop/selection';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { TempDirs, localTree, openPair, remoteTree, type Pair } from './harness';
import { clientAs, closeBoth } from './sandbox-pair';

// Selective sync (docs/SYNC.md, "Selective sync"): folders left out by id are neither downloaded
// nor uploaded, a local folder made where one is stays apart, leaving one out trashes its copy
// here only when nothing in it is unsent, and never deletes anything on the service.

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

let sb: RunningSandbox;
let client: ServiceClient;
let pair: Pair;
let root: number;
let docs: number;
let photos: number;

beforeEach(async () => {
  sb = await startSandbox({ seed: 'empty' });
  client = clientAs(sb);
  root = (await client.rootFolder(sb.workspaceId)).id;
  docs = (await client.createFolder(sb.workspaceId, root, 'Docs')).id;
  photos = (await client.createFolder(sb.workspaceId, root, 'Photos')).id;
  await upload(docs, 'a.txt', 'docs a');
  await upload(photos, 'p.jpg', 'photo p');
  const inner = (await client.createFolder(sb.workspaceId, photos, '2024')).id;
  await upload(inner, 'q.jpg', 'photo q');
  pair = await openPair(sb, client, dirs, {});
});
afterEach(() => closeBoth(pair, sb));

const disk = (rel: string) => path.join(pair.dir, rel);
const put = (rel: string, data: string) => {
  mkdirSync(path.dirname(disk(rel)), { recursive: true });
  writeFileSync(disk(rel), data);
};
const upload = (folderId: number, name: string, data: string) =>
  client.uploadFile(folderId, name, () => Readable.from([Buffer.from(data)]));
const sync = () => pair.engine.syncOnce();
const exclude = (id: number) => changeSelection(pair.journal, { exclude: [{ id }] });
/** Every path in the CLI trash of this pair (one folder per run). */
const trashed = (): string[] => {
  const dir = path.join(pair.state, 'trash');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((batch) => [...localTree(path.join(dir, batch)).keys()]);
};
const problemsOf = (id: number) => pair.engine.status().problems.filter((p) => p.remoteId === id);

describe('selective sync', () => {
  it('does not download an excluded folder, nor upload a folder made in its place', async () => {
    exclude(photos);
    await sync();
    expect([...localTree(pair.dir).keys()].sort()).toEqual(['Docs', 'Docs/a.txt']);
    expect(pair.journal.items.get(photos)).toBeUndefined();

    // A folder made here where the excluded one is: kept, never merged into it, said.
    put('Photos/mine.jpg', 'mine');
    put('Docs/b.txt', 'b');
    await sync();
    const remote = remoteTree(sb);
    expect(remote.has('Docs/b.txt')).toBe(true);
    expect(remote.has('Photos/mine.jpg')).toBe(false);
    expect(remote.has('Photos/p.jpg')).toBe(true);
    expect(existsSync(disk('Photos/mine.jpg'))).toBe(true);
    expect(problemsOf(photos)).toMatchObject([{ path: 'Photos', reason: 'local' }]);

    // Removed here, the problem ends; the service still has everything.
    await import('node:fs').then((fs) => fs.rmSync(disk('Photos'), { recursive: true }));
    await sync();
    expect(problemsOf(photos)).toEqual([]);
    expect(remoteTree(sb).get('Photos/2024/q.jpg')).toBeDefined();
  });

  it('leaves a synced folder out: its copy goes to the trash, the service keeps it', async () => {
    await sync();
    expect(localTree(pair.dir).has('Photos/2024/q.jpg')).toBe(true);
    const before = remoteTree(sb);
    exclude(photos);
    sb.resetStats();
    await sync();
    expect(existsSync(disk('Photos'))).toBe(false);
    expect(trashed()).toEqual(expect.arrayContaining(['Photos/p.jpg', 'Photos/2024/q.jpg']));
    expect(remoteTree(sb)).toEqual(before);
    expect(Object.keys(sb.stats()).filter((k) => !k.startsWith('GET '))).toEqual([]);
    expect(pair.journal.items.get(photos)).toBeUndefined();
    expect(problemsOf(photos)).toEqual([]);

    // A later full walk neither brings it back nor reads its absence as a delete.
    pair.engine.requestFullWalk();
    await sync();
    expect(existsSync(disk('Photos'))).toBe(false);
    expect(remoteTree(sb)).toEqual(before);
  });

  it('keeps a left-out folder that holds a change not sent, and says so', async () => {
    await sync();
    const before = remoteTree(sb);
    exclude(photos);
    // Written after the last sync: unsent when the selection is applied.
    put('Photos/2024/new.jpg', 'not sent yet');
    await sync();
    expect(localTree(pair.dir).get('Photos/2024/new.jpg')).toBeDefined();
    expect(localTree(pair.dir).has('Photos/p.jpg')).toBe(true);
    expect(trashed()).toEqual([]);
    expect(remoteTree(sb)).toEqual(before);
    expect(problemsOf(photos)).toMatchObject([{ path: 'Photos', reason: 'local' }]);
    expect(problemsOf(photos)[0]!.message).toMatch(/changes not sent/);

    // Chosen again: the kept copy and the service's folder merge, the unsent file goes up.
    changeSelection(pair.journal, { include: [photos] });
    await sync();
    expect(remoteTree(sb).get('Photos/2024/new.jpg')).toBeDefined();
    expect(remoteTree(sb).get('Photos/p.jpg')).toBe(before.get('Photos/p.jpg'));
    expect(problemsOf(photos)).toEqual([]);
  });

  it('sends a move out of a folder left out before it leaves: no copy twice', async () => {
    await sync();
    const p = pair.journal.items.atPath('Photos/p.jpg')!.remoteId;
    (await import('node:fs')).renameSync(disk('Photos/p.jpg'), disk('Docs/p.jpg'));
    exclude(photos);
    await sync(); // kept while the move is not sent; the move goes up
    await sync(); // then nothing in it is unsent: to the trash
    const remote = remoteTree(sb);
    expect(remote.has('Docs/p.jpg')).toBe(true);
    expect(remote.has('Photos/p.jpg')).toBe(false);
    expect(pair.journal.items.atPath('Docs/p.jpg')!.remoteId).toBe(p);
    expect(existsSync(disk('Photos'))).toBe(false);
    expect(trashed()).toEqual(expect.arrayContaining(['Photos/2024/q.jpg']));
    expect(problemsOf(photos)).toEqual([]);
  });

  it('takes a file moved here into an excluded folder out of the sync, and back with it', async () => {
    exclude(photos);
    await sync();
    mkdirSync(disk('Photos'));
    (await import('node:fs')).renameSync(disk('Docs/a.txt'), disk('Photos/a.txt'));
    await sync();
    // As if moved out of the sync folder: gone at its old place there, kept here.
    expect(remoteTree(sb).has('Docs/a.txt')).toBe(false);
    expect(existsSync(disk('Photos/a.txt'))).toBe(true);
    expect(problemsOf(photos)).toMatchObject([{ path: 'Photos' }]);
    changeSelection(pair.journal, { include: [photos] });
    await sync();
    expect(remoteTree(sb).has('Photos/a.txt')).toBe(true);
    expect(remoteTree(sb).has('Photos/p.jpg')).toBe(true);
    expect(localTree(pair.dir).has('Photos/2024/q.jpg')).toBe(true);
  });

  it('brings a folder chosen again down at the next pass', async () => {
    exclude(photos);
    await sync();
    expect(existsSync(disk('Photos'))).toBe(false);
    changeSelection(pair.journal, { include: [photos] });
    await sync();
    expect(localTree(pair.dir).get('Photos/2024/q.jpg')).toBeDefined();
    expect(pair.journal.selection.ids().size).toBe(0);
  });

  it('keeps a folder renamed or added to on the service excluded (feed and walk)', async () => {
    exclude(photos);
    await sync();
    await client.renameFolder(photos, 'Pictures');
    await upload(photos, 'r.jpg', 'photo r');
    await sync();
    expect(existsSync(disk('Pictures'))).toBe(false);
    expect(existsSync(disk('Photos'))).toBe(false);
    expect(pair.journal.selection.all()).toMatchObject([{ id: photos, name: 'Pictures' }]);
    pair.engine.requestFullWalk();
    await sync();
    expect([...localTree(pair.dir).keys()].sort()).toEqual(['Docs', 'Docs/a.txt']);
    // Its new place is the one a local folder may not take.
    put('Pictures/x.txt', 'x');
    await sync();
    expect(remoteTree(sb).has('Pictures/x.txt')).toBe(false);
    expect(problemsOf(photos)).toMatchObject([{ path: 'Pictures' }]);
  });

  it('leaves out a folder below a synced one (a subtree only)', async () => {
    await sync();
    const inner = pair.journal.items.atPath('Photos/2024')!.remoteId;
    exclude(inner);
    await sync();
    expect([...localTree(pair.dir).keys()].sort()).toEqual([
      'Docs',
      'Docs/a.txt',
      'Photos',
      'Photos/p.jpg',
    ]);
    await upload(inner, 'later.jpg', 'later');
    await upload(photos, 'shown.jpg', 'shown');
    await sync();
    expect(existsSync(disk('Photos/2024'))).toBe(false);
    expect(existsSync(disk('Photos/shown.jpg'))).toBe(true);
  });
});
