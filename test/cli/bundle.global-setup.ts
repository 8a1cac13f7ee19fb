import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import * as esbuild from 'esbuild';
import type { TestProject } from 'vitest/node';

// The CLI children of a test run start from one bundle of src/dev/cli.ts built here, once per
// run, not through tsx: tsx loads its compiler and resolves ~300 source files in every child
// (about 1.1 s of CPU each; the bundle starts in 0.35 s), and the suite starts a few hundred of
// them on a 2-core machine. Built afresh each run from the working tree, so never stale; a test
// file run outside vitest (no bundle provided) still starts children through tsx.

declare module 'vitest' {
  export interface ProvidedContext {
    /** The bundled `workspace-sync` of this run (absolute path), or '' to start it through tsx. */
    cliBundle: string;
  }
}

const repoRoot = path.resolve(import.meta.dirname, '../..');

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Under the repository, so that the CLI finds the app's package.json and built window as it
  // does from source; one file per run, so that two runs never share one.
  const dir = path.join(repoRoot, 'out', 'test-cli');
  const file = path.join(dir, `cli-${process.pid}.mjs`);
  await mkdir(dir, { recursive: true });
  await esbuild.build({
    stdin: {
      // The entry runs the CLI itself: every module's own "am I the entry?" check is off in the
      // bundle (they would all say yes: one file), by `import.meta.url` defined away below.
      contents:
        "import { runProcess } from './src/dev/cli';\nvoid runProcess(process.argv.slice(2));\n",
      resolveDir: repoRoot,
      sourcefile: 'test-cli-entry.ts',
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    external: ['electron'],
    define: { 'import.meta.url': '"about:workspace-sync-test-bundle"' },
    outfile: file,
    logLevel: 'warning',
  });
  project.provide('cliBundle', file);
  return () => rm(file, { force: true });
}
