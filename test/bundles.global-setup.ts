import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import * as esbuild from 'esbuild';
import type { TestProject } from 'vitest/node';
import { BUNDLED, type BundleName } from './bundled-programs';

// What the test files' children run, built once per test run, before any file starts: each
// program a bundle (not tsx, which loads its compiler and resolves ~300 source files in every
// child: about 1.1 s of CPU each where a bundle starts in 0.35 s, and the suite starts a few
// hundred children on a 2-core machine), and the window once (not once per window test file).
// Built afresh from the working tree each run, so never stale; a file run outside vitest gets
// nothing provided and its children start through tsx (test/bundles.ts).

declare module 'vitest' {
  export interface ProvidedContext {
    /** Each program's bundle of this run (absolute paths). */
    bundles: Record<BundleName, string>;
    /** The window built by Vite for this run (a folder with index.html). */
    builtRenderer: string;
  }
}

const repoRoot = path.resolve(import.meta.dirname, '..');

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Under the repository, so that a program finds the app's package.json as it does from source;
  // a folder per run, so that two runs (two worktrees, a developer's and a helper's) never share.
  await mkdir(path.join(repoRoot, 'out'), { recursive: true });
  const dir = await mkdtemp(path.join(repoRoot, 'out', 'test-run-'));
  const bundles = {} as Record<BundleName, string>;
  const programs: [string, { file: string; run?: string }][] = Object.entries(BUNDLED);
  const built = programs.map(async ([name, source]) => {
    const file = path.join(dir, `${name}.mjs`);
    await esbuild.build({
      // The entry runs the program: every module's own "am I the entry?" check is off in the
      // bundle (they would all say yes: one file), by `import.meta.url` defined away below.
      stdin: {
        contents: source.run ?? `import './${source.file}';\n`,
        resolveDir: repoRoot,
        sourcefile: `${name}-entry.ts`,
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
    bundles[name as BundleName] = file;
  });
  const renderer = path.join(dir, 'renderer');
  await Promise.all([...built, viteBuild(renderer)]);
  project.provide('bundles', bundles);
  project.provide('builtRenderer', renderer);
  return () => rm(dir, { recursive: true, force: true });
}

function viteBuild(outDir: string): Promise<void> {
  const child = spawn(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'error', '--outDir', outDir],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`vite build failed (${code}):\n${output}`)),
    );
  });
}
