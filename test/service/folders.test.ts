import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { client, newUser, userOf } from './helpers';
import { folderSize, mkdir, rootId, upload } from './helpers-items';

let sbx: RunningSandbox;
let admin: ReturnType<typeof client>;
let adminToken: string;
let root: number;

beforeAll(async () => {
  sbx = await startSandbox({ seed: 'empty' });
  adminToken = userOf(sbx, 'Administrator').token;
  admin = client(sbx, adminToken);
  root = await rootId(sbx, adminToken);
});

afterAll(async () => {
  await sbx?.close();
});

const names = (res: { json: { items: Record<string, { filename: string }>[] } }) =>
  res.json.items.map((e) => Object.values(e)[0]!.filename);

describe('root folder', () => {
  it('answers the root folder itself with the workspace name', async () => {
    const res = await admin.get(`/workspaces/${sbx.workspaceId}/folders`);
    expect(res.status).toBe(200);
    expect(res.json.items).toHaveLength(1);
    const f = res.json.items[0].folder;
    expect(f).toMatchObject({
      filename: 'Empty Workspace',
      user_id: null,
      ancestor_ids: [],
      workspace_id: sbx.workspaceId,
      errors: {},
      'hidden?': false,
    });
    expect(typeof f.size).toBe('number');
    expect(f.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
    const ws = await admin.get(`/workspaces/${sbx.workspaceId}`);
    expect(ws.json.workspace.root_folder_id).toBe(f.id);
  });
});

describe('create a folder', () => {
  it('creates at root by the short path and in a folder by the long one', async () => {
    const top = await admin.post(`/workspaces/${sbx.workspaceId}/folders`, {
      json: { filename: 'Create Top' },
    });
    expect(top.status).toBe(201);
    expect(top.json.folder).toMatchObject({
      filename: 'Create Top',
      ancestor_ids: [root],
      size: 0,
    });
    expect(top.json.folder.user_id).toBe(userOf(sbx, 'Administrator').id);
    const child = await admin.post(
      `/workspaces/${sbx.workspaceId}/folders/${top.json.folder.id}/folders`,
      { json: { folder: { filename: 'Wrapped Child' } } },
    );
    expect(child.status).toBe(201);
    expect(child.json.folder).toMatchObject({
      filename: 'Wrapped Child',
      ancestor_ids: [root, top.json.folder.id],
    });
    const form = await admin.post(`/workspaces/${sbx.workspaceId}/folders`, {
      form: { 'folder[filename]': 'Form Made' },
    });
    expect(form.status).toBe(201);
    expect(form.json.folder.filename).toBe('Form Made');
    const event = sbx.sandbox.db
      .prepare(`SELECT verb, detail FROM events WHERE item_id = ? ORDER BY id DESC`)
      .get(child.json.folder.id) as { verb: string; detail: string };
    expect(event.verb).toBe('create');
    expect(event.detail).toContain('<predicate>created</predicate>');
    expect(event.detail).toContain(
      `<a href="/workspaces/${sbx.workspaceId}/folders/${child.json.folder.id}">Wrapped Child</a> Folder`,
    );
  });

  it('repairs names and refuses names that cannot be repaired', async () => {
    const res = await admin.post(`/workspaces/${sbx.workspaceId}/folders`, {
      json: { filename: 'a/b' },
    });
    expect(res.status).toBe(201);
    expect(res.json.folder.filename).toBe('a-b');
    for (const bad of ['.', '..', '', '   ']) {
      const r = await admin.post(`/workspaces/${sbx.workspaceId}/folders`, {
        json: { filename: bad },
      });
      expect(r.status, JSON.stringify(bad)).toBe(422);
      expect(r.json.errors.filename).toBeDefined();
    }
    const missing = await admin.post(`/workspaces/${sbx.workspaceId}/folders`, { json: {} });
    expect(missing.status).toBe(422);
  });

  it('refuses a sibling folder name regardless of case', async () => {
    await mkdir(sbx, adminToken, root, 'Reports');
    const res = await admin.post(`/workspaces/${sbx.workspaceId}/folders`, {
      json: { filename: 'REPORTS' },
    });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({ errors: { filename: ['has already been taken'] } });
  });

  it('never gives the id of a deleted item to a new one', async () => {
    const gone = await mkdir(sbx, adminToken, root, 'Short-lived');
    expect((await admin.delete(`/folders/${gone.id}`)).status).toBeLessThan(300);
    const next = await mkdir(sbx, adminToken, root, 'Newcomer');
    expect(next.id).toBeGreaterThan(gone.id);
  });

  it('lets exactly one of two parallel creates of the same name win', async () => {
    const post = () =>
      admin.post(`/workspaces/${sbx.workspaceId}/folders`, { json: { filename: 'Race' } });
    const answers = await Promise.all([post(), post()]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 422]);
  });

  it('refuses a parent folder of another workspace', async () => {
    const other = await admin.post('/workspaces', { json: { name: 'Other WS' } });
    const otherRoot = other.json.workspace.root_folder_id as number;
    const res = await admin.post(`/workspaces/${sbx.workspaceId}/folders/${otherRoot}/folders`, {
      json: { filename: 'x' },
    });
    expect(res.status).toBe(404);
  });
});

