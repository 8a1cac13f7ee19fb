import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/service/sandbox';
import {
  call,
  eventsOf,
  makeFile,
  makeFolder,
  startEmptySandbox,
  userWith,
} from './helpers-social';

let s: RunningSandbox;

beforeAll(async () => {
  s = await startEmptySandbox();
});

afterAll(async () => {
  await s?.close();
});

let n = 0;
async function newUser(name = 'Bea Brown'): Promise<{ id: number; email: string; token: string }> {
  n++;
  const res = await call(s, 'POST', '/_sandbox/users', undefined, {
    name,
    email: `user${n}@example.org`,
    password: 'pw-pw-pw',
    time_zone: 'Europe/Paris',
  });
  expect(res.status).toBe(201);
  return res.json;
}

function inviteBody(emails: string, role_name?: string) {
  return { invitation: { emails, ...(role_name === undefined ? {} : { role_name }) } };
}

async function rolemapsOf(token: string) {
  const res = await call(s, 'GET', `/workspaces/${s.workspaceId}/rolemaps`, token);
  expect(res.status).toBe(200);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON from the API
  return res.json.items.map((i: any) => i.rolemap);
}

describe('invitations', () => {
  it('accepts an existing user at once, who then sees the workspace', async () => {
    const bea = await newUser();
    const admin = userWith(s, 'Administrator');
    expect((await call(s, 'GET', `/workspaces/${s.workspaceId}`, bea.token)).status).toBe(404);
    const res = await call(
      s,
      'POST',
      `/workspaces/${s.workspaceId}/invitations`,
      admin.token,
      inviteBody(bea.email, 'Creator'),
    );
    expect(res.status).toBe(200);
    expect(res.json.share).toMatchObject({
      emails: bea.email,
      email_errors: [],
      join_errors: [],
      errors: {},
    });
    expect(res.json.share.invited_emails).toHaveLength(1);
    const rolemapId = res.json.share.invited_emails[0][bea.email];
    expect(typeof rolemapId).toBe('number');
    const ws = await call(s, 'GET', `/workspaces/${s.workspaceId}`, bea.token);
    expect(ws.status).toBe(200);
    expect(ws.json.workspace.effective_role).toBe('Creator');
    const event = eventsOf(s, 'invite').at(-1)!;
    expect(event.user_id).toBe(admin.id);
    expect(event.detail).toContain(`<complement>${bea.email} as Creator</complement>`);
    const own = await call(s, 'GET', `/rolemaps/${rolemapId}`, bea.token);
    expect(own.status).toBe(200);
    expect(own.json.rolemap).toMatchObject({
      id: rolemapId,
      state: 'accepted',
      role_name: 'Creator',
    });
  });

  it('keeps unknown emails pending, sorts out bad and existing ones, defaults the role', async () => {
    const moderator = userWith(s, 'Moderator');
    const viewer = userWith(s, 'Viewer');
    const res = await call(
      s,
      'POST',
      `/workspaces/${s.workspaceId}/invitations`,
      moderator.token,
      inviteBody(`new.person@elsewhere.org, not-an-email, ${viewer.email}`, 'Superuser'),
    );
    expect(res.status).toBe(200);
    const share = res.json.share;
    expect(share.email_errors).toEqual(['not-an-email']);
    expect(share.join_errors).toEqual([viewer.email]);
    expect(share.invited_emails).toHaveLength(1);
    const id = share.invited_emails[0]['new.person@elsewhere.org'];
    const maps = await rolemapsOf(moderator.token);
    const pending = maps.find((m: { id: number }) => m.id === id);
    expect(pending).toMatchObject({
      state: 'pending',
      object_type: 'Workspace',
      role_name: 'Downloader',
      user_id: null,
      user: { id: null, email: 'new.person@elsewhere.org', first_name: null, last_name: null },
    });
  });

  it('refuses invitations from below Moderator and roles above the inviter', async () => {
    const collaborator = userWith(s, 'Collaborator');
    const refused = await call(
      s,
      'POST',
      `/workspaces/${s.workspaceId}/invitations`,
      collaborator.token,
      inviteBody('x@y.org', 'Viewer'),
    );
    expect(refused.status).toBe(403);
    const moderator = userWith(s, 'Moderator');
    const tooHigh = await call(
      s,
      'POST',
      `/workspaces/${s.workspaceId}/invitations`,
      moderator.token,
      inviteBody('z@y.org', 'Administrator'),
    );
    expect(tooHigh.status).toBe(403);
    const stranger = await newUser();
    const hidden = await call(
      s,
      'POST',
      `/workspaces/${s.workspaceId}/invitations`,
      stranger.token,
      inviteBody('z@y.org'),
    );
    expect(hidden.status).toBe(404);
  });
});

