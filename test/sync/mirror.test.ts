import {
  existsSync,
  readFileSync,
  readdirSync,
  writeFileSync,
  mkdirSync,
  renameSync,
  statSync,
} from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { collect, type ServiceClient } from '../../src/main/api/client';
import { Moves } from '../../src/main/api/moves';
import { openSession, signInWithPassword } from '../../src/main/api/oauth';
import { ServiceClient as Client } from '../../src/main/api/client';
import { SyncFatalError } from '../../src/main/sync/errors';
import { PARTIAL_DIR } from '../../src/main/sync/paths';
import { ZipFile } from 'yazl';
import type { User } from '../../src/service/context';
import { createFolder } from '../../src/service/routes/folders';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { startStandIn } from './stand-in';
import {
  TempDirs,
  clientFor,
  localTree,
  openPair,
  remoteTree,
  settledUntil,
  sha,
  tokenOf,
  type Pair,
} from './harness';
import { closeBoth, pairWithSandbox } from './sandbox-pair';

// The remote → local mirror against a real sandbox over HTTP, on a real disk.

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

const ownerOf = (sb: RunningSandbox) => sb.users.find((u) => u.role === 'Administrator')!;

async function rootId(client: ServiceClient, ws: number) {
  return (await client.rootFolder(ws)).id;
}

async function upload(client: ServiceClient, folderId: number, name: string, data: string) {
  return client.uploadFile(folderId, name, () => Readable.from([Buffer.from(data)]));
}

/** A demo sandbox mirrored once by the owner; `run` changes and checks; all is closed after. */
async function onMirroredDemo(
  run: (t: {
    sb: RunningSandbox;
    client: ServiceClient;
    pair: Pair;
    root: number;
  }) => Promise<void>,
): Promise<void> {
  const sb = await startSandbox({ seed: 'demo' });
  try {
    const client = clientFor(sb.baseUrl, tokenOf(ownerOf(sb)));
    const pair = await openPair(sb, client, dirs);
    try {
      await pair.engine.syncOnce();
      await run({ sb, client, pair, root: await rootId(client, sb.workspaceId) });
    } finally {
      await pair.close();
    }
  } finally {
    await sb.close();
  }
}

describe('initial mirror of the demo workspace', () => {
  let sb: RunningSandbox;
  let pair: Pair;
  beforeAll(async () => {
    ({ sb, pair } = await pairWithSandbox(dirs, { sandbox: { seed: 'demo' } }));
  });
  afterAll(() => closeBoth(pair, sb));

  it('leaves the folder equal to the workspace: nested and empty folders, Unicode, emoji', async () => {
    const summary = await pair.engine.syncOnce();
    const remote = remoteTree(sb);
    expect(localTree(pair.dir)).toEqual(remote);
    expect([...remote.keys()]).toContain('Team Photos 📷/Offsite 2026');
    expect([...remote.keys()]).toContain('Café Meetings/notes — résumé.txt');
    expect(summary.filesDownloaded).toBe([...remote.values()].filter((v) => v !== 'dir').length);
    expect(pair.journal.items.count()).toBe(remote.size);
    expect(pair.engine.status().state).toBe('idle');
  });

  it('costs one request when nothing changed, whatever the size of the tree', async () => {
    sb.resetStats();
    const summary = await pair.engine.syncOnce();
    expect(summary.filesDownloaded + summary.foldersCreated + summary.moved).toBe(0);
    expect(sb.stats()).toEqual({ 'GET /activity': 1 });
  });
});

