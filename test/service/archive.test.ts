import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { client, userOf } from './helpers';
import { mkdir, rootId, upload } from './helpers-items';

let sbx: RunningSandbox;
let adminToken: string;
let root: number;

beforeAll(async () => {
  sbx = await startSandbox({ seed: 'empty' });
  adminToken = userOf(sbx, 'Administrator').token;
  root = await rootId(sbx, adminToken);
});

afterAll(async () => {
  await sbx?.close();
});

interface ZipEntryInfo {
  name: string;
  flags: number;
  data: Buffer | null;
}

async function fetchZip(
  id: number,
  token: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  const res = await request(`${sbx.baseUrl}/folders/${id}/archive`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers, body };
}

function readZip(buf: Buffer): Promise<ZipEntryInfo[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buf, { lazyEntries: true, decodeStrings: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('no zip'));
      const out: ZipEntryInfo[] = [];
      zip.on('error', reject);
      zip.on('end', () => resolve(out));
      zip.on('entry', (entry: yauzl.Entry) => {
        const info: ZipEntryInfo = {
          name: entry.fileName,
          flags: entry.generalPurposeBitFlag,
          data: null,
        };
        out.push(info);
        if (entry.fileName.endsWith('/')) {
          zip.readEntry();
          return;
        }
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            info.data = Buffer.concat(chunks);
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

describe('folder archive', () => {
  let top: { id: number };
  const bigContent = Buffer.alloc(300 * 1024);
  for (let i = 0; i < bigContent.length; i++) bigContent[i] = (i * 7) & 0xff;

  beforeAll(async () => {
    top = await mkdir(sbx, adminToken, root, 'Projekt Ä');
    const sub = await mkdir(sbx, adminToken, top.id, 'Sub 📁');
    await mkdir(sbx, adminToken, top.id, 'Empty');
    await mkdir(sbx, adminToken, sub.id, 'Deep Empty');
    await upload(sbx, adminToken, top.id, 'readme.txt', 'hello');
    await upload(sbx, adminToken, sub.id, 'naïve 日本.bin', bigContent);
    await upload(sbx, adminToken, sub.id, 'zero.txt', Buffer.alloc(0));
  });

  it('zips the whole subtree with folders, empty ones included, and the bytes', async () => {
    const res = await fetchZip(top.id, adminToken);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(String(res.headers['content-disposition'])).toContain(
      "filename*=UTF-8''Projekt%20%C3%84.zip",
    );
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    const entries = await readZip(res.body);
    const names = entries.map((e) => e.name).sort();
    expect(names).toEqual(
      [
        'Empty/',
        'Sub 📁/',
        'Sub 📁/Deep Empty/',
        'Sub 📁/naïve 日本.bin',
        'Sub 📁/zero.txt',
        'readme.txt',
      ].sort(),
    );
    const byName = new Map(entries.map((e) => [e.name, e]));
    expect(byName.get('readme.txt')!.data!.toString()).toBe('hello');
    expect(byName.get('Sub 📁/naïve 日本.bin')!.data!.equals(bigContent)).toBe(true);
    expect(byName.get('Sub 📁/zero.txt')!.data!.length).toBe(0);
    for (const e of entries) {
      // General purpose bit 11: the name is UTF-8.
      expect(e.flags & 0x800, e.name).toBe(0x800);
    }
    const ev = sbx.sandbox.db
      .prepare(`SELECT verb, detail FROM events WHERE item_id = ? ORDER BY id DESC`)
      .get(top.id) as { verb: string; detail: string };
    expect(ev.verb).toBe('download');
  });

  // Found by the soak (seed 744671885): yazl refused `a:b` as an absolute path (the archive
  // answered 500).
  it('carries names a zip library takes for absolute paths byte for byte: `a:b`, a folder `c:d`', async () => {
    const odd = await mkdir(sbx, adminToken, root, 'Odd');
    const drive = await mkdir(sbx, adminToken, odd.id, 'c:d');
    await upload(sbx, adminToken, odd.id, 'a:b', 'colon');
    await upload(sbx, adminToken, drive.id, 'in.txt', 'inside');
    const res = await fetchZip(odd.id, adminToken);
    expect(res.status).toBe(200);
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    const names = await new Promise<string[]>((resolve, reject) => {
      yauzl.fromBuffer(res.body, { lazyEntries: true, decodeStrings: false }, (err, zip) => {
        if (err || !zip) return reject(err ?? new Error('no zip'));
        const out: string[] = [];
        zip.on('error', reject);
        zip.on('end', () => resolve(out));
        zip.on('entry', (entry: yauzl.Entry) => {
          out.push((entry.fileName as unknown as Buffer).toString('utf8'));
          zip.readEntry();
        });
        zip.readEntry();
      });
    });
    expect(names.sort()).toEqual(['a:b', 'c:d/', 'c:d/in.txt'].sort());
  });

  it('zips an empty folder as an empty archive', async () => {
    const empty = await mkdir(sbx, adminToken, root, 'Nothing Here');
    const res = await fetchZip(empty.id, adminToken);
    expect(res.status).toBe(200);
    expect(await readZip(res.body)).toEqual([]);
  });

  it('needs download permission', async () => {
    expect((await fetchZip(top.id, userOf(sbx, 'Viewer').token)).status).toBe(403);
    const dl = await fetchZip(top.id, userOf(sbx, 'Downloader').token);
    expect(dl.status).toBe(200);
    expect((await readZip(dl.body)).length).toBe(6);
    const viewer = client(sbx, userOf(sbx, 'Viewer').token);
    expect((await viewer.get(`/folders/${top.id}`)).status).toBe(200);
  });

  it('announces the exact length of an archive with thousands of entries', async () => {
    const many = await mkdir(sbx, adminToken, root, 'Many');
    // Over 64 KiB of central directory: yazl's predicted length and its output must agree.
    const folders = sbx.sandbox.db.prepare(
      `INSERT INTO items (kind, workspace_id, parent_id, filename, name_key, user_id, created_at, updated_at)
       SELECT 'folder', workspace_id, id, ?, ?, user_id, created_at, updated_at FROM items WHERE id = ?`,
    );
    sbx.sandbox.db.transaction(() => {
      for (let i = 0; i < 1500; i++) folders.run(`folder ${i}`, `folder ${i}`, many.id);
    })();
    const res = await fetchZip(many.id, adminToken);
    expect(res.status).toBe(200);
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(await readZip(res.body)).toHaveLength(1500);
  });
});
