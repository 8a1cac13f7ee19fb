import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/main/api/client';
import { backendWithSandbox, type BackendWithSandbox } from './with-backend';

// Issue 41, item 3 in the window: what Browse shows of an item on this device (on it, online
// only, pinned) and its actions (download, pin, unpin, free) through the backend, on a real pair
// syncing a real sandbox: each answer comes once the disk shows it (a placeholder, the file).

let t: BackendWithSandbox;
let client: ServiceClient;
let accountId: string;
let workspaceId: number;
let dir: string;
let rootId: number;
let report: number;
let docs: number;
let a: number;
let b: number;
const opened: string[] = [];

const upload = (folder: number, name: string, text: string) =>
  client.uploadFile(folder, name, () => Readable.from([Buffer.from(text)]));
const at = (...parts: string[]) => path.join(dir, ...parts);

beforeAll(async () => {
  t = await backendWithSandbox({
    seed: 'empty',
    prefix: 'on-demand',
    backend: { openPath: async (p) => void opened.push(p) },
    prepare: async ({ sb, client: c }) => {
      client = c;
      rootId = (await client.rootFolder(sb.workspaceId)).id;
      report = (await upload(rootId, 'report.txt', 'the report')).id;
      docs = (await client.createFolder(sb.workspaceId, rootId, 'Docs')).id;
      a = (await upload(docs, 'a.txt', 'text of a')).id;
      b = (await upload(docs, 'b.txt', 'text of b')).id;
    },
    pair: 'OD',
  });
  ({ accountId, dir } = t);
  workspaceId = t.sb.workspaceId;
  await t.statusWhere((s) => s.state === 'idle' && s.items.total === 0 && s.current === null);
});

afterAll(() => t?.close());

const states = async (folderId: number) => {
  const got = await t.ok('items.onDevice', { accountId, workspaceId, folderId });
  return Object.fromEntries(got.items.map((i) => [i.id, i.state]));
};
const act = (kind: 'file' | 'folder', itemId: number, op: 'download' | 'pin' | 'unpin' | 'free') =>
  t.ok('items.onDemand', { accountId, workspaceId, kind, itemId, op });
const refusedFree = (itemId: number) =>
  t.refused('items.onDemand', { accountId, workspaceId, kind: 'file', itemId, op: 'free' });

describe('files on demand through the backend', () => {
  it('says every synced item is on this device, and the pair keeps new files in full', async () => {
    const got = await t.ok('items.onDevice', { accountId, workspaceId, folderId: rootId });
    expect(got.pairId).toBe(t.pairId);
    expect(await states(rootId)).toEqual({ [report]: 'full', [docs]: 'full' });
    expect((await t.ok('pairs.list', {}))[0]?.onDemand).toBe('full');
  });

  it('frees a file: answered once its placeholder is there; Download now brings it back', async () => {
    const freed = await act('file', report, 'free');
    expect(freed).toMatchObject({ item: { state: 'online', files: 1, online: 1 }, waiting: false });
    expect(existsSync(at('report.txt'))).toBe(false);
    expect(existsSync(at('report.txt.wsync'))).toBe(true);
    expect((await states(rootId))[report]).toBe('online');

    const back = await act('file', report, 'download');
    expect(back).toMatchObject({ item: { state: 'full', online: 0 }, waiting: false });
    expect(readFileSync(at('report.txt'), 'utf8')).toBe('the report');
    expect(existsSync(at('report.txt.wsync'))).toBe(false);
  });

  it('frees a folder, pins it (its files come down), refuses to free it pinned, unpins', async () => {
    expect(await act('folder', docs, 'free')).toMatchObject({
      item: { state: 'online', files: 2, online: 2 },
    });
    expect(existsSync(at('Docs', 'a.txt.wsync'))).toBe(true);
    expect(existsSync(at('Docs', 'a.txt'))).toBe(false);
    expect(await states(docs)).toEqual({ [a]: 'online', [b]: 'online' });
    expect((await states(rootId))[docs]).toBe('online');

    expect(await act('folder', docs, 'pin')).toMatchObject({
      item: { state: 'pinned', online: 0 },
      waiting: false,
    });
    expect(readFileSync(at('Docs', 'b.txt'), 'utf8')).toBe('text of b');
    expect(existsSync(at('Docs', 'b.txt.wsync'))).toBe(false);
    // What is under a pin is pinned too.
    expect((await states(docs))[a]).toBe('pinned');

    // Kept by the folder's pin: neither freed nor unpinned on its own, and said why.
    const refusal = await refusedFree(a);
    expect(refusal.words?.key).toBe('backend.onDemand.pinnedAbove');
    expect(refusal.message).toBe(
      'a.txt is kept on this device because Docs is always kept: turn that off on Docs.',
    );
    expect(existsSync(at('Docs', 'a.txt'))).toBe(true);
    const unpin = await t.refused('items.onDemand', {
      accountId,
      workspaceId,
      kind: 'file',
      itemId: a,
      op: 'unpin',
    });
    expect(unpin.words?.key).toBe('backend.onDemand.pinnedAbove');
    expect((await states(docs))[a]).toBe('pinned');
    const freeDocs = await t.refused('items.onDemand', {
      accountId,
      workspaceId,
      kind: 'folder',
      itemId: docs,
      op: 'free',
    });
    expect(freeDocs.words?.key).toBe('backend.onDemand.pinned');

    expect(await act('folder', docs, 'unpin')).toMatchObject({ item: { state: 'full' } });
  });

  it('shows a folder partly here, and refuses to free a file with unsent changes', async () => {
    await act('file', b, 'free');
    expect((await states(rootId))[docs]).toBe('partly');
    // Paused: the change cannot be sent before the free is asked.
    await t.ok('pairs.pause', { pairId: t.pairId });
    writeFileSync(at('Docs', 'a.txt'), 'changed here, not sent');
    const refusal = await refusedFree(a);
    expect(refusal.words?.key).toBe('engine.onDemand.freeRefused');
    expect(refusal.message).toMatch(/changes that are not on the service yet/);
    expect(readFileSync(at('Docs', 'a.txt'), 'utf8')).toBe('changed here, not sent');
    expect(existsSync(at('Docs', 'a.txt.wsync'))).toBe(false);
    await t.ok('pairs.resume', { pairId: t.pairId });
  });

  it('opens a file online only by downloading it first', async () => {
    await act('file', report, 'free');
    await t.ok('items.openSynced', {
      accountId,
      workspaceId,
      kind: 'file',
      itemId: report,
      how: 'open',
    });
    expect(opened.at(-1)).toBe(at('report.txt'));
    expect(readFileSync(at('report.txt'), 'utf8')).toBe('the report');
  });

  it('keeps new files online only once the pair is set so; files here stay', async () => {
    await t.ok('pairs.setOnDemand', { pairId: t.pairId, mode: 'online' });
    expect((await t.ok('pairs.list', {}))[0]?.onDemand).toBe('online');
    const fresh = await upload(rootId, 'fresh.txt', 'new there');
    await t.statusWhere(() => existsSync(at('fresh.txt.wsync')));
    expect(existsSync(at('fresh.txt'))).toBe(false);
    expect(await states(rootId)).toMatchObject({ [fresh.id]: 'online', [report]: 'full' });
    expect(readFileSync(at('report.txt'), 'utf8')).toBe('the report');
  });
});
