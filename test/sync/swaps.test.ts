import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  renameSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/main/api/client';
import type { RunningSandbox } from '../../src/service/sandbox';
import { TempDirs, localTree, openPair, remoteTree, requestsOf, sha, type Pair } from './harness';
import { clientAs, closeBoth, pairWithSandbox } from './sandbox-pair';
import { runCrashChild } from './run-crash-child';

// Swaps and rotations of names in the local pass (issue 37), against the sandbox: equal bytes at
// their old names are nothing to send; a real swap or rotation is renames on the service through
// a temporary name, each file keeping its id (and so its history) with its bytes. Never a
// conflict copy, never a delete, and the next pass has nothing to do.

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

let sb: RunningSandbox;
let client: ServiceClient;
let pair: Pair;

const TIME = new Date('2001-01-02T00:00:00Z');
const SAME = 'placeholder\n';
/** Two files of one size and different bytes. */
const TWO_FILES = { 'a.txt': 'first  file\n', 'b.txt': 'second file\n' };

beforeEach(async () => {
  ({ sb, client, pair } = await pairWithSandbox(dirs));
});
afterEach(() => closeBoth(pair, sb));

const disk = (rel: string) => path.join(pair.dir, rel);
/** Writes a file with the test's fixed time (a copy or a restore that keeps it). */
const put = (rel: string, data: string) => {
  writeFileSync(disk(rel), data);
  utimesSync(disk(rel), TIME, TIME);
};
const mv = (from: string, to: string) => renameSync(disk(from), disk(to));
/** a.txt and b.txt swapped through a third name, as `mv a.txt t; mv b.txt a.txt; mv t b.txt`. */
const swap = () => {
  mv('a.txt', 't');
  mv('b.txt', 'a.txt');
  mv('t', 'b.txt');
};
/** The ids of a.txt and b.txt exchanged: each went with its bytes. */
const exchanged = (ids: Map<string, number>) =>
  new Map([
    ['a.txt', ids.get('b.txt')],
    ['b.txt', ids.get('a.txt')],
  ]);

/** The service's item id of every path. */
function remoteIds(): Map<string, number> {
  const db = sb.sandbox.db;
  const root = db
    .prepare(`SELECT root_folder_id FROM workspaces WHERE id = ?`)
    .pluck()
    .get(sb.workspaceId);
  const rows = db
    .prepare(
      `WITH RECURSIVE t(id, kind, path) AS (
         SELECT id, kind, filename FROM items WHERE parent_id = ?
         UNION ALL SELECT i.id, i.kind, t.path || '/' || i.filename
           FROM items i JOIN t ON i.parent_id = t.id WHERE t.kind = 'folder'
       ) SELECT path, id FROM t`,
    )
    .all(root) as { path: string; id: number }[];
  return new Map(rows.map((r) => [r.path, r.id]));
}

/** Versions the service keeps of its files: a new version of a file adds one. */
const versions = () =>
  sb.sandbox.db.prepare(`SELECT count(*) FROM file_versions`).pluck().get() as number;

/** The requests that changed something on the service since the last reset. */
const mutations = () =>
  Object.fromEntries(
    Object.entries(sb.stats()).filter(([k]) => !k.startsWith('GET ') && !k.includes('oauth')),
  );

/** What the engine put in its local trash (nothing, in all of these). */
const trashed = () => {
  const trash = path.join(pair.state, 'trash');
  return existsSync(trash) ? readdirSync(trash, { recursive: true }).map(String) : [];
};

async function synced(files: Record<string, string>): Promise<Map<string, number>> {
  for (const [rel, data] of Object.entries(files)) put(rel, data);
  await pair.engine.syncOnce();
  expect(localTree(pair.dir)).toEqual(remoteTree(sb));
  // What follows happens in a later second on the service: a rename there gives the item a new
  // time, which must not be taken for a new version of it.
  sb.sandbox.clock.advance(2000);
  return remoteIds();
}

/** One pass after the change: converged, no conflict copy, nothing trashed or deleted. */
async function passAfterChange(): Promise<Record<string, number>> {
  sb.resetStats();
  await pair.engine.syncOnce();
  const sent = mutations();
  const remote = remoteTree(sb);
  expect(localTree(pair.dir)).toEqual(remote);
  expect(
    [...remote.keys()].filter((k) => k.includes('(conflict ') || k.includes('(moving ')),
  ).toEqual([]);
  expect(pair.engine.status().conflicts ?? []).toEqual([]);
  expect(trashed()).toEqual([]);
  expect(Object.keys(sent).filter((k) => k.startsWith('DELETE'))).toEqual([]);
  // The next pass has nothing to do.
  sb.resetStats();
  const again = await pair.engine.syncOnce();
  expect(mutations()).toEqual({});
  expect(again.uploaded + again.remoteMoved + again.remoteDeleted + again.conflicts).toBe(0);
  return sent;
}

