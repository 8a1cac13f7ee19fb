import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import type { Sandbox, User } from './context';
import { contentDisposition, itemEvent } from './items';
import type { ItemAccess } from './model';

interface TreeRow {
  id: number;
  kind: 'folder' | 'file';
  path: string;
  blob: string | null;
  size: number;
  updated_at: number;
}

/** Every folder and file below `folderId`, with paths relative to it, parents before children. */
export function subtreeOf(sb: Sandbox, folderId: number): TreeRow[] {
  return sb.db
    .prepare(
      `WITH RECURSIVE t(id, kind, path, blob, size, updated_at) AS (
         SELECT id, kind, filename, blob, size, updated_at FROM items WHERE parent_id = ?
         UNION ALL
         SELECT i.id, i.kind, t.path || '/' || i.filename, i.blob, i.size, i.updated_at
           FROM items i JOIN t ON i.parent_id = t.id WHERE t.kind = 'folder'
       ) SELECT * FROM t ORDER BY path, kind DESC`,
    )
    .all(folderId) as TreeRow[];
}

const PLACEHOLDER = 'entry';

/**
 * Whether yazl takes a name as it is: it refuses one that starts like a drive (`a:b`, or a
 * folder `c:d`) as an absolute path. The service holds such names (only `/`, a backslash and control
 * characters are not in a name), so the archive must carry them byte for byte, as the listing
 * does; what a reader makes of them is the reader's business.
 */
function yazlTakes(path: string): boolean {
  return !/^[a-zA-Z]:/.test(path);
}

/**
 * Builds the zip of a folder's subtree: every folder as an entry ending in `/` (so that empty
 * folders survive), file contents streamed from the blob store one at a time (never buffered
 * whole). yazl flags every name as UTF-8 (general purpose bit 11). Entries are stored rather
 * than deflated so that the archive's length is known in advance.
 */
export function buildArchive(sb: Sandbox, folderId: number): { zip: ZipFile; size: number } {
  const zip = new ZipFile();
  // A blob that cannot be read ends the archive (the answer is cut short) instead of the process.
  zip.on('error', (err: Error) => (zip.outputStream as Readable).destroy(err));
  // yazl writes an entry's header as soon as it is added, so a real name the check refused is
  // given to the entry as yazl records it (every add pushes onto `entries` before it writes).
  const entries = (zip as unknown as { entries: { utf8FileName: Buffer }[] }).entries;
  let realName: Buffer | null = null;
  entries.push = (...added) => {
    if (realName) added[0]!.utf8FileName = realName;
    realName = null;
    return Array.prototype.push.apply(entries, added);
  };
  for (const row of subtreeOf(sb, folderId)) {
    const mtime = new Date(row.updated_at);
    const name = yazlTakes(row.path) ? row.path : PLACEHOLDER;
    if (name !== row.path) {
      realName = Buffer.from(row.kind === 'folder' ? `${row.path}/` : row.path);
    }
    if (row.kind === 'folder') {
      zip.addEmptyDirectory(name, { mtime });
    } else if (row.blob === null) {
      zip.addBuffer(Buffer.alloc(0), name, { mtime, compress: false });
    } else {
      const hash = row.blob;
      zip.addReadStreamLazy(name, { mtime, compress: false, size: row.size }, (cb) =>
        cb(null, sb.blobs.read(hash)),
      );
    }
  }
  let size = -1;
  // The types say the callback takes nothing; yazl passes the total (-1 when unknown), at once.
  // Always the ZIP64 end record: yazl 3.3.1 predicts one once the central directory reaches
  // 64 KiB (about 700 entries) but writes one only past 4 GiB, so its predicted length (our
  // Content-Length) would be 76 bytes too long. Every zip reader reads the ZIP64 record.
  const end = zip.end as unknown as (options: object, cb: (total: number) => void) => void;
  end.call(zip, { forceZip64Format: true }, (total) => {
    size = total;
  });
  return { zip, size };
}

/** Answers GET /folders/:id/archive: a streamed zip, recorded as a download. */
export async function streamFolderArchive(
  sb: Sandbox,
  user: User,
  access: ItemAccess,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const { item: folder, workspace } = access;
  const { zip, size } = buildArchive(sb, folder.id);
  const headers: Record<string, string | number> = {
    'content-type': 'application/zip',
    'content-disposition': contentDisposition(`${folder.filename}.zip`),
    'cache-control': 'no-store',
  };
  if (size >= 0) headers['content-length'] = size;
  if (req.method === 'HEAD') {
    res.writeHead(200, headers);
    res.end();
    return;
  }
  itemEvent(sb, workspace, user, 'download', 'downloaded', folder);
  res.writeHead(200, headers);
  try {
    await pipeline(zip.outputStream as Readable, res);
  } catch {
    // The client went away, or a blob could not be read: the connection is closed either way.
    res.destroy();
  }
}