describe('remote changes in continuous mode', () => {
  let sb: RunningSandbox;
  let pair: Pair;
  let client: ServiceClient;
  let root: number;
  const abort = new AbortController();
  let running: Promise<void>;

  beforeAll(async () => {
    sb = await startSandbox({ seed: 'demo' });
    client = clientFor(sb.baseUrl, tokenOf(ownerOf(sb)));
    root = await rootId(client, sb.workspaceId);
    pair = await openPair(sb, clientFor(sb.baseUrl, tokenOf(ownerOf(sb))), dirs);
    const first = settledUntil(pair.engine, () => true);
    running = pair.engine.run(abort.signal);
    await first;
  });
  afterAll(async () => {
    abort.abort();
    await running;
    await pair.close();
    await sb.close();
  });

  /** Waits (on the engine's own events, no timers) until the disk equals the service. */
  const converged = () =>
    settledUntil(pair.engine, () => {
      const local = localTree(pair.dir);
      const remote = remoteTree(sb);
      return local.size === remote.size && [...remote].every(([k, v]) => local.get(k) === v);
    });

  it('creates folders and files', async () => {
    const f = await client.createFolder(sb.workspaceId, root, 'New Folder');
    const sub = await client.createFolder(sb.workspaceId, f.id, 'Sub ✨');
    await upload(client, sub.id, 'hello.txt', 'hello world');
    await converged();
    expect(readFileSync(path.join(pair.dir, 'New Folder/Sub ✨/hello.txt'), 'utf8')).toBe(
      'hello world',
    );
  });

  it('creates an empty folder somewhere deep (placed by a full walk)', async () => {
    const reports = (await collect(client.folderContents(root))).find(
      (e) => e.kind === 'folder' && e.folder.filename === 'Reports',
    )!;
    const year = (
      await collect(client.folderContents(reports.kind === 'folder' ? reports.folder.id : 0))
    ).find((e) => e.kind === 'folder' && e.folder.filename === '2026')!;
    await client.createFolder(
      sb.workspaceId,
      year.kind === 'folder' ? year.folder.id : 0,
      'Empty deep',
    );
    await converged();
    expect(existsSync(path.join(pair.dir, 'Reports/2026/Empty deep'))).toBe(true);
  });

  it('renames and moves folders and files, and new versions replace old ones', async () => {
    const entries = await collect(client.folderContents(root));
    const folder = (name: string) => {
      const e = entries.find((x) => x.kind === 'folder' && x.folder.filename === name);
      if (!e || e.kind !== 'folder') throw new Error(name);
      return e.folder;
    };
    const moves = new Moves(client);
    await client.renameFolder(folder('New Folder').id, 'Renamed Folder');
    await moves.moveFolder(folder('Archive').id, folder('Reports').id);
    const readme = entries.find((x) => x.kind === 'file' && x.file.filename === 'README.txt')!;
    const readmeId = readme.kind === 'file' ? readme.file.id : 0;
    await client.renameFile(readmeId, 'READ ME.txt');
    await moves.moveFile(readmeId, folder('Budgets & Forecasts').id);
    await upload(client, folder('Café Meetings').id, 'notes — résumé.txt', 'version two');
    await converged();
    expect(existsSync(path.join(pair.dir, 'Renamed Folder/Sub ✨/hello.txt'))).toBe(true);
    expect(existsSync(path.join(pair.dir, 'Reports/Archive'))).toBe(true);
    expect(existsSync(path.join(pair.dir, 'Budgets & Forecasts/READ ME.txt'))).toBe(true);
    expect(readFileSync(path.join(pair.dir, 'Café Meetings/notes — résumé.txt'), 'utf8')).toBe(
      'version two',
    );
  });

  it('moves remotely deleted files and folders to the trash, content intact', async () => {
    const before = localTree(pair.dir);
    const entries = await collect(client.folderContents(root));
    const design = entries.find(
      (x) => x.kind === 'folder' && x.folder.filename === 'Design Assets',
    )!;
    await client.deleteFolder(design.kind === 'folder' ? design.folder.id : 0);
    const cafe = entries.find((x) => x.kind === 'folder' && x.folder.filename === 'Café Meetings')!;
    const [notes] = await collect(
      client.folderContents(cafe.kind === 'folder' ? cafe.folder.id : 0),
    );
    expect(notes?.kind === 'file' && notes.file.filename).toBe('notes — résumé.txt');
    await client.deleteFile(notes?.kind === 'file' ? notes.file.id : 0);
    await converged();
    expect(existsSync(path.join(pair.dir, 'Design Assets'))).toBe(false);
    expect(readdirSync(path.join(pair.dir, 'Café Meetings'))).toEqual([]);
    const trash = path.join(pair.state, 'trash');
    const [batch] = readdirSync(trash);
    const trashed = localTree(path.join(trash, batch!, 'Design Assets'));
    expect(readFileSync(path.join(trash, batch!, 'Café Meetings/notes — résumé.txt'), 'utf8')).toBe(
      'version two',
    );
    for (const [rel, hash] of before) {
      if (rel.startsWith('Design Assets/')) {
        expect(trashed.get(rel.slice('Design Assets/'.length))).toBe(hash);
      }
    }
    expect(trashed.size).toBe(
      [...before.keys()].filter((k) => k.startsWith('Design Assets/')).length,
    );
  });
});

