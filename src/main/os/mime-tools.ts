// The freedesktop tools that turn what we write into what file managers read: update-mime-database
// compiles mime/packages/*.xml into the database GLib and KDE look names up in (without it the
// type we declare is unknown), update-desktop-database indexes handlers by type (mimeinfo.cache,
// read by older tools; GLib reads the .desktop files themselves, so it is optional).
import { spawn } from 'node:child_process';
import type { Words } from '../../shared/i18n';
import { childEnv } from './child-env';

export interface DatabaseTool {
  name: 'update-mime-database' | 'update-desktop-database';
  /** The Debian package that has it, for the words when it is missing. */
  package: string;
  /** Whether its absence is worth a word (without it, double-clicking does not work). */
  needed: boolean;
}

export const MIME_TOOL: DatabaseTool = {
  name: 'update-mime-database',
  package: 'shared-mime-info',
  needed: true,
};
export const DESKTOP_TOOL: DatabaseTool = {
  name: 'update-desktop-database',
  package: 'desktop-file-utils',
  needed: false,
};

/** Runs `tool` on `dir`; the words of what went wrong, or null (also when an optional one is missing). */
export function runDatabaseTool(
  tool: DatabaseTool,
  dir: string,
  env: NodeJS.ProcessEnv,
): Promise<Words | null> {
  return new Promise((resolve) => {
    const child = spawn(tool.name, [dir], {
      env: childEnv(env),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') {
        const missing = { key: 'cli.integrate.toolMissing' as const };
        resolve(
          tool.needed
            ? { ...missing, params: { tool: tool.name, package: tool.package, dir } }
            : null,
        );
      } else {
        resolve({
          key: 'cli.integrate.toolFailed',
          params: { tool: tool.name, dir, why: err.message },
        });
      }
    });
    child.once('close', (code, signal) => {
      if (code === 0) return resolve(null);
      const why = stderr.trim().split('\n')[0] || (signal ?? `exit status ${code}`);
      resolve({ key: 'cli.integrate.toolFailed', params: { tool: tool.name, dir, why } });
    });
  });
}
