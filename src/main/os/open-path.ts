import { spawn } from 'node:child_process';
import path from 'node:path';
import { childEnv } from './child-env';

/**
 * How long a started opener is watched for its verdict. xdg-open and `open` hand the path to
 * the desktop and end at once, non-zero when nothing could open it (xdg-open: 3 a tool missing,
 * 4 the action failed); one still running past this has started something (a terminal
 * fallback, a file manager kept in the foreground) and is left to it.
 */
export const LAUNCH_WINDOW_MS = 3000;

/** An opener that did not open: not found (`missing`), or it ended with a failure code. */
export class OpenFailed extends Error {
  constructor(
    readonly program: string,
    readonly reason: { missing: true } | { missing: false; code: number | string },
  ) {
    super(
      reason.missing
        ? `${program} was not found`
        : `${program} could not open it (it ended with ${reason.code})`,
    );
    this.name = 'OpenFailed';
  }
}

/** The program that shows a folder in the desktop's file manager, per system. */
function opener(platform: NodeJS.Platform): { command: string; args: (dir: string) => string[] } {
  if (platform === 'darwin') return { command: 'open', args: (dir) => [dir] };
  if (platform === 'win32') return { command: 'explorer.exe', args: (dir) => [dir] };
  return { command: 'xdg-open', args: (dir) => [dir] };
}

/**
 * Opens a folder (or a file, with its program) on the computer the bridge runs on (the web
 * window's browser is on the same computer: the bridge listens on 127.0.0.1 only). Resolves
 * once the opener did its part; rejects with `OpenFailed` when there is none (a headless
 * machine) or it said it could not open the path.
 */
export function openInFileManager(
  dir: string,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
  windowMs = LAUNCH_WINDOW_MS,
): Promise<void> {
  const { command, args } = opener(platform);
  return launch(command, args(dir), env, platform, windowMs);
}

/**
 * Shows a file in the file manager with it selected where the system can (Finder's `open -R`,
 * Explorer's `/select,`); on Linux, whose file managers share no way to select, its folder.
 */
export function showInFileManager(
  file: string,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
  windowMs = LAUNCH_WINDOW_MS,
): Promise<void> {
  if (platform === 'darwin') return launch('open', ['-R', file], env, platform, windowMs);
  if (platform === 'win32')
    return launch('explorer.exe', [`/select,${file}`], env, platform, windowMs);
  return launch('xdg-open', [path.dirname(file)], env, platform, windowMs);
}

/**
 * Starts an opener and waits for its verdict: its exit within `windowMs`, else "started".
 * Explorer ends with 1 when it did open the path, so on Windows only a failed start counts.
 */
function launch(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
  windowMs: number,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: childEnv(env), detached: true, stdio: 'ignore' });
    let timer: NodeJS.Timeout | undefined;
    const settle = (failure: OpenFailed | null) => {
      clearTimeout(timer);
      child.removeAllListeners();
      child.unref();
      if (failure) reject(failure);
      else resolve();
    };
    child.once('error', (err: NodeJS.ErrnoException) =>
      settle(
        new OpenFailed(
          command,
          err.code === 'ENOENT' ? { missing: true } : { missing: false, code: err.code ?? '?' },
        ),
      ),
    );
    child.once('spawn', () => {
      timer = setTimeout(() => settle(null), windowMs);
    });
    child.once('exit', (code, signal) => {
      if (code === 0 || platform === 'win32') settle(null);
      else settle(new OpenFailed(command, { missing: false, code: code ?? signal ?? '?' }));
    });
  });
}
