import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../src/service/context';
import { recordEvent } from '../../src/service/events';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { addMember, api, client, newUser, type ApiAnswer } from './helpers';

let sb: RunningSandbox;

beforeAll(async () => {
  // Long-lived tokens: the time tests move the clock by hours.
  sb = await startSandbox({ seed: 'empty', accessTokenTtlSeconds: 30 * 24 * 3600 });
});

afterAll(async () => {
  await sb?.close();
});

interface EventJson {
  id: number;
  updated_at: string;
  detail: string;
  workspace_id: number;
  user_id: number | null;
}

function events(res: ApiAnswer): EventJson[] {
  expect(res.status, res.text).toBe(200);
  return (res.json.items as { event: EventJson }[]).map((i) => i.event);
}

async function createWorkspace(token: string, name: string): Promise<number> {
  const res = await client(sb, token).post('/workspaces', { json: { workspace: { name } } });
  expect(res.status, res.text).toBe(200);
  return res.json.workspace.id as number;
}

async function rename(token: string, id: number, name: string): Promise<void> {
  const res = await client(sb, token).put(`/workspaces/${id}`, { json: { name } });
  expect(res.status, res.text).toBe(200);
}

function createdAt(eventId: number): number {
  return sb.sandbox.db
    .prepare(`SELECT created_at FROM events WHERE id = ?`)
    .pluck()
    .get(eventId) as number;
}

