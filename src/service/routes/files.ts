import { open } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { imageSize } from 'image-size';
import { BlobTooLargeError } from '../blobs';
import type { Sandbox, User } from '../context';
import { NEXT_ITEM_ID, type ItemRow } from '../db';
import { HttpError, asId, unwrap, type Router } from '../http';
import {
  accessItem,
  adjustSizes,
  chainTo,
  contentDisposition,
  deleteItem,
  itemEvent,
  reload,
  renameOrMoveItem,
  statements,
} from '../items';
import { workspaceFor } from '../model';
import { serializeItem } from '../model';
import { nameKey, repairName } from '../names';
import { can } from '../roles';
import { receiveUpload } from '../upload';

export { deleteItem, renameOrMoveItem } from '../items';

/** How much of a file is read to measure an image. */
const IMAGE_PROBE_BYTES = 64 * 1024;

const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  tiff: 'image/tiff',
  svg: 'image/svg+xml',
  heif: 'image/heif',
  avif: 'image/avif',
};

async function probe(sb: Sandbox, hash: string): Promise<Buffer> {
  const fh = await open(sb.blobs.pathOf(hash), 'r');
  try {
    const buf = Buffer.alloc(IMAGE_PROBE_BYTES);
    const { bytesRead } = await fh.read(buf, 0, IMAGE_PROBE_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** Width, height and MIME type of an image the sandbox can measure, else null. */
export async function measureImage(
  sb: Sandbox,
  hash: string,
): Promise<{ width: number; height: number; mime: string } | null> {
  try {
    const head = await probe(sb, hash);
    if (head.length === 0) return null;
    const dims = imageSize(head);
    const mime = dims.type ? IMAGE_TYPES[dims.type] : undefined;
    const { width, height } = dims;
    if (!mime || !(width > 0) || !(height > 0)) return null;
    return { width, height, mime };
  } catch {
    return null;
  }
}

/**
 * Uploads `source` as `name` (repaired) into folder `folderId`. A file of the same name in the
 * folder gets a new version (same id, new content). Creator and above. The content is streamed
 * into the blob store; past `maxUploadBytes` it is a 413 and nothing is recorded.
 */
export async function uploadFile(
  sb: Sandbox,
  user: User,
  folderId: number,
  name: string,
  source: Readable,
): Promise<ItemRow> {
  let filename: string;
  try {
    const { role } = accessItem(sb, user, folderId, 'folder');
    if (!can.create(role)) throw HttpError.forbidden('Your role may not upload files');
    filename = repairName(name);
  } catch (err) {
    source.resume();
    throw err;
  }
  let blob: { hash: string; size: number };
  try {
    blob = await sb.blobs.write(source, sb.config.maxUploadBytes);
  } catch (err) {
    if (err instanceof BlobTooLargeError) {
      throw HttpError.tooLarge(`The file is larger than the limit of ${err.limit} bytes`);
    }
    throw err;
  }
  const image = blob.size > 0 ? await measureImage(sb, blob.hash) : null;
  const now = sb.clock.now();
  return sb.db.transaction(() => {
    // Looked up again: the folder may have gone while the content streamed in.
    const { item: folder, workspace } = accessItem(sb, user, folderId, 'folder');
    const existing = statements(sb).fileByName.get(folder.id, filename) as ItemRow | undefined;
    let id: number;
    if (existing) {
      id = existing.id;
      sb.db
        .prepare(
          `UPDATE items SET size = ?, blob = ?, width = ?, height = ?, updated_at = ? WHERE id = ?`,
        )
        .run(blob.size, blob.hash, image?.width ?? null, image?.height ?? null, now, id);
      adjustSizes(sb, folder.id, blob.size - existing.size);
    } else {
      const result = sb.db
        .prepare(
          `INSERT INTO items (id, kind, workspace_id, parent_id, filename, name_key, user_id, size,
             blob, width, height, created_at, updated_at)
           VALUES (${NEXT_ITEM_ID}, 'file', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          folder.workspace_id,
          folder.id,
          filename,
          nameKey(filename),
          user.id,
          blob.size,
          blob.hash,
          image?.width ?? null,
          image?.height ?? null,
          now,
          now,
        );
      id = Number(result.lastInsertRowid);
      adjustSizes(sb, folder.id, blob.size);
    }
    sb.db
      .prepare(
        `INSERT INTO file_versions (file_id, blob, size, user_id, created_at) VALUES (?, ?, ?, ?, ?)`,
      )
      .run(id, blob.hash, blob.size, user.id, now);
    const file = reload(sb, id);
    itemEvent(sb, workspace, user, 'upload', 'uploaded', file);
    return file;
  })();
}

function wrapFile(sb: Sandbox, file: ItemRow, user: User) {
  return { file: serializeItem(file, user, chainTo(sb, file.parent_id)) };
}

type ByteRange = { start: number; end: number };

/**
 * A single `Range: bytes=…` header against a body of `size` bytes: the range, 'unsatisfiable'
 * (416), or null to ignore it (absent, malformed or several ranges: the whole body is sent).
 */
export function parseRange(
  header: string | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m) return null;
  const [, a, b] = m as unknown as [string, string, string];
  if (a === '' && b === '') return null;
  if (a === '') {
    const n = Number(b);
    if (n === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(a);
  if (b !== '' && Number(b) < start) return null;
  if (start >= size) return 'unsatisfiable';
  const end = b === '' ? size - 1 : Number(b);
  return { start, end: Math.min(end, size - 1) };
}

async function sendFile(
  sb: Sandbox,
  user: User,
  fileId: number,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const { item: file, workspace, role } = accessItem(sb, user, fileId, 'file');
  if (!can.download(role)) throw HttpError.forbidden('Your role may not download files');
  const size = file.size;
  const etag = `"${file.blob ?? 'empty'}"`;
  const ifRange = req.headers['if-range'];
  let range: ByteRange | null = null;
  if (ifRange === undefined || ifRange === etag) {
    const parsed = parseRange(req.headers.range, size);
    if (parsed === 'unsatisfiable') {
      throw new HttpError(
        416,
        { base: ['The requested range is not satisfiable'] },
        { 'content-range': `bytes */${size}`, 'accept-ranges': 'bytes' },
      );
    }
    range = parsed;
  }
  const start = range ? range.start : 0;
  const end = range ? range.end : size - 1;
  const headers: Record<string, string | number> = {
    'content-type': 'application/octet-stream',
    'content-length': Math.max(0, end - start + 1),
    'content-disposition': contentDisposition(file.filename),
    'accept-ranges': 'bytes',
    etag,
    'last-modified': new Date(file.updated_at).toUTCString(),
    'cache-control': 'no-store',
  };
  if (range) headers['content-range'] = `bytes ${start}-${end}/${size}`;
  // A resumed download (not from byte 0) is the same download: it is recorded once.
  if (req.method !== 'HEAD' && start === 0) {
    itemEvent(sb, workspace, user, 'download', 'downloaded', file);
  }
  res.writeHead(range ? 206 : 200, headers);
  if (req.method === 'HEAD' || size === 0 || file.blob === null) {
    res.end();
    return;
  }
  try {
    await pipeline(sb.blobs.read(file.blob, { start, end }), res);
  } catch {
    res.destroy();
  }
}

export function registerFiles(router: Router<User>, sb: Sandbox): void {
  const upload = async (user: User, folderId: number, req: IncomingMessage) => {
    // Checked before the body is read, so that a refused upload is not streamed in first.
    const { role } = accessItem(sb, user, folderId, 'folder');
    if (!can.create(role)) throw HttpError.forbidden('Your role may not upload files');
    const file = await receiveUpload(req, sb.config.maxUploadBytes, (name, stream) =>
      uploadFile(sb, user, folderId, name, stream),
    );
    return { status: 201, json: wrapFile(sb, file, user) };
  };

  router.add('POST', '/folders/:id/files', ({ user, params, req }) =>
    upload(user, Number(params.id), req),
  );
  router.add('POST', '/workspaces/:workspace_id/folders/:id/files', ({ user, params, req }) => {
    const { workspace } = workspaceFor(sb, user, Number(params.workspace_id));
    const folder = accessItem(sb, user, Number(params.id), 'folder').item;
    if (folder.workspace_id !== workspace.id) throw HttpError.notFound('Folder not found');
    return upload(user, folder.id, req);
  });

  router.add('GET', '/files/:id', ({ user, params }) => {
    const { item } = accessItem(sb, user, Number(params.id), 'file');
    return { status: 200, json: wrapFile(sb, item, user) };
  });

  router.add('GET', '/download/:id', async ({ user, params, req, res }) => {
    await sendFile(sb, user, Number(params.id), req, res);
    return 'handled' as const;
  });

  router.add('GET', '/files/:id/thumbnail', async ({ user, params, req, res }) => {
    const { item: file, role } = accessItem(sb, user, Number(params.id), 'file');
    if (!can.download(role)) throw HttpError.forbidden('Your role may not download files');
    const image =
      file.blob !== null && file.width !== null ? await measureImage(sb, file.blob) : null;
    if (!image || file.blob === null) throw HttpError.notFound('This file has no thumbnail');
    res.writeHead(200, {
      'content-type': image.mime,
      'content-length': file.size,
      'cache-control': 'no-store',
    });
    if (req.method === 'HEAD') {
      res.end();
      return 'handled' as const;
    }
    try {
      await pipeline(sb.blobs.read(file.blob), res);
    } catch {
      res.destroy();
    }
    return 'handled' as const;
  });

  router.add('PUT', '/files/:id', async ({ user, params, body }) => {
    const b = unwrap(await body(), 'file');
    const changes: { filename?: string; parentId?: number } = {};
    if (b.filename !== undefined) {
      changes.filename = typeof b.filename === 'string' ? b.filename : '';
    }
    // Without the extensions a server knows nothing of folder_id: it is ignored, not refused.
    if (sb.config.extensions) changes.parentId = asId(b.folder_id, 'folder_id');
    const file = renameOrMoveItem(sb, user, 'file', Number(params.id), changes);
    return { status: 200, json: wrapFile(sb, file, user) };
  });

  router.add('DELETE', '/files/:id', ({ user, params }) => {
    deleteItem(sb, user, 'file', Number(params.id));
    return { status: 204 };
  });
}
