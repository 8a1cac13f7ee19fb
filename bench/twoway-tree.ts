import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { Journal, type JournalItem } from '../src/main/journal/journal';

// The tree of the startup-scan benchmarks (`twoway`: 100,000 entries; `twoway-million`: a
// million) and the scan child they run, bundled as the app runs its code.

const SCAN_FILE = path.join(import.meta.dirname, 'twoway-scan.ts');
const repoRoot = path.resolve(import.meta.dirname, '..');
const FILES_PER_FOLDER = 9;
const TOPS = 100;

/**
 * `folders` folders (100 top folders, the rest one level below them) of 9 files each on disk, and
 * the journal an earlier run would have left for them: `folders` × 10 entries.
 */
export function buildScanTree(
  dir: string,
  journalFile: string,
  folders = 10_000,
): { rootId: number; entries: number } {
  mkdirSync(dir, { recursive: true });
  const journal = new Journal(journalFile);
  const rootId = 1;
  let nextId = 2;
  let entries = 0;
  const record = (rel: string, parentId: number, kind: 'folder' | 'file'): number => {
    const st = lstatSync(path.join(dir, rel));
    const name = path.basename(rel);
    const item: JournalItem = {
      remoteId: nextId++,
      kind,
      remoteParentId: parentId,
      remoteName: name,
      localPath: rel,
      localName: name,
      dev: st.dev,
      ino: st.ino,
      size: kind === 'file' ? st.size : null,
      mtimeMs: st.mtimeMs,
      hash: null,
      remoteSize: kind === 'file' ? st.size : null,
      remoteUpdatedAt: null,
      state: 'synced',
    };
    journal.items.upsert(item);
    entries++;
    return item.remoteId;
  };
  journal.transaction(() => {
    // 100 top folders of (folders / 100 - 1) sub-folders each: 9 files in every folder.
    const per = folders / TOPS - 1;
    for (let t = 0; t < TOPS; t++) {
      const top = `Project ${t}`;
      mkdirSync(path.join(dir, top));
      const topId = record(top, rootId, 'folder');
      const inTop: [string, number][] = [[top, topId]];
      for (let s = 0; s < per; s++) {
        const sub = `${top}/Part ${s}`;
        mkdirSync(path.join(dir, sub));
        inTop.push([sub, record(sub, topId, 'folder')]);
      }
      for (const [folder, id] of inTop) {
        for (let f = 0; f < FILES_PER_FOLDER; f++) {
          const file = `${folder}/notes ${f}.txt`;
          writeFileSync(path.join(dir, file), `${file}\n`);
          record(file, id, 'file');
        }
      }
    }
  });
  journal.close();
  return { rootId, entries };
}

/** A tree built once in `dir` and kept there (a million entries take a minute to write). */
export function keptScanTree(
  dir: string,
  folders: number,
): { tree: string; journalFile: string; rootId: number; entries: number } {
  const tree = path.join(dir, 'tree');
  const journalFile = path.join(dir, 'journal.db');
  const marker = path.join(dir, 'built.json');
  if (existsSync(marker)) {
    const built = JSON.parse(readFileSync(marker, 'utf8')) as { rootId: number; entries: number };
    return { tree, journalFile, ...built };
  }
  const built = buildScanTree(tree, journalFile, folders);
  writeFileSync(marker, JSON.stringify(built));
  return { tree, journalFile, ...built };
}

/**
 * The scan child as the app runs its code: bundled by esbuild (like scripts/build.mjs), run by
 * plain node, so that its memory is the engine's and not the TypeScript loader's. Inside the
 * repository, so that its packages resolve; named after the checkout (worktrees share one
 * node_modules).
 */
export async function bundleScanChild(): Promise<string> {
  const tag = createHash('sha256').update(repoRoot).digest('hex').slice(0, 8);
  const outfile = path.join(
    repoRoot,
    `node_modules/.cache/workspace-sync-bench/twoway-scan-${tag}.mjs`,
  );
  await build({
    entryPoints: [SCAN_FILE],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    logLevel: 'warning',
  });
  return outfile;
}
