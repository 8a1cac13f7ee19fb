import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The window says the backend's refusals in its own language only when they travel as words
// (`fail(kind, { key, params })`, AppError.words): an English literal handed to `fail` would
// reach a German window in English. This keeps a new one from slipping in.

const DIR = path.resolve(import.meta.dirname, '../../src/main/backend');

describe('the backend refuses with words, never an English literal', () => {
  it('has no fail(kind, "…") in src/main/backend', () => {
    const found: string[] = [];
    // Recursive: the handlers live in handlers/, one file per namespace.
    const names = readdirSync(DIR, { recursive: true, encoding: 'utf8' }).filter((n) =>
      n.endsWith('.ts'),
    );
    expect(names).toContain(path.join('handlers', 'links.ts'));
    for (const name of names) {
      const text = readFileSync(path.join(DIR, name), 'utf8');
      // Also across a line break: `fail(\n  'invalid',\n  'Some sentence.'`.
      for (const m of text.matchAll(/fail\(\s*'[a-z-]+',\s*['`"]/g))
        found.push(`${name}: ${m[0].replace(/\s+/g, ' ')}`);
      for (const m of text.matchAll(/message: ['`"][A-Z]/g)) found.push(`${name}: ${m[0]}`);
    }
    expect(found).toEqual([]);
  });
});
