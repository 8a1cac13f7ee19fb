import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { Journal, TREE_CHUNK, journalFile, type JournalItem } from '../../src/main/journal/journal';
import { MIGRATIONS } from '../../src/main/journal/schema';
import { TempDirs } from '../sync/harness';

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

let nextId = 1;
function item(localPath: string, kind: 'folder' | 'file' = 'file'): JournalItem {
  const name = localPath.slice(localPath.lastIndexOf('/') + 1);
  return {
    remoteId: nextId++,
    kind,
    remoteParentId: 0,
    remoteName: name,
    localPath,
    localName: name,
    dev: 1,
    ino: nextId,
    size: 3,
    mtimeMs: 1.5,
    hash: 'h',
    remoteSize: 3,
    remoteUpdatedAt: '2026-11-23T10:00:00+01:00',
    state: 'synced',
  };
}

describe('the journal', () => {
  it('finds, moves and removes whole subtrees, and only them', () => {
    const j = new Journal(':memory:');
    const a = item('A 🎨', 'folder');
    const paths = ['A 🎨/x', 'A 🎨/sub', 'A 🎨/sub/deep.txt', 'A 🎨 b', 'A 🎨 b/y', 'A 🎨0', 'B'];
    j.items.upsert(a);
    const rows = paths.map((p) => item(p, p.endsWith('sub') ? 'folder' : 'file'));
    rows.forEach((r) => j.items.upsert(r));
    expect(j.items.descendants('A 🎨').map((d) => d.localPath)).toEqual([
      'A 🎨/sub',
      'A 🎨/sub/deep.txt',
      'A 🎨/x',
    ]);
    j.items.moveTree(a, { localPath: 'Z/Ä 🎉', localName: 'Ä 🎉' });
    expect(j.items.get(a.remoteId)!.localPath).toBe('Z/Ä 🎉');
    expect(j.items.atPath('Z/Ä 🎉/sub/deep.txt')?.remoteId).toBe(rows[2]!.remoteId);
    expect(j.items.atPath('A 🎨 b/y')).toBeDefined();
    expect(j.items.atPath('A 🎨0')).toBeDefined();
    j.items.removeTree(j.items.get(a.remoteId)!);
    expect(j.items.count()).toBe(4);
    expect([...j.items.all()].map((r) => r.localPath)).toEqual([
      'A 🎨 b',
      'A 🎨 b/y',
      'A 🎨0',
      'B',
    ]);
    j.close();
  });

  it('compares paths the way the volume does', () => {
    const j = new Journal(':memory:', { fold: (p) => p.normalize('NFC').toLowerCase() });
    j.items.upsert(item('Reports/Cafe\u0301.txt'));
    expect(j.items.atPath('reports/CAFÉ.TXT')?.localPath).toBe('Reports/Cafe\u0301.txt');
    expect(() => j.items.upsert(item('REPORTS/café.txt'))).toThrow(/UNIQUE/);
    j.close();
  });

  it('keeps the feed window, counts the ids in it and prunes those before it', () => {
    const j = new Journal(':memory:');
    expect(j.feed.window()).toEqual({ startMs: null, unknown: 0, unknownUntilMs: 0 });
    j.feed.record(
      [
        { id: 1, timeMs: 1_000 },
        { id: 2, timeMs: 9_000 },
        { id: 3, timeMs: 10_000 },
      ],
      { startMs: 5_000, unknown: 40, unknownUntilMs: 10_000 },
    );
    expect(j.feed.window()).toEqual({ startMs: 5_000, unknown: 40, unknownUntilMs: 10_000 });
    expect([1, 2, 3].map((id) => j.feed.hasSeen(id))).toEqual([false, true, true]);
    expect(j.feed.seenSince(5_000)).toBe(2);
    expect(j.feed.seenSince(10_000)).toBe(1);
    j.feed.record([], { startMs: 10_000, unknown: 0, unknownUntilMs: 0 });
    expect(j.feed.window()).toEqual({ startMs: 10_000, unknown: 0, unknownUntilMs: 0 });
    expect(j.feed.seenSince(0)).toBe(1);
    j.close();
  });

  it("reads an earlier version's cursor as a window starting 5 s before it", () => {
    const j = new Journal(':memory:');
    j.meta.set('cursor_ms', 12_500);
    expect(j.feed.window()).toEqual({ startMs: 7_000, unknown: 0, unknownUntilMs: 0 });
    j.close();
  });

  it('records intents before they are sent and completes them after', () => {
    const j = new Journal(':memory:');
    const id = j.outbox.add('create-folder', { parent: 1, name: 'x' }, 5);
    expect(j.outbox.open()).toMatchObject([{ id, op: 'create-folder', state: 'pending' }]);
    j.outbox.markSent(id, 6);
    expect(j.outbox.open()).toMatchObject([{ id, state: 'sent', attempts: 1 }]);
    j.outbox.complete(id, { folderId: 9 }, 7);
    expect(j.outbox.open()).toEqual([]);
    j.close();
  });

  it('migrates by user_version, keeps its data, and refuses a newer schema', () => {
    const file = path.join(dirs.make(), 'j.db');
    const j = new Journal(file);
    j.items.upsert(item('kept.txt'));
    j.close();
    const again = new Journal(file);
    expect(again.items.atPath('kept.txt')).toBeDefined();
    expect(again.db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(again.db.pragma('journal_mode', { simple: true })).toBe('wal');
    again.close();
    const raw = new Database(file);
    raw.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    raw.close();
    expect(() => new Journal(file)).toThrow(/newer version/);
  });

  it('keeps the words of problems and conflicts (part 9); rows from before read without', () => {
    const file = path.join(dirs.make(), 'j.db');
    // A journal of schema part 8 with a problem and a conflict in it, as an older version left it.
    const old = new Database(file);
    for (const sql of MIGRATIONS.slice(0, 8)) old.exec(sql);
    old.pragma('user_version = 8');
    old.exec(`INSERT INTO problems (key, path, remote_id, reason, message, at)
      VALUES ('path:a.txt', 'a.txt', NULL, 'local', 'Old English.', 1)`);
    old.exec(`INSERT INTO conflicts (path, copy, message, at) VALUES ('b', 'b (c)', 'Old.', 2)`);
    old.close();
    const j = new Journal(file);
    expect(j.problems.all()).toEqual([
      {
        key: 'path:a.txt',
        path: 'a.txt',
        remoteId: null,
        reason: 'local',
        message: 'Old English.',
        at: 1,
      },
    ]);
    expect(j.problems.conflicts()[0]!.words).toBeUndefined();
    const words = { key: 'engine.serviceRefused', params: { reason: 'too long' } };
    j.problems.set({
      key: 'path:c',
      path: 'c',
      remoteId: null,
      reason: 'name',
      message: 'x',
      at: 3,
      words,
    });
    j.problems.addConflict({ path: 'd', copy: 'd (c)', message: 'y', at: 4, copyFacts: '', words });
    j.close();
    const again = new Journal(file);
    expect(again.problems.all().find((p) => p.key === 'path:c')!.words).toEqual(words);
    expect(again.problems.conflicts().find((c) => c.path === 'd')!.words).toEqual(words);
    // A row whose words do not parse is said by its English alone.
    again.db.exec(`UPDATE problems SET words = '{oops' WHERE key = 'path:c'`);
    expect(again.problems.all().find((p) => p.key === 'path:c')!.words).toBeUndefined();
    again.close();
  });

  it('lives in the state directory, one per server, user, workspace and folder', () => {
    const key = {
      server: 'https://a.example/api/',
      user: 'u@x',
      workspaceId: 4,
      root: '/home/u/W',
    };
    const file = journalFile('/state', key);
    expect(path.dirname(file)).toBe('/state/journals');
    expect(journalFile('/state', { ...key, server: 'https://a.example/api' })).toBe(file);
    for (const other of [{ user: 'v@x' }, { workspaceId: 5 }, { root: '/home/u/W2' }]) {
      expect(journalFile('/state', { ...key, ...other })).not.toBe(file);
    }
  });
});

describe('its repositories', () => {
  it('share one connection: a transaction spans them, whole or not at all', () => {
    const j = new Journal(':memory:');
    const a = item('Folder', 'folder');
    const writeAll = () => {
      j.items.upsert(a);
      j.problems.set({ key: 'k', path: 'Folder/x', remoteId: 9, reason: 'r', message: 'm', at: 1 });
      j.feed.record([{ id: 1, timeMs: 5_000 }], { startMs: 5_000, unknown: 0, unknownUntilMs: 0 });
      j.selection.set([{ id: 7 }]);
      j.downloads.put({ remoteId: 3, tempName: 't', remoteUpdatedAt: null, remoteSize: 1 });
      j.meta.set('walk_due', 'x');
    };
    const state = () => ({
      item: j.items.get(a.remoteId) !== undefined,
      problems: j.problems.all().length,
      seen: j.feed.hasSeen(1),
      excluded: [...j.selection.ids()],
      downloads: j.downloads.all().length,
      meta: j.meta.get('walk_due'),
    });
    const none = { item: false, problems: 0, seen: false, excluded: [], downloads: 0 };
    expect(() =>
      j.transaction(() => {
        writeAll();
        throw new Error('midway');
      }),
    ).toThrow('midway');
    expect(state()).toEqual({ ...none, meta: undefined });
    j.transaction(writeAll);
    expect(state()).toEqual({
      item: true,
      problems: 1,
      seen: true,
      excluded: [7],
      downloads: 1,
      meta: 'x',
    });
    // A folder's move takes the problems below it along, in the same transaction.
    j.items.moveTree(a, { localPath: 'Moved', localName: 'Moved' });
    expect(j.problems.all().map((p) => p.path)).toEqual(['Moved/x']);
    j.close();
  });

  it('are all the journal holds besides what spans them (no method forwards to one)', () => {
    const methods = Object.getOwnPropertyNames(Journal.prototype).filter(
      (m) => m !== 'constructor',
    );
    expect(methods.sort()).toEqual(['batch', 'close', 'commitNow', 'statementSql', 'transaction']);
    const j = new Journal(':memory:');
    // Every statement is named by its repository, and each repository prepared some.
    const repos = new Set(Object.keys(j.statementSql()).map((name) => name.split('.')[0]));
    expect([...repos].sort()).toEqual([
      'downloads',
      'feed',
      'items',
      'keptNames',
      'meta',
      'onDemand',
      'outbox',
      'problems',
      'selection',
      'walk',
    ]);
    j.close();
  });
});

/** Files this process holds open whose name says SQLite made them as temporary files. */
function sqliteTempFiles(): string[] {
  const open: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.includes('etilqs_')) open.push(target);
    } catch {
      // Closed meanwhile.
    }
  }
  return open;
}

