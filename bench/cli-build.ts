import path from 'node:path';
import * as esbuild from 'esbuild';
import { targets } from '../scripts/build-targets.mjs';

const repoRoot = path.resolve(import.meta.dirname, '..');
let built: Promise<string> | undefined;

/**
 * The command that runs the headless CLI as it ships (`node out/cli/index.js`), built once per
 * bench run from the current source: memory figures then count the client, not tsx's compiler
 * (~50 MB of RSS a user of the built CLI never pays).
 */
export function builtCli(): Promise<string[]> {
  built ??= (async () => {
    const target = targets.find((t) => String(t.outfile).startsWith('out/cli/'));
    if (!target) throw new Error('scripts/build-targets.mjs has no out/cli target');
    await esbuild.build({ ...target, absWorkingDir: repoRoot, logLevel: 'warning' });
    return path.join(repoRoot, String(target.outfile));
  })();
  return built.then((file) => [process.execPath, file]);
}
