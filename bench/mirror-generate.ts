import { Readable } from 'node:stream';
import type { Sandbox, User } from '../src/service/context';
import type { ItemRow } from '../src/service/db';
import { createFolder } from '../src/service/routes/folders';
import { uploadFile } from '../src/service/routes/files';
import { createWorkspace } from '../src/service/routes/workspaces';
import { mulberry32 } from '../src/shared/random';

// A generated workspace for the mirror benchmark, inserted through the sandbox's own operation
// functions (the same code as its HTTP routes, without HTTP): a few top-level folders, 6–10
// subfolders per folder, some empty leaves, a few bulky folders (more than one listing page),
// small files of deterministic pseudo-random content, some Unicode names.

export interface TreeSpec {
  folders: number;
  files: number;
  seed: number;
}

export interface GeneratedTree {
  workspaceId: number;
  rootId: number;
  folders: number;
  files: number;
  /** Files with at least one byte (an empty file needs no download). */
  nonEmptyFiles: number;
  bytes: number;
  maxDepth: number;
  /** Folders without any child. */
  emptyFolders: number;
  /** Folders with more than one listing page (60 items). */
  pagedFolders: number;
  /** The folders at depth 3 (id, path below the workspace root): renaming one of them moves
   * no other one, whatever was renamed before. */
  sample: { id: number; path: string }[];
  ms: number;
  /** Of which the folders. */
  foldersMs: number;
}

/** The seeded generator of the tree's shapes and contents. */
export const prng = mulberry32;

const WORDS = [
  'Projects',
  'Archive',
  'Reports',
  'Verträge',
  'Équipe',
  'Café menu',
  '資料',
  'Фотографии',
  'Ελληνικά',
  'Notes',
  'Design',
  'Budget',
  'Übersicht',
  'Résumés',
  'データ',
  'Invoices',
  'Clients',
  'Drafts',
  'Señales',
  '🎵 Music',
  'Meeting notes',
  'Q3 2024',
];
const TOP = ['Engineering', 'Ventes — Europe', '営業チーム', 'Shared'];
const EXTS = ['txt', 'md', 'csv', 'json', 'log', 'pdf', 'docx', 'xlsx'];

const CONCURRENT_UPLOADS = 16;
const ops = { batch: 2000 };

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
 * Generates a workspace of `spec.folders` folders (the root not counted) and `spec.files`
 * files. With `workspaceId`, into that (empty) workspace; otherwise into a new one named `name`.
 * The history (item times, events) is spread over the two days before now and ends an hour
 * ago, as in a workspace that grew over time: the event feed then holds no burst of recent
 * changes that the engine would have to look at after its first walk.
 */
export async function generateTree(
  sb: Sandbox,
  owner: User,
  spec: TreeSpec,
  target: { workspaceId: number } | { name: string },
): Promise<GeneratedTree> {
  const started = performance.now();
  const rand = prng(spec.seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

  const DAY = 24 * 3600 * 1000;
  sb.clock.rewind(2 * DAY);
  const step = Math.floor((2 * DAY - 3600 * 1000) / (spec.folders + spec.files + 1));

  let workspaceId: number;
  if ('workspaceId' in target) workspaceId = target.workspaceId;
  else workspaceId = createWorkspace(sb, owner, { name: target.name }).id;
  const rootId = (
    sb.db.prepare(`SELECT root_folder_id FROM workspaces WHERE id = ?`).get(workspaceId) as {
      root_folder_id: number;
    }
  ).root_folder_id;

  // Batches of inserts in one transaction each (the operations' own transactions become
  // savepoints): nothing else uses this database while it is generated.
  let inBatch = 0;
  const tick = () => {
    sb.clock.advance(step);
    if (++inBatch >= ops.batch) {
      sb.db.exec('COMMIT');
      sb.db.exec('BEGIN');
      inBatch = 0;
    }
  };
  sb.db.exec('BEGIN');
  try {
    // Folders, breadth first.
    interface Node {
      id: number;
      depth: number;
      path: string;
      children: number;
      files: number;
    }
    const nodes: Node[] = [];
    const queue: Node[] = [{ id: rootId, depth: 0, path: '', children: 0, files: 0 }];
    const root = queue[0]!;
    let serial = 0;
    let maxDepth = 0;
    for (let q = 0; q < queue.length && nodes.length < spec.folders; q++) {
      const parent = queue[q]!;
      const count =
        parent.depth === 0 ? TOP.length : parent.depth >= 6 || rand() < 0.12 ? 0 : int(6, 10);
      for (let i = 0; i < count && nodes.length < spec.folders; i++) {
        const name = parent.depth === 0 ? TOP[i]! : `${pick(WORDS)} ${++serial}`;
        const folder: ItemRow = createFolder(sb, owner, parent.id, name);
        tick();
        const node: Node = {
          id: folder.id,
          depth: parent.depth + 1,
          path: parent.path === '' ? name : `${parent.path}/${name}`,
          children: 0,
          files: 0,
        };
        parent.children++;
        maxDepth = Math.max(maxDepth, node.depth);
        nodes.push(node);
        queue.push(node);
      }
    }
    if (nodes.length < spec.folders)
      throw new Error('the tree shape cannot hold that many folders');

    // Files: not in ~15% of the leaves (left empty); a few bulky folders get many more.
    // Every other leaf gets one file first, then the rest go anywhere (bulky folders weigh more).
    const foldersMs = performance.now() - started;
    const weighted: Node[] = [root];
    const firsts: Node[] = [];
    for (const n of nodes) {
      if (n.children === 0) {
        if (rand() < 0.05) continue;
        firsts.push(n);
      }
      weighted.push(n);
      if (rand() < 0.006) for (let k = 0; k < 80; k++) weighted.push(n);
    }
    let nonEmptyFiles = 0;
    let bytes = 0;
    let next = 0;
    const uploadOne = async (j: number) => {
      const folder = j < firsts.length ? firsts[j]! : pick(weighted);
      const size = rand() < 0.01 ? 0 : int(200, 4000);
      const name = `${pick(WORDS)} ${j + 1}.${pick(EXTS)}`;
      const body = content(size, spec.seed * 1_000_003 + j);
      if (size > 0) nonEmptyFiles++;
      bytes += size;
      folder.files++;
      await uploadFile(sb, owner, folder.id, name, Readable.from([body]));
      tick();
    };
    await Promise.all(
      Array.from({ length: CONCURRENT_UPLOADS }, async () => {
        while (next < spec.files) await uploadOne(next++);
      }),
    );
    sb.db.exec('COMMIT');

    const sample = nodes.filter((n) => n.depth === 3).map((n) => ({ id: n.id, path: n.path }));
    return {
      workspaceId,
      rootId,
      folders: nodes.length,
      files: spec.files,
      nonEmptyFiles,
      bytes,
      maxDepth,
      emptyFolders: nodes.filter((n) => n.children === 0 && n.files === 0).length,
      pagedFolders: [root, ...nodes].filter((n) => n.children + n.files > 60).length,
      sample,
      ms: Math.round(performance.now() - started),
      foldersMs: Math.round(foldersMs),
    };
  } catch (err) {
    if (sb.db.inTransaction) sb.db.exec('ROLLBACK');
    throw err;
  } finally {
    sb.clock.resume();
  }
}
