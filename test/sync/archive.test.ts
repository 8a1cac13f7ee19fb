import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import type yauzl from 'yauzl';
import { ZipFile } from 'yazl';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ZipMemory,
  downloadArchive,
  extractArchive,
  openZip,
} from '../../src/main/sync/down/archive';
import { ARCHIVE_RULES, chooseArchives } from '../../src/main/sync/down/choose-archives';
import type { ArchiveJob, Placement } from '../../src/main/sync/down/plan-types';
import { silentLogger } from '../../src/main/sync/ports';
import { emptyView, type RemoteItem } from '../../src/main/sync/remote';
import { startSandbox } from '../../src/service/sandbox';
import { TempDirs, clientFor, sha } from './harness';

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

function tree(folders: { id: number; parent: number; files: number; size?: number }[]) {
  const view = emptyView(1, true);
  view.listed.add(1);
  let next = 1000;
  const downloads: Placement[] = [];
  for (const f of folders) {
    view.items.set(f.id, {
      id: f.id,
      kind: 'folder',
      parentId: f.parent,
      name: `d${f.id}`,
      size: 0,
      updatedAt: '',
    });
    view.listed.add(f.id);
    for (let i = 0; i < f.files; i++) {
      const item: RemoteItem = {
        id: next++,
        kind: 'file',
        parentId: f.id,
        name: `f${i}`,
        size: f.size ?? 100,
        updatedAt: '',
      };
      view.items.set(item.id, item);
      downloads.push({ item, path: `d${f.id}/f${i}`, name: `f${i}` });
    }
  }
  return { view, downloads };
}

describe('choosing archives', () => {
  it('takes the topmost subtree worth one request, and leaves few or big files alone', () => {
    const { view, downloads } = tree([
      { id: 2, parent: 1, files: 10 },
      { id: 3, parent: 2, files: 10 },
      { id: 4, parent: 1, files: 5 },
      { id: 5, parent: 1, files: 20, size: 10 * 1024 * 1024 },
    ]);
    const { archives, singles } = chooseArchives(view, downloads);
    expect(archives.map((a) => a.folderId)).toEqual([2]);
    expect(archives[0]!.files.size).toBe(20);
    expect([...archives[0]!.files.keys()]).toContain('d3/f9');
    expect(singles).toHaveLength(25);
  });

  it('splits a large tree into several archives fetched side by side', () => {
    const per = 600;
    const { view, downloads } = tree(
      Array.from({ length: 8 }, (_, i) => ({ id: 10 + i, parent: 1, files: per })),
    );
    const { archives, singles } = chooseArchives(view, downloads);
    expect(per * 8).toBeGreaterThan(ARCHIVE_RULES.maxFiles);
    expect(archives).toHaveLength(8);
    expect(singles).toHaveLength(0);
  });

  it('never zips a folder where two siblings share a name, nor a partial view', () => {
    const { view, downloads } = tree([{ id: 2, parent: 1, files: 30 }]);
    const twin = downloads[1]!.item;
    view.items.set(twin.id, { ...twin, name: 'f0' });
    expect(chooseArchives(view, downloads).archives).toEqual([]);
    const partial = tree([{ id: 2, parent: 1, files: 30 }]);
    partial.view.complete = false;
    expect(chooseArchives(partial.view, partial.downloads).archives).toEqual([]);
  });
});

/** A folder of `count` random files uploaded through the API, as the archive job of its zip. */
async function archiveOf(
  client: ReturnType<typeof clientFor>,
  workspaceId: number,
  parentId: number,
  name: string,
  count: number,
  size: number,
): Promise<{ job: ArchiveJob; contents: Map<number, Buffer> }> {
  const folder = await client.createFolder(workspaceId, parentId, name);
  const job: ArchiveJob = { folderId: folder.id, files: new Map(), bytes: 0 };
  const contents = new Map<number, Buffer>();
  for (let i = 0; i < count; i++) {
    const data = randomBytes(size);
    const file = await client.uploadFile(folder.id, `part ${i}.bin`, () => Readable.from([data]));
    contents.set(file.id, data);
    const item: RemoteItem = {
      id: file.id,
      kind: 'file',
      parentId: folder.id,
      name: file.filename,
      size: data.length,
      updatedAt: file.updated_at,
    };
    job.files.set(file.filename, { item, path: `${name}/${file.filename}`, name: file.filename });
    job.bytes += data.length;
  }
  return { job, contents };
}

describe('a large archive', () => {
  it('spills to the cache folder, is unpacked entry by entry, and is removed', async () => {
    const sb = await startSandbox({ seed: 'empty' });
    try {
      const client = clientFor(sb.baseUrl, { accessToken: sb.users[0]!.token });
      const root = await client.rootFolder(sb.workspaceId);
      const { job, contents } = await archiveOf(
        client,
        sb.workspaceId,
        root.id,
        'big',
        20,
        1024 * 1024,
      );
      const partial = dirs.make();
      const zip = await downloadArchive(client, partial, job, silentLogger);
      expect(zip && 'file' in zip).toBe(true);
      const placed = new Map<number, string>();
      const left = await extractArchive(
        zip!,
        partial,
        job,
        () => {},
        async (p, fetched) => {
          expect(sha(readFileSync(fetched.temp))).toBe(fetched.hash);
          placed.set(p.item.id, fetched.hash);
        },
        silentLogger,
      );
      expect(left).toEqual([]);
      expect(placed.size).toBe(20);
      for (const [id, data] of contents) expect(placed.get(id)).toBe(sha(data));
      expect(readdirSync(partial).filter((n) => n.endsWith('.zip'))).toEqual([]);
      expect(existsSync(zip && 'file' in zip ? zip.file : '')).toBe(false);
    } finally {
      await sb.close();
    }
  });
});