describe('list folder contents', () => {
  let big: number;
  beforeAll(async () => {
    big = (await mkdir(sbx, adminToken, root, 'Big')).id;
    const all = Array.from({ length: 130 }, (_, i) => `f${String(i).padStart(3, '0')}`);
    for (let i = 0; i < all.length; i += 20) {
      await Promise.all(all.slice(i, i + 20).map((n) => mkdir(sbx, adminToken, big, n)));
    }
  });

  it('pages by 60 with offsets', async () => {
    const p1 = await admin.get(`/folders/${big}`);
    expect(p1.status).toBe(200);
    expect(p1.json).toMatchObject({
      total_entries: 130,
      current_page: 1,
      total_pages: 3,
      per_page: 60,
      offset: 0,
      previous_offset: null,
      next_offset: 60,
    });
    expect(p1.json.items).toHaveLength(60);
    expect(names(p1)[0]).toBe('f000');
    expect(p1.json.items[0].folder.ancestor_ids).toEqual([root, big]);
    const p2 = await admin.get(`/folders/${big}?offset=60`);
    expect(p2.json).toMatchObject({ current_page: 2, previous_offset: 0, next_offset: 120 });
    expect(names(p2)[0]).toBe('f060');
    const p3 = await admin.get(`/folders/${big}?page=3`);
    expect(p3.json).toMatchObject({ current_page: 3, offset: 120, next_offset: null });
    expect(p3.json.items).toHaveLength(10);
    const past = await admin.get(`/folders/${big}?offset=500`);
    expect(past.status).toBe(200);
    expect(past.json.items).toEqual([]);
    expect(past.json.next_offset).toBeNull();
    expect((await admin.get(`/folders/${big}?offset=-1`)).status).toBe(422);
  });

  it('shows every change at once, even to a listing just read', async () => {
    const dir = await mkdir(sbx, adminToken, root, 'Fresh');
    expect((await admin.get(`/folders/${dir.id}`)).json.items).toEqual([]);
    await mkdir(sbx, adminToken, dir.id, 'one');
    expect(names(await admin.get(`/folders/${dir.id}`))).toEqual(['one']);
    const up = await upload(sbx, adminToken, dir.id, 'f.txt', 'abc');
    await admin.put(`/files/${up.json.file.id}`, { json: { filename: 'g.txt' } });
    const again = await admin.get(`/folders/${dir.id}`);
    expect(names(again)).toEqual(['one', 'g.txt']);
    // The same listing in another user's time zone shows that zone's offsets.
    const tokyo = await client(sbx, userOf(sbx, 'Collaborator').token).get(`/folders/${dir.id}`);
    expect(tokyo.json.items[0].folder.created_at).toMatch(/\+09:00$/);
    expect(again.json.items[0].folder.created_at).toMatch(/-0[45]:00$/);
  });

  it('filters by a case-insensitive part of the name', async () => {
    const res = await admin.get(`/folders/${big}?query=F12`);
    expect(names(res)).toEqual([
      'f120',
      'f121',
      'f122',
      'f123',
      'f124',
      'f125',
      'f126',
      'f127',
      'f128',
      'f129',
    ]);
    expect(res.json.total_entries).toBe(10);
  });

  describe('sorting', () => {
    let dir: number;
    beforeAll(async () => {
      dir = (await mkdir(sbx, adminToken, root, 'Sorts')).id;
      await mkdir(sbx, adminToken, dir, 'zeta');
      await mkdir(sbx, adminToken, dir, 'Alpha');
      await upload(sbx, adminToken, dir, 'b.txt', 'x'.repeat(300));
      sbx.advanceClock(5);
      await upload(sbx, adminToken, dir, 'C.md', 'x'.repeat(10));
      sbx.advanceClock(5);
      await upload(sbx, adminToken, dir, 'a.zip', 'x'.repeat(100));
    });

    it('puts folders first, then files, alphabetically by default', async () => {
      const res = await admin.get(`/folders/${dir}`);
      expect(names(res)).toEqual(['Alpha', 'zeta', 'a.zip', 'b.txt', 'C.md']);
      expect(Object.keys(res.json.items[0])).toEqual(['folder']);
      expect(Object.keys(res.json.items[2])).toEqual(['file']);
      expect(names(await admin.get(`/folders/${dir}?sort=alphabetical`))).toEqual(names(res));
    });

    it('sorts by modified, size and type', async () => {
      expect(names(await admin.get(`/folders/${dir}?sort=modified`)).slice(2)).toEqual([
        'a.zip',
        'C.md',
        'b.txt',
      ]);
      expect(names(await admin.get(`/folders/${dir}?sort=size`)).slice(2)).toEqual([
        'b.txt',
        'a.zip',
        'C.md',
      ]);
      expect(names(await admin.get(`/folders/${dir}?sort=type`)).slice(2)).toEqual([
        'C.md',
        'b.txt',
        'a.zip',
      ]);
    });

    it('refuses unknown sorts and index without a data room', async () => {
      for (const s of ['Alphabetical', 'name', 'index']) {
        const res = await admin.get(`/folders/${dir}?sort=${s}`);
        expect(res.status, s).toBe(422);
        expect(res.json.errors.sort).toBeDefined();
      }
    });

    it('allows index with data room and automatic indexing', async () => {
      const ws = await admin.post('/workspaces', {
        json: { workspace: { name: 'Room', data_room: true, automatic_indexing: true } },
      });
      const wsRoot = ws.json.workspace.root_folder_id as number;
      for (const n of ['b', 'a', 'c']) {
        const r = await admin.post(`/workspaces/${ws.json.workspace.id}/folders`, {
          json: { filename: n },
        });
        expect(r.status).toBe(201);
      }
      const res = await admin.get(`/folders/${wsRoot}?sort=index`);
      expect(res.status).toBe(200);
      expect(names(res)).toEqual(['b', 'a', 'c']);
    });
  });
});

