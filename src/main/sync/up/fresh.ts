import type { Journal } from '../../journal/journal';
import { scanLocal, type ScanOptions } from '../detect-local/scan';
import type { LocalRoot } from '../local';
import { isStalePlaceholder, onlineItemAt, placeholderCopyOf } from '../placeholder';
import type { UploadOp } from './plan';

// New files, folder by folder: the reconciler keeps only the folders that hold them (up/reconcile.ts,
// `fresh`), so an upload of a whole tree never holds an operation per file. Each folder is listed
// again when its turn comes, after the structure is sent (the folder exists on the service then),
// and what is still new in it goes up in chunks.

/** Operations handed to the sender at a time: a folder of 100,000 files is not one array. */
export const FRESH_CHUNK = 256;

/**
 * The upload operations of the new files in `dirs`, a chunk at a time. A file is new when the
 * journal has nothing at its place and nothing with its identity (the same test as the
 * reconciler's): what was sent meanwhile (a copy, a replacement) is recorded, and not sent again.
 * Files being written are left for the scan that follows them.
 */
export async function* freshUploads(
  local: LocalRoot,
  journal: Journal,
  dirs: Iterable<string>,
  opts: Pick<ScanOptions, 'ignores' | 'writeQuietMs'>,
): AsyncGenerator<UploadOp[]> {
  for (const dir of dirs) {
    let chunk: UploadOp[] = [];
    const chunks: UploadOp[][] = [];
    await scanLocal(local, [dir], false, {
      ignores: opts.ignores,
      writeQuietMs: opts.writeQuietMs,
      descend: () => false,
      onEntry: (e) => {
        if (
          e.kind === 'file' &&
          !e.stillWriting &&
          journal.items.atPath(e.path) === undefined &&
          journal.items.byInode(e.dev, e.ino).length === 0 &&
          // A placeholder is never sent (docs/SYNC.md, Files on demand).
          onlineItemAt(journal, e.path) === undefined &&
          placeholderCopyOf(journal, local, e) === undefined &&
          !isStalePlaceholder(local, e)
        ) {
          chunk.push({ type: 'upload', entry: e, item: null });
          if (chunk.length >= FRESH_CHUNK) {
            chunks.push(chunk);
            chunk = [];
          }
        }
        return true;
      },
    });
    if (chunk.length > 0) chunks.push(chunk);
    // One folder's listing is in memory anyway (readdir): its chunks are handed out one by one.
    while (chunks.length > 0) yield chunks.shift()!;
  }
}
