import path from 'node:path';
import { inject } from 'vitest';
import { BUNDLED, type BundleName } from './bundled-programs';
// For its `ProvidedContext` (what `inject` reads below); no code of it runs here.
import type {} from './bundles.global-setup';

// The programs test files start as children, and how: from this run's bundle
// (test/bundles.global-setup.ts), or through tsx where no run provided one.

function provided<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined; // imported outside a vitest run
  }
}

const repoRoot = path.resolve(import.meta.dirname, '..');

/** Node's arguments that start `name` (then the program's own): its bundle, else tsx and its source. */
export function programArgv(name: BundleName): string[] {
  const bundle = provided(() => inject('bundles'))?.[name];
  return bundle ? [bundle] : ['--import', 'tsx', path.join(repoRoot, BUNDLED[name].file)];
}

/** The window this run built, or undefined where none was built. */
export const builtRenderer = (): string | undefined => provided(() => inject('builtRenderer'));
