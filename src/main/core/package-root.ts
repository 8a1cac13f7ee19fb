import { readFileSync } from 'node:fs';
import path from 'node:path';

// Where the app's own files are (package.json, bin/, the built window), found from a module's
// folder by looking upward instead of a fixed '../../..': the same module runs from src/ through
// tsx, from out/ bundled into one file, and from a test bundle, each at another depth.

const NAME = 'workspace-sync';
const found = new Map<string, string | null>();

/** The nearest folder at or above `from` whose package.json is this app's; null if none. */
export function packageRoot(from: string): string | null {
  const known = found.get(from);
  if (known !== undefined) return known;
  let dir = path.resolve(from);
  let root: string | null = null;
  for (;;) {
    if (isOurs(path.join(dir, 'package.json'))) {
      root = dir;
      break;
    }
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  found.set(from, root);
  return root;
}

function isOurs(file: string): boolean {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === NAME;
  } catch {
    return false;
  }
}
