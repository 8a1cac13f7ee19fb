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
