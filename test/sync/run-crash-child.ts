import { spawn } from 'node:child_process';
import { programArgv } from '../bundles';

/**
 * Runs the engine in a child process (crash-child.ts) with `config`, asynchronously: the sandbox
 * it talks to lives in this process. `killed`: it killed itself (SIGKILL) where the config said.
 */
export function runCrashChild(
  config: object,
): Promise<{ killed: boolean; out: string; err: string }> {
  const child = spawn(process.execPath, [...programArgv('crash-child'), JSON.stringify(config)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 60_000,
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (_code, signal) => resolve({ killed: signal === 'SIGKILL', out, err }));
  });
}
