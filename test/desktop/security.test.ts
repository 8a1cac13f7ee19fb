import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  contextBridge,
  FakeEvent,
  FakeWebContents,
  fake,
  ipcRenderer,
  session,
  shell,
} from './fake-electron';
import { mainWindowOptions } from '../../src/main/window-options';
import { hardenApp, hardenContents, isExternalWebUrl } from '../../src/main/platform/security';
import { API_GLOBAL, IpcChannel } from '../../src/shared/app-api';

const root = path.resolve(import.meta.dirname, '../..');

describe('the window options (the Electron security checklist)', () => {
  const prefs = mainWindowOptions('/app/preload.cjs').webPreferences!;

  it('isolates the renderer: context isolation, sandbox, no Node anywhere', () => {
    expect(prefs.contextIsolation).toBe(true);
    expect(prefs.sandbox).toBe(true);
    expect(prefs.nodeIntegration).toBe(false);
    expect(prefs.nodeIntegrationInWorker).toBe(false);
    expect(prefs.nodeIntegrationInSubFrames).toBe(false);
    expect(prefs.preload).toBe('/app/preload.cjs');
  });

  it('keeps web security on and the risky features off', () => {
    expect(prefs.webSecurity).toBe(true);
    expect(prefs.allowRunningInsecureContent).toBe(false);
    expect(prefs.webviewTag).toBe(false);
    expect(prefs.navigateOnDragDrop).toBe(false);
    expect(prefs).not.toHaveProperty('experimentalFeatures', true);
    expect(prefs).not.toHaveProperty('enableBlinkFeatures');
  });

  it('the renderer carries a strict CSP: only its own scripts, no inline, no eval, no objects', () => {
    const html = readFileSync(path.join(root, 'src/renderer/index.html'), 'utf8');
    const csp = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1];
    expect(csp).toBeDefined();
    const directives = new Map(
      csp!.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name!, values];
      }),
    );
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
    expect(directives.get('form-action')).toEqual(["'none'"]);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
  });
});

describe('navigation, new windows and permissions', () => {
  beforeAll(() => {
    hardenApp();
    fake.app.makeReady();
  });

  it('blocks navigation, redirects and webviews of every web contents the app creates', () => {
    const contents = new FakeWebContents();
    fake.app.emit('web-contents-created', new FakeEvent(), contents);
    for (const name of ['will-navigate', 'will-redirect', 'will-attach-webview']) {
      const event = new FakeEvent();
      contents.emit(name, event, 'https://evil.example/');
      expect(event.defaultPrevented, name).toBe(true);
    }
  });

  it('opens no window: web links go to the OS browser, anything else nowhere', () => {
    const contents = new FakeWebContents();
    hardenContents(contents as never);
    const before = shell.external.length;
    for (const url of [
      'https://files.example.com/s/abc',
      'http://127.0.0.1:4000/x',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://share/x',
      'not a url',
    ])
      expect(contents.windowOpenHandler!({ url })).toEqual({ action: 'deny' });
    expect(shell.external.slice(before)).toEqual([
      'https://files.example.com/s/abc',
      'http://127.0.0.1:4000/x',
    ]);
    expect(isExternalWebUrl('HTTPS://x.example')).toBe(true);
    expect(isExternalWebUrl('data:text/html,hi')).toBe(false);
  });

  it('denies every permission request and check', async () => {
    await fake.app.whenReady();
    await Promise.resolve();
    const s = session.defaultSession;
    for (const permission of ['notifications', 'media', 'geolocation', 'clipboard-read']) {
      let granted: boolean | null = null;
      s.permissionRequest!(null, permission, (ok: boolean) => (granted = ok));
      expect(granted, permission).toBe(false);
      expect(s.permissionCheck!(null, permission)).toBe(false);
    }
    expect(s.devicePermission!({})).toBe(false);
  });
});

describe('the preload', () => {
  it('exposes exactly the typed API: call and on, nothing of ipcRenderer', async () => {
    fake.rendererReply = ([, id]) => ({ id, ok: true, result: { name: 'x' } });
    await import('../../src/preload/index');
    expect([...contextBridge.exposed.keys()]).toEqual([API_GLOBAL]);
    const api = contextBridge.exposed.get(API_GLOBAL) as Record<string, unknown>;
    expect(Object.keys(api).sort()).toEqual(['call', 'on']);
    const call = api.call as (m: string, p: unknown) => Promise<unknown>;
    await expect(call('app.info', {})).resolves.toEqual({ name: 'x' });
    expect(ipcRenderer.invoked.at(-1)).toEqual([IpcChannel.call, 1, 'app.info', {}]);
    // A malformed reply is refused rather than handed to the window.
    fake.rendererReply = () => ({ nonsense: true });
    await expect(call('app.info', {})).rejects.toThrow();
    fake.rendererReply = ([, id]) => ({
      id,
      ok: false,
      error: { kind: 'forbidden', message: 'No.' },
    });
    await expect(call('app.info', {})).rejects.toMatchObject({ error: { kind: 'forbidden' } });
  });
});

describe("safeStorage as the keychain's fallback", () => {
  it('counts only real encryption: not Linux basic_text, not when unavailable', async () => {
    const { appCipher } = await import('../../src/main/platform/safe-storage');
    const { safeStorage } = await import('./fake-electron');
    safeStorage.available = true;
    safeStorage.backend = 'gnome_libsecret';
    expect(appCipher.isEncryptionAvailable()).toBe(true);
    expect(appCipher.decryptString(appCipher.encryptString('secret'))).toBe('secret');
    if (process.platform === 'linux') {
      safeStorage.backend = 'basic_text';
      expect(appCipher.isEncryptionAvailable()).toBe(false);
    }
    safeStorage.backend = 'gnome_libsecret';
    safeStorage.available = false;
    expect(appCipher.isEncryptionAvailable()).toBe(false);
    safeStorage.available = true;
  });
});
