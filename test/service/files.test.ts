import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { client, userOf } from './helpers';
import { folderSize, generated, mkdir, rootId, sendUpload, upload } from './helpers-items';

// Full collections before each measure: without them a figure is whatever was not swept yet.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
/** What this process holds alive: the JS heap and the buffers outside it. */
function liveBytes(): number {
  gc();
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

let sbx: RunningSandbox;
let adminToken: string;
let admin: ReturnType<typeof client>;
let root: number;

beforeAll(async () => {
  sbx = await startSandbox({ seed: 'empty' });
  adminToken = userOf(sbx, 'Administrator').token;
  admin = client(sbx, adminToken);
  root = await rootId(sbx, adminToken);
});

afterAll(async () => {
  await sbx?.close();
});

describe('upload', () => {
  it('uploads by both paths and answers the file resource', async () => {
    const dir = await mkdir(sbx, adminToken, root, 'Uploads');
    const res = await upload(sbx, adminToken, dir.id, 'notes.txt', 'hello world');
    expect(res.status).toBe(201);
    expect(res.json.file).toMatchObject({
      filename: 'notes.txt',
      size: 11,
      user_id: userOf(sbx, 'Administrator').id,
      workspace_id: sbx.workspaceId,
      ancestor_ids: [root, dir.id],
      errors: {},
      'hidden?': false,
      thumbnail: null,
    });
    expect(res.json.file).not.toHaveProperty('checksum');
    const other = await sendUpload(
      sbx,
      adminToken,
      `/workspaces/${sbx.workspaceId}/folders/${dir.id}/files`,
      'other.txt',
      Buffer.from('abc'),
    );
    expect(other.status).toBe(201);
    const read = await admin.get(`/files/${res.json.file.id}`);
    expect(read.status).toBe(200);
    expect(read.json.file).toEqual(res.json.file);
    const ev = sbx.sandbox.db
      .prepare(`SELECT verb, detail FROM events WHERE item_id = ? ORDER BY id DESC`)
      .get(res.json.file.id) as { verb: string; detail: string };
    expect(ev.verb).toBe('upload');
    expect(ev.detail).toContain('<predicate>uploaded</predicate>');
  });

  it('uploads an empty file and a Unicode, repaired name', async () => {
    const empty = await upload(sbx, adminToken, root, 'empty.bin', Buffer.alloc(0));
    expect(empty.status).toBe(201);
    expect(empty.json.file.size).toBe(0);
    const dl = await admin.get(`/download/${empty.json.file.id}`);
    expect(dl.status).toBe(200);
    expect(dl.text).toBe('');
    const uni = await upload(sbx, adminToken, root, 'Café 🎨 résumé.txt', 'é');
    expect(uni.status).toBe(201);
    expect(uni.json.file.filename).toBe('Café 🎨 résumé.txt');
    const repaired = await upload(sbx, adminToken, root, 'a\\b.txt', 'x');
    expect(repaired.json.file.filename).toBe('a-b.txt');
    const dot = await upload(sbx, adminToken, root, '..', 'x');
    expect(dot.status).toBe(422);
  });

  it('makes a new version of a file with the same name', async () => {
    const dir = await mkdir(sbx, adminToken, root, 'Versions');
    const v1 = await upload(sbx, adminToken, dir.id, 'doc.txt', 'first');
    sbx.advanceClock(10);
    const v2 = await upload(sbx, adminToken, dir.id, 'doc.txt', 'second version');
    expect(v2.status).toBe(201);
    expect(v2.json.file.id).toBe(v1.json.file.id);
    expect(v2.json.file.size).toBe(14);
    expect(v2.json.file.updated_at).not.toBe(v1.json.file.updated_at);
    expect((await admin.get(`/download/${v1.json.file.id}`)).text).toBe('second version');
    expect(folderSize(sbx, dir.id)).toBe(14);
    const versions = sbx.sandbox.db
      .prepare(`SELECT count(*) AS n FROM file_versions WHERE file_id = ?`)
      .get(v1.json.file.id) as { n: number };
    expect(versions.n).toBe(2);
    // Another case is another file (file names are compared exactly).
    const other = await upload(sbx, adminToken, dir.id, 'DOC.txt', 'x');
    expect(other.json.file.id).not.toBe(v1.json.file.id);
  });

  it('measures images and serves the thumbnail', async () => {
    const { tinyPng } = await import('./helpers-items');
    const png = tinyPng(640, 480);
    const res = await upload(sbx, adminToken, root, 'pic.png', png);
    expect(res.status).toBe(201);
    expect(res.json.file.thumbnail).toMatchObject({
      state: 'complete',
      width: 640,
      height: 480,
      url: `/files/${res.json.file.id}/thumbnail`,
    });
    const thumb = await admin.get(`/files/${res.json.file.id}/thumbnail`);
    expect(thumb.status).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/png');
    const viewer = client(sbx, userOf(sbx, 'Viewer').token);
    expect((await viewer.get(`/files/${res.json.file.id}/thumbnail`)).status).toBe(403);
  });

  it('streams a 100 MiB upload without holding it in memory', async () => {
    const size = 100 * 1024 * 1024;
    // Live memory, sampled every 8 MiB sent: a peak of RSS measured V8's slack instead (it lets
    // up to 64 MiB of freed buffers wait for a collection), which is what a 100 MiB body is not.
    const source = generated(size);
    const base = liveBytes();
    let peak = base;
    let sent = 0;
    const sampled = {
      size,
      chunks: async function* () {
        for await (const chunk of source.chunks()) {
          sent += chunk.length;
          if (sent % (8 * 1024 * 1024) === 0) peak = Math.max(peak, liveBytes());
          yield chunk;
        }
      },
    };
    const res = await sendUpload(sbx, adminToken, `/folders/${root}/files`, 'big.bin', sampled);
    expect(res.status).toBe(201);
    expect(res.json.file.size).toBe(size);
    expect(peak - base).toBeLessThan(32 * 1024 * 1024);
    const tail = await admin.get(`/download/${res.json.file.id}`, {
      headers: { range: 'bytes=-4' },
    });
    expect(tail.status).toBe(206);
    expect(tail.headers['content-range']).toBe(`bytes ${size - 4}-${size - 1}/${size}`);
  });

  it('refuses a Viewer and a Downloader', async () => {
    for (const role of ['Viewer', 'Downloader'] as const) {
      const res = await upload(sbx, userOf(sbx, role).token, root, `${role}.txt`, 'x');
      expect(res.status, role).toBe(403);
    }
  });

  it('refuses a body that is not multipart', async () => {
    const res = await admin.post(`/folders/${root}/files`, { json: { filename: 'x' } });
    expect(res.status).toBe(415);
  });
});

describe('upload cap', () => {
  let small: RunningSandbox;
  afterAll(async () => {
    await small?.close();
  });

  it('answers 413 past maxUploadBytes and records nothing', async () => {
    small = await startSandbox({ seed: 'empty', maxUploadBytes: 1024 * 1024 });
    const token = userOf(small, 'Administrator').token;
    const r = await rootId(small, token);
    const over = await sendUpload(
      small,
      token,
      `/folders/${r}/files`,
      'over.bin',
      generated(2 * 1024 * 1024),
    );
    expect(over.status).toBe(413);
    expect(over.json.errors.base).toBeDefined();
    const files = small.sandbox.db
      .prepare(`SELECT count(*) AS n FROM items WHERE kind = 'file'`)
      .get() as { n: number };
    expect(files.n).toBe(0);
    expect(folderSize(small, r)).toBe(0);
    const at = await sendUpload(
      small,
      token,
      `/folders/${r}/files`,
      'at.bin',
      generated(1024 * 1024),
    );
    expect(at.status).toBe(201);
  });
});

describe('download', () => {
  let id: number;
  const content = Buffer.from('0123456789abcdefghij');

  beforeAll(async () => {
    const res = await upload(sbx, adminToken, root, 'range.txt', content);
    id = res.json.file.id;
  });

  it('answers the whole file with its headers', async () => {
    const res = await admin.get(`/download/${id}`);
    expect(res.status).toBe(200);
    expect(res.text).toBe(content.toString());
    expect(res.headers['content-length']).toBe('20');
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; .*filename\*=UTF-8''range\.txt/,
    );
  });

  it('honours a-b, a- and -n ranges and answers 416 past the end', async () => {
    const get = (range: string) => admin.get(`/download/${id}`, { headers: { range } });
    const ab = await get('bytes=2-5');
    expect(ab.status).toBe(206);
    expect(ab.text).toBe('2345');
    expect(ab.headers['content-range']).toBe('bytes 2-5/20');
    expect(ab.headers['content-length']).toBe('4');
    const from = await get('bytes=15-');
    expect(from.status).toBe(206);
    expect(from.text).toBe('fghij');
    const last = await get('bytes=-3');
    expect(last.text).toBe('hij');
    expect(last.headers['content-range']).toBe('bytes 17-19/20');
    const clamp = await get('bytes=18-100');
    expect(clamp.text).toBe('ij');
    const bad = await get('bytes=20-');
    expect(bad.status).toBe(416);
    expect(bad.headers['content-range']).toBe('bytes */20');
  });

  it('records a download once, not again when it resumes', async () => {
    const count = () =>
      (
        sbx.sandbox.db
          .prepare(`SELECT count(*) AS n FROM events WHERE item_id = ? AND verb = 'download'`)
          .get(id) as { n: number }
      ).n;
    const before = count();
    await admin.get(`/download/${id}`, { headers: { range: 'bytes=0-9' } });
    await admin.get(`/download/${id}`, { headers: { range: 'bytes=10-' } });
    expect(count()).toBe(before + 1);
  });

  it('forbids Viewers and allows Downloaders', async () => {
    expect((await client(sbx, userOf(sbx, 'Viewer').token).get(`/download/${id}`)).status).toBe(
      403,
    );
    const dl = await client(sbx, userOf(sbx, 'Downloader').token).get(`/download/${id}`);
    expect(dl.status).toBe(200);
    expect(dl.text).toBe(content.toString());
    expect((await client(sbx, userOf(sbx, 'Viewer').token).get(`/files/${id}`)).status).toBe(200);
  });
});