/** Every journal record's inode is the one on disk now. */
function journalTrue(paths: string[]): void {
  for (const rel of paths) {
    const j = pair.journal.items.atPath(rel)!;
    expect(j.ino, rel).toBe(lstatSync(disk(rel)).ino);
  }
}

/** The journal's inodes of two files exchanged: re-created into each other's freed inodes. */
function crosswise(a: string, b: string): void {
  const ja = pair.journal.items.atPath(a)!;
  const jb = pair.journal.items.atPath(b)!;
  pair.journal.items.upsert({ ...ja, ino: jb.ino });
  pair.journal.items.upsert({ ...jb, ino: ja.ino });
}

describe('swaps and rotations of names', () => {
  it('a swap of two files of the same bytes and time: nothing to send, each name keeps its id', async () => {
    const ids = await synced({ 'a.txt': SAME, 'b.txt': SAME });
    const before = versions();
    swap();
    expect(await passAfterChange()).toEqual({});
    expect(remoteIds()).toEqual(ids);
    expect(versions()).toBe(before);
    journalTrue(['a.txt', 'b.txt']);
  });

  it('a swap of two different files (same size and time): two renames, ids go with the bytes', async () => {
    const ids = await synced(TWO_FILES);
    const before = versions();
    swap();
    const sent = await passAfterChange();
    expect(Object.keys(sent).every((k) => k.startsWith('PUT'))).toBe(true);
    expect(remoteIds()).toEqual(exchanged(ids));
    expect(remoteTree(sb).get('a.txt')).toBe(sha('second file\n'));
    expect(versions()).toBe(before);
  });

  it('a rotation of three files of the same bytes and time: nothing to send', async () => {
    const ids = await synced({ 'a.txt': SAME, 'b.txt': SAME, 'c.txt': SAME });
    mv('a.txt', 't');
    mv('c.txt', 'a.txt');
    mv('b.txt', 'c.txt');
    mv('t', 'b.txt');
    expect(await passAfterChange()).toEqual({});
    expect(remoteIds()).toEqual(ids);
    journalTrue(['a.txt', 'b.txt', 'c.txt']);
  });

  it('a rotation of three different files: three renames and a step aside, ids go with the bytes', async () => {
    const ids = await synced({ 'a.txt': 'one\n', 'b.txt': 'two\n', 'c.txt': 'six\n' });
    mv('a.txt', 't');
    mv('c.txt', 'a.txt');
    mv('b.txt', 'c.txt');
    mv('t', 'b.txt');
    const sent = await passAfterChange();
    expect(Object.keys(sent).every((k) => k.startsWith('PUT'))).toBe(true);
    expect(Object.values(sent).reduce((n, v) => n + v, 0)).toBe(4);
    expect(remoteIds()).toEqual(
      new Map([
        ['a.txt', ids.get('c.txt')],
        ['b.txt', ids.get('a.txt')],
        ['c.txt', ids.get('b.txt')],
      ]),
    );
  });

  it('a swap of two folders with their contents: two renames, ids kept', async () => {
    mkdirSync(disk('A'));
    mkdirSync(disk('B'));
    const before = await synced({ 'A/x.txt': 'x', 'B/y.txt': 'y' });
    mv('A', 'T');
    mv('B', 'A');
    mv('T', 'B');
    await passAfterChange();
    expect(remoteIds()).toEqual(
      new Map([
        ['A', before.get('B')],
        ['A/y.txt', before.get('B/y.txt')],
        ['B', before.get('A')],
        ['B/x.txt', before.get('A/x.txt')],
      ]),
    );
  });

  it('a rotation of three folders: renames, ids kept', async () => {
    for (const d of ['A', 'B', 'C']) mkdirSync(disk(d));
    const before = await synced({ 'A/a': 'a', 'B/b': 'b', 'C/c': 'c' });
    mv('A', 'T');
    mv('C', 'A');
    mv('B', 'C');
    mv('T', 'B');
    await passAfterChange();
    const now = remoteIds();
    expect([now.get('A'), now.get('B'), now.get('C')]).toEqual([
      before.get('C'),
      before.get('A'),
      before.get('B'),
    ]);
    expect(now.get('B/a')).toBe(before.get('A/a'));
  });

  it("deleted and re-created with the same bytes into each other's inodes: nothing to send", async () => {
    const ids = await synced({ 'a.txt': SAME, 'b.txt': SAME });
    crosswise('a.txt', 'b.txt');
    expect(await passAfterChange()).toEqual({});
    expect(remoteIds()).toEqual(ids);
    journalTrue(['a.txt', 'b.txt']);
  });

  it("re-created with new bytes (same size and time) into each other's inodes: new versions at the same names", async () => {
    const ids = await synced(TWO_FILES);
    const before = versions();
    put('a.txt', 'first  new!\n');
    put('b.txt', 'second new!\n');
    crosswise('a.txt', 'b.txt');
    const sent = await passAfterChange();
    expect(Object.keys(sent).every((k) => k.startsWith('POST'))).toBe(true);
    expect(remoteIds()).toEqual(ids);
    expect(remoteTree(sb).get('a.txt')).toBe(sha('first  new!\n'));
    expect(versions()).toBe(before + 2);
    journalTrue(['a.txt', 'b.txt']);
  });

  it("re-created with each other's bytes into each other's inodes: the identities moved, two renames", async () => {
    const ids = await synced(TWO_FILES);
    const before = versions();
    put('a.txt', 'second file\n');
    put('b.txt', 'first  file\n');
    crosswise('a.txt', 'b.txt');
    const sent = await passAfterChange();
    expect(Object.keys(sent).every((k) => k.startsWith('PUT'))).toBe(true);
    expect(remoteIds()).toEqual(exchanged(ids));
    expect(versions()).toBe(before);
  });
});

