import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { encode } from 'fast-png';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THUMBNAIL_MAX_BYTES } from '../../src/main/backend/handlers/files';
import type { ServiceClient } from '../../src/main/api/client';
import type { RunningSandbox } from '../../src/service/sandbox';
import { backendWithSandbox, type BackendWithSandbox } from './with-backend';

// Browse's methods beyond listing (issue 28) through the backend, on a real pair syncing a real
// sandbox: thumbnails (raster only, bounded), an item's details, a synced item opened through the
// journal and never outside the sync folder, and the synced tree read from the journal.

let t: BackendWithSandbox;
let sb: RunningSandbox;
let tmp: { dir: string; remove(): Promise<void> };
let client: ServiceClient;
let accountId: string;
let pairId: string;
let dir: string;
let rootId: number;
const opened: string[] = [];
const shown: string[] = [];

const ok: BackendWithSandbox['ok'] = (method, params) => t.ok(method, params);
const refused: BackendWithSandbox['refused'] = (method, params) => t.refused(method, params);
const statusWhere: BackendWithSandbox['statusWhere'] = (check) => t.statusWhere(check);

function png(size: number): Buffer {
  // Noise: it does not compress, so the file's size follows the picture's.
  const data = new Uint8Array(randomBytes(size * size * 3));
  return Buffer.from(encode({ width: size, height: size, data, channels: 3, depth: 8 }));
}

const upload = (folder: number, name: string, bytes: Buffer) =>
  client.uploadFile(folder, name, () => Readable.from([bytes]));

let small: number;
let big: number;
let text: number;
let reports: number;
let budget: number;

beforeAll(async () => {
  t = await backendWithSandbox({
    seed: 'empty',
    prefix: 'browse',
    backend: {
      openPath: async (p) => void opened.push(p),
      showPath: async (p) => void shown.push(p),
    },
    // On the service before the pair's first pass.
    prepare: async ({ sb, client: c }) => {
      client = c;
      rootId = (await client.rootFolder(sb.workspaceId)).id;
      small = (await upload(rootId, 'small.png', png(16))).id;
      big = (await upload(rootId, 'big.png', png(400))).id;
      text = (await upload(rootId, 'notes.txt', Buffer.from('notes'))).id;
      reports = (await client.createFolder(sb.workspaceId, rootId, 'Reports')).id;
      budget = (await upload(reports, 'Budget.pdf', Buffer.from('%PDF budget'))).id;
      await upload(reports, 'Appendix.pdf', Buffer.from('%PDF appendix, longer'));
    },
    pair: 'Q3',
  });
  ({ sb, tmp, accountId, pairId, dir } = t);
  await statusWhere((s) => s.state === 'idle' && s.items.total === 0 && s.current === null);
});

afterAll(() => t?.close());

