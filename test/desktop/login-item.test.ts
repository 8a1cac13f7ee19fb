import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fake } from './fake-electron';
import {
  appCommand,
  autostartEntry,
  autostartFile,
  setStartAtLogin,
} from '../../src/main/platform/login-item';

const dirs: string[] = [];
/** Debian's python3 with python3-gi, and the helper that launches an entry with GLib. */
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const FM_LAUNCH = path.join(import.meta.dirname, '..', 'os', 'fm-launch.py');
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

  it('starts the AppImage at login whatever its path holds (GLib reads the entry; attack 8)', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ws-autostart-'));
    dirs.push(dir);
    const record = path.join(dir, 'argv.bin');
    for (const folder of ['100%free', `it's "$HOME" \`x\` \\ %f %%`, 'plain']) {
      // The AppImage: a script that writes the argv it got (its own path first).
      const app = path.join(dir, folder, 'Workspace Sync.AppImage');
      await mkdir(path.dirname(app), { recursive: true });
      await writeFile(app, `#!/bin/sh\nprintf '%s\\0' "$0" "$@" > "$RECORD"\n`, { mode: 0o755 });
      const env = { XDG_CONFIG_HOME: path.join(dir, 'config'), APPIMAGE: app };
      await setStartAtLogin(true, 'linux', env);
      // The entry launched as GNOME's session does: GDesktopAppInfo, by test/os/fm-launch.py.
      await rm(record, { force: true });
      const run = spawnSync(PYTHON, [FM_LAUNCH, 'autostart', autostartFile(env)], {
        env: { PATH: process.env.PATH ?? '', RECORD: record },
        encoding: 'utf8',
      });
      expect(run.status, `${folder}: ${run.stderr}`).toBe(0);
      expect((await readFile(record, 'utf8')).split('\0').slice(0, -1), folder).toEqual([
        app,
        '--hidden',
      ]);
    }
  });
});
