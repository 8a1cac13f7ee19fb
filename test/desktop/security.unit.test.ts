import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  contextBridge,
  dialog,
  FakeEvent,
  FakeWebContents,
  fake,
  ipcRenderer,
  session,
  shell,
} from './fake-electron';
import { mainWindowOptions } from '../../src/main/window-options';
import {
  externalVerdict,
  hardenApp,
  hardenContents,
  isExternalWebUrl,
  openExternal,
  trustServers,
  whileSigningIn,
} from '../../src/main/platform/security';
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
    // The bridge's WebSocket is on the page's own origin; the desktop window connects nowhere
    // (its header says 'none'): no wider than that, no port ranges.
    expect(directives.get('connect-src')).toEqual(["'self'"]);
    expect(csp).not.toContain('*');
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

  it('opens no window: web links go to the OS browser (others asked about), anything else nowhere', async () => {
    const contents = new FakeWebContents();
    hardenContents(contents as never);
    trustServers(['https://files.example.com/api/v1']);
    const opened = shell.external.length;
    const asked = dialog.asked.length;
    dialog.answers.push(0);
    for (const url of [
      'https://files.example.com/s/abc',
      'http://127.0.0.1:4000/x',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://share/x',
      'not a url',
    ])
      expect(contents.windowOpenHandler!({ url })).toEqual({ action: 'deny' });
    await fake.until(() => shell.external.length === opened + 2, 'both web pages to open');
    expect(shell.external.slice(opened)).toEqual([
      'https://files.example.com/s/abc',
      'http://127.0.0.1:4000/x',
    ]);
    // Only the page of no signed-in service was asked about; the others were never shown.
    expect(dialog.asked.slice(asked).map((a) => a.detail?.split('\n')[0])).toEqual([
      'http://127.0.0.1:4000/x',
    ]);
    expect(isExternalWebUrl('HTTPS://x.example')).toBe(true);
    expect(isExternalWebUrl('data:text/html,hi')).toBe(false);
  });

  it("opens the signed-in service's pages at once, asks about any other, refuses other schemes", async () => {
    trustServers(['https://files.example.com/api/v1', 'http://127.0.0.1:4000']);
    expect(externalVerdict('https://files.example.com/w/42/f/7')).toBe('open');
    expect(externalVerdict('http://127.0.0.1:4000/oauth/authorize?x=1')).toBe('open');
    // Same host, another scheme or port, or a look-alike: another origin, asked about.
    for (const url of [
      'http://files.example.com/w/42',
      'https://files.example.com:8443/w/42',
      'https://files.example.com.evil.example/w/42',
      'https://evil.example/?https://files.example.com',
      'https://user@evil.example/',
    ])
      expect(externalVerdict(url), url).toBe('ask');
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://x/y',
      'ms-settings:',
      '',
    ])
      expect(externalVerdict(url), url).toBe('refuse');

    // Cancel: nothing opens; the address was shown, its host as the browser will reach it.
    const opened = shell.external.length;
    expect(await openExternal('https://xn--80ak6aa92e.com/login')).toBe(false);
    expect(await openExternal('https://аррӏе.com/login')).toBe(false);
    expect(dialog.asked.at(-1)!.detail).toContain('https://xn--80ak6aa92e.com/login');
    expect(await openExternal('file:///etc/passwd')).toBe(false);
    expect(shell.external.length).toBe(opened);
    // Yes: it opens.
    dialog.answers.push(0);
    expect(await openExternal('https://docs.example.org/help')).toBe(true);
    expect(shell.external.at(-1)).toBe('https://docs.example.org/help');

    // Signed out: the service's pages are asked about too. A browser sign-in under way trusts
    // the server being signed in to, for as long as it runs.
    trustServers([]);
    expect(externalVerdict('https://files.example.com/w/42')).toBe('ask');
    let during: string | null = null;
    await whileSigningIn('https://files.example.com/api/v1', async () => {
      during = externalVerdict('https://files.example.com/oauth/authorize?state=x');
    });
    expect(during).toBe('open');
    expect(externalVerdict('https://files.example.com/oauth/authorize')).toBe('ask');
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
