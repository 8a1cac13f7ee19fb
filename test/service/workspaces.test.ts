import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { addMember, client, newUser, userOf } from './helpers';

let sb: RunningSandbox;
let ann: string; // owner, Administrator

beforeAll(async () => {
  sb = await startSandbox({ seed: 'empty' });
  ann = userOf(sb, 'Administrator').token;
});

afterAll(async () => {
  await sb?.close();
});

const WORKSPACE_KEYS = [
  'id',
  'name',
  'background_color',
  'updated_at',
  'data_room',
  'default_view',
  'default_sort',
  'root_folder_id',
  'owner_id',
  'audit_trail',
  'is_owner',
  'require_agreement',
  'agreement_accepted',
  'effective_role',
  'errors',
].sort();

describe('create', () => {
  it('answers 200 (real) with the wrapped workspace, owned by the requester', async () => {
    const res = await client(sb, ann).post('/workspaces', {
      json: { workspace: { name: 'Q3', background_color: '#112233', default_view: 'thumbnails' } },
    });
    expect(res.status).toBe(200);
    const ws = res.json.workspace;
    expect(Object.keys(ws).sort()).toEqual(WORKSPACE_KEYS);
    expect(ws).toMatchObject({
      name: 'Q3',
      background_color: '#112233',
      data_room: false,
      default_view: 'thumbnails',
      default_sort: 'alphabetical',
      owner_id: userOf(sb, 'Administrator').id,
      is_owner: true,
      effective_role: 'Administrator',
      errors: {},
    });
    expect(typeof ws.root_folder_id).toBe('number');
    expect(ws.updated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
  });

  it('accepts a flat JSON body and a form-encoded one with bracketed keys', async () => {
    const flat = await client(sb, ann).post('/workspaces', {
      json: { name: 'Flat', data_room: true },
    });
    expect(flat.status).toBe(200);
    expect(flat.json.workspace).toMatchObject({ name: 'Flat', data_room: true });
    const form = await client(sb, ann).post('/workspaces', {
      form: {
        'workspace[name]': 'Q3 form',
        'workspace[background_color]': '#abc',
        'workspace[data_room]': 'false',
      },
    });
    expect(form.status).toBe(200);
    expect(form.json.workspace).toMatchObject({
      name: 'Q3 form',
      background_color: '#abc',
      data_room: false,
    });
  });

  it('validates fields with 422 and the field name', async () => {
    const cases: [unknown, string][] = [
      [{ workspace: {} }, 'name'],
      [{ workspace: { name: '   ' } }, 'name'],
      [{ name: 'x'.repeat(256) }, 'name'],
      [{ name: 42 }, 'name'],
      [{ name: 'C', background_color: 'red' }, 'background_color'],
      [{ name: 'C', default_view: 'grid' }, 'default_view'],
      [{ name: 'C', default_sort: 'random' }, 'default_sort'],
      [{ name: 'C', data_room: 'maybe' }, 'data_room'],
    ];
    for (const [json, field] of cases) {
      const res = await client(sb, ann).post('/workspaces', { json });
      expect(res.status, JSON.stringify(json)).toBe(422);
      expect(res.json.errors[field], JSON.stringify(json)).toBeInstanceOf(Array);
    }
  });
});

describe('read, update, delete', () => {
  let wsId: number;
  let admin2: Awaited<ReturnType<typeof newUser>>;

  beforeAll(async () => {
    const res = await client(sb, ann).post('/workspaces', { json: { name: 'Roles' } });
    wsId = res.json.workspace.id;
    admin2 = await newUser(sb, 'Europe/Madrid', 'Second Admin');
    addMember(sb, wsId, admin2, 'Administrator');
    for (const role of ['Moderator', 'Collaborator', 'Viewer'] as const) {
      addMember(sb, wsId, userOf(sb, role), role);
    }
  });

  it('reads the workspace as each member sees it; outsiders get 404', async () => {
    const own = await client(sb, ann).get(`/workspaces/${wsId}`);
    expect(own.status).toBe(200);
    expect(own.json.workspace).toMatchObject({ id: wsId, name: 'Roles', is_owner: true });
    const mod = await client(sb, userOf(sb, 'Moderator').token).get(`/workspaces/${wsId}`);
    expect(mod.json.workspace).toMatchObject({ is_owner: false, effective_role: 'Moderator' });
    const outsider = await newUser(sb, 'Africa/Nairobi');
    const hidden = await client(sb, outsider.token).get(`/workspaces/${wsId}`);
    expect(hidden.status).toBe(404);
    expect(hidden.json.errors.base).toBeDefined();
    expect((await client(sb, ann).get('/workspaces/987654')).status).toBe(404);
  });

  it('lets Administrators update; others get 403', async () => {
    const res = await client(sb, ann).put(`/workspaces/${wsId}`, {
      json: { workspace: { name: 'Roles 2', default_sort: 'modified' } },
    });
    expect(res.status).toBe(200);
    expect(res.json.workspace).toMatchObject({ name: 'Roles 2', default_sort: 'modified' });
    const byAdmin2 = await client(sb, admin2.token).put(`/workspaces/${wsId}`, {
      form: { 'workspace[background_color]': '#000000' },
    });
    expect(byAdmin2.status).toBe(200);
    expect(byAdmin2.json.workspace).toMatchObject({
      name: 'Roles 2',
      background_color: '#000000',
      effective_role: 'Administrator',
    });
    for (const role of ['Moderator', 'Collaborator', 'Viewer'] as const) {
      const denied = await client(sb, userOf(sb, role).token).put(`/workspaces/${wsId}`, {
        json: { name: 'Nope' },
      });
      expect(denied.status, role).toBe(403);
      expect(denied.json.errors.base).toBeDefined();
    }
    const bad = await client(sb, ann).put(`/workspaces/${wsId}`, { json: { name: '' } });
    expect(bad.status).toBe(422);
    expect((await client(sb, ann).get(`/workspaces/${wsId}`)).json.workspace.name).toBe('Roles 2');
  });

  it('lets only the owner delete (204), then it is gone', async () => {
    const byAdmin2 = await client(sb, admin2.token).delete(`/workspaces/${wsId}`);
    expect(byAdmin2.status).toBe(403);
    const byMod = await client(sb, userOf(sb, 'Moderator').token).delete(`/workspaces/${wsId}`);
    expect(byMod.status).toBe(403);
    const del = await client(sb, ann).delete(`/workspaces/${wsId}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await client(sb, ann).get(`/workspaces/${wsId}`)).status).toBe(404);
    expect((await client(sb, admin2.token).get(`/workspaces/${wsId}`)).status).toBe(404);
    expect((await client(sb, ann).delete(`/workspaces/${wsId}`)).status).toBe(404);
  });
});

describe('list', () => {
  it('lists the user’s workspaces 30 per page', async () => {
    const u = await newUser(sb, 'America/Sao_Paulo');
    const c = client(sb, u.token);
    const ids: number[] = [];
    for (let i = 0; i < 31; i++) {
      ids.push((await c.post('/workspaces', { json: { name: `List ${i}` } })).json.workspace.id);
    }
    const first = await c.get('/workspaces');
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({
      total_entries: 31,
      current_page: 1,
      total_pages: 2,
      per_page: 30,
    });
    expect(first.json.items).toHaveLength(30);
    expect(first.json.items[0].workspace.name).toBe('List 0');
    const second = await c.get('/workspaces?offset=30');
    expect(second.json.current_page).toBe(2);
    expect(second.json.items.map((i: { workspace: { id: number } }) => i.workspace.id)).toEqual([
      ids[30],
    ]);
    expect((await c.get('/workspaces?page=2')).json.items).toEqual(second.json.items);
    expect((await c.get('/workspaces?offset=31')).json.items).toEqual([]);
    const seen = [...first.json.items, ...second.json.items].map(
      (i: { workspace: { id: number } }) => i.workspace.id,
    );
    expect(seen.sort((a, b) => a - b)).toEqual(ids);
  });
});

describe('transport errors', () => {
  it('answers 404 with {"errors": ...} for an unknown route', async () => {
    const res = await client(sb, ann).get('/no/such/route');
    expect(res.status).toBe(404);
    expect(res.json.errors.base[0]).toContain('No route');
    expect((await client(sb, ann).get('/workspaces/abc')).status).toBe(404);
  });

  it('answers 405 with an Allow header', async () => {
    const res = await client(sb, ann).post(`/workspaces/${sb.workspaceId}`, { json: {} });
    expect(res.status).toBe(405);
    const allow = String(res.headers.allow)
      .split(',')
      .map((s) => s.trim());
    expect(allow.sort()).toEqual(['DELETE', 'GET', 'PUT']);
    expect(res.json.errors.base).toBeDefined();
  });

  it('answers 413 to a body over 1 MiB', async () => {
    const res = await client(sb, ann).post('/workspaces', {
      json: { name: 'Big', padding: 'x'.repeat(1024 * 1024 + 10) },
    });
    expect(res.status).toBe(413);
    expect(res.json.errors.base).toBeDefined();
  });

  it('answers 400 to malformed JSON', async () => {
    const res = await client(sb, ann).post('/workspaces', {
      body: '{"workspace": {"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.json.errors.base).toBeDefined();
    const notObject = await client(sb, ann).post('/workspaces', {
      body: '[1, 2]',
      headers: { 'content-type': 'application/json' },
    });
    expect(notObject.status).toBe(400);
  });
});
