import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import type { RoleName } from '../../src/service/roles';

// The role matrix of conventions.md, checked end to end over HTTP: every operation is tried
// by every role on fresh items made by the owner, and must answer 2xx exactly when allowed.

let sb: RunningSandbox;
let rootId: number;

async function call(
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  const res = await fetch(sb.baseUrl + path, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as unknown) : null };
}

function tokenOf(role: RoleName): string {
  const user = sb.users.find((u) => u.role === role);
  if (!user) throw new Error(`no seeded ${role}`);
  return user.token;
}

const owner = () => tokenOf('Administrator');

async function newFolder(name: string): Promise<number> {
  const r = await call(owner(), 'POST', `/workspaces/${sb.workspaceId}/folders`, {
    filename: name,
  });
  expect(r.status).toBe(201);
  return (r.json as { folder: { id: number } }).folder.id;
}

async function upload(token: string, folderId: number, name: string): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([`content of ${name}`]), name);
  return fetch(`${sb.baseUrl}/folders/${folderId}/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
}

async function newFile(name: string): Promise<number> {
  const res = await upload(owner(), rootId, name);
  expect(res.status).toBe(201);
  return ((await res.json()) as { file: { id: number } }).file.id;
}

const ROLES_BELOW_OWNER: RoleName[] = [
  'Moderator',
  'Collaborator',
  'Creator',
  'Downloader',
  'Viewer',
];

const RANK: Record<RoleName, number> = {
  Administrator: 7,
  Moderator: 6,
  Collaborator: 5,
  Creator: 4,
  Downloader: 3,
  Printer: 2,
  Viewer: 1,
};

type Op = {
  name: string;
  minimum: RoleName;
  run: (token: string, role: RoleName) => Promise<number>;
};

const ops: Op[] = [
  {
    name: 'list a folder',
    minimum: 'Viewer',
    run: async (t) => (await call(t, 'GET', `/folders/${rootId}`)).status,
  },
  {
    name: "read a file's metadata",
    minimum: 'Viewer',
    run: async (t, role) =>
      (await call(t, 'GET', `/files/${await newFile(`meta ${role}.txt`)}`)).status,
  },
  {
    name: 'download a file',
    minimum: 'Downloader',
    run: async (t, role) => {
      const id = await newFile(`dl ${role}.txt`);
      const res = await fetch(`${sb.baseUrl}/download/${id}`, {
        headers: { authorization: `Bearer ${t}` },
      });
      await res.arrayBuffer();
      return res.status;
    },
  },
  {
    name: 'download a folder archive',
    minimum: 'Downloader',
    run: async (t, role) => {
      const id = await newFolder(`zip ${role}`);
      const res = await fetch(`${sb.baseUrl}/folders/${id}/archive`, {
        headers: { authorization: `Bearer ${t}` },
      });
      await res.arrayBuffer();
      return res.status;
    },
  },
  {
    name: 'create a folder',
    minimum: 'Creator',
    run: async (t, role) =>
      (await call(t, 'POST', `/workspaces/${sb.workspaceId}/folders`, { filename: `new ${role}` }))
        .status,
  },
  {
    name: 'upload a file',
    minimum: 'Creator',
    run: async (t, role) => (await upload(t, rootId, `up ${role}.txt`)).status,
  },
  {
    name: 'comment',
    minimum: 'Creator',
    run: async (t) =>
      (await call(t, 'POST', `/folders/${rootId}/comments`, { body: 'hello' })).status,
  },
  {
    name: "rename someone else's folder",
    minimum: 'Collaborator',
    run: async (t, role) => {
      const id = await newFolder(`rename ${role}`);
      return (await call(t, 'PUT', `/folders/${id}`, { filename: `renamed ${role}` })).status;
    },
  },
  {
    name: "delete someone else's file",
    minimum: 'Collaborator',
    run: async (t, role) =>
      (await call(t, 'DELETE', `/files/${await newFile(`del ${role}.txt`)}`)).status,
  },
  {
    name: 'read a link',
    minimum: 'Collaborator',
    run: async (t, role) =>
      (await call(t, 'GET', `/folders/${await newFolder(`link ${role}`)}/link`)).status,
  },
  {
    name: 'update a link',
    minimum: 'Moderator',
    run: async (t, role) => {
      const id = await newFolder(`link-up ${role}`);
      expect((await call(owner(), 'GET', `/folders/${id}/link`)).status).toBe(200);
      return (await call(t, 'PUT', `/folders/${id}/link`, { token_accessible: true })).status;
    },
  },
  {
    name: "read a file's audit trail",
    minimum: 'Moderator',
    run: async (t, role) =>
      (await call(t, 'GET', `/files/${await newFile(`audit ${role}.txt`)}/audit_trail`)).status,
  },
  {
    name: 'invite a user',
    minimum: 'Moderator',
    run: async (t, role) =>
      (
        await call(t, 'POST', `/workspaces/${sb.workspaceId}/invitations`, {
          invitation: { emails: `guest-${role.toLowerCase()}@example.org`, role_name: 'Viewer' },
        })
      ).status,
  },
  {
    name: "update the workspace's settings",
    minimum: 'Administrator',
    run: async (t) =>
      (
        await call(t, 'PUT', `/workspaces/${sb.workspaceId}`, {
          workspace: { background_color: '#123456' },
        })
      ).status,
  },
];

beforeAll(async () => {
  sb = await startSandbox({ seed: 'empty' });
  const r = await call(owner(), 'GET', `/workspaces/${sb.workspaceId}`);
  rootId = (r.json as { workspace: { root_folder_id: number } }).workspace.root_folder_id;
});

afterAll(async () => {
  await sb?.close();
});

describe('the role matrix', () => {
  for (const op of ops) {
    it(`${op.name}: allowed from ${op.minimum} up, 403 below`, async () => {
      for (const role of ['Administrator', ...ROLES_BELOW_OWNER] as RoleName[]) {
        const status = await op.run(tokenOf(role), role);
        const allowed = RANK[role] >= RANK[op.minimum];
        if (allowed) expect(status, `${role} should be allowed to ${op.name}`).toBeLessThan(300);
        else expect(status, `${role} should be refused to ${op.name}`).toBe(403);
      }
    });
  }

  it('lets only the owner delete the workspace', async () => {
    for (const role of ROLES_BELOW_OWNER) {
      expect((await call(tokenOf(role), 'DELETE', `/workspaces/${sb.workspaceId}`)).status).toBe(
        403,
      );
    }
    // A workspace someone is not a member of does not exist for them.
    const other = await call(tokenOf('Viewer'), 'POST', '/workspaces', {
      workspace: { name: 'Mine' },
    });
    expect(other.status).toBe(200);
    const otherId = (other.json as { workspace: { id: number } }).workspace.id;
    expect((await call(owner(), 'GET', `/workspaces/${otherId}`)).status).toBe(404);
    expect((await call(tokenOf('Viewer'), 'DELETE', `/workspaces/${otherId}`)).status).toBe(204);
  });

  it('lets a Creator delete what they created, and nothing else', async () => {
    const creator = tokenOf('Creator');
    const own = await upload(creator, rootId, 'creator-own.txt');
    expect(own.status).toBe(201);
    const ownId = ((await own.json()) as { file: { id: number } }).file.id;
    expect((await call(creator, 'DELETE', `/files/${ownId}`)).status).toBe(204);
    const othersId = await newFile('owner-made.txt');
    expect((await call(creator, 'DELETE', `/files/${othersId}`)).status).toBe(403);
  });
});
