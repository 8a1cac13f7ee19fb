import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The engine's house (issue 23): its stages as lint sub-layers, and no import circle in src/.
// (The limits on files and functions are held by limits.test.ts.)

async function lint(filePath: string, code: string): Promise<string[]> {
  const eslint = new ESLint();
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'layers/layers').map((m) => m.message);
}

const root = path.resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(p));
    else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** Relative imports (type-only ones too: a circle of types is still a circle), resolved. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  const out: string[] = [];
  for (const ref of info.importedFiles) {
    if (!ref.fileName.startsWith('.')) continue;
    const base = path.resolve(path.dirname(file), ref.fileName);
    for (const candidate of [base + '.ts', base + '.tsx', path.join(base, 'index.ts')]) {
      try {
        readFileSync(candidate);
        out.push(candidate);
        break;
      } catch {
        // Not this one.
      }
    }
  }
  return out;
}

/** The import circles among files, each as the list of files around it (Tarjan's SCCs). */
function circles(files: string[]): string[][] {
  const graph = new Map(files.map((f) => [f, importsOf(f)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(path.relative(root, w));
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(scc);
    }
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return found;
}

describe("the engine's house", () => {
  it('has no import circle anywhere in src/', () => {
    expect(circles(sources(path.join(root, 'src')))).toEqual([]);
  });

  it('finds a circle when there is one (the check bites)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'circle-'));
    try {
      writeFileSync(path.join(dir, 'a.ts'), "import { b } from './b';\nexport const a = b;\n");
      writeFileSync(
        path.join(dir, 'b.ts'),
        "import type { a } from './a';\nexport const b = 1 as a;\n",
      );
      writeFileSync(path.join(dir, 'c.ts'), "import { a } from './a';\nexport const c = a;\n");
      const found = circles(sources(dir));
      expect(found).toHaveLength(1);
      expect(found[0]!.map((f) => path.basename(f)).sort()).toEqual(['a.ts', 'b.ts']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the up side from importing the down side, and the reverse', async () => {
    const messages = await lint(
      'src/main/sync/up/x.ts',
      "import { planChanges } from '../down/plan';\nexport const p = planChanges;\n",
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain("Layer 'sync-up' must not import from layer 'sync-down'");
    expect(
      await lint(
        'src/main/sync/down/x.ts',
        "import { Sender } from '../up/send';\nexport const s = Sender;\n",
      ),
    ).toHaveLength(1);
  });

  it('keeps planners out of detection', async () => {
    for (const [file, spec] of [
      ['src/main/sync/detect-remote/x.ts', '../down/plan'],
      ['src/main/sync/detect-local/x.ts', '../up/plan'],
      ['src/main/sync/detect-local/x.ts', '../up/reconcile'],
      ['src/main/sync/detect-remote/x.ts', '../loop/engine'],
    ] as const) {
      expect(
        await lint(file, `import * as m from '${spec}';\nexport const x = m;\n`),
        file,
      ).toHaveLength(1);
    }
    // The engine's vocabulary is open to every stage.
    expect(
      await lint(
        'src/main/sync/detect-local/x.ts',
        "import { parentOf } from '../paths';\nexport const p = parentOf;\n",
      ),
    ).toEqual([]);
  });

  it('lets the engine vocabulary import no stage', async () => {
    expect(
      await lint(
        'src/main/sync/x.ts',
        "import { SyncEngine } from './loop/engine';\nexport const e = SyncEngine;\n",
      ),
    ).toHaveLength(1);
  });
});
