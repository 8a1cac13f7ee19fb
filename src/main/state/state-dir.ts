import { homedir } from 'node:os';
import path from 'node:path';

/**
 * Where the CLI and the app keep their state (settings, journals, logs, trash; tokens are in
 * the keychain) when `--state` is not given:
 * `WORKSPACE_SYNC_STATE` if set; else the platform's place for application state.
 */
export function defaultStateDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  const explicit = env.WORKSPACE_SYNC_STATE;
  if (explicit) return path.resolve(explicit);
  if (platform === 'win32') {
    const local = env.LOCALAPPDATA || path.win32.join(home, 'AppData', 'Local');
    return path.win32.join(local, 'Workspace Sync');
  }
  if (platform === 'darwin')
    return path.join(home, 'Library', 'Application Support', 'Workspace Sync');
  // XDG: a relative XDG_STATE_HOME is invalid and must be ignored.
  const xdg = env.XDG_STATE_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.local', 'state');
  return path.join(base, 'workspace-sync');
}

/** Where each kind of file lives (see `placesOf`). */
export interface Places {
  /** What the program keeps for itself: journals, trash, running status, account files. */
  state: string;
  /** What the person chose: settings.json and pairs.json. */
  config: string;
  /** The log files. */
  logs: string;
}

/**
 * The OS's places for this user (not `env-paths`: it names a program one way on every OS, while
 * this one is `workspace-sync` on Linux and `Workspace Sync` elsewhere, and it keeps the macOS
 * configuration in ~/Library/Preferences, the folder the system's defaults own):
 * - Linux (XDG): config `$XDG_CONFIG_HOME/workspace-sync` (`~/.config/…`); state and logs
 *   `$XDG_STATE_HOME/workspace-sync` (`~/.local/state/…`, where XDG puts logs);
 * - macOS: config and state `~/Library/Application Support/Workspace Sync`, logs
 *   `~/Library/Logs/Workspace Sync` (Console.app finds them there);
 * - Windows: config `%APPDATA%\Workspace Sync` (roaming), state `%LOCALAPPDATA%\Workspace Sync`,
 *   logs in its `Logs`.
 * A state directory given (`--state`, `WORKSPACE_SYNC_STATE`) holds everything, as before: a
 * test or a second profile stays in one folder.
 */
export function placesOf(
  given: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): Places {
  const explicit = given ?? (env.WORKSPACE_SYNC_STATE || undefined);
  if (explicit) {
    const state = path.resolve(explicit);
    return { state, config: state, logs: path.join(state, 'logs') };
  }
  const state = defaultStateDir(env, platform, home);
  if (platform === 'win32') {
    const roaming = env.APPDATA || path.win32.join(home, 'AppData', 'Roaming');
    return {
      state,
      config: path.win32.join(roaming, 'Workspace Sync'),
      logs: path.win32.join(state, 'Logs'),
    };
  }
  if (platform === 'darwin') {
    return { state, config: state, logs: path.join(home, 'Library', 'Logs', 'Workspace Sync') };
  }
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.config');
  return { state, config: path.join(base, 'workspace-sync'), logs: path.join(state, 'logs') };
}
