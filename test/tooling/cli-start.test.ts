import { describe, expect, it } from 'vitest';
import { targets } from '../../scripts/build-targets.mjs';
import { metafileOf } from './bundle-meta';

// The headless CLI's start is part of every double-clicked placeholder's wait (`files open`):
// packages only some commands use are loaded when they are used (`await import`), never by the
// bundle's static imports, which every start pays for.

/** Used by one command or one rare case each: a prompt, a lock, Thunar's file, a date format. */
const LOADED_WHEN_USED = ['read', 'proper-lockfile', '@xmldom/xmldom', 'ws', 'chokidar'];
/** Not used by the client at all (the sandbox's). */
const NOT_LOADED = ['luxon'];

describe("the headless CLI's start", () => {
  it('imports the packages some commands use only when they are used', async () => {
    const target = targets.find((t) => String(t.outfile).startsWith('out/cli/'))!;
    const imports = Object.values((await metafileOf(target)).outputs).flatMap((o) => o.imports);
    const statically = new Set(
      imports.filter((i) => i.kind === 'import-statement').map((i) => i.path),
    );
    const dynamically = new Set(
      imports.filter((i) => i.kind === 'dynamic-import').map((i) => i.path),
    );
    for (const p of LOADED_WHEN_USED) {
      expect(statically.has(p), `${p} imported at start`).toBe(false);
      expect(dynamically.has(p), `${p} not imported at all`).toBe(true);
    }
    for (const p of NOT_LOADED) expect(statically.has(p) || dynamically.has(p), p).toBe(false);
  });
});