// Found by the soak: a colleague's bulk upload gives files one time (the same second) and
// sizes that differ; deleted here and written anew crosswise (each with the other's bytes and
// time), one took the other's freed inode and one a new inode. That is new versions at the same
// names: no new file, no delete of the item at its name (which a Creator may not make, and which
// would take the file's id and history with it).
describe('re-created crosswise into one freed inode and a new one', () => {
  const FIRST = 'short\n';
  const SECOND = 'a longer one\n';
  for (const role of ['Administrator', 'Creator'] as const) {
    it(`as ${role}: a colleague's two files become new versions at their names, ids kept, nothing deleted`, async () => {
      await pair.close();
      const me = clientAs(sb, role);
      pair = await openPair(sb, me, dirs, {});
      // The colleague (the Administrator) uploads both in one second of the service's clock.
      const root = sb.sandbox.db
        .prepare(`SELECT root_folder_id FROM workspaces WHERE id = ?`)
        .pluck()
        .get(sb.workspaceId) as number;
      // Held, so the two land in one second however the real clock's second falls (the CI
      // run that straddled one gave them times a second apart).
      sb.sandbox.clock.hold();
      await client.uploadFile(root, 'a.txt', () => [Buffer.from(FIRST)]);
      await client.uploadFile(root, 'b.txt', () => [Buffer.from(SECOND)]);
      sb.sandbox.clock.release();
      await pair.engine.syncOnce();
      const time = lstatSync(disk('a.txt')).mtime;
      expect(lstatSync(disk('b.txt')).mtimeMs).toBe(time.getTime());
      sb.sandbox.clock.advance(2000);
      const ids = remoteIds();
      const before = versions();
      // rm a.txt b.txt, then a.txt written with b's bytes into b's freed inode, b.txt with
      // a's into a new one: what the volume did is set in the journal, deterministically.
      const ja = pair.journal.items.atPath('a.txt')!;
      const jb = pair.journal.items.atPath('b.txt')!;
      writeFileSync(disk('a.txt'), SECOND);
      writeFileSync(disk('b.txt'), FIRST);
      for (const f of ['a.txt', 'b.txt']) utimesSync(disk(f), time, time);
      pair.journal.items.upsert({ ...jb, ino: lstatSync(disk('a.txt')).ino });
      pair.journal.items.upsert({ ...ja, ino: 2 ** 40 + 7 });
      const sent = await passAfterChange();
      expect(sent).toEqual({ 'POST /folders/:id/files': 2 });
      expect(remoteIds()).toEqual(ids);
      expect(remoteTree(sb)).toEqual(
        new Map([
          ['a.txt', sha(SECOND)],
          ['b.txt', sha(FIRST)],
        ]),
      );
      expect(versions()).toBe(before + 2);
      journalTrue(['a.txt', 'b.txt']);
    });
  }
});