describe('rename, move and delete files', () => {
  it('renames, refuses a clash, moves and keeps sizes right', async () => {
    const a = await mkdir(sbx, adminToken, root, 'File A');
    const b = await mkdir(sbx, adminToken, root, 'File B');
    const f = (await upload(sbx, adminToken, a.id, 'one.txt', '12345')).json.file;
    await upload(sbx, adminToken, a.id, 'two.txt', '1');
    const clash = await admin.put(`/files/${f.id}`, { json: { filename: 'two.txt' } });
    expect(clash.status).toBe(422);
    expect(clash.json.errors.filename).toEqual(['has already been taken']);
    const renamed = await admin.put(`/files/${f.id}`, { json: { filename: 'uno.txt' } });
    expect(renamed.status).toBe(200);
    expect(renamed.json.file.filename).toBe('uno.txt');
    const moved = await admin.put(`/files/${f.id}`, { json: { folder_id: b.id } });
    expect(moved.status).toBe(200);
    expect(moved.json.file.ancestor_ids).toEqual([root, b.id]);
    expect(folderSize(sbx, a.id)).toBe(1);
    expect(folderSize(sbx, b.id)).toBe(5);
    const del = await admin.delete(`/files/${f.id}`);
    expect(del.status).toBe(204);
    expect(folderSize(sbx, b.id)).toBe(0);
    expect((await admin.get(`/files/${f.id}`)).status).toBe(404);
  });

  it('lets a Creator delete their own files only; a Collaborator renames anything', async () => {
    const creatorToken = userOf(sbx, 'Creator').token;
    const creator = client(sbx, creatorToken);
    const own = (await upload(sbx, creatorToken, root, 'creator.txt', 'c')).json.file;
    const others = (await upload(sbx, adminToken, root, 'admins.txt', 'a')).json.file;
    expect((await creator.delete(`/files/${others.id}`)).status).toBe(403);
    expect((await creator.delete(`/files/${own.id}`)).status).toBe(204);
    const collab = client(sbx, userOf(sbx, 'Collaborator').token);
    const res = await collab.put(`/files/${others.id}`, { json: { filename: 'by-collab.txt' } });
    expect(res.status).toBe(200);
    expect(res.json.file.filename).toBe('by-collab.txt');
  });
});