describe('Browse through the backend', () => {
  it('gives a thumbnail as a data URL, none for a file without one or one too large', async () => {
    const listed = await ok('folders.contents', { accountId, folderId: rootId });
    expect(listed.items.find((e) => e.id === small)?.thumbnail).toBe(true);
    expect(listed.items.find((e) => e.id === text)?.thumbnail).toBe(false);
    const got = await ok('files.thumbnail', { accountId, fileId: small });
    expect(got.dataUrl).toMatch(/^data:image\/png;base64,/);
    expect(png(400).length).toBeGreaterThan(THUMBNAIL_MAX_BYTES);
    expect((await ok('files.thumbnail', { accountId, fileId: big })).dataUrl).toBeNull();
    expect((await ok('files.thumbnail', { accountId, fileId: text })).dataUrl).toBeNull();
  });

  it("tells an item's size, times and maker", async () => {
    const d = await ok('items.details', { accountId, kind: 'file', itemId: budget });
    expect(d.size).toBe(11);
    expect(d.updatedAt).toBeTruthy();
    expect(d.by).toBe(sb.users.find((u) => u.role === 'Administrator')!.name);
    expect(d.version).toBeNull();
    const f = await ok('items.details', { accountId, kind: 'folder', itemId: reports });
    expect(f.updatedAt).toBeTruthy();
  });

  it('opens a synced item at its place in the sync folder, and nothing outside it', async () => {
    await ok('items.openSynced', {
      accountId,
      kind: 'file',
      itemId: budget,
      workspaceId: sb.workspaceId,
      how: 'open',
    });
    expect(opened.at(-1)).toBe(path.join(dir, 'Reports', 'Budget.pdf'));
    await ok('items.openSynced', {
      accountId,
      kind: 'folder',
      itemId: reports,
      workspaceId: sb.workspaceId,
      how: 'show',
    });
    expect(shown.at(-1)).toBe(path.join(dir, 'Reports'));
    // Not synced here: another workspace, an id the journal does not know.
    const other = await refused('items.openSynced', {
      accountId,
      kind: 'file',
      itemId: budget,
      workspaceId: sb.workspaceId + 1000,
      how: 'open',
    });
    expect(other.message).toBe('This workspace is not synced to this computer.');
    const unknown = await refused('items.openSynced', {
      accountId,
      kind: 'file',
      itemId: 987_654,
      workspaceId: sb.workspaceId,
      how: 'open',
    });
    expect(unknown.message).toBe('This item is not synced to this computer yet.');
    // Its folder swapped for a link leading out of the sync folder: refused, nothing opened.
    await ok('pairs.pause', { pairId });
    await statusWhere((s) => s.state === 'paused');
    const outside = path.join(tmp.dir, 'outside');
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'Budget.pdf'), 'not the synced one');
    renameSync(path.join(dir, 'Reports'), path.join(tmp.dir, 'Reports moved'));
    symlinkSync(outside, path.join(dir, 'Reports'));
    const before = opened.length;
    const out = await refused('items.openSynced', {
      accountId,
      kind: 'file',
      itemId: budget,
      workspaceId: sb.workspaceId,
      how: 'open',
    });
    expect(out.message).toBe('Reports/Budget.pdf leads outside the sync folder: it is not opened.');
    expect(opened.length).toBe(before);
  });

  it('lists the synced tree from the journal: sorted, searched, paged, with its path', async () => {
    const [ws] = await ok('synced.workspaces', { accountId });
    expect(ws).toEqual({
      pairId,
      workspaceId: sb.workspaceId,
      name: expect.any(String),
      rootFolderId: rootId,
    });
    const top = await ok('synced.contents', { pairId, folderId: rootId });
    // Folders first, as the service lists them.
    expect(top.items.map((e) => e.name)).toEqual(['Reports', 'big.png', 'notes.txt', 'small.png']);
    const down = await ok('synced.contents', { pairId, folderId: rootId, reversed: true });
    expect(down.items.map((e) => e.name)).toEqual(['Reports', 'small.png', 'notes.txt', 'big.png']);
    expect(top.total).toBe(4);
    const bySize = await ok('synced.contents', { pairId, folderId: reports, sort: 'size' });
    expect(bySize.items.map((e) => [e.name, e.size])).toEqual([
      ['Appendix.pdf', 21],
      ['Budget.pdf', 11],
    ]);
    const found = await ok('synced.contents', { pairId, folderId: rootId, query: 'PNG' });
    expect(found.items.map((e) => e.name)).toEqual(['big.png', 'small.png']);
    const paged = await ok('synced.contents', { pairId, folderId: rootId, offset: 1, limit: 2 });
    expect(paged.items.map((e) => e.name)).toEqual(['big.png', 'notes.txt']);
    expect(paged.nextOffset).toBe(3);
    expect(await ok('synced.path', { pairId, folderId: reports })).toEqual([
      { id: reports, name: 'Reports' },
    ]);
    const gone = await refused('synced.contents', { pairId: 'nope', folderId: rootId });
    expect(gone.message).toBe('This synced folder is no longer synced.');
  });

  it('searches the whole synced workspace from the journal, each item with its folder', async () => {
    const on = { accountId, workspaceId: sb.workspaceId };
    // From the top, an item two folders down is found, with the folder it is in.
    const pdf = await ok('synced.search', { ...on, query: 'PDF' });
    expect(pdf.pairId).toBe(pairId);
    expect(pdf.hits.map((h) => [h.name, h.folderId, h.folderPath])).toEqual([
      ['Appendix.pdf', reports, 'Reports'],
      ['Budget.pdf', reports, 'Reports'],
    ]);
    expect(pdf.more).toBe(false);
    // Names starting with the words typed come first; the limit says more were found.
    const s = await ok('synced.search', { ...on, query: 's', limit: 2 });
    expect(s.hits.map((h) => h.name)).toEqual(['small.png', 'notes.txt']);
    expect(s.more).toBe(true);
    const notes = await ok('synced.search', { ...on, query: 'notes' });
    expect(notes.hits).toEqual([
      {
        kind: 'file',
        id: text,
        name: 'notes.txt',
        size: 5,
        updatedAt: expect.any(String),
        folderId: rootId,
        folderPath: '',
      },
    ]);
    // LIKE's own characters are taken as they are, not as patterns.
    expect((await ok('synced.search', { ...on, query: '%' })).hits).toEqual([]);
    expect((await ok('synced.search', { ...on, query: '_' })).hits).toEqual([]);
    // A workspace not synced here: the window is told to ask the service.
    expect(
      await ok('synced.search', { accountId, workspaceId: sb.workspaceId + 1000, query: 'a' }),
    ).toEqual({
      pairId: null,
      hits: [],
      more: false,
      excluded: 0,
    });
  });
});
