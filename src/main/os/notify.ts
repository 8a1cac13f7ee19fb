import { spawn } from 'node:child_process';
import type { Logger } from '../core/logger';
import { childEnv } from './child-env';

/** Longest wait for notify-send (it waits for the notification daemon's answer over D-Bus). */
const NOTIFY_TIMEOUT_MS = 5000;

/**
 * A desktop notification through notify-send (Linux), for commands run from a file manager's
 * menu where no terminal shows their output. Resolves false when it could not be shown (no
 * notify-send, no notification daemon): the outcome is still in the log and on stderr.
 */
export function notify(
  summary: string,
  body: string,
  opts: { env: NodeJS.ProcessEnv; urgent?: boolean; log: Logger },
): Promise<boolean> {
  if (process.platform !== 'linux') return Promise.resolve(false);
  const args = [
    '--app-name=Workspace Sync',
    '--icon=insert-link',
    `--urgency=${opts.urgent ? 'critical' : 'normal'}`,
    '--',
    summary,
    body,
  ];
  return new Promise((resolve) => {
    const child = spawn('notify-send', args, { env: childEnv(opts.env), stdio: 'ignore' });
    const timer = setTimeout(() => child.kill(), NOTIFY_TIMEOUT_MS);
    child.once('error', (err) => {
      clearTimeout(timer);
      opts.log.warn('no desktop notification', { err });
      resolve(false);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) opts.log.warn('no desktop notification', { code });
      resolve(code === 0);
    });
  });
}
