import type { Sandbox, User } from '../src/service/context';
import { startSandbox } from '../src/service/sandbox';
import { nameKey } from '../src/service/names';
import { mulberry32 } from '../src/shared/random';

// The scale benchmark's generated workspaces (100k and 1M entries), written straight into the
// sandbox's SQLite in one transaction: going through the operation functions costs a blob file
// and an event per file (minutes at a million). What is written is what those functions write
// for the listing and download routes: items with their `name_key`, folder sizes summed up the
// tree, the `item_ids` counter (its trigger). Left out: file_versions and events (the feed then
// holds nothing for this tree: a client learns it by walking, as a first sync does anyway).
//
// Contents: a pool of POOL_SIZE distinct small contents (200–4,000 bytes, written once to the
// content-addressed blob store), shared by every file: a download costs what it would for
// distinct bytes of that size, and the blob store holds a few thousand files, not a million.

export interface ScaleSpec {
  folders: number;
  files: number;
  seed: number;
}

export interface ScaleTree {
  workspaceId: number;
  rootId: number;
  folders: number;
  files: number;
  nonEmptyFiles: number;
  bytes: number;
  maxDepth: number;
  /** Folders without any child. */
  emptyFolders: number;
  /** Folders of more than one listing page (60 entries). */
  pagedFolders: number;
  ms: number;
}

const POOL_SIZE = 4_096;
const WORDS = [
  'Projects',
  'Archive',
  'Reports',
  'Verträge',
  'Équipe',
  'Café menu',
  '資料',
  'Фотографии',
  'Notes',
  'Design',
  'Budget',
  'Übersicht',
  'データ',
  'Invoices',
  'Señales',
  '🎵 Music',
  'Meeting notes',
  'Q3 2024',
];
const EXTS = ['txt', 'md', 'csv', 'json', 'log', 'pdf', 'docx', 'xlsx'];

/** Deterministic pseudo-random bytes from a 32-bit seed (xorshift32). */
function content(size: number, seed: number): Buffer {
  const words = new Uint32Array(Math.ceil(size / 4));
  let x = seed | 1;
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    words[i] = x >>> 0;
  }
  return Buffer.from(words.buffer, 0, size);
}

/**
 * Writes a tree of `spec.folders` folders (root not counted) and `spec.files` files into the
 * (empty) workspace `workspaceId`, owned by `userId`: breadth first, 6–14 subfolders per folder,
 * every folder but about one in 20 given a file first (a few stay empty), one in 200 bulky
 * (several listing pages). Times are spread over the two days before now, ending an hour ago.
 * 1M entries took 90 s here with the machine's two cores shared by a load of 16.
 */