describe.runIf(existsSync('/proc/self/fd'))('statements inside a batch', () => {
  it('keep their statement journal in memory, never in a temporary file', () => {
    // A statement inside a transaction that changes more than 64 KiB of pages spilled its
    // statement journal to /var/tmp/etilqs_*, and the file then served every later statement of
    // the transaction: a 100k mirror made 364,861 writes into it.
    const j = new Journal(path.join(dirs.make('stmt-'), 'journal.db'));
    try {
      const top = item('Top', 'folder');
      j.items.upsert(top);
      for (let i = 0; i < 3_000; i++) j.items.upsert(item(`Top/file ${i} with a longer name.txt`));
      let during: string[] = [];
      j.transaction(() => {
        j.items.moveTree(top, { localPath: 'Moved', localName: 'Moved' });
        j.items.upsert(item('after the move.txt'));
        during = sqliteTempFiles();
      });
      expect(during).toEqual([]);
      expect(j.items.descendants('Moved')).toHaveLength(3_000);
    } finally {
      j.close();
    }
  });
});

describe('a subtree larger than one statement takes', () => {
  it('is moved, renamed by case and removed whole, a chunk of rows at a time', () => {
    const j = new Journal(':memory:');
    const top = item('Top', 'folder');
    j.items.upsert(top);
    j.items.upsert(item('Top0 sibling.txt'));
    j.items.upsert(item('Top.txt'));
    const n = TREE_CHUNK * 2 + 7;
    j.transaction(() => {
      for (let i = 0; i < n; i++) j.items.upsert(item(`Top/sub ${i % 3}/f ${i}.txt`));
    });
    j.items.moveTree(top, { localPath: 'Moved', localName: 'Moved' });
    expect(j.items.descendants('Top')).toEqual([]);
    const moved = j.items.descendants('Moved');
    expect(moved).toHaveLength(n);
    expect(moved.every((d) => d.localPath.startsWith('Moved/sub '))).toBe(true);
    // Only the case changes: the keys may stay where they were (a case-insensitive profile).
    const again = j.items.atPath('Moved')!;
    j.items.moveTree(again, { localPath: 'moved', localName: 'moved' });
    expect(
      j.items.descendants('moved').filter((d) => d.localPath.startsWith('moved/')),
    ).toHaveLength(n);
    j.items.removeTree(j.items.atPath('moved')!);
    expect(j.items.count()).toBe(2);
    expect(j.items.atPath('Top0 sibling.txt')).toBeDefined();
    expect(j.items.atPath('Top.txt')).toBeDefined();
  });
});
