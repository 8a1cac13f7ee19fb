import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient, collect } from '../../src/main/api/client';
import { ProtocolError, ValidationError } from '../../src/main/api/errors';
import { Transport } from '../../src/main/api/transport';

// Another deployment, where the contract leaves room: unpaged lists, deletes that answer 200
// with a body, errors inside the wrapped object, and a malformed answer. A small local server
// plays it (the sandbox follows conventions.md exactly, so it cannot show these variants).

let server: Server;
let client: ServiceClient;

beforeAll(async () => {
  server = createServer((req, res) => {
    const send = (status: number, json: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(json));
    };
    const route = `${req.method} ${req.url?.split('?')[0]}`;
    if (route === 'GET /api/workspaces') {
      return send(200, [
        { workspace: { id: 1, name: 'A', root_folder_id: 10, extra: 'ignored' } },
        { workspace: { id: 2, name: 'B', root_folder_id: 20 } },
      ]);
    }
    if (route === 'DELETE /api/folders/5') return send(200, { folder: { id: 5, deleted: true } });
    if (route === 'POST /api/workspaces/1/folders') {
      return send(422, { folder: { errors: { filename: ['is reserved'] } } });
    }
    if (route === 'GET /api/folders/6') {
      return send(200, { items: [{ folder: { id: 7, updated_at: 'x' } }], total_entries: 1 });
    }
    // Members as a terser deployment may list them: unpaged, no names, no available_roles;
    // a role change and a revoke that answer with a body.
    if (route === 'GET /api/workspaces/1/rolemaps') {
      return send(200, [{ rolemap: { id: 3, role_name: 'Viewer', user: { email: 'a@x.org' } } }]);
    }
    if (route === 'PUT /api/rolemaps/3' || route === 'DELETE /api/rolemaps/3') {
      return send(200, { rolemap: { id: 3, role_name: 'Creator' } });
    }
    if (route === 'GET /api/slow') return; // never answers
    send(404, { errors: { base: ['no route'] } });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  client = new ServiceClient(new Transport({ baseUrl: `http://127.0.0.1:${port}/api` }));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('the client is liberal where the contract is silent', () => {
  it('reads an unpaged list and ignores extra fields', async () => {
    const all = await collect(client.listWorkspaces());
    expect(all.map((w) => w.name)).toEqual(['A', 'B']);
  });

  it('takes a delete that answers 200 with a body', async () => {
    await expect(client.deleteFolder(5)).resolves.toBeUndefined();
  });

  it('finds errors inside the wrapped object', async () => {
    const err = await client.createFolder(1, null, 'CON').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).errors).toEqual({ filename: ['is reserved'] });
  });

  it('names the endpoint and the field of a malformed answer', async () => {
    const err = await collect(client.folderContents(6)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProtocolError);
    expect((err as ProtocolError).message).toContain('GET /folders/:id');
    expect((err as ProtocolError).field).toBe('filename');
  });

  it('reads members without names or available roles, and a role change with a body', async () => {
    const [m] = await collect(client.listRolemaps(1));
    expect(m).toMatchObject({ id: 3, role_name: 'Viewer', user: { email: 'a@x.org' } });
    expect(m!.available_roles).toBeUndefined();
    await expect(client.changeRole(3, 'Creator')).resolves.toBeUndefined();
    await expect(client.revokeRolemap(3)).resolves.toBeUndefined();
  });

  it('can be cancelled with an AbortSignal', async () => {
    const controller = new AbortController();
    const pending = client.transport.request({
      method: 'GET',
      path: '/slow',
      endpoint: 'GET /slow',
      signal: controller.signal,
    });
    controller.abort(new Error('user cancelled'));
    await expect(pending).rejects.toThrow('user cancelled');
  });
});
