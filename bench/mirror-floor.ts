import type { Readable } from 'node:stream';
import { Pool } from 'undici';
// The engine's own small work queue: a scheduler, nothing of the engine's requests or checks.
import { drain } from '../src/main/sync/pool';

// The request floor of a mirror: the minimum requests any client needs, issued by a bare undici
// loop (no validation, no disk) at a fixed concurrency. Listings go breadth first as folders are
// discovered, page after page (`?offset=N`, `next_offset` in the answer).

export interface FloorTarget {
  baseUrl: string;
  token: string;
  workspaceId: number;
}

export interface FloorResult {
  ms: number;
  /** Of which the listings. */
  listMs: number;
  /** Requests this loop issued (the sandbox's own count is compared by the caller). */
  requests: number;
  folders: number;
  /** Files with content found by the listings. */
  nonEmptyFiles: number;
  bytes: number;
  /** How many bytes the archive's answer had fewer than its Content-Length announced. */
  archiveShortBytes: number;
}

interface Page {
  items: ({ folder: { id: number } } | { file: { id: number; size: number } })[];
  next_offset: number | null;
}

async function consume(body: AsyncIterable<Buffer>): Promise<number> {
  let n = 0;
  for await (const chunk of body) n += chunk.length;
  return n;
}

const EOCD_SIGNATURE = 0x06054b50;
const EOCD_BYTES = 22;

/**
 * Reads a zip answer to its end: the end of the body, or the zip's own end (an end of central
 * directory record, without comment, that closes the central directory exactly where the bytes
 * stop) even though the body announced more, so that an archive whose Content-Length is wrong
 * (as the sandbox's was before a828a5f: 76 bytes too long) fails the floor at once instead of
 * hanging until the server's keep-alive timeout.
 */
async function consumeZip(body: Readable, declared: number): Promise<number> {
  let n = 0;
  let tail = Buffer.alloc(0);
  for await (const chunk of body as AsyncIterable<Buffer>) {
    n += chunk.length;
    tail = Buffer.concat([tail, chunk]).subarray(-EOCD_BYTES);
    if (n >= declared || tail.length < EOCD_BYTES) continue;
    if (tail.readUInt32LE(0) !== EOCD_SIGNATURE || tail.readUInt16LE(20) !== 0) continue;
    const cdSize = tail.readUInt32LE(12);
    const cdOffset = tail.readUInt32LE(16);
    if (cdOffset + cdSize + EOCD_BYTES === n) {
      body.destroy();
      break;
    }
  }
  return n;
}

/**
 * Lists the whole workspace, then fetches its content either as one archive of the root
 * folder (`'archive'`) or one `GET /download/:id` per non-empty file (`'files'`).
 */
export async function floorMirror(
  t: FloorTarget,
  content: 'archive' | 'files',
  concurrency = 8,
): Promise<FloorResult> {
  const pool = new Pool(t.baseUrl, { connections: concurrency });
  const headers = { authorization: `Bearer ${t.token}` };
  let requests = 0;
  const get = async (path: string) => {
    requests++;
    const res = await pool.request({ method: 'GET', path, headers });
    if (res.statusCode !== 200) {
      const text = await res.body.text();
      throw new Error(`floor: GET ${path}: ${res.statusCode} ${text.slice(0, 200)}`);
    }
    return res;
  };
  try {
    const started = performance.now();
    const rootRes = await get(`/workspaces/${t.workspaceId}/folders`);
    const root = (await rootRes.body.json()) as { items: { folder: { id: number } }[] };
    const rootId = root.items[0]!.folder.id;
    let folders = 0;
    const fileIds: number[] = [];
    await drain<[number, number]>([[rootId, 0]], concurrency, async ([id, offset], push) => {
      const res = await get(offset === 0 ? `/folders/${id}` : `/folders/${id}?offset=${offset}`);
      const page = (await res.body.json()) as Page;
      if (page.next_offset !== null) push([id, page.next_offset]);
      for (const entry of page.items) {
        if ('folder' in entry) {
          folders++;
          push([entry.folder.id, 0]);
        } else if (entry.file.size > 0) fileIds.push(entry.file.id);
      }
    });
    const listMs = performance.now() - started;
    let bytes = 0;
    let archiveShortBytes = 0;
    if (content === 'archive') {
      const res = await get(`/folders/${rootId}/archive`);
      const declared = Number(res.headers['content-length'] ?? NaN);
      bytes = await consumeZip(res.body, declared);
      archiveShortBytes = declared - bytes;
    } else {
      await drain(fileIds, concurrency, async (id) => {
        const res = await get(`/download/${id}`);
        bytes += await consume(res.body);
      });
    }
    const ms = performance.now() - started;
    return {
      ms: Math.round(ms),
      listMs: Math.round(listMs),
      requests,
      folders,
      nonEmptyFiles: fileIds.length,
      bytes,
      archiveShortBytes,
    };
  } finally {
    await pool.close();
  }
}
