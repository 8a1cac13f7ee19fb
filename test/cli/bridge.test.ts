import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CSP, startBridge, type RunningBridge } from '../../src/main/backend/bridge';
import type { RunningSandbox } from '../../src/service/sandbox';
import { startCli } from './run-cli';
import { backendWithSandbox, type BackendWithSandbox } from '../backend/with-backend';

// The web bridge over real HTTP and WebSocket: the guard on the socket, the static files, and
// `workspace-sync ui` as a process.

let t: BackendWithSandbox;
let tmp: { dir: string; remove(): Promise<void> };
let sb: RunningSandbox;
let bridge: RunningBridge;
let staticDir: string;

beforeAll(async () => {
  t = await backendWithSandbox({
    seed: 'demo',
    prefix: 'bridge',
    user: null,
    prepare: ({ tmp }) => {
      staticDir = path.join(tmp.dir, 'static');
      mkdirSync(path.join(staticDir, 'assets'), { recursive: true });
      writeFileSync(
        path.join(staticDir, 'index.html'),
        '<!doctype html><title>Workspace Sync</title>',
      );
      writeFileSync(path.join(staticDir, 'assets', 'app.js'), 'console.log("hi");');
      writeFileSync(path.join(tmp.dir, 'secret.txt'), 'outside the static folder');
      symlinkSync(tmp.dir, path.join(staticDir, 'escape'));
    },
  });
  ({ tmp, sb } = t);
  bridge = await startBridge({ backend: t.backend, staticDir });
});

afterAll(async () => {
  await bridge?.close();
  await t?.close();
});

/** A raw GET: the path and Host exactly as given (fetch would normalize the path). */
function get(
  port: number,
  rawPath: string,
  host = `127.0.0.1:${port}`,
): Promise<{
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: rawPath, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens the API socket; resolves with it, or rejects with the HTTP status of the refusal. */
function openSocket(url: string, origin?: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, origin ? { origin } : {});
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => {
      reject(new Error(`refused ${res.statusCode}`));
      ws.terminate();
    });
    ws.once('error', reject);
  });
}

const apiUrl = (b: RunningBridge, secret = b.secret) =>
  `ws://127.0.0.1:${b.port}/api?secret=${encodeURIComponent(secret)}`;

/** Sends a request and resolves with its reply (pushes are collected aside). */
function call(ws: WebSocket, id: number, method: string, params: unknown): Promise<unknown> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const msg = JSON.parse(data.toString()) as { id?: number };
      if (msg.id !== id) return;
      ws.off('message', onMessage);
      resolve(msg);
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ id, method, params }));
  });
}

describe('the socket guard', () => {
  it('prints a URL with a 32-byte secret in the fragment', () => {
    expect(bridge.url).toBe(`http://127.0.0.1:${bridge.port}/#secret=${bridge.secret}`);
    expect(Buffer.from(bridge.secret, 'base64url')).toHaveLength(32);
  });

  it('refuses a missing or wrong secret', async () => {
    const origin = bridge.origin;
    await expect(openSocket(`ws://127.0.0.1:${bridge.port}/api`, origin)).rejects.toThrow(
      'refused 403',
    );
    // One character changed to another: a secret that starts with `x` (1 in 64) made `'x' + rest`
    // the right one, and the test failed now and then.
    const wrong = (bridge.secret[0] === 'x' ? 'y' : 'x') + bridge.secret.slice(1);
    await expect(openSocket(apiUrl(bridge, wrong), origin)).rejects.toThrow('refused 403');
    await expect(openSocket(apiUrl(bridge, bridge.secret + 'x'), origin)).rejects.toThrow(
      'refused 403',
    );
  });

  it('refuses another Origin, or none', async () => {
    await expect(openSocket(apiUrl(bridge), 'http://evil.example')).rejects.toThrow('refused 403');
    await expect(openSocket(apiUrl(bridge), `http://127.0.0.1:${bridge.port + 1}`)).rejects.toThrow(
      'refused 403',
    );
    await expect(openSocket(apiUrl(bridge))).rejects.toThrow('refused 403');
  });

  it('refuses a Host that is not this bridge (DNS rebinding)', async () => {
    const res = await get(bridge.port, '/', `evil.example:${bridge.port}`);
    expect(res.status).toBe(421);
    expect((await get(bridge.port, '/', `localhost:${bridge.port}`)).status).toBe(200);
  });

  it('carries a call and its reply, and pushes events', async () => {
    const ws = await openSocket(apiUrl(bridge), bridge.origin);
    try {
      expect(await call(ws, 1, 'app.info', {})).toMatchObject({
        id: 1,
        ok: true,
        result: { name: 'Workspace Sync', platform: 'web', demo: false },
      });
      expect(await call(ws, 2, 'accounts.tryDemo', {})).toMatchObject({
        id: 2,
        ok: false,
        error: { kind: 'unsupported' },
      });
      ws.send('not json');
      const garbled = await new Promise((resolve) =>
        ws.once('message', (d) => resolve(JSON.parse(d.toString()))),
      );
      expect(garbled).toMatchObject({ id: -1, ok: false, error: { kind: 'invalid' } });

      const signedIn = (await call(ws, 3, 'accounts.signIn', {
        server: sb.baseUrl,
        email: 'ann@example.com',
        password: 'ann-sandbox-pass',
      })) as { result: { id: string } };
      const pushed = new Promise((resolve) =>
        ws.on('message', (d) => {
          const msg = JSON.parse(d.toString()) as { event?: string };
          if (msg.event === 'zip-progress') resolve(msg);
        }),
      );
      const ws1 = (await call(ws, 4, 'workspaces.list', { accountId: signedIn.result.id })) as {
        result: { items: { rootFolderId: number }[] };
      };
      const zip = (await call(ws, 5, 'folders.downloadZip', {
        accountId: signedIn.result.id,
        folderId: ws1.result.items[0]!.rootFolderId,
        to: tmp.dir,
      })) as { ok: boolean };
      expect(zip.ok).toBe(true);
      expect(await pushed).toMatchObject({ event: 'zip-progress', data: { total: null } });
    } finally {
      ws.close();
    }
  });
});