describe('invitations on folders and files', () => {
  it('grant a member of the item’s workspace with that role, the event naming the item', async () => {
    const admin = userWith(s, 'Administrator');
    const folderId = makeFolder(s, 'Shared plans');
    const fileId = await makeFile(s, 'brief.txt', 'hello', folderId);
    for (const [plural, id, name] of [
      ['folders', folderId, 'Shared plans'],
      ['files', fileId, 'brief.txt'],
    ] as const) {
      const bea = await newUser();
      const res = await call(
        s,
        'POST',
        `/${plural}/${id}/invitations`,
        admin.token,
        inviteBody(`${bea.email}, not-an-email, ${admin.email}`, 'Collaborator'),
      );
      expect(res.status).toBe(200);
      expect(res.json.share).toMatchObject({
        emails: `${bea.email}, not-an-email, ${admin.email}`,
        email_errors: ['not-an-email'],
        join_errors: [admin.email],
        errors: {},
      });
      expect(Object.keys(res.json.share.invited_emails[0])).toEqual([bea.email]);
      const ws = await call(s, 'GET', `/workspaces/${s.workspaceId}`, bea.token);
      expect(ws.json.workspace.effective_role).toBe('Collaborator');
      const event = eventsOf(s, 'invite').at(-1)!;
      expect(event.detail).toContain(`>${name}</a>`);
      expect(event.detail).toContain(`<complement>${bea.email} as Collaborator</complement>`);
    }
  });

  it('are refused below Moderator (403) and on an item the user cannot see (404)', async () => {
    const folderId = makeFolder(s, 'Private plans');
    const collaborator = userWith(s, 'Collaborator');
    const refused = await call(
      s,
      'POST',
      `/folders/${folderId}/invitations`,
      collaborator.token,
      inviteBody('x@y.org', 'Viewer'),
    );
    expect(refused.status).toBe(403);
    const stranger = await newUser();
    const hidden = await call(
      s,
      'POST',
      `/folders/${folderId}/invitations`,
      stranger.token,
      inviteBody('x@y.org'),
    );
    expect(hidden.status).toBe(404);
    const admin = userWith(s, 'Administrator');
    const asFile = await call(
      s,
      'POST',
      `/files/${folderId}/invitations`,
      admin.token,
      inviteBody('x@y.org'),
    );
    expect(asFile.status).toBe(404);
  });
});