describe('GET /activity', () => {
  it('pages 30 per page, newest first, by offset or page, at /activity/ and /activity', async () => {
    const u = await newUser(sb, 'America/New_York');
    // Two workspaces, events interleaved: the page merges both.
    const ws = await createWorkspace(u.token, 'Paging');
    const other = await createWorkspace(u.token, 'Other');
    for (let i = 0; i < 33; i++) await rename(u.token, i % 2 === 0 ? ws : other, `Paging ${i}`);
    const c = client(sb, u.token);

    const first = await c.get('/activity/');
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({
      total_entries: 35,
      current_page: 1,
      total_pages: 2,
      per_page: 30,
    });
    const page1 = events(first);
    expect(page1).toHaveLength(30);
    // The newest event is the last rename.
    expect(page1[0]!.detail).toContain('Paging 32</a>');
    expect(page1[0]!.detail).toContain('<predicate>updated</predicate>');
    expect(Object.keys(page1[0]!).sort()).toEqual(
      ['detail', 'id', 'updated_at', 'user_id', 'workspace_id'].sort(),
    );
    expect(page1[0]!.user_id).toBe(u.id);
    expect(page1[0]!.workspace_id).toBe(ws);

    const second = await c.get('/activity?offset=30');
    expect(second.json).toMatchObject({ total_entries: 35, current_page: 2, total_pages: 2 });
    const page2 = events(second);
    expect(page2).toHaveLength(5);
    expect(page2[4]!.detail).toContain('<predicate>created</predicate>');
    expect(page2[4]!.workspace_id).toBe(ws);
    expect(page2[3]!.workspace_id).toBe(other);

    const ids = [...page1, ...page2].map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(ids).size).toBe(35);
    const times = [...page1, ...page2].map((e) => DateTime.fromISO(e.updated_at).toMillis());
    expect(times).toEqual([...times].sort((a, b) => b - a));

    expect(events(await c.get('/activity?page=2')).map((e) => e.id)).toEqual(
      page2.map((e) => e.id),
    );
    expect(events(await c.get('/activity', { json: { offset: 30 } })).map((e) => e.id)).toEqual(
      page2.map((e) => e.id),
    );
    const past = await c.get('/activity/?offset=100');
    expect(events(past)).toEqual([]);
    expect(past.json.total_entries).toBe(35);
    expect((await c.get('/activity?offset=-1')).status).toBe(422);
  });

  it('pages the same way for a user in many workspaces', async () => {
    const u = await newUser(sb, 'Asia/Singapore');
    for (let i = 0; i < 70; i++) await createWorkspace(u.token, `Many ${i}`);
    const ws = sb.sandbox.db
      .prepare(`SELECT workspace_id FROM rolemaps WHERE user_id = ?`)
      .pluck()
      .all(u.id) as number[];
    const expected = sb.sandbox.db
      .prepare(
        `SELECT id FROM events WHERE workspace_id IN (${ws.join(',')}) ORDER BY created_at DESC, id DESC`,
      )
      .pluck()
      .all() as number[];
    expect(expected).toHaveLength(70);
    const c = client(sb, u.token);
    const seen: number[] = [];
    for (let offset = 0; offset < 90; offset += 30) {
      const res = await c.get(`/activity?offset=${offset}`);
      expect(res.json.total_entries).toBe(70);
      seen.push(...events(res).map((e) => e.id));
    }
    expect(seen).toEqual(expected);
    // A subset of them (fewer workspaces, merged per workspace) pages the same way.
    const some = ws.slice(0, 40);
    const subset: number[] = [];
    for (let offset = 0; offset < 60; offset += 30) {
      subset.push(
        ...events(await c.get('/activity', { json: { workspaces: some, offset } })).map(
          (e) => e.id,
        ),
      );
    }
    const expectedSubset = sb.sandbox.db
      .prepare(
        `SELECT id FROM events WHERE workspace_id IN (${some.join(',')}) ORDER BY created_at DESC, id DESC`,
      )
      .pluck()
      .all() as number[];
    expect(expectedSubset).toHaveLength(40);
    expect(subset).toEqual(expectedSubset);
  });

  describe('filters', () => {
    let a: Awaited<ReturnType<typeof newUser>>;
    let b: Awaited<ReturnType<typeof newUser>>;
    let outsider: Awaited<ReturnType<typeof newUser>>;
    let shared: number;
    let own: number;
    let foreign: number;

    beforeAll(async () => {
      a = await newUser(sb, 'America/New_York', 'Filter A');
      b = await newUser(sb, 'Asia/Tokyo', 'Filter B');
      outsider = await newUser(sb, 'Europe/Paris', 'Outsider');
      shared = await createWorkspace(a.token, 'Shared'); // create by a
      addMember(sb, shared, b, 'Administrator');
      await rename(a.token, shared, 'Shared 2'); // update by a
      await rename(b.token, shared, 'Shared 3'); // update by b
      own = await createWorkspace(a.token, 'Own'); // create by a (b is not a member)
      foreign = await createWorkspace(outsider.token, 'Foreign'); // invisible to a
      await rename(outsider.token, foreign, 'Foreign 2');
    });

    const summary = (list: EventJson[]) =>
      list.map((e) => `${e.workspace_id}:${e.user_id}:${/<predicate>(\w+)/.exec(e.detail)![1]}`);

    it('lists only events of workspaces the user belongs to', async () => {
      const all = events(await client(sb, a.token).get('/activity'));
      expect(summary(all)).toEqual([
        `${own}:${a.id}:created`,
        `${shared}:${b.id}:updated`,
        `${shared}:${a.id}:updated`,
        `${shared}:${a.id}:created`,
      ]);
      expect(all.some((e) => e.workspace_id === foreign)).toBe(false);
      const forB = events(await client(sb, b.token).get('/activity'));
      expect(forB.every((e) => e.workspace_id === shared)).toBe(true);
      expect(forB).toHaveLength(3);
    });

    it('filters by verbs from the JSON body, the query string and a form body', async () => {
      const c = client(sb, a.token);
      expect(summary(events(await c.get('/activity/', { json: { verbs: ['update'] } })))).toEqual([
        `${shared}:${b.id}:updated`,
        `${shared}:${a.id}:updated`,
      ]);
      expect(summary(events(await c.get('/activity?verbs[]=create')))).toEqual([
        `${own}:${a.id}:created`,
        `${shared}:${a.id}:created`,
      ]);
      const form = await c.get('/activity', {
        form: new URLSearchParams([
          ['verbs[]', 'create'],
          ['verbs[]', 'update'],
        ]),
      });
      expect(events(form)).toHaveLength(4);
      expect(events(await c.get('/activity', { json: { verbs: ['invite', 'download'] } }))).toEqual(
        [],
      );
    });

    it('answers 422 for an unknown verb', async () => {
      const c = client(sb, a.token);
      const res = await c.get('/activity', { json: { verbs: ['create', 'explode'] } });
      expect(res.status).toBe(422);
      expect(res.json.errors.verbs).toBeDefined();
      expect((await c.get('/activity?verbs[]=explode')).status).toBe(422);
    });

    it('filters by workspaces, restricted to the user’s own', async () => {
      const c = client(sb, a.token);
      const body = events(await c.get('/activity', { json: { workspaces: [own] } }));
      expect(summary(body)).toEqual([`${own}:${a.id}:created`]);
      const q = events(await c.get(`/activity?workspaces[]=${shared}`));
      expect(q).toHaveLength(3);
      expect(q.every((e) => e.workspace_id === shared)).toBe(true);
      const both = events(await c.get('/activity', { json: { workspaces: [own, shared] } }));
      expect(both).toHaveLength(4);
      // A workspace the user is not in gives nothing, not its events.
      const res = await c.get('/activity', { json: { workspaces: [foreign] } });
      expect(events(res)).toEqual([]);
      expect(res.json.total_entries).toBe(0);
      const bad = await c.get('/activity', { json: { workspaces: ['abc'] } });
      expect(bad.status).toBe(422);
      expect(bad.json.errors.workspaces).toBeDefined();
    });

    it('filter_self removes the user’s own events', async () => {
      const c = client(sb, a.token);
      expect(summary(events(await c.get('/activity', { json: { filter_self: true } })))).toEqual([
        `${shared}:${b.id}:updated`,
      ]);
      expect(summary(events(await c.get('/activity?filter_self=true')))).toEqual([
        `${shared}:${b.id}:updated`,
      ]);
      expect(events(await c.get('/activity', { json: { filter_self: false } }))).toHaveLength(4);
      expect((await c.get('/activity', { json: { filter_self: 'maybe' } })).status).toBe(422);
    });

    it('actor lists one user’s events', async () => {
      const c = client(sb, a.token);
      expect(summary(events(await c.get('/activity', { json: { actor: b.id } })))).toEqual([
        `${shared}:${b.id}:updated`,
      ]);
      expect(events(await c.get(`/activity?actor=${a.id}`))).toHaveLength(3);
      // The outsider's events stay invisible even when asked for by actor.
      expect(events(await c.get('/activity', { json: { actor: outsider.id } }))).toEqual([]);
      // Filters combine.
      expect(
        events(
          await c.get(`/activity?actor=${a.id}`, {
            json: { verbs: ['update'], workspaces: [own] },
          }),
        ),
      ).toEqual([]);
    });
  });

  describe('start_time and end_time', () => {
    let u: Awaited<ReturnType<typeof newUser>>;
    let ws: number;
    let e1: EventJson;
    let e2: EventJson;
    let e3: EventJson;
    const zone = 'America/New_York';

    beforeAll(async () => {
      u = await newUser(sb, zone, 'Timekeeper');
      ws = await createWorkspace(u.token, 'Times');
      sb.advanceClock(3 * 3600);
      await rename(u.token, ws, 'Times 2');
      sb.advanceClock(3 * 3600);
      await rename(u.token, ws, 'Times 3');
      const list = events(await client(sb, u.token).get('/activity'));
      expect(list).toHaveLength(3);
      [e3, e2, e1] = list as [EventJson, EventJson, EventJson];
    });

    const ids = (list: EventJson[]) => list.map((e) => e.id);
    const zoneless = (ms: number) =>
      DateTime.fromMillis(ms, { zone }).toFormat('EEE, d MMM yyyy HH:mm:ss', { locale: 'en-US' });

    it('renders updated_at in the user’s zone', () => {
      const expected = DateTime.fromMillis(createdAt(e1.id), { zone }).toFormat(
        "yyyy-MM-dd'T'HH:mm:ssZZ",
      );
      expect(e1.updated_at).toBe(expected);
      expect(e1.updated_at).toMatch(/-0[45]:00$/);
    });

    it('reads a zone-less time in the requesting user’s zone', async () => {
      const c = client(sb, u.token);
      // 90 minutes after e1: read in New York it falls between e1 and e2; read in UTC (or any
      // zone east of New York) it would fall before e1.
      const between = createdAt(e1.id) + 90 * 60 * 1000;
      const start = zoneless(between);
      expect(ids(events(await c.get('/activity', { json: { start_time: start } })))).toEqual([
        e3.id,
        e2.id,
      ]);
      expect(ids(events(await c.get('/activity', { json: { end_time: start } })))).toEqual([e1.id]);
      expect(ids(events(await c.get(`/activity?start_time=${encodeURIComponent(start)}`)))).toEqual(
        [e3.id, e2.id],
      );
    });

    it('reads an explicit zone as given', async () => {
      const c = client(sb, u.token);
      const between = createdAt(e2.id) + 90 * 60 * 1000;
      const tokyo = DateTime.fromMillis(between, { zone: 'Asia/Tokyo' }).toRFC2822()!;
      expect(tokyo).toMatch(/\+0900$/);
      expect(ids(events(await c.get('/activity', { json: { start_time: tokyo } })))).toEqual([
        e3.id,
      ]);
      const utc = DateTime.fromMillis(between, { zone: 'UTC' }).toRFC2822()!;
      expect(ids(events(await c.get(`/activity?end_time=${encodeURIComponent(utc)}`)))).toEqual([
        e2.id,
        e1.id,
      ]);
      expect(
        ids(
          events(
            await c.get('/activity', {
              json: {
                start_time: DateTime.fromMillis(createdAt(e1.id) + 1000, {
                  zone: 'UTC',
                }).toRFC2822(),
                end_time: utc,
              },
            }),
          ),
        ),
      ).toEqual([e2.id]);
    });

    it('has inclusive bounds at second precision', async () => {
      const c = client(sb, u.token);
      const t = createdAt(e2.id);
      const exact = DateTime.fromMillis(t, { zone: 'Europe/Berlin' }).toRFC2822()!; // drops ms
      const res = await c.get('/activity', { json: { start_time: exact, end_time: exact } });
      expect(ids(events(res))).toEqual([e2.id]);
      expect(ids(events(await c.get('/activity', { json: { end_time: zoneless(t) } })))).toEqual([
        e2.id,
        e1.id,
      ]);
    });

    it('answers 422 naming the field for an unparseable time', async () => {
      const c = client(sb, u.token);
      const res = await c.get('/activity', { json: { start_time: 'next tuesday-ish' } });
      expect(res.status).toBe(422);
      expect(res.json.errors.start_time).toBeDefined();
      const q = await c.get('/activity?end_time=31%2F02%2F2026');
      expect(q.status).toBe(422);
      expect(q.json.errors.end_time).toBeDefined();
      expect(
        (await c.get('/activity', { json: { end_time: 12 } })).json.errors.end_time,
      ).toBeDefined();
    });
  });

  it('escapes names in the detail markup and links to the workspace', async () => {
    const u = await newUser(sb, 'Europe/London');
    const ws = await createWorkspace(u.token, '<b>R&D</b>');
    const [e] = events(await client(sb, u.token).get('/activity'));
    expect(e!.detail).toContain(
      `<object><a href="/workspaces/${ws}">&lt;b&gt;R&amp;D&lt;/b&gt;</a> Workspace</object>`,
    );
    expect(e!.detail).not.toContain('<b>');
    expect(e!.detail).toMatch(/^<subject>Test User<\/subject> <predicate>created<\/predicate>/);
  });

  it('needs a token', async () => {
    const res = await api(sb.baseUrl, 'GET', '/activity');
    expect(res.status).toBe(401);
    expect(res.json.errors).toBeDefined();
  });
});

