import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/service/sandbox';
import { addComment } from '../../src/service/routes/comments';
import type { User } from '../../src/service/context';
import {
  call,
  eventsOf,
  makeFile,
  makeFolder,
  startEmptySandbox,
  userWith,
} from './helpers-social';

let s: RunningSandbox;
let folderId: number;
let fileId: number;

beforeAll(async () => {
  s = await startEmptySandbox();
  folderId = makeFolder(s, 'Reports');
  fileId = await makeFile(s, 'plan.txt', 'the plan');
});

afterAll(async () => {
  await s?.close();
});

describe('comments', () => {
  it('creates a comment on a file (201) with the documented fields', async () => {
    const creator = userWith(s, 'Creator');
    const res = await call(s, 'POST', `/files/${fileId}/comments`, creator.token, {
      body: 'Looks good',
    });
    expect(res.status).toBe(201);
    const c = res.json.comment;
    expect(c).toMatchObject({
      user_id: creator.id,
      body: 'Looks good',
      user_name: creator.name,
      owner_type: 'file',
      owner_id: fileId,
    });
    expect(typeof c.id).toBe('number');
    expect(typeof c.discussion_id).toBe('number');
    // In the author's zone (Australia/Sydney): a numeric offset, never Z.
    expect(c.updated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]1[01]:00$/);
  });

  it('accepts a wrapped body, uses one discussion per item and lists oldest first', async () => {
    const admin = userWith(s, 'Administrator');
    const a = await call(s, 'POST', `/folders/${folderId}/comments`, admin.token, {
      comment: { body: 'first' },
    });
    const b = await call(s, 'POST', `/folders/${folderId}/comments`, admin.token, {
      body: 'second',
    });
    expect(a.status).toBe(201);
    expect(a.json.comment.owner_type).toBe('folder');
    expect(b.json.comment.discussion_id).toBe(a.json.comment.discussion_id);
    const viewer = userWith(s, 'Viewer');
    const list = await call(s, 'GET', `/folders/${folderId}/comments`, viewer.token);
    expect(list.status).toBe(200);
    expect(list.json).toMatchObject({
      total_entries: 2,
      current_page: 1,
      total_pages: 1,
      per_page: 30,
    });
    expect(list.json.items.map((i: { comment: { body: string } }) => i.comment.body)).toEqual([
      'first',
      'second',
    ]);
  });

  it('pages by offset, 30 per page', async () => {
    const admin = userWith(s, 'Administrator');
    const id = makeFolder(s, 'Busy');
    const adminUser = s.sandbox.db
      .prepare(`SELECT * FROM users WHERE id = ?`)
      .get(admin.id) as User;
    for (let i = 0; i < 33; i++) addComment(s.sandbox, adminUser, 'folder', id, `c${i}`);
    const first = await call(s, 'GET', `/folders/${id}/comments`, admin.token);
    expect(first.json.items).toHaveLength(30);
    expect(first.json.total_pages).toBe(2);
    const second = await call(s, 'GET', `/folders/${id}/comments?offset=30`, admin.token);
    expect(second.json.items.map((i: { comment: { body: string } }) => i.comment.body)).toEqual([
      'c30',
      'c31',
      'c32',
    ]);
    const past = await call(s, 'GET', `/folders/${id}/comments?offset=100`, admin.token);
    expect(past.json.items).toEqual([]);
  });

  it('refuses comments from Viewers and Downloaders (403) and empty bodies (422)', async () => {
    for (const role of ['Viewer', 'Downloader'] as const) {
      const res = await call(s, 'POST', `/files/${fileId}/comments`, userWith(s, role).token, {
        body: 'hi',
      });
      expect(res.status, role).toBe(403);
      expect(res.json.errors.base).toBeDefined();
    }
    const creator = userWith(s, 'Creator');
    const empty = await call(s, 'POST', `/files/${fileId}/comments`, creator.token, { body: '  ' });
    expect(empty.status).toBe(422);
    expect(empty.json.errors.body).toBeDefined();
    const missing = await call(s, 'POST', `/files/${fileId}/comments`, creator.token, {});
    expect(missing.status).toBe(422);
  });

  it('answers 404 for an unknown item and 401 without a token', async () => {
    const admin = userWith(s, 'Administrator');
    expect((await call(s, 'GET', `/files/999999/comments`, admin.token)).status).toBe(404);
    expect((await call(s, 'GET', `/folders/${fileId}/comments`, admin.token)).status).toBe(404);
    expect((await call(s, 'GET', `/files/${fileId}/comments`)).status).toBe(401);
  });

  it('lets the author delete their own; a Moderator anyone’s; a Creator not another’s', async () => {
    const creator = userWith(s, 'Creator');
    const collaborator = userWith(s, 'Collaborator');
    const moderator = userWith(s, 'Moderator');
    const own = await call(s, 'POST', `/files/${fileId}/comments`, creator.token, { body: 'mine' });
    const other = await call(s, 'POST', `/files/${fileId}/comments`, collaborator.token, {
      body: 'theirs',
    });
    const del = (token: string, id: number) =>
      call(s, 'DELETE', `/files/${fileId}/comments/${id}`, token);

    const refused = await del(creator.token, other.json.comment.id);
    expect(refused.status).toBe(403);
    const byAuthor = await del(creator.token, own.json.comment.id);
    expect(byAuthor.status).toBe(204);
    expect(byAuthor.text).toBe('');
    const byModerator = await del(moderator.token, other.json.comment.id);
    expect(byModerator.status).toBe(204);
    expect((await del(moderator.token, other.json.comment.id)).status).toBe(404);

    const list = await call(s, 'GET', `/files/${fileId}/comments`, creator.token);
    const ids = list.json.items.map((i: { comment: { id: number } }) => i.comment.id);
    expect(ids).not.toContain(own.json.comment.id);
    expect(ids).not.toContain(other.json.comment.id);
    const deletes = eventsOf(s, 'delete');
    expect(deletes.length).toBeGreaterThanOrEqual(2);
    expect(deletes.at(-1)!.detail).toContain('<predicate>deleted a comment on</predicate>');
  });

  it('does not delete a comment through another item', async () => {
    const admin = userWith(s, 'Administrator');
    const c = await call(s, 'POST', `/files/${fileId}/comments`, admin.token, { body: 'stay' });
    const res = await call(
      s,
      'DELETE',
      `/folders/${folderId}/comments/${c.json.comment.id}`,
      admin.token,
    );
    expect(res.status).toBe(404);
  });

  it('stores markup verbatim and escapes it in the event detail', async () => {
    const creator = userWith(s, 'Creator');
    const evil = '<img src=x onerror=alert(1)>';
    const named = await makeFile(s, '<b>x</b>.txt', 'x');
    const res = await call(s, 'POST', `/files/${named}/comments`, creator.token, { body: evil });
    expect(res.status).toBe(201);
    expect(res.json.comment.body).toBe(evil);
    const list = await call(s, 'GET', `/files/${named}/comments`, creator.token);
    expect(list.json.items[0].comment.body).toBe(evil);
    const event = eventsOf(s, 'create').at(-1)!;
    expect(event.item_id).toBe(named);
    expect(event.user_id).toBe(creator.id);
    expect(event.detail).toContain('<predicate>commented on</predicate>');
    expect(event.detail).toContain('&lt;b&gt;x&lt;/b&gt;.txt');
    expect(event.detail).not.toContain('<b>');
    expect(event.detail).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(event.detail).not.toContain('<img');
  });
});
