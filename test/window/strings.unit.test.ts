import { afterAll, describe, expect, it } from 'vitest';
import { setLanguage, strings } from '../../src/renderer/strings';
import { translator } from '../../src/shared/i18n';
import { de } from '../../src/shared/i18n/de';
import { en, type MessageKey } from '../../src/shared/i18n/en';

// Every string of the window changes with the language, unless the catalogs say it is the same
// in both (Status, Name, Proxy): an English literal added to strings.ts outside the catalog is
// found here, and so is a German message left as a copy of the English one.

type Tree = { [key: string]: unknown };

/** Each leaf of the strings: a string, or what a function says for sample arguments. */
function said(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const name = prefix + key;
    if (typeof value === 'string') out.set(name, value);
    else if (typeof value === 'function') {
      for (const arg of ['X', 2]) {
        try {
          const text = (value as (...a: unknown[]) => unknown)(arg, arg, arg);
          if (typeof text === 'string') {
            out.set(name, text);
            break;
          }
        } catch {
          // Another kind of argument (an operation, a proxy problem): the next sample.
        }
      }
    } else if (typeof value === 'object' && value !== null) {
      for (const [k, v] of said(value as Tree, `${name}.`)) out.set(k, v);
    }
  }
  return out;
}

/** What the catalogs say alike in both languages, for the same sample arguments. */
function sameInBoth(): Set<string> {
  const same = new Set<string>();
  for (const key of Object.keys(en) as MessageKey[]) {
    if (en[key] !== de[key]) continue;
    const names = [...en[key].matchAll(/\{(\w+)[,}]/g)].map((m) => m[1]!);
    for (const arg of ['X', 2])
      same.add(translator('en').t(key, Object.fromEntries(names.map((n) => [n, arg]))));
  }
  return same;
}

afterAll(() => setLanguage('en'));

describe('the window’s strings', () => {
  it('all change with the language, but for what the catalogs keep alike', () => {
    setLanguage('en');
    const english = said(strings as unknown as Tree);
    setLanguage('de');
    const german = said(strings as unknown as Tree);
    expect(english.size).toBeGreaterThan(250);
    expect([...german.keys()]).toEqual([...english.keys()]);
    const alike = sameInBoth();
    const unchanged = [...english].filter(
      ([key, text]) => german.get(key) === text && !alike.has(text),
    );
    expect(unchanged).toEqual([]);
  });
});
