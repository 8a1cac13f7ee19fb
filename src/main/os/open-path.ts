import { spawn } from 'node:child_process';

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
    const child = spawn(command, args(dir), { env, detached: true, stdio: 'ignore' });
    child.once('error', reject);
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