export async function writeScaleTree(
  sb: Sandbox,
  userId: number,
  workspaceId: number,
  spec: ScaleSpec,
): Promise<ScaleTree> {
  const started = performance.now();
  const rand = mulberry32(spec.seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

  const poolSizes = Array.from({ length: POOL_SIZE }, () => int(200, 4000));
  const pool: { hash: string; size: number }[] = [];
  for (let i = 0; i < POOL_SIZE; i += 64) {
    const chunk = poolSizes.slice(i, i + 64);
    const written = await Promise.all(
      chunk.map((size, k) => sb.blobs.writeBuffer(content(size, spec.seed * 7919 + i + k))),
    );
    pool.push(...written);
  }
  const empty = await sb.blobs.writeBuffer(Buffer.alloc(0));

  const db = sb.db;
  const rootId = (
    db.prepare(`SELECT root_folder_id FROM workspaces WHERE id = ?`).get(workspaceId) as {
      root_folder_id: number;
    }
  ).root_folder_id;
  const firstId = (db.prepare(`SELECT last FROM item_ids`).get() as { last: number }).last + 1;
  const now = Date.now();
  const from = now - 2 * 24 * 3600_000;
  const step = (2 * 24 * 3600_000 - 3600_000) / (spec.folders + spec.files + 1);

  // Folders first (breadth first), kept as parallel arrays: at a million entries an object per
  // folder is fine, one per file is not needed.
  const parent = new Int32Array(spec.folders + 1);
  const depth = new Uint8Array(spec.folders + 1);
  const children = new Uint16Array(spec.folders + 1);
  const fileCount = new Uint32Array(spec.folders + 1);
  const sizes = new Float64Array(spec.folders + 1);
  const names: string[] = [''];
  let made = 0;
  for (let q = 0; q <= made && made < spec.folders; q++) {
    const count = q === 0 ? 10 : depth[q]! >= 7 || rand() < 0.1 ? 0 : int(6, 14);
    for (let i = 0; i < count && made < spec.folders; i++) {
      const f = ++made;
      parent[f] = q;
      depth[f] = depth[q]! + 1;
      children[q]!++;
      names.push(`${pick(WORDS)} ${f}`);
    }
  }
  if (made < spec.folders) throw new Error('the tree shape cannot hold that many folders');

  // Files: each folder but about one in 20 gets one first; the rest anywhere, bulky folders
  // weighing 80 times more.
  const firsts: number[] = [];
  const weighted: number[] = [0];
  for (let f = 1; f <= spec.folders; f++) {
    if (rand() >= 0.05) firsts.push(f);
    weighted.push(f);
    if (rand() < 0.005) for (let k = 0; k < 80; k++) weighted.push(f);
  }
  const fileFolder = new Int32Array(spec.files);
  const fileContent = new Int32Array(spec.files);
  let nonEmptyFiles = 0;
  let bytes = 0;
  for (let j = 0; j < spec.files; j++) {
    const f = j < firsts.length ? firsts[j]! : pick(weighted);
    fileFolder[j] = f;
    fileCount[f]!++;
    const c = rand() < 0.01 ? -1 : Math.floor(rand() * POOL_SIZE);
    fileContent[j] = c;
    const size = c < 0 ? 0 : pool[c]!.size;
    if (size > 0) nonEmptyFiles++;
    bytes += size;
    for (let a = f; ; a = parent[a]!) {
      sizes[a]! += size;
      if (a === 0) break;
    }
  }

  const idOf = (f: number) => (f === 0 ? rootId : firstId + f - 1);
  const insert = db.prepare(
    `INSERT INTO items (id, kind, workspace_id, parent_id, filename, name_key, user_id, size,
       blob, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // Files in the order of their folders, so that each index is written where the last row went
  // (a random order costs a page miss per row at a million), with a cache that holds the
  // indexes meanwhile.
  const order = Array.from({ length: spec.files }, (_, j) => j).sort(
    (a, b) => fileFolder[a]! - fileFolder[b]! || a - b,
  );
  const cacheSize = db.pragma('cache_size', { simple: true }) as number;
  db.pragma('cache_size = -524288');
  db.transaction(() => {
    let t = from;
    for (let f = 1; f <= spec.folders; f++) {
      const name = names[f]!;
      const at = Math.round((t += step));
      insert.run(
        idOf(f),
        'folder',
        workspaceId,
        idOf(parent[f]!),
        name,
        nameKey(name),
        userId,
        sizes[f]!,
        null,
        at,
        at,
      );
    }
    let fileId = firstId + spec.folders;
    for (const j of order) {
      const c = fileContent[j]!;
      const blob = c < 0 ? empty : pool[c]!;
      const name = `${WORDS[j % WORDS.length]} ${j + 1}.${EXTS[j % EXTS.length]}`;
      const at = Math.round((t += step));
      insert.run(
        fileId++,
        'file',
        workspaceId,
        idOf(fileFolder[j]!),
        name,
        nameKey(name),
        userId,
        blob.size,
        blob.hash,
        at,
        at,
      );
    }
    db.prepare(`UPDATE items SET size = ? WHERE id = ?`).run(sizes[0]!, rootId);
  })();
  db.pragma(`cache_size = ${cacheSize}`);

  let maxDepth = 0;
  let emptyFolders = 0;
  let pagedFolders = 0;
  for (let f = 0; f <= spec.folders; f++) {
    maxDepth = Math.max(maxDepth, depth[f]!);
    const entries = children[f]! + fileCount[f]!;
    if (f > 0 && entries === 0) emptyFolders++;
    if (entries > 60) pagedFolders++;
  }
  return {
    workspaceId,
    rootId,
    folders: spec.folders,
    files: spec.files,
    nonEmptyFiles,
    bytes,
    maxDepth,
    emptyFolders,
    pagedFolders,
    ms: Math.round(performance.now() - started),
  };
}

/**
 * A scale tree written into a sandbox data folder `dataDir` by a sandbox of this process (closed
 * after): what a bench's sandbox child then serves.
 */
export async function generateScaleData(dataDir: string, spec: ScaleSpec): Promise<ScaleTree> {
  const inproc = await startSandbox({ seed: 'empty', dataDir });
  try {
    const owner = inproc.sandbox.db
      .prepare(`SELECT * FROM users WHERE id = ?`)
      .get(inproc.users[0]!.id) as User;
    return await writeScaleTree(inproc.sandbox, owner.id, inproc.workspaceId, spec);
  } finally {
    await inproc.close();
  }
}