describe('a journal from an earlier run', () => {
  it('picks up only what changed while the engine was not running', async () => {
    const sb = await startSandbox({ seed: 'demo' });
    try {
      const client = clientFor(sb.baseUrl, tokenOf(ownerOf(sb)));
      const first = await openPair(sb, client, dirs);
      await first.engine.syncOnce();
      await first.close();
      const root = await rootId(client, sb.workspaceId);
      const entries = await collect(client.folderContents(root));
      const reports = entries.find((x) => x.kind === 'folder' && x.folder.filename === 'Reports')!;
      await client.renameFolder(reports.kind === 'folder' ? reports.folder.id : 0, 'Reports 2026');
      await upload(client, root, 'new.txt', 'new content');

      sb.resetStats();
      const second = await openPair(sb, client, dirs, { dir: first.dir, state: first.state });
      const summary = await second.engine.syncOnce();
      await second.close();
      expect(localTree(first.dir)).toEqual(remoteTree(sb));
      expect(summary.filesDownloaded).toBe(1);
      expect(summary.moved).toBe(1);
      const stats = sb.stats();
      expect(stats['GET /download/:id']).toBe(1);
      // No full walk: a couple of listings, not one per folder.
      expect(stats['GET /folders/:id'] ?? 0).toBeLessThanOrEqual(3);
    } finally {
      await sb.close();
    }
  });
});

describe('a folder deleted and made again under the same name', () => {
  it('trashes the old one with its content and creates the new one, in one poll', async () => {
    await onMirroredDemo(async ({ sb, client, pair, root }) => {
      const reports = (await collect(client.folderContents(root))).find(
        (x) => x.kind === 'folder' && x.folder.filename === 'Reports',
      )!;
      await client.deleteFolder(reports.kind === 'folder' ? reports.folder.id : 0);
      const again = await client.createFolder(sb.workspaceId, root, 'Reports');
      await upload(client, again.id, 'fresh.txt', 'fresh');
      const summary = await pair.engine.syncOnce();
      await pair.close();
      expect(localTree(pair.dir)).toEqual(remoteTree(sb));
      expect(summary.trashed).toBe(1);
      const trash = path.join(pair.state, 'trash');
      const batch = readdirSync(trash)[0]!;
      expect(existsSync(path.join(trash, batch, 'Reports', 'Q3 summary.md'))).toBe(true);
    });
  });
});

describe('two folders that swap names', () => {
  it('swap on disk too, through the holding place, in one poll', async () => {
    await onMirroredDemo(async ({ sb, client, pair, root }) => {
      const entries = await collect(client.folderContents(root));
      const id = (name: string) => {
        const e = entries.find((x) => x.kind === 'folder' && x.folder.filename === name);
        return e?.kind === 'folder' ? e.folder.id : 0;
      };
      const [reports, design] = [id('Reports'), id('Design Assets')];
      await client.renameFolder(reports, 'swap');
      await client.renameFolder(design, 'Reports');
      await client.renameFolder(reports, 'Design Assets');
      const summary = await pair.engine.syncOnce();
      await pair.close();
      expect(localTree(pair.dir)).toEqual(remoteTree(sb));
      expect(existsSync(path.join(pair.dir, 'Design Assets', 'Q3 summary.md'))).toBe(true);
      expect(existsSync(path.join(pair.dir, 'Reports', 'logo.png'))).toBe(true);
      expect(summary.moved).toBe(2);
      expect(summary.conflicts + summary.filesDownloaded + summary.trashed).toBe(0);
    });
  });
});

describe('more changes than the feed is worth', () => {
  it('walks the whole tree instead, and converges', async () => {
    await onMirroredDemo(async ({ sb, client, pair, root }) => {
      const bulk = await client.createFolder(sb.workspaceId, root, 'Bulk');
      const owner = sb.sandbox.db
        .prepare(`SELECT * FROM users WHERE id = ?`)
        .get(ownerOf(sb).id) as User;
      // More than the engine looks up one by one (1,000), made through the service's own code.
      for (let i = 0; i < 1005; i++) createFolder(sb.sandbox, owner, bulk.id, `f${i}`);
      const states: string[] = [];
      pair.engine.on('status', (s) => states.push(s.state));
      await pair.engine.syncOnce();
      await pair.close();
      expect(localTree(pair.dir)).toEqual(remoteTree(sb));
      expect(readdirSync(path.join(pair.dir, 'Bulk'))).toHaveLength(1005);
      // A walk ('scanning'), not a thousand lookups.
      expect(states).toContain('scanning');
    });
  });
});