describe('rolemaps', () => {
  it('lists the members with their users and assignable roles (Moderator and above)', async () => {
    const moderator = userWith(s, 'Moderator');
    const maps = await rolemapsOf(moderator.token);
    const ann = maps.find((m: { user_id: number }) => m.user_id === s.users[0]!.id);
    expect(ann).toMatchObject({
      state: 'accepted',
      object_type: 'Workspace',
      role_name: 'Administrator',
      user: { id: s.users[0]!.id, email: 'ann@example.com', first_name: 'Ann', last_name: 'Lee' },
      available_roles: [],
    });
    const creator = maps.find((m: { role_name: string }) => m.role_name === 'Creator');
    expect(creator.available_roles).toEqual([
      'Moderator',
      'Collaborator',
      'Creator',
      'Downloader',
      'Printer',
      'Viewer',
    ]);
    expect(creator.updated_at).toMatch(/[+-]0[12]:00$/); // Europe/Berlin
    const list = await call(s, 'GET', `/workspaces/${s.workspaceId}/rolemaps`, moderator.token);
    expect(list.json.per_page).toBe(30);
    const collaborator = userWith(s, 'Collaborator');
    expect(
      (await call(s, 'GET', `/workspaces/${s.workspaceId}/rolemaps`, collaborator.token)).status,
    ).toBe(403);
  });

  it('changes a role: 200 with an empty body, then in effect', async () => {
    const admin = userWith(s, 'Administrator');
    const dana = userWith(s, 'Downloader');
    const maps = await rolemapsOf(admin.token);
    const map = maps.find((m: { user_id: number }) => m.user_id === dana.id);
    const res = await call(s, 'PUT', `/rolemaps/${map.id}`, admin.token, {
      role_name: 'Collaborator',
    });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    const ws = await call(s, 'GET', `/workspaces/${s.workspaceId}`, dana.token);
    expect(ws.json.workspace.effective_role).toBe('Collaborator');
    const event = eventsOf(s, 'update').at(-1)!;
    expect(event.user_id).toBe(admin.id);
    expect(event.detail).toContain(`${dana.email} from Downloader to Collaborator`);

    const unknown = await call(s, 'PUT', `/rolemaps/${map.id}`, admin.token, { role_name: 'Boss' });
    expect(unknown.status).toBe(422);
    const creator = userWith(s, 'Creator');
    const refused = await call(s, 'PUT', `/rolemaps/${map.id}`, creator.token, {
      role_name: 'Viewer',
    });
    expect(refused.status).toBe(403);
    const moderator = userWith(s, 'Moderator');
    const tooHigh = await call(s, 'PUT', `/rolemaps/${map.id}`, moderator.token, {
      role_name: 'Administrator',
    });
    expect(tooHigh.status).toBe(403);
  });

  it("protects the owner's rolemap", async () => {
    const admin = userWith(s, 'Administrator');
    const maps = await rolemapsOf(admin.token);
    const owner = maps.find((m: { user_id: number }) => m.user_id === admin.id);
    const change = await call(s, 'PUT', `/rolemaps/${owner.id}`, admin.token, {
      role_name: 'Viewer',
    });
    expect(change.status).toBe(403);
    const revoke = await call(s, 'DELETE', `/rolemaps/${owner.id}`, admin.token);
    expect(revoke.status).toBe(403);
    const ws = await call(s, 'GET', `/workspaces/${s.workspaceId}`, admin.token);
    expect(ws.json.workspace.effective_role).toBe('Administrator');
  });

  it('revokes a member, who then gets 404 for the workspace', async () => {
    const admin = userWith(s, 'Administrator');
    const vikram = userWith(s, 'Viewer');
    const maps = await rolemapsOf(admin.token);
    const map = maps.find((m: { user_id: number }) => m.user_id === vikram.id);
    expect((await call(s, 'GET', `/workspaces/${s.workspaceId}`, vikram.token)).status).toBe(200);
    const res = await call(s, 'DELETE', `/rolemaps/${map.id}`, admin.token);
    expect(res.status).toBe(204);
    expect((await call(s, 'GET', `/workspaces/${s.workspaceId}`, vikram.token)).status).toBe(404);
    expect((await call(s, 'GET', `/rolemaps/${map.id}`, admin.token)).status).toBe(404);
  });

  it('hides rolemaps from non-members and other members below Moderator', async () => {
    const admin = userWith(s, 'Administrator');
    const maps = await rolemapsOf(admin.token);
    const stranger = await newUser();
    expect((await call(s, 'GET', `/rolemaps/${maps[0].id}`, stranger.token)).status).toBe(404);
    const creator = userWith(s, 'Creator');
    expect((await call(s, 'GET', `/rolemaps/${maps[0].id}`, creator.token)).status).toBe(403);
  });
});
