import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fake } from './fake-electron';
import {
  appCommand,
  autostartEntry,
  autostartFile,
  desktopExecArg,
  setStartAtLogin,
} from '../../src/main/platform/login-item';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

describe('start at login', () => {
  it('uses the login-item API on macOS and Windows, started in the tray', async () => {
    await setStartAtLogin(true, 'darwin');
    await setStartAtLogin(false, 'win32');
    expect(fake.app.loginItems.slice(-2)).toEqual([
      { openAtLogin: true, args: ['--hidden'] },
      { openAtLogin: false, args: ['--hidden'] },
    ]);
  });

  it('writes and removes an XDG autostart entry on Linux', async () => {
    const config = await mkdtemp(path.join(tmpdir(), 'ws-autostart-'));
    dirs.push(config);
    const env = { XDG_CONFIG_HOME: config, APPIMAGE: '/home/ann/Apps/Workspace Sync.AppImage' };
    const file = autostartFile(env, '/home/ann');
    expect(file).toBe(path.join(config, 'autostart', 'workspace-sync.desktop'));
    await setStartAtLogin(true, 'linux', env);
    const text = await readFile(file, 'utf8');
    expect(text).toContain('[Desktop Entry]\nType=Application\n');
    expect(text).toContain('Exec="/home/ann/Apps/Workspace Sync.AppImage" --hidden\n');
    expect(text).toBe(autostartEntry('/home/ann/Apps/Workspace Sync.AppImage'));
    await setStartAtLogin(false, 'linux', env);
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
    // Turning it off twice is no error.
    await setStartAtLogin(false, 'linux', env);
  });

  it('finds the config dir without XDG_CONFIG_HOME, and the binary without an AppImage', () => {
    expect(autostartFile({}, '/home/ann')).toBe(
      '/home/ann/.config/autostart/workspace-sync.desktop',
    );
    expect(autostartFile({ XDG_CONFIG_HOME: 'relative' }, '/h')).toBe(
      '/h/.config/autostart/workspace-sync.desktop',
    );
    expect(appCommand({})).toBe(process.execPath);
  });

  it('quotes an Exec argument by the desktop entry rules', () => {
    expect(desktopExecArg('/usr/bin/workspace-sync')).toBe('/usr/bin/workspace-sync');
    expect(desktopExecArg('/opt/Workspace Sync/ws')).toBe('"/opt/Workspace Sync/ws"');
    expect(desktopExecArg('/a/"$x`\\')).toBe('"/a/\\"\\$x\\`\\\\"');
  });
});