describe('an interrupted mirror', () => {
  it('resumes without downloading again what is already there', async () => {
    const sb = await startSandbox({ seed: 'demo' });
    try {
      const client = clientFor(sb.baseUrl, tokenOf(ownerOf(sb)));
      // One request at a time, so that the interruption falls between two downloads.
      const pair = await openPair(sb, client, dirs, { concurrency: 1 });
      const stop = new AbortController();
      // Interrupted after the fourth download has started answering.
      const download = client.download.bind(client);
      let started = 0;
      client.download = async (...args) => {
        const res = await download(...args);
        if (++started === 4) stop.abort(new Error('interrupted'));
        return res;
      };
      await expect(pair.engine.syncOnce(stop.signal)).rejects.toThrow('interrupted');
      const kept = [...pair.journal.items.all()].filter((j) => j.kind === 'file').length;
      // A download whose bytes had all come when the interruption stopped the pass waits in the
      // cache, complete: it is placed without a request (a small body may be whole before the
      // abort reaches it).
      const partial = path.join(pair.dir, PARTIAL_DIR);
      const complete = readdirSync(partial).filter((name) => {
        const pending = pair.journal.downloads.get(Number(name.replace(/\.part$/, '')));
        return pending?.remoteSize === statSync(path.join(partial, name)).size;
      }).length;
      await pair.close();
      expect(kept).toBeGreaterThan(0);

      client.download = download;
      sb.resetStats();
      const again = await openPair(sb, client, dirs, { dir: pair.dir, state: pair.state });
      await again.engine.syncOnce();
      await again.close();
      const files = [...remoteTree(sb).values()].filter((v) => v !== 'dir').length;
      expect(sb.stats()['GET /download/:id'] ?? 0).toBe(files - kept - complete);
      expect(localTree(pair.dir)).toEqual(remoteTree(sb));
    } finally {
      await sb.close();
    }
  });
});

describe('roles and sign-in', () => {
  let sb: RunningSandbox;
  beforeAll(async () => {
    sb = await startSandbox({ seed: 'demo', accessTokenTtlSeconds: 60 });
  });
  afterAll(() => sb.close());

  it('records files a Viewer may not download as not permitted, and syncs the rest', async () => {
    const viewer = sb.users.find((u) => u.role === 'Viewer')!;
    const pair = await openPair(sb, clientFor(sb.baseUrl, tokenOf(viewer)), dirs);
    const summary = await pair.engine.syncOnce();
    const remote = remoteTree(sb);
    const files = [...remote.values()].filter((v) => v !== 'dir').length;
    const folders = remote.size - files;
    const status = pair.engine.status();
    await pair.close();
    expect(summary.foldersCreated).toBe(folders);
    expect(summary.filesDownloaded).toBe(0);
    expect(status.problems.filter((p) => p.reason === 'not-permitted')).toHaveLength(files);
    expect(status.state).toBe('idle');
  });

  it('follows renames of files it may not download (records only, no files)', async () => {
    const owner = clientFor(sb.baseUrl, tokenOf(ownerOf(sb)));
    const root = await rootId(owner, sb.workspaceId);
    const folder = await owner.createFolder(sb.workspaceId, root, 'Swap');
    const one = await upload(owner, folder.id, 'one.txt', '1');
    const two = await upload(owner, folder.id, 'two.txt', '2');
    const viewer = sb.users.find((u) => u.role === 'Viewer')!;
    const pair = await openPair(sb, clientFor(sb.baseUrl, tokenOf(viewer)), dirs);
    await pair.engine.syncOnce();
    await owner.renameFile(one.id, 'x.txt');
    await owner.renameFile(two.id, 'one.txt');
    await owner.renameFile(one.id, 'two.txt');
    await pair.engine.syncOnce();
    const status = pair.engine.status();
    const rows = [...pair.journal.items.all()].filter((j) => j.remoteParentId === folder.id);
    await pair.close();
    expect(rows.map((r) => [r.remoteId, r.localPath, r.state]).sort()).toEqual(
      [
        [one.id, 'Swap/two.txt', 'not-permitted'],
        [two.id, 'Swap/one.txt', 'not-permitted'],
      ].sort(),
    );
    expect(status.state).toBe('idle');
    expect(readdirSync(path.join(pair.dir, 'Swap'))).toEqual([]);
  });

  it('refreshes an expired access token and goes on', async () => {
    const owner = ownerOf(sb);
    const tokens = await signInWithPassword({
      baseUrl: sb.baseUrl,
      clientId: sb.clientId,
      clientSecret: sb.clientSecret,
      email: owner.email,
      password: owner.password,
    });
    const { transport } = openSession({
      baseUrl: sb.baseUrl,
      clientId: sb.clientId,
      clientSecret: sb.clientSecret,
      tokens,
    });
    const signedIn = new Client(transport);
    const pair = await openPair(sb, signedIn, dirs);
    await pair.engine.syncOnce();
    sb.advanceClock(120);
    await signedIn.createFolder(sb.workspaceId, null, 'After expiry');
    await pair.engine.syncOnce();
    await pair.close();
    expect(existsSync(path.join(pair.dir, 'After expiry'))).toBe(true);
  });

  it('stops and asks to sign in again when the token cannot be renewed', async () => {
    const pasted = await signInWithPassword({
      baseUrl: sb.baseUrl,
      clientId: sb.clientId,
      clientSecret: sb.clientSecret,
      email: ownerOf(sb).email,
      password: ownerOf(sb).password,
    });
    const pair = await openPair(
      sb,
      clientFor(sb.baseUrl, { accessToken: pasted.accessToken }),
      dirs,
    );
    await pair.engine.syncOnce();
    sb.advanceClock(120);
    const err = await pair.engine.syncOnce().catch((e: unknown) => e);
    const status = pair.engine.status();
    await pair.close();
    expect(err).toBeInstanceOf(SyncFatalError);
    expect((err as SyncFatalError).kind).toBe('signed-out');
    expect(status.state).toBe('needs-attention');
    expect(String((err as Error).message)).not.toContain(pasted.accessToken);
  });
});

