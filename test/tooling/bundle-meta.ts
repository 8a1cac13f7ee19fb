import path from 'node:path';
import * as esbuild from 'esbuild';

const repoRoot = path.resolve(import.meta.dirname, '../..');

/** What esbuild makes of one target of scripts/build-targets.mjs, in memory: its metafile. */
export async function metafileOf(target: esbuild.BuildOptions): Promise<esbuild.Metafile> {
  const result = await esbuild.build({
    ...target,
    absWorkingDir: repoRoot,
    write: false,
    metafile: true,
    sourcemap: false,
    logLevel: 'silent',
  });
  return result.metafile;
}
