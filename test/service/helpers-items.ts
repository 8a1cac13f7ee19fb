import { Readable } from 'node:stream';
import { request } from 'undici';
import type { RunningSandbox } from '../../src/service/sandbox';
import { client, type ApiAnswer } from './helpers';

export const BOUNDARY = '----sandbox-test-boundary-7f3a9c';

function head(filename: string, field = 'file'): Buffer {
  const escaped = filename.replace(/"/g, '%22').replace(/\r|\n/g, ' ');
  return Buffer.from(
    `--${BOUNDARY}\r\n` +
      `Content-Disposition: form-data; name="${field}"; filename="${escaped}"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n`,
    'utf8',
  );
}

const TAIL = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);

/** Sends a multipart body (the content of the part named `file`) as a stream. */
export async function sendUpload(
  sbx: RunningSandbox,
  token: string,
  path: string,
  filename: string,
  content: Buffer | { size: number; chunks: () => AsyncIterable<Buffer> },
): Promise<ApiAnswer> {
  const pre = head(filename);
  let body: Buffer | Readable;
  let length: number;
  if (Buffer.isBuffer(content)) {
    body = Buffer.concat([pre, content, TAIL]);
    length = body.length;
  } else {
    const { chunks } = content;
    body = Readable.from(
      (async function* () {
        yield pre;
        yield* chunks();
        yield TAIL;
      })(),
      { objectMode: false },
    );
    length = pre.length + content.size + TAIL.length;
  }
  const res = await request(sbx.baseUrl + path, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      'content-length': String(length),
    },
    body,
  });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text, json };
}

export function upload(
  sbx: RunningSandbox,
  token: string,
  folderId: number,
  filename: string,
  content: Buffer | string,
): Promise<ApiAnswer> {
  const buf = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  return sendUpload(sbx, token, `/folders/${folderId}/files`, filename, buf);
}

/** `size` bytes of a repeating pattern, produced in 64 KiB chunks (never held whole). */
export function generated(size: number): { size: number; chunks: () => AsyncIterable<Buffer> } {
  const block = Buffer.alloc(64 * 1024);
  for (let i = 0; i < block.length; i++) block[i] = (i * 31 + 7) & 0xff;
  return {
    size,
    chunks: async function* () {
      let left = size;
      while (left > 0) {
        const n = Math.min(left, block.length);
        left -= n;
        // A fresh copy each time: the transport may hold on to a chunk while the next is made.
        yield Buffer.from(block.subarray(0, n));
      }
    },
  };
}

/** The root folder id of a workspace, as the API answers it. */
export async function rootId(sbx: RunningSandbox, token: string): Promise<number> {
  const res = await client(sbx, token).get(`/workspaces/${sbx.workspaceId}/folders`);
  if (res.status !== 200) throw new Error(`root folder: ${res.status} ${res.text}`);
  return res.json.items[0].folder.id as number;
}

/** Creates a folder and returns it (throws unless 201). */
export async function mkdir(
  sbx: RunningSandbox,
  token: string,
  parentId: number,
  name: string,
): Promise<{ id: number; filename: string; ancestor_ids: number[]; size: number }> {
  const res = await client(sbx, token).post(
    `/workspaces/${sbx.workspaceId}/folders/${parentId}/folders`,
    { json: { filename: name } },
  );
  if (res.status !== 201) throw new Error(`mkdir ${name}: ${res.status} ${res.text}`);
  return res.json.folder;
}

/** A minimal PNG header (signature and IHDR) that image-size can measure. */
export function tinyPng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const len = Buffer.alloc(4);
  len.writeUInt32BE(13, 0);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    len,
    Buffer.from('IHDR'),
    ihdr,
    Buffer.alloc(4), // CRC (not checked by the measurer)
    Buffer.alloc(12), // an IEND-sized tail
  ]);
}

/** A folder's stored size (the API shows it in the parent's listing; this reads it directly). */
export function folderSize(sbx: RunningSandbox, id: number): number {
  const row = sbx.sandbox.db.prepare(`SELECT size FROM items WHERE id = ?`).get(id) as {
    size: number;
  };
  return row.size;
}
