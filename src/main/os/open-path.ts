import { spawn } from 'node:child_process';
import path from 'node:path';
import { childEnv } from './child-env';

/** The program that shows a folder in the desktop's file manager, per system. */
function opener(platform: NodeJS.Platform): { command: string; args: (dir: string) => string[] } {
  if (platform === 'darwin') return { command: 'open', args: (dir) => [dir] };
  if (platform === 'win32') return { command: 'explorer.exe', args: (dir) => [dir] };
  return { command: 'xdg-open', args: (dir) => [dir] };
}

/**
 * Opens a folder in the file manager of the computer the bridge runs on (the web window's
 * browser is on the same computer: the bridge listens on 127.0.0.1 only). Resolves once the
 * opener started; rejects when there is none (a headless machine).
 */
export function openInFileManager(
  dir: string,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): Promise<void> {
  const { command, args } = opener(platform);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args(dir), {
      env: childEnv(env),
      detached: true,
      stdio: 'ignore',
    });
    child.once('error', reject);
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}

/**
 * Shows a file in the file manager with it selected where the system can (Finder's `open -R`,
 * Explorer's `/select,`); on Linux, whose file managers share no way to select, its folder.
 */
export function showInFileManager(
  file: string,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): Promise<void> {
  if (platform === 'darwin') return start('open', ['-R', file], env);
  if (platform === 'win32') return start('explorer.exe', [`/select,${file}`], env);
  return start('xdg-open', [path.dirname(file)], env);
}

function start(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: childEnv(env), detached: true, stdio: 'ignore' });
    child.once('error', reject);
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