describe('local work is never overwritten or trashed', () => {
  let sb: RunningSandbox;
  let client: ServiceClient;
  afterEach(async () => sb?.close());

  it('keeps a local file that is in the way of a remote one as a conflict copy', async () => {
    sb = await startSandbox({ seed: 'demo' });
    client = clientFor(sb.baseUrl, tokenOf(ownerOf(sb)));
    const dir = path.join(dirs.make(), 'Workspace');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'README.txt'), 'my own notes');
    mkdirSync(path.join(dir, 'Reports'));
    writeFileSync(path.join(dir, 'Reports', 'mine.txt'), 'local only');
    const pair = await openPair(sb, client, dirs, { dir });
    const summary = await pair.engine.syncOnce();
    const names = readdirSync(dir);
    const copy = names.find((n) => n.startsWith('README (conflict '));
    expect(copy).toBeDefined();
    expect(readFileSync(path.join(dir, copy!), 'utf8')).toBe('my own notes');
    expect(readFileSync(path.join(dir, 'README.txt'), 'utf8')).not.toBe('my own notes');
    // Same-name folders merge; local files inside stay.
    expect(readFileSync(path.join(dir, 'Reports', 'mine.txt'), 'utf8')).toBe('local only');
    expect(summary.conflicts).toBe(1);

    // Local work reached the service too: both copies and the merged folder's file.
    const remote = remoteTree(sb);
    expect(remote.has('Reports/mine.txt')).toBe(true);
    expect(remote.has(copy!)).toBe(true);

    // The folder is deleted remotely, after local work was added to it that the service has
    // not seen: what was synced goes to the trash, the unsynced work stays.
    writeFileSync(path.join(dir, 'Reports', 'later.txt'), 'added after the sync');
    const root = await rootId(client, sb.workspaceId);
    const reports = (await collect(client.folderContents(root))).find(
      (x) => x.kind === 'folder' && x.folder.filename === 'Reports',
    )!;
    await client.deleteFolder(reports.kind === 'folder' ? reports.folder.id : 0);
    await pair.engine.syncOnce();
    await pair.close();
    expect(readFileSync(path.join(dir, 'Reports', 'later.txt'), 'utf8')).toBe(
      'added after the sync',
    );
    expect(existsSync(path.join(dir, 'Reports', 'Q3 summary.md'))).toBe(false);
    const trash = path.join(pair.state, 'trash');
    const batch = readdirSync(trash)[0]!;
    expect(existsSync(path.join(trash, batch, 'Reports', 'Q3 summary.md'))).toBe(true);
    expect(readFileSync(path.join(trash, batch, 'Reports', 'mine.txt'), 'utf8')).toBe('local only');
  });

  it('stops, deleting nothing, when the sync folder was replaced', async () => {
    sb = await startSandbox({ seed: 'demo' });
    client = clientFor(sb.baseUrl, tokenOf(ownerOf(sb)));
    const pair = await openPair(sb, client, dirs);
    await pair.engine.syncOnce();
    await pair.close();
    renameSync(pair.dir, pair.dir + ' (old)');
    mkdirSync(pair.dir);
    const before = remoteTree(sb);
    const again = await openPair(sb, client, dirs, { dir: pair.dir, state: pair.state });
    const err = await again.engine.syncOnce().catch((e: unknown) => e);
    await again.close();
    expect((err as SyncFatalError).kind).toBe('root-changed');
    expect(remoteTree(sb)).toEqual(before);
    expect(readdirSync(pair.dir)).toEqual([]);
  });
});

