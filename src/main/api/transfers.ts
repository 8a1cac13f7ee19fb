// The byte-carrying calls (bodies streamed within the transfer limits, not JSON): a folder's
// zip, an upload as a multipart body, a download with its range, a thumbnail read whole.
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { FileItem } from './schemas';
import type { Transport } from './transport';
import { parseAnswer } from './validate';
import { HeldTime } from './throttle';

/** Image types a thumbnail may have: raster only (an SVG is a document, not a picture). */
const THUMBNAIL_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/**
 * The zip of a folder's subtree, streamed within the download limit; `expectBytes` (its listed
 * size) sets its deadline.
 */
export async function folderArchive(
  transport: Transport,
  id: number,
  signal?: AbortSignal,
  expectBytes?: number,
): Promise<Readable> {
  const held = new HeldTime();
  const res = await transport.request({
    method: 'GET',
    path: `/folders/${id}/archive`,
    endpoint: 'GET /folders/:id/archive',
    signal,
    expectBytes,
    held,
  });
  return transport.transfers.down.stream(res.body, held);
}

/**
 * Uploads `name` into a folder as a streamed multipart body; `open` is called for each attempt
 * (a retried upload reads its source again). A file of that name becomes a new version.
 */
export async function uploadFile(
  transport: Transport,
  folderId: number,
  name: string,
  open: () => Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
  size?: number,
): Promise<FileItem> {
  const boundary = `----WorkspaceSync${randomBytes(12).toString('hex')}`;
  const quoted = name.replace(/[\r\n"\\]/g, (c) => encodeURIComponent(c));
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quoted}"; ` +
      `filename*=UTF-8''${rfc5987(name)}\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const { json } = await transport.requestJson({
    method: 'POST',
    path: `/folders/${folderId}/files`,
    endpoint: 'POST /folders/:id/files',
    expectBytes: size,
    body: () => ({
      // The parts as they come, straight to the socket: no stream between that would read
      // ahead (and hold) chunks the socket is not ready for.
      body: (async function* () {
        yield head;
        yield* open();
        yield tail;
      })(),
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        ...(size !== undefined
          ? { 'content-length': String(head.length + size + tail.length) }
          : {}),
      },
    }),
  });
  const value =
    json && typeof json === 'object' && 'file' in json ? (json as { file: unknown }).file : json;
  return parseAnswer(FileItem, value, 'POST /folders/:id/files');
}

/**
 * Downloads a file's bytes, from `offset` on when resuming (Range), streamed within the
 * download limit. `partial` says whether the server honoured the range; when it did not, the
 * body starts at byte 0.
 */
export async function download(
  transport: Transport,
  id: number,
  opts: { offset?: number; signal?: AbortSignal; expectBytes?: number } = {},
): Promise<{ body: Readable; partial: boolean; length: number | null }> {
  const offset = opts.offset ?? 0;
  const held = new HeldTime();
  const res = await transport.request({
    method: 'GET',
    path: `/download/${id}`,
    endpoint: 'GET /download/:id',
    headers: offset > 0 ? { range: `bytes=${offset}-` } : {},
    signal: opts.signal,
    expectBytes: opts.expectBytes,
    held,
  });
  const raw = res.headers['content-length'];
  const length = raw === undefined ? null : Number(Array.isArray(raw) ? raw[0] : raw);
  return {
    body: transport.transfers.down.stream(res.body, held),
    partial: res.status === 206,
    length: Number.isFinite(length) ? length : null,
  };
}

/**
 * A file's thumbnail (`GET /files/:id/thumbnail`), read whole up to `maxBytes`: null when the
 * service has none (404), when it is larger, or when it is not a raster image the window may
 * show (its type must say so: nothing else becomes a data URL).
 */
export async function thumbnail(
  transport: Transport,
  id: number,
  maxBytes: number,
): Promise<{ mime: string; bytes: Buffer } | null> {
  const endpoint = 'GET /files/:id/thumbnail';
  const res = await transport.request({
    method: 'GET',
    path: `/files/${id}/thumbnail`,
    endpoint,
    accept: [404],
    expectBytes: maxBytes,
  });
  // A body let go unread ends in an abort: nobody waits for it, it must not be unhandled.
  res.body.on('error', () => undefined);
  const type = String(res.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  const declared = Number(res.headers['content-length']);
  if (
    res.status !== 200 ||
    !THUMBNAIL_TYPES.has(type) ||
    (Number.isFinite(declared) && declared > maxBytes)
  ) {
    res.body.destroy();
    return null;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) break;
      chunks.push(chunk as Buffer);
    }
  } catch {
    // Cut off mid-way: no picture rather than half of one.
    return null;
  } finally {
    res.body.destroy();
  }
  return size > maxBytes ? null : { mime: type, bytes: Buffer.concat(chunks) };
}

/** A name as an RFC 5987 ext-value: parentheses, quotes and stars must be escaped too. */
const rfc5987 = (name: string) =>
  encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
