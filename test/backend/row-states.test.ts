import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Journal } from '../../src/main/journal/journal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/main/api/client';
import { backendWithSandbox, type BackendWithSandbox } from './with-backend';

// Issue 42, Browse's state badges through the backend, on a real pair syncing a real sandbox:
// beside where an item is on this device, a folder left out here (selective sync), a folder
// shown inside one left out, and a problem or a download under way as the pair's journal records
// them (written into it here: the engine's own ways to them are its tests'); a folder not synced
// here says so (no badge rather than a wrong one).

let t: BackendWithSandbox;
let client: ServiceClient;
let accountId: string;
let workspaceId: number;
let rootId: number;
let kept: number;
let left: number;
let inside: number;
let fine: number;

const upload = (folder: number, name: string, text: string) =>
  client.uploadFile(folder, name, () => Readable.from([Buffer.from(text)]));

beforeAll(async () => {
  t = await backendWithSandbox({
    seed: 'empty',
    prefix: 'row-states',
    prepare: async ({ sb, client: c }) => {
      client = c;
      rootId = (await client.rootFolder(sb.workspaceId)).id;
      kept = (await client.createFolder(sb.workspaceId, rootId, 'Kept')).id;
      left = (await client.createFolder(sb.workspaceId, rootId, 'Left out')).id;
      inside = (await client.createFolder(sb.workspaceId, left, 'Inside')).id;
      fine = (await upload(rootId, 'fine.txt', 'fine')).id;
    },
    pair: 'RS',
  });
  ({ accountId } = t);
  workspaceId = t.sb.workspaceId;
  await t.statusWhere((s) => s.state === 'idle' && s.items.total === 0 && s.current === null);
});

afterAll(() => t?.close());

const onDevice = (folderId: number, above?: number[]) =>
  t.ok('items.onDevice', { accountId, workspaceId, folderId, ...(above ? { above } : {}) });

describe("Browse's state badges through the backend", () => {
  it('leaves a folder out here (the set-up of the rest)', async () => {
    await t.ok('pairs.setSelection', {
      pairId: t.pairId,
      excluded: [{ id: left, path: 'Left out', parentId: rootId }],
    });
    // Applied before the next pass: the folder leaves (to the trash).
    await expect
      .poll(() => existsSync(path.join(t.dir, 'Left out')), { timeout: 60_000 })
      .toBe(false);
    await t.ok('pairs.pause', { pairId: t.pairId });
    await t.statusWhere((s) => s.state === 'paused');
  });

  it('tells a folder left out and the synced ones of a synced folder', async () => {
    const got = await onDevice(rootId);
    expect(got.here).toBe('synced');
    expect(Object.fromEntries(got.items.map((i) => [i.id, i.state]))).toEqual({
      [kept]: 'full',
      [fine]: 'full',
    });
    expect(got.marks).toEqual([]);
    expect(got.excluded).toEqual([left]);
  });

  it('tells a problem and a download under way as the journal records them', async () => {
    // The pair is paused: its journal is written beside it here, as a failed pass would.
    const [file] = readdirSync(path.join(t.state, 'journals')).filter((f) => f.endsWith('.db'));
    const j = new Journal(path.join(t.state, 'journals', file!));
    try {
      j.problems.set({
        key: `item:${fine}`,
        path: 'fine.txt',
        remoteId: fine,
        reason: 'local',
        message: 'no room',
        at: 1,
      });
      j.problems.set({
        key: 'path:Kept',
        path: 'Kept',
        remoteId: null,
        reason: 'local',
        message: 'refused',
        at: 2,
      });
      // Below another folder: not this one's.
      j.problems.set({
        key: 'path:Kept/deep.txt',
        path: 'Kept/deep.txt',
        remoteId: null,
        reason: 'local',
        message: 'refused',
        at: 3,
      });
      j.downloads.put({ remoteId: fine, tempName: 'x.part', remoteUpdatedAt: null, remoteSize: 4 });
    } finally {
      j.close();
    }
    expect((await onDevice(rootId)).marks).toEqual([
      { kind: 'file', id: fine, mark: 'syncing' },
      { kind: null, id: fine, mark: 'problem' },
      { kind: 'folder', id: kept, mark: 'problem' },
    ]);
  });

  it('says a folder inside one left out is left out, and knows nothing of one not synced', async () => {
    expect((await onDevice(inside, [rootId, left])).here).toBe('excluded');
    expect((await onDevice(left)).here).toBe('excluded');
    const other = await t.ok('items.onDevice', {
      accountId,
      workspaceId: workspaceId + 1000,
      folderId: rootId,
    });
    expect(other).toEqual({ pairId: null, items: [], marks: [], excluded: [], here: 'unknown' });
  });
});
