import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP_CSP,
  RENDERER_URL,
  registerAppScheme,
  rendererHandler,
  serveRenderer,
} from '../../src/main/app-protocol';
import { fake, protocol } from './fake-electron';

// The desktop window's app:// protocol: the renderer's files, real ones on disk, with the CSP as
// a header, and nothing outside the renderer's folder.

let dir: string;
let rendererDir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ws-app-protocol-'));
  rendererDir = path.join(dir, 'renderer');
  mkdirSync(path.join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(
    path.join(rendererDir, 'index.html'),
    '<!doctype html><title>Workspace Sync</title>',
  );
  writeFileSync(path.join(rendererDir, 'assets', 'app.js'), 'console.log("hi");');
  writeFileSync(path.join(dir, 'secret.txt'), 'outside the renderer folder');
  symlinkSync(dir, path.join(rendererDir, 'escape'));
});

afterAll(() => rm(dir, { recursive: true, force: true }));

const directives = (csp: string) =>
  new Map(
    csp.split(';').map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name!, values];
    }),
  );

describe('app://workspace-sync', () => {
  it('serves index.html and the assets with the CSP, nosniff and their types', async () => {
    const serve = rendererHandler(rendererDir);
    const page = await serve(new Request(RENDERER_URL));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Workspace Sync</title>');
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(DESKTOP_CSP);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    // corsEnabled lets the page's own module scripts load; no other origin may read them.
    expect(page.headers.get('access-control-allow-origin')).toBeNull();
    const script = await serve(new Request('app://workspace-sync/assets/app.js'));
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('content-security-policy')).toBe(DESKTOP_CSP);
    // The folder itself is its index.
    expect(await (await serve(new Request('app://workspace-sync/'))).text()).toContain('<title>');
  });

  it('its CSP lets the window connect nowhere (it talks over IPC) and run only its own scripts', () => {
    const d = directives(DESKTOP_CSP);
    expect(d.get('connect-src')).toEqual(["'none'"]);
    expect(d.get('script-src')).toEqual(["'self'"]);
    expect(d.get('default-src')).toEqual(["'self'"]);
    expect(d.get('object-src')).toEqual(["'none'"]);
    expect(d.get('frame-ancestors')).toEqual(["'none'"]);
    expect(DESKTOP_CSP).not.toMatch(/unsafe-|\*/);
  });

  it('refuses every way out of the renderer folder, another host, and anything but GET', async () => {
    const serve = rendererHandler(rendererDir);
    for (const url of [
      'app://workspace-sync/../secret.txt',
      'app://workspace-sync/%2e%2e/secret.txt',
      'app://workspace-sync/assets/..%2f..%2fsecret.txt',
      'app://workspace-sync/assets%2f..%2f..%2fsecret.txt',
      'app://workspace-sync/..%5csecret.txt',
      'app://workspace-sync/escape/secret.txt',
      'app://workspace-sync/%00index.html',
      'app://workspace-sync/missing.js',
      'app://evil.example/index.html',
      'app://workspace-sync.evil.example/index.html',
    ]) {
      const res = await serve(new Request(url));
      expect(res.status, url).toBe(404);
      const body = await res.text();
      expect(body, url).not.toContain('outside the renderer folder');
      expect(res.headers.get('content-security-policy'), url).toBe(DESKTOP_CSP);
    }
    const post = await serve(new Request(RENDERER_URL, { method: 'POST', body: 'x' }));
    expect(post.status).toBe(405);
    const head = await serve(new Request(RENDERER_URL, { method: 'HEAD' }));
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('is registered privileged before ready and handled once ready (Electron’s order)', async () => {
    registerAppScheme();
    expect(protocol.privileged.at(-1)).toEqual({
      scheme: 'app',
      privileges: { standard: true, secure: true, corsEnabled: true },
    });
    fake.app.makeReady();
    serveRenderer(rendererDir);
    const res = await protocol.handlers.get('app')!(new Request(RENDERER_URL));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(DESKTOP_CSP);
  });
});
