import { app } from 'electron';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { desktopExec, keyFileValue } from '../../shared/desktop-entry';

/** The command that starts the app: the AppImage itself when run from one (not its mount). */
export function appCommand(env: NodeJS.ProcessEnv = process.env): string {
  return env.APPIMAGE || process.execPath;
}

export function autostartFile(env: NodeJS.ProcessEnv = process.env, home = homedir()): string {
  const config =
    env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME)
      ? env.XDG_CONFIG_HOME
      : path.join(home, '.config');
  return path.join(config, 'autostart', 'workspace-sync.desktop');
}

/** The autostart entry (XDG Autostart): the app, started in the tray. */
export function autostartEntry(command: string): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Workspace Sync',
    'Comment=Keeps your workspaces in sync',
    // Quoted and escaped by the spec (a `%` in an AppImage's path is no field code).
    `Exec=${keyFileValue(desktopExec([command], '--hidden'))}`,
    'Icon=workspace-sync',
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/**
 * Start at login, started in the tray (`--hidden`): Electron's login-item API on macOS and
 * Windows; on Linux, which it does not cover, an XDG autostart entry.
 */
export async function setStartAtLogin(
  enabled: boolean,
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  if (platform === 'darwin' || platform === 'win32') {
    app.setLoginItemSettings({ openAtLogin: enabled, args: ['--hidden'] });
    return;
  }
  const file = autostartFile(env);
  if (!enabled) {
    await rm(file, { force: true });
    return;
  }
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, autostartEntry(appCommand(env)), { mode: 0o644 });
}
