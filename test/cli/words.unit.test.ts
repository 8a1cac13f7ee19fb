import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The CLI's and the accounts' refusals are said in the reader's language, so each is made of a
// catalog key's words: an English literal given to one of these errors would reach a German user
// as English. This keeps a later one from slipping in.

const root = path.resolve(import.meta.dirname, '../..');
const LITERAL =
  /new (?:UsageError|CliError|UserError|ClipboardError)\(\s*['"`]|new LinkError\(\s*'[^']*',\s*['"`]/g;

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.join(dir, f));
}

describe('the CLI and the accounts', () => {
  it('give no English literal to their errors (UsageError, CliError, UserError, LinkError…)', () => {
    const files = [
      ...sources('src/main/cli'),
      ...sources('src/main/accounts'),
      // What `link` says: why a path has no link, why the clipboard refused it.
      ...sources('src/main/links'),
      'src/main/os/clipboard.ts',
    ];
    expect(files.length).toBeGreaterThan(10);
    const found: string[] = [];
    for (const file of files) {
      const text = readFileSync(path.join(root, file), 'utf8');
      for (const m of text.matchAll(LITERAL)) {
        const line = text.slice(0, m.index).split('\n').length;
        found.push(`${file}:${line}: ${m[0]}`);
      }
    }
    expect(found).toEqual([]);
  });
});