describe('rename, move, delete', () => {
  it('renames a folder and records the old name', async () => {
    const f = await mkdir(sbx, adminToken, root, 'Old Name');
    const res = await admin.put(`/folders/${f.id}`, { json: { filename: 'New/Name' } });
    expect(res.status).toBe(200);
    expect(res.json.folder.filename).toBe('New-Name');
    const ev = sbx.sandbox.db
      .prepare(`SELECT verb, detail FROM events WHERE item_id = ? ORDER BY id DESC`)
      .get(f.id) as { verb: string; detail: string };
    expect(ev.verb).toBe('update');
    expect(ev.detail).toContain('<predicate>renamed</predicate>');
    expect(ev.detail).toContain('<complement>from Old Name</complement>');
    await mkdir(sbx, adminToken, root, 'Taken Name');
    const clash = await admin.put(`/folders/${f.id}`, { json: { filename: 'taken name' } });
    expect(clash.status).toBe(422);
    expect(clash.json.errors.filename).toEqual(['has already been taken']);
    const caseOnly = await admin.put(`/folders/${f.id}`, { json: { filename: 'new-name' } });
    expect(caseOnly.status).toBe(200);
    expect(caseOnly.json.folder.filename).toBe('new-name');
  });

  it('refuses to rename, move or delete the root folder', async () => {
    expect((await admin.put(`/folders/${root}`, { json: { filename: 'X' } })).status).toBe(422);
    expect((await admin.delete(`/folders/${root}`)).status).toBe(422);
  });

  it('moves a folder with its sizes and refuses a move into itself', async () => {
    const a = await mkdir(sbx, adminToken, root, 'Move A');
    const b = await mkdir(sbx, adminToken, root, 'Move B');
    const inner = await mkdir(sbx, adminToken, a.id, 'Inner');
    await upload(sbx, adminToken, inner.id, 'data.bin', Buffer.alloc(1000, 1));
    expect(folderSize(sbx, a.id)).toBe(1000);
    const res = await admin.put(`/folders/${inner.id}`, {
      json: { parent_id: b.id, filename: 'Inner Moved' },
    });
    expect(res.status).toBe(200);
    expect(res.json.folder).toMatchObject({
      filename: 'Inner Moved',
      ancestor_ids: [root, b.id],
      size: 1000,
    });
    expect(folderSize(sbx, a.id)).toBe(0);
    expect(folderSize(sbx, b.id)).toBe(1000);
    const ev = sbx.sandbox.db
      .prepare(`SELECT detail FROM events WHERE item_id = ? ORDER BY id DESC`)
      .get(inner.id) as { detail: string };
    expect(ev.detail).toContain('<predicate>moved</predicate>');
    expect(ev.detail).toContain('<complement>from Move A</complement>');
    const self = await admin.put(`/folders/${b.id}`, { json: { parent_id: b.id } });
    expect(self.status).toBe(422);
    const below = await admin.put(`/folders/${b.id}`, { json: { parent_id: inner.id } });
    expect(below.status).toBe(422);
    expect(below.json.errors.parent_id).toBeDefined();
    const listing = await admin.get(`/folders/${inner.id}`);
    expect(listing.json.items[0].file.ancestor_ids).toEqual([root, b.id, inner.id]);
  });

  it('deletes a folder with everything below it', async () => {
    const top = await mkdir(sbx, adminToken, root, 'Doomed');
    const mid = await mkdir(sbx, adminToken, top.id, 'Mid');
    const up = await upload(sbx, adminToken, mid.id, 'leaf.txt', 'hello');
    const before = folderSize(sbx, root);
    const res = await admin.delete(`/folders/${top.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await admin.get(`/folders/${mid.id}`)).status).toBe(404);
    expect((await admin.get(`/files/${up.json.file.id}`)).status).toBe(404);
    expect(folderSize(sbx, root)).toBe(before - 5);
    const ev = sbx.sandbox.db
      .prepare(`SELECT verb FROM events WHERE item_id = ? ORDER BY id DESC`)
      .get(top.id) as { verb: string };
    expect(ev.verb).toBe('delete');
  });
});

describe('roles', () => {
  it('a Viewer lists but cannot create', async () => {
    const viewer = client(sbx, userOf(sbx, 'Viewer').token);
    expect((await viewer.get(`/folders/${root}`)).status).toBe(200);
    const res = await viewer.post(`/workspaces/${sbx.workspaceId}/folders`, {
      json: { filename: 'Nope' },
    });
    expect(res.status).toBe(403);
  });

  it('a Creator deletes only the folders they created', async () => {
    const creatorToken = userOf(sbx, 'Creator').token;
    const creator = client(sbx, creatorToken);
    const own = await mkdir(sbx, creatorToken, root, 'Creator Own');
    const others = await mkdir(sbx, adminToken, root, 'Admin Own');
    expect((await creator.delete(`/folders/${others.id}`)).status).toBe(403);
    expect((await creator.put(`/folders/${own.id}`, { json: { filename: 'r' } })).status).toBe(403);
    expect((await creator.delete(`/folders/${own.id}`)).status).toBe(204);
  });

  it('a Collaborator renames and deletes anything', async () => {
    const collab = client(sbx, userOf(sbx, 'Collaborator').token);
    const f = await mkdir(sbx, adminToken, root, 'For Collab');
    const res = await collab.put(`/folders/${f.id}`, { json: { filename: 'Collab Renamed' } });
    expect(res.status).toBe(200);
    expect(res.json.folder.filename).toBe('Collab Renamed');
    expect((await collab.delete(`/folders/${f.id}`)).status).toBe(204);
  });

  it('a user who is not a member gets 404 everywhere', async () => {
    const stranger = await newUser(sbx, 'Europe/Paris');
    const c = client(sbx, stranger.token);
    const f = await mkdir(sbx, adminToken, root, 'Private');
    expect((await c.get(`/workspaces/${sbx.workspaceId}/folders`)).status).toBe(404);
    expect((await c.get(`/folders/${f.id}`)).status).toBe(404);
    expect((await c.put(`/folders/${f.id}`, { json: { filename: 'x' } })).status).toBe(404);
    expect((await c.delete(`/folders/${f.id}`)).status).toBe(404);
    expect(
      (await c.post(`/workspaces/${sbx.workspaceId}/folders`, { json: { filename: 'x' } })).status,
    ).toBe(404);
  });
});

describe('without the extensions', () => {
  let plain: RunningSandbox;
  afterAll(async () => {
    await plain?.close();
  });

  it('ignores parent_id: 200 with the ancestors unchanged', async () => {
    plain = await startSandbox({ seed: 'empty', extensions: false });
    const token = userOf(plain, 'Administrator').token;
    const r = await rootId(plain, token);
    const a = await mkdir(plain, token, r, 'A');
    const b = await mkdir(plain, token, r, 'B');
    const res = await client(plain, token).put(`/folders/${a.id}`, { json: { parent_id: b.id } });
    expect(res.status).toBe(200);
    expect(res.json.folder.ancestor_ids).toEqual([r]);
    const both = await client(plain, token).put(`/folders/${a.id}`, {
      json: { parent_id: b.id, filename: 'A2' },
    });
    expect(both.status).toBe(200);
    expect(both.json.folder).toMatchObject({ filename: 'A2', ancestor_ids: [r] });
  });
});