describe('zips held in memory', () => {
  it('share one bound: past it a zip goes to the cache folder', async () => {
    const sb = await startSandbox({ seed: 'empty' });
    try {
      const client = clientFor(sb.baseUrl, { accessToken: sb.users[0]!.token });
      const root = await client.rootFolder(sb.workspaceId);
      const jobs: ArchiveJob[] = [];
      for (const name of ['a', 'b', 'c']) {
        jobs.push((await archiveOf(client, sb.workspaceId, root.id, name, 4, 64 * 1024)).job);
      }
      // Room for two zips of ~256 KiB, not three.
      const memory = new ZipMemory(600 * 1024);
      const partial = dirs.make();
      const zips = await Promise.all(
        jobs.map((job) => downloadArchive(client, partial, job, silentLogger, undefined, memory)),
      );
      const inMemory = zips.filter((z) => z !== null && 'buffer' in z);
      expect(inMemory.length).toBe(2);
      expect(zips.filter((z) => z !== null && 'file' in z).length).toBe(1);
      // The one that spilled gave back what it had taken: only the two held zips count.
      const held = inMemory.reduce((n, z) => n + ('held' in z! ? z.held : 0), 0);
      expect(held).toBe(inMemory.reduce((n, z) => n + ('buffer' in z! ? z.buffer.length : 0), 0));
      expect(memory.take(600 * 1024 - held)).toBe(true);
      expect(memory.take(1)).toBe(false);
    } finally {
      await sb.close();
    }
  });
});

describe('a zip file read by several entries at once', () => {
  it('survives an entry destroyed while its read waits for its turn', async () => {
    // yauzl's own file reader queues reads one at a time and then reads `context.fd` of a
    // stream destroyed meanwhile: a TypeError in an fs callback that ended the process (an
    // entry refused mid-way in a zip over 16 MiB, which is read from a file).
    const zip = new ZipFile();
    for (let i = 0; i < 4; i++) zip.addBuffer(randomBytes(1 << 20), `f${i}`, { compress: false });
    zip.end();
    const chunks: Buffer[] = [];
    for await (const c of zip.outputStream) chunks.push(c as Buffer);
    const file = path.join(dirs.make(), 'a.zip');
    writeFileSync(file, Buffer.concat(chunks));
    const opened = await openZip({ file }, { lazyEntries: true, autoClose: false });
    const entries: yauzl.Entry[] = [];
    await new Promise<void>((resolve, reject) => {
      opened.on('entry', (e: yauzl.Entry) => {
        entries.push(e);
        opened.readEntry();
      });
      opened.on('end', resolve);
      opened.on('error', reject);
      opened.readEntry();
    });
    const streams = await Promise.all(entries.map((e) => opened.openReadStreamPromise(e)));
    for (const s of streams) s.resume();
    await new Promise((resolve) => process.nextTick(resolve));
    for (const s of streams.slice(1)) s.destroy();
    await finished(streams[0]!);
    const closed = new Promise((resolve) => opened.once('close', resolve));
    opened.close();
    await closed;
    expect(entries).toHaveLength(4);
  });
});

/** Read system calls of this process so far (Linux). */

describe.runIf(existsSync('/proc/self/io'))('a zip file of many small entries', () => {
  it('is read in blocks, not a few reads per entry', async () => {
    // yauzl asks for each entry's central record, name, local header and data separately: read
    // one by one, a 100k-file mirror made 237,000 reads through the thread pool.
    const zip = new ZipFile();
    const contents = new Map<string, Buffer>();
    for (let i = 0; i < 2_000; i++) {
      const data = randomBytes(100);
      contents.set(`d${i % 40}/f${i}.txt`, data);
      // Stored, not deflated: inflating goes through the thread pool, whose wake-ups are reads too.
      zip.addBuffer(data, `d${i % 40}/f${i}.txt`, { compress: false });
    }
    zip.end();
    const chunks: Buffer[] = [];
    for await (const c of zip.outputStream) chunks.push(c as Buffer);
    const file = path.join(dirs.make(), 'many.zip');
    writeFileSync(file, Buffer.concat(chunks));

    // Counted in a process of its own: this one may be busy with other tests' leftovers.
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'zip-reads-child.ts'), file],
      { encoding: 'utf8' },
    );
    expect(child.status, child.stderr).toBe(0);
    const { reads, entries, hash } = JSON.parse(child.stdout) as {
      reads: number;
      entries: number;
      hash: string;
    };
    const expected = createHash('sha256');
    for (const name of [...contents.keys()].sort())
      expected.update(name).update(contents.get(name)!);
    expect(entries).toBe(contents.size);
    expect(hash).toBe(expected.digest('hex'));
    // The zip is ~400 KiB: a few blocks of 128 KiB.
    expect(reads).toBeLessThan(200);
  });
});