describe('static files', () => {
  it('serves the window with the strict CSP and nosniff', async () => {
    const index = await get(bridge.port, '/');
    expect(index.status).toBe(200);
    expect(index.body).toContain('<title>Workspace Sync</title>');
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.headers['content-security-policy']).toBe(CSP);
    expect(CSP).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(index.headers['x-content-type-options']).toBe('nosniff');
    const js = await get(bridge.port, '/assets/app.js?v=1');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['content-security-policy']).toBe(CSP);
    expect((await get(bridge.port, '/missing.js')).status).toBe(404);
  });

  it('refuses every path out of the static folder', async () => {
    for (const p of [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/assets%2f..%2f..%2fsecret.txt',
      '/..%5csecret.txt',
      '/escape/secret.txt',
      '/%00index.html',
      '/%E0%A4%A',
    ]) {
      const res = await get(bridge.port, p);
      expect(res.status, p).toBe(404);
      expect(res.body).not.toContain('outside the static folder');
    }
  });

  it('answers only GET and HEAD', async () => {
    const res = await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: bridge.port, path: '/', method: 'POST' },
        (r) => {
          r.resume();
          resolve(r.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(res).toBe(405);
  });
});

describe('workspace-sync ui --sandbox', () => {
  it('prints one JSON line with the URL, serves the demo, and stops on SIGTERM with exit 0', async () => {
    const ui = startCli(['ui', '--sandbox', '--static', staticDir], {
      env: { WORKSPACE_SYNC_STATE: path.join(tmp.dir, 'ui-state') },
    });
    const first = await ui.firstLine;
    const { url } = JSON.parse(first) as { url: string };
    const parsed = /^http:\/\/127\.0\.0\.1:(\d+)\/#secret=([A-Za-z0-9_-]{43})$/.exec(url);
    expect(parsed, url).not.toBeNull();
    const [, port, secret] = parsed!;
    const origin = `http://127.0.0.1:${port}`;
    const ws = await openSocket(`ws://127.0.0.1:${port}/api?secret=${secret}`, origin);
    try {
      expect(await call(ws, 1, 'app.info', {})).toMatchObject({ ok: true, result: { demo: true } });
      const pairs = (await call(ws, 2, 'pairs.list', {})) as {
        result: { workspaceName: string; accountId: string }[];
      };
      expect(pairs.result).toHaveLength(1);
      expect(pairs.result[0]).toMatchObject({ workspaceName: 'Q3 Planning' });
      expect(pairs.result[0]!.accountId).toMatch(/#ann@example\.com$/);
      expect(await call(ws, 3, 'accounts.tryDemo', {})).toMatchObject({
        ok: true,
        result: { email: 'ann@example.com', name: 'Ann Lee' },
      });
    } finally {
      ws.close();
    }
    ui.child.kill('SIGTERM');
    expect((await ui.exited).code, ui.out.stderr).toBe(0);
    expect(ui.out.stdout.trim().split('\n')).toEqual([first]);
  });
});
