import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/main/api/client';
import { backendWithSandbox, type BackendWithSandbox } from './with-backend';

// Browse's column headers (issue 42): a folder listed the other way round from the service's
// order, folders still first, read by blocks from anywhere in it as the window scrolls. The
// service sorts one way only, so the backend finds where the folders end and turns the rows
// round; here with more folders than a page of the service (60), so that the first page does
// not say where they end.

let t: BackendWithSandbox;
let client: ServiceClient;
let accountId: string;
let many: number;
const FOLDERS = 65;
const FILES = 7;
const pad = (n: number) => String(n).padStart(2, '0');

beforeAll(async () => {
  t = await backendWithSandbox({
    seed: 'empty',
    prefix: 'browse-order',
    prepare: async ({ sb, client: c }) => {
      client = c;
      const root = (await client.rootFolder(sb.workspaceId)).id;
      many = (await client.createFolder(sb.workspaceId, root, 'Many')).id;
      for (let i = 0; i < FOLDERS; i++)
        await client.createFolder(sb.workspaceId, many, `folder ${pad(i)}`);
      for (let i = 0; i < FILES; i++)
        await client.uploadFile(many, `file ${pad(i)}.txt`, () =>
          Readable.from([Buffer.from('x')]),
        );
    },
  });
  accountId = t.accountId;
});

afterAll(() => t?.close());

describe("a folder's listing the other way round", () => {
  it('turns folders and files round, folders first, from any block', async () => {
    const names = async (reversed: boolean, offset: number, limit: number) => {
      const got = await t.ok('folders.contents', {
        accountId,
        folderId: many,
        reversed,
        offset,
        limit,
      });
      return { names: got.items.map((e) => e.name), next: got.nextOffset, total: got.total };
    };
    const up = await names(false, 0, 500);
    const down = await names(true, 0, 500);
    const folders = up.names.slice(0, FOLDERS);
    const files = up.names.slice(FOLDERS);
    expect(files).toHaveLength(FILES);
    expect(down.names).toEqual([...folders.reverse(), ...files.reverse()]);
    expect(down.total).toBe(FOLDERS + FILES);
    expect(down.next).toBeNull();
    // A block across where the folders end, and one of the last rows, as scrolling reads them.
    const across = await names(true, 60, 10);
    expect(across.names).toEqual(down.names.slice(60, 70));
    expect(across.next).toBe(70);
    expect((await names(true, 70, 10)).names).toEqual(down.names.slice(70));
  });

  it('keeps the order of a person per workspace in the settings', async () => {
    const before = await t.ok('settings.get', {});
    expect(before.browseSorts).toEqual({});
    await t.ok('settings.update', { browseSorts: { '12': { sort: 'size', reversed: true } } });
    expect((await t.ok('settings.get', {})).browseSorts).toEqual({
      '12': { sort: 'size', reversed: true },
    });
    const bad = await t.refused('settings.update', {
      browseSorts: { twelve: { sort: 'size', reversed: true } },
    });
    expect(bad.kind).toBe('invalid');
  });
});