describe('a log rotation over an existing name', () => {
  it('mv current.log old.log; mv new.log current.log: no conflict, every name kept', async () => {
    const ids = await synced({
      'current.log': 'current\n',
      'new.log': 'newer!\n',
      'old.log': 'old\n',
    });
    mv('current.log', 'old.log');
    mv('new.log', 'current.log');
    sb.resetStats();
    await pair.engine.syncOnce();
    const remote = remoteTree(sb);
    expect(localTree(pair.dir)).toEqual(remote);
    expect([...remote.keys()].sort()).toEqual(['current.log', 'old.log']);
    expect(pair.engine.status().conflicts ?? []).toEqual([]);
    // old.log's bytes are a new version of old.log (its old bytes stay its previous version);
    // new.log's file is current.log now; the file that was current.log is gone, its bytes in
    // old.log.
    expect(remoteIds()).toEqual(
      new Map([
        ['current.log', ids.get('new.log')],
        ['old.log', ids.get('old.log')],
      ]),
    );
    expect(remote.get('old.log')).toBe(sha('current\n'));
    sb.resetStats();
    await pair.engine.syncOnce();
    expect(mutations()).toEqual({});
  });
});

describe('a swap on a server without the move extension', () => {
  beforeEach(async () => {
    await pair.close();
    await sb.close();
    ({ sb, client, pair } = await pairWithSandbox(dirs, { sandbox: { extensions: false } }));
  });

  it('renames in place need no extension: ids go with the bytes', async () => {
    const ids = await synced(TWO_FILES);
    swap();
    await passAfterChange();
    expect(remoteIds()).toEqual(exchanged(ids));
  });
});

describe('an item left aside under a temporary name', () => {
  it('in place here: it takes its own name again on the service, its id kept', async () => {
    const ids = await synced({ 'a.txt': 'first  file\n' });
    const j = pair.journal.items.atPath('a.txt')!;
    // What a step aside records, then a crash and a pass that settled it here (a walk).
    await client.renameFile(j.remoteId, 'a (moving 0a1b2c).txt');
    pair.journal.items.upsert({ ...j, remoteName: 'a (moving 0a1b2c).txt' });
    const sent = await passAfterChange();
    expect(sent).toEqual({ 'PUT /files/:id': 1 });
    expect(remoteIds()).toEqual(ids);
  });
});

// A crash in the middle of a swap: the engine in a child process (crash-child.ts) kills itself
// at an outbox step of the nth move; a restarted engine converges with the ids kept.

describe('a crash in the middle of a swap', () => {
  it('killed once aside, a full walk first: converged, ids kept, no conflict copy', async () => {
    const ids = await synced(TWO_FILES);
    await pair.close();
    swap();
    const owner = sb.users.find((u) => u.role === 'Administrator')!;
    const run = await runCrashChild({
      baseUrl: sb.baseUrl,
      token: owner.token,
      workspaceId: sb.workspaceId,
      dir: pair.dir,
      state: pair.state,
      crash: { step: 'answered', op: 'move', nth: 1 },
    });
    expect(run.killed, run.err).toBe(true);
    pair = await openPair(sb, client, dirs, { dir: pair.dir, state: pair.state });
    pair.engine.requestFullWalk();
    // The step aside settled first records the rename's time (the file was the version recorded
    // here just before it): the walk does not take it for a new version, nothing comes down.
    const walked = await requestsOf(sb, () => pair.engine.syncOnce());
    expect(walked['GET /download/:id'] ?? 0, JSON.stringify(walked)).toBe(0);
    await passAfterChange();
    expect(remoteTree(sb)).toEqual(
      new Map([
        ['a.txt', sha('second file\n')],
        ['b.txt', sha('first  file\n')],
      ]),
    );
    expect(remoteIds()).toEqual(exchanged(ids));
  });

  // Move 1 is the step aside, 2 the other file taking its name, 3 the first taking its own.
  for (const [step, nth, walk] of [
    ['answered', 1, false],
    ['recorded', 1, false],
    ['intent-written', 2, false],
    ['recorded', 2, false],
    ['answered', 3, false],
    // A full walk of the service first (the 10-minute safety net, or one asked for): the record
    // set aside waits for the local pass, no false "moved there" note.
    ['recorded', 2, true],
  ] as const) {
    const how = walk ? ', a full walk first' : '';
    it(`killed at ${step} of move ${nth}${how}: restarted, converged, ids with their bytes`, async () => {
      const ids = await synced(TWO_FILES);
      await pair.close();
      swap();
      const owner = sb.users.find((u) => u.role === 'Administrator')!;
      const run = await runCrashChild({
        baseUrl: sb.baseUrl,
        token: owner.token,
        workspaceId: sb.workspaceId,
        dir: pair.dir,
        state: pair.state,
        crash: { step, op: 'move', nth },
      });
      expect(run.killed, run.err).toBe(true);
      pair = await openPair(sb, client, dirs, { dir: pair.dir, state: pair.state });
      if (walk) pair.engine.requestFullWalk();
      await pair.engine.syncOnce();
      await passAfterChange();
      expect(remoteIds()).toEqual(exchanged(ids));
    });
  }
});