describe('GET /files/:id/audit_trail', () => {
  let owner: Awaited<ReturnType<typeof newUser>>;
  let moderator: Awaited<ReturnType<typeof newUser>>;
  let collaborator: Awaited<ReturnType<typeof newUser>>;
  let outsider: Awaited<ReturnType<typeof newUser>>;
  let ws: number;
  let rootId: number;
  let fileId: number;
  let fileEvents: number[];

  beforeAll(async () => {
    owner = await newUser(sb, 'America/Chicago', 'Owner');
    moderator = await newUser(sb, 'Europe/Berlin', 'Mod');
    collaborator = await newUser(sb, 'Asia/Tokyo', 'Collab');
    outsider = await newUser(sb, 'UTC', 'Out');
    ws = await createWorkspace(owner.token, 'Audited');
    addMember(sb, ws, moderator, 'Moderator');
    addMember(sb, ws, collaborator, 'Collaborator');
    const db = sb.sandbox.db;
    rootId = db
      .prepare(`SELECT root_folder_id FROM workspaces WHERE id = ?`)
      .pluck()
      .get(ws) as number;
    const now = sb.sandbox.clock.now();
    fileId = Number(
      db
        .prepare(
          `INSERT INTO items (kind, workspace_id, parent_id, filename, name_key, user_id, size, created_at, updated_at)
           VALUES ('file', ?, ?, 'report.pdf', 'report.pdf', ?, 10, ?, ?)`,
        )
        .run(ws, rootId, owner.id, now, now).lastInsertRowid,
    );
    const actor = db.prepare(`SELECT * FROM users WHERE id = ?`).get(owner.id) as User;
    const workspace = { id: ws, name: 'Audited' };
    const item = { kind: 'file' as const, id: fileId, name: 'report.pdf' };
    fileEvents = [];
    fileEvents.push(
      recordEvent(sb.sandbox, { workspace, actor, verb: 'upload', predicate: 'uploaded', item }),
    );
    sb.advanceClock(60);
    // An event of another item in between must not show up.
    recordEvent(sb.sandbox, {
      workspace,
      actor,
      verb: 'update',
      predicate: 'updated',
      item: { kind: 'folder', id: rootId, name: 'Audited' },
    });
    fileEvents.push(
      recordEvent(sb.sandbox, {
        workspace,
        actor,
        verb: 'download',
        predicate: 'downloaded',
        item,
      }),
    );
  });

  it('lists the file’s events, newest first, for a Moderator', async () => {
    const res = await client(sb, moderator.token).get(`/files/${fileId}/audit_trail`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      total_entries: 2,
      current_page: 1,
      total_pages: 1,
      per_page: 30,
    });
    const list = events(res);
    expect(list.map((e) => e.id)).toEqual([...fileEvents].reverse());
    expect(list[0]!.detail).toContain(`<a href="/workspaces/${ws}/files/${fileId}">report.pdf</a>`);
    expect(list[0]!.updated_at).toMatch(/\+0[12]:00$/); // Berlin
    expect((await client(sb, owner.token).get(`/files/${fileId}/audit_trail`)).status).toBe(200);
  });

  it('is forbidden below Moderator and invisible to outsiders', async () => {
    const res = await client(sb, collaborator.token).get(`/files/${fileId}/audit_trail`);
    expect(res.status).toBe(403);
    expect(res.json.errors.base).toBeDefined();
    expect((await client(sb, outsider.token).get(`/files/${fileId}/audit_trail`)).status).toBe(404);
    expect((await client(sb, moderator.token).get(`/files/999999/audit_trail`)).status).toBe(404);
    // A folder is not a file.
    expect((await client(sb, moderator.token).get(`/files/${rootId}/audit_trail`)).status).toBe(
      404,
    );
  });

  it('pages by offset', async () => {
    const res = await client(sb, moderator.token).get(`/files/${fileId}/audit_trail?offset=1`);
    expect(events(res).map((e) => e.id)).toEqual([fileEvents[0]]);
    expect(res.json.total_entries).toBe(2);
  });
});