/** A zip made with yazl under stand-in names, then patched to the hostile ones (same length). */
async function hostileZip(
  entries: { name: string; data: string; mode?: number; placeholder?: string }[],
): Promise<Buffer> {
  const zip = new ZipFile();
  for (const e of entries) {
    zip.addBuffer(Buffer.from(e.data), e.placeholder ?? e.name, {
      compress: false,
      ...(e.mode ? { mode: e.mode } : {}),
    });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  let out = Buffer.concat(chunks);
  for (const e of entries) {
    if (!e.placeholder) continue;
    const from = Buffer.from(e.placeholder);
    const to = Buffer.from(e.name);
    expect(to.length).toBe(from.length);
    for (let i = out.indexOf(from); i >= 0; i = out.indexOf(from, i + 1)) to.copy(out, i);
  }
  out = Buffer.from(out);
  return out;
}

describe('hostile names and archives', () => {
  it('writes nothing outside the sync root, and every file still arrives', async () => {
    const sb = await startSandbox({ seed: 'empty' });
    const outside = dirs.make('wsync-outside-');
    const client = clientFor(sb.baseUrl, tokenOf(ownerOf(sb)));
    const root = await rootId(client, sb.workspaceId);
    const evil = await client.createFolder(sb.workspaceId, root, 'evil');
    const ids: number[] = [];
    // Enough small files that the folder is fetched as one archive.
    for (let i = 0; i < 24; i++) {
      ids.push((await upload(client, evil.id, `f${i}.txt`, `content ${i}`)).id);
    }
    const abs = `${outside}/abs.txt`;
    // The listing names the server sends instead of the real ones.
    const hostile = new Map<number, string>([
      [ids[0]!, '../escaped.txt'],
      [ids[1]!, '../../escaped.txt'],
      [ids[2]!, abs],
      [ids[3]!, '..'],
      [ids[4]!, '.'],
      [ids[5]!, 'a\\..\\b.txt'],
      [ids[6]!, 'nul\u0000byte'],
      [ids[7]!, 'slash/inside'],
      [ids[8]!, 'twin.txt'],
      [ids[9]!, 'twin.txt'],
      [ids[10]!, ''],
    ]);
    const zip = await hostileZip([
      { name: '../escaped.txt', placeholder: 'zz/escaped.txt', data: 'content 0' },
      { name: abs, placeholder: 'z' + abs.slice(1), data: 'content 2' },
      // A link posing as f11.txt, of the same length as its content.
      { name: 'f11.txt', data: '/etc/pass', mode: 0o120777 },
      // Longer than the listing says.
      { name: 'f12.txt', data: 'content 12 and more' },
      ...Array.from({ length: 11 }, (_, k) => ({
        name: `f${k + 13}.txt`,
        data: `content ${k + 13}`,
      })),
    ]);
    const standIn = await startStandIn(sb.baseUrl, {
      json(_path, json) {
        const items = (json as { items?: { file?: { id: number; filename: string } }[] })?.items;
        for (const item of items ?? []) {
          const name = item.file && hostile.get(item.file.id);
          if (item.file && name !== undefined) item.file.filename = name;
        }
        return json;
      },
      archive: (folderId) => (folderId === evil.id ? zip : null),
    });
    try {
      const container = dirs.make('wsync-container-');
      const dir = path.join(container, 'Workspace');
      const pair = await openPair(
        { baseUrl: standIn.baseUrl, workspaceId: sb.workspaceId },
        clientFor(standIn.baseUrl, tokenOf(ownerOf(sb))),
        dirs,
        { dir },
      );
      sb.resetStats();
      await pair.engine.syncOnce();
      await pair.close();
      expect(readdirSync(container)).toEqual(['Workspace']);
      expect(readdirSync(outside)).toEqual([]);
      expect(existsSync(path.join(dirs.make(), '..', 'escaped.txt'))).toBe(false);
      // Every file arrived, under a safe local name, with the service's content.
      const local = localTree(dir);
      const files = [...local.values()].filter((v) => v !== 'dir').sort();
      const remote = [...remoteTree(sb).values()].filter((v) => v !== 'dir').sort();
      expect(files).toEqual(remote);
      expect([...local.keys()].every((k) => k.startsWith('evil/') || k === 'evil')).toBe(true);
      expect(readFileSync(path.join(dir, 'evil', 'f11.txt'), 'utf8')).toBe('content 11');
      const stats = sb.stats();
      // The zip was asked for (and refused where it lied): the rest came one by one.
      expect(stats['GET /download/:id']).toBeGreaterThanOrEqual(hostile.size + 2);
    } finally {
      await standIn.close();
      await sb.close();
    }
  });
});

describe('names that need mapping', () => {
  it('gives every remote item one local name, stable across runs', async () => {
    const sb = await startSandbox({ seed: 'empty' });
    const client = clientFor(sb.baseUrl, tokenOf(ownerOf(sb)));
    const root = await rootId(client, sb.workspaceId);
    await client.createFolder(sb.workspaceId, root, 'Report');
    await upload(client, root, 'Report', 'a file named like a folder');
    await upload(client, root, 'a.txt', 'lower');
    await upload(client, root, 'A.txt', 'upper');
    await upload(client, root, 'CON.txt', 'device name');
    await upload(client, root, 'what? when: now.txt', 'windows-reserved characters');
    await client.createFolder(sb.workspaceId, root, 'trailing dot.');
    await upload(client, root, '🎉'.repeat(100) + '.txt', 'long emoji name');
    await upload(client, root, 'twin.txt', 'first twin');
    const other = await upload(client, root, 'twin-2.txt', 'second twin');
    // A server that allows two siblings with the same name.
    const standIn = await startStandIn(sb.baseUrl, {
      json(_path, json) {
        for (const item of (json as { items?: { file?: { id: number; filename: string } }[] })
          ?.items ?? []) {
          if (item.file?.id === other.id) item.file.filename = 'twin.txt';
        }
        return json;
      },
    });
    try {
      const windows = {
        flavor: 'win32',
        caseInsensitive: true,
        normalizationInsensitive: false,
      } as const;
      const pair = await openPair(
        { baseUrl: standIn.baseUrl, workspaceId: sb.workspaceId },
        clientFor(standIn.baseUrl, tokenOf(ownerOf(sb))),
        dirs,
        { profile: windows },
      );
      await pair.engine.syncOnce();
      const names = readdirSync(pair.dir).filter((n) => n !== '.workspace-sync-cache');
      const remote = remoteTree(sb);
      // 'Report' is a folder and a file: one key in the tree, two items on the service.
      expect(names).toHaveLength(remote.size + 1);
      expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
      for (const n of names) {
        expect(n).not.toMatch(/[<>:"|?*]|[. ]$/);
        expect(Buffer.byteLength(n)).toBeLessThanOrEqual(255);
      }
      expect(names).not.toContain('CON.txt');
      const local = [...localTree(pair.dir).values()].filter((v) => v !== 'dir').sort();
      expect(local).toEqual([...remote.values()].filter((v) => v !== 'dir').sort());
      expect(local).toContain(sha('second twin'));
      const mapped = [...pair.journal.items.all()].filter((j) => j.localName !== j.remoteName);
      expect(mapped.length).toBeGreaterThanOrEqual(5);

      const summary = await pair.engine.syncOnce();
      await pair.close();
      expect(summary.moved + summary.filesDownloaded).toBe(0);
      expect(readdirSync(pair.dir).sort()).toEqual([...names, '.workspace-sync-cache'].sort());
    } finally {
      await standIn.close();
      await sb.close();
    }
  });
});
