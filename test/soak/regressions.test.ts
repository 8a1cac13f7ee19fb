import { mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/main/api/client';
import { Moves } from '../../src/main/api/moves';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import type { SeededUser } from '../../src/service/seed';
import {
  TempDirs,
  clientFor,
  localTree,
  openPair,
  remoteTree,
  sha,
  tokenOf,
  type Pair,
} from '../sync/harness';

// Cases the soak (test/soak) found, each reduced to its shrunk history and named after it.

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

let sb: RunningSandbox;
let admin: ServiceClient;
let member: SeededUser;
let pair: Pair;
/** The engine's clock runs ahead by this much: the safety-net walk (every 10 minutes) falls due. */
let ahead = 0;
const tenMinutesPass = () => (ahead += 10 * 60_000);

/** A fresh sandbox (with or without the move extension) and an engine syncing it. */
async function start(extensions = true): Promise<void> {
  sb = await startSandbox({ seed: 'empty', extensions });
  admin = clientFor(sb.baseUrl, tokenOf(sb.users.find((u) => u.role === 'Administrator')!));
  member = sb.users.find((u) => u.role === 'Collaborator')!;
  ahead = 0;
  pair = await openPair(sb, clientFor(sb.baseUrl, tokenOf(member)), dirs, {
    tuning: { now: () => Date.now() + ahead },
  });
}

/** Swaps the sandbox for one without the move extension, with a new engine. */
async function withoutMoveExtension(): Promise<void> {
  await pair.close();
  await sb.close();
  await start(false);
}

beforeEach(() => start());
afterEach(async () => {
  await pair.close();
  await sb.close();
});

async function setRole(role: string): Promise<void> {
  for await (const r of admin.listRolemaps(sb.workspaceId)) {
    if (r.user_id === member.id) return admin.changeRole(r.id, role);
  }
}

/**
 * Opens the engine again on the same folders, with a crash right after the service answers an
 * `op` while `crash.on` (the answer is lost, the intent stays open).
 */
async function reopenCrashingAfter(op: 'upload' | 'mkdir' | 'move') {
  await pair.close();
  const crash = { on: true };
  pair = await openPair(sb, clientFor(sb.baseUrl, tokenOf(member)), dirs, {
    dir: pair.dir,
    state: pair.state,
    tuning: {
      outboxStep: (step, o) => {
        if (crash.on && step === 'answered' && o === op) throw new Error('crashed');
      },
    },
  });
  return crash;
}

describe('soak regressions', () => {
  it('a delete the role refused is put back, and its problem clears at the walk after the role allows it again', async () => {
    writeFileSync(path.join(pair.dir, 'plan.md'), 'plan');
    await pair.engine.syncOnce();
    await setRole('Viewer');
    rmSync(path.join(pair.dir, 'plan.md'));
    await pair.engine.syncOnce();
    expect(pair.engine.status().conflicts.map((c) => [c.path, c.message])).toEqual([
      ['plan.md', 'Your role does not allow deleting it on the service: it is put back.'],
    ]);
    // A Viewer may not download it either: that is the problem that stands.
    expect(pair.engine.status().problems.map((p) => p.reason)).toEqual(['not-permitted']);
    await setRole('Collaborator');
    tenMinutesPass();
    await pair.engine.syncOnce();
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
    expect(pair.engine.status().problems).toEqual([]);
  });

  it('a change the role refused syncs once allowed again, and its problem clears', async () => {
    await setRole('Downloader');
    writeFileSync(path.join(pair.dir, 'notes.txt'), 'mine');
    await pair.engine.syncOnce();
    expect(pair.engine.status().problems.map((p) => [p.path, p.reason])).toEqual([
      ['notes.txt', 'not-permitted'],
    ]);
    await setRole('Collaborator');
    tenMinutesPass();
    await pair.engine.syncOnce();
    expect(remoteTree(sb)).toEqual(localTree(pair.dir));
    expect(pair.engine.status().problems).toEqual([]);
  });

  it('a change refused while the role was lower between two walks syncs at the next walk', async () => {
    await pair.engine.syncOnce();
    // The walk read Collaborator; the role drops and comes back before the next one.
    await setRole('Downloader');
    writeFileSync(path.join(pair.dir, 'notes.txt'), 'mine');
    await pair.engine.syncOnce();
    expect(pair.engine.status().problems.map((p) => [p.path, p.reason])).toEqual([
      ['notes.txt', 'not-permitted'],
    ]);
    await setRole('Collaborator');
    tenMinutesPass();
    await pair.engine.syncOnce();
    expect(remoteTree(sb)).toEqual(new Map([['notes.txt', sha('mine')]]));
    expect(pair.engine.status().problems).toEqual([]);
  });

  it('a folder a Creator may not delete is put back: a note, and no problem left', async () => {
    const root = (await admin.rootFolder(sb.workspaceId)).id;
    await admin.createFolder(sb.workspaceId, root, 'Docs');
    await pair.engine.syncOnce();
    await setRole('Creator');
    rmSync(path.join(pair.dir, 'Docs'), { recursive: true });
    await pair.engine.syncOnce();
    expect(localTree(pair.dir)).toEqual(new Map([['Docs', 'dir']]));
    expect(remoteTree(sb)).toEqual(localTree(pair.dir));
    expect(pair.engine.status().conflicts.map((c) => c.path)).toEqual(['Docs']);
    expect(pair.engine.status().problems).toEqual([]);
  });

  it('a download refused while the role was lower between two walks comes down at the next walk; local work in its place is kept', async () => {
    await pair.engine.syncOnce();
    await setRole('Viewer');
    const root = (await admin.rootFolder(sb.workspaceId)).id;
    await admin.uploadFile(root, 'Docs', () => Readable.from([Buffer.from('theirs')]));
    await pair.engine.syncOnce();
    expect(pair.engine.status().problems.map((p) => p.reason)).toEqual(['not-permitted']);
    writeFileSync(path.join(pair.dir, 'Docs'), 'mine');
    await setRole('Collaborator');
    tenMinutesPass();
    await pair.engine.syncOnce();
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
    expect([...remoteTree(sb).values()].sort()).toEqual([sha('mine'), sha('theirs')].sort());
    expect(remoteTree(sb).get('Docs')).toBe(sha('theirs'));
    expect(pair.engine.status().problems).toEqual([]);
  });

  it('a rename the role refuses is put back, and a file added in the renamed folder still goes up', async () => {
    const root = (await admin.rootFolder(sb.workspaceId)).id;
    await admin.createFolder(sb.workspaceId, root, 'Docs');
    await pair.engine.syncOnce();
    await setRole('Creator');
    renameSync(path.join(pair.dir, 'Docs'), path.join(pair.dir, 'Reports'));
    writeFileSync(path.join(pair.dir, 'Reports', 'new.txt'), 'new');
    await pair.engine.syncOnce();
    expect(remoteTree(sb)).toEqual(
      new Map([
        ['Docs', 'dir'],
        ['Docs/new.txt', sha('new')],
      ]),
    );
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
    expect(pair.engine.status().conflicts.map((c) => c.message)).toEqual([
      'Your role does not allow moving or renaming it on the service: it is put back (it was Reports).',
    ]);
    expect(pair.engine.status().problems).toEqual([]);
  });

  it('a name that cannot be synced: once renamed, it syncs and its problem clears', async () => {
    writeFileSync(path.join(pair.dir, 'x\\y'), 'backslash');
    await pair.engine.syncOnce();
    expect(pair.engine.status().problems.map((p) => p.reason)).toEqual(['name']);
    renameSync(path.join(pair.dir, 'x\\y'), path.join(pair.dir, 'x-y'));
    await pair.engine.syncOnce();
    expect(remoteTree(sb)).toEqual(localTree(pair.dir));
    expect(pair.engine.status().problems).toEqual([]);
  });

  it('a file a Viewer could not download, deleted on the service: its problem goes with it', async () => {
    await setRole('Viewer');
    const root = (await admin.rootFolder(sb.workspaceId)).id;
    const file = await admin.uploadFile(root, 'Docs', () => Readable.from([Buffer.from('theirs')]));
    await pair.engine.syncOnce();
    expect(pair.engine.status().problems.map((p) => p.reason)).toEqual(['not-permitted']);
    await admin.deleteFile(file.id);
    await admin.createFolder(sb.workspaceId, root, 'Docs');
    await setRole('Collaborator');
    tenMinutesPass();
    await pair.engine.syncOnce();
    expect(remoteTree(sb)).toEqual(localTree(pair.dir));
    expect(pair.engine.status().problems).toEqual([]);
  });

  it('a file renamed here while a new version of the same size arrived there: the rename is sent, the new version comes down under it', async () => {
    const root = (await admin.rootFolder(sb.workspaceId)).id;
    const put = (data: string) =>
      admin.uploadFile(root, 'Docs', () => Readable.from([Buffer.from(data)]));
    await put('first version, 24 bytes');
    await pair.engine.syncOnce();
    // A second later: the API's times have whole seconds, and size and time are all a client
    // can tell versions by (conventions.md).
    sb.advanceClock(1);
    await put('second version, 24 byte');
    renameSync(path.join(pair.dir, 'Docs'), path.join(pair.dir, 'docs'));
    await pair.engine.syncOnce();
    // The renamed file was the synced version, unchanged: the new one replaces it.
    expect(remoteTree(sb)).toEqual(new Map([['docs', sha('second version, 24 byte')]]));
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
  });

  it('a file renamed here while it was deleted there, its time a second ahead: the renamed file is uploaded', async () => {
    const root = (await admin.rootFolder(sb.workspaceId)).id;
    // The service's clock a little ahead: the download's time is in the future here.
    sb.advanceClock(1);
    const file = await admin.uploadFile(root, 'Docs', () => Readable.from([Buffer.from('kept')]));
    await pair.engine.syncOnce();
    await admin.deleteFile(file.id);
    renameSync(path.join(pair.dir, 'Docs'), path.join(pair.dir, 'docs'));
    await pair.engine.syncOnce();
    expect(remoteTree(sb)).toEqual(new Map([['docs', sha('kept')]]));
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
  });

  it('a file deleted here while a new version arrived there, with events that need a walk: the new version wins', async () => {
    const root = (await admin.rootFolder(sb.workspaceId)).id;
    const put = (data: string) =>
      admin.uploadFile(root, 'Docs', () => Readable.from([Buffer.from(data)]));
    await put('first version');
    await pair.engine.syncOnce();
    // An empty new folder cannot be placed from its event alone: the events call for a walk.
    await admin.createFolder(sb.workspaceId, root, 'Reports');
    await put('second version, longer');
    rmSync(path.join(pair.dir, 'Docs'));
    await pair.engine.syncOnce();
    expect(remoteTree(sb)).toEqual(
      new Map([
        ['Docs', sha('second version, longer')],
        ['Reports', 'dir'],
      ]),
    );
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
  });

  it('a file deleted here while a new version arrived there, and a crash after the remote pass read it: after the restart the new version still wins', async () => {
    const root = (await admin.rootFolder(sb.workspaceId)).id;
    const put = (data: string) =>
      admin.uploadFile(root, 'Docs', () => Readable.from([Buffer.from(data)]));
    await put('first version');
    await pair.engine.syncOnce();
    await reopenCrashingAfter('upload');
    await put('second version, longer');
    rmSync(path.join(pair.dir, 'Docs'));
    writeFileSync(path.join(pair.dir, 'notes.txt'), 'mine');
    // The remote pass reads the new version and leaves it waiting; the crash comes in the push.
    await expect(pair.engine.syncOnce()).rejects.toThrow('crashed');
    const restarted = await reopenCrashingAfter('upload');
    restarted.on = false;
    await pair.engine.syncOnce();
    expect(remoteTree(sb)).toEqual(
      new Map([
        ['Docs', sha('second version, longer')],
        ['notes.txt', sha('mine')],
      ]),
    );
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
  });

  it('a file moved here into a new folder beside a new file of its name in other accents, while a new version arrived there: the new file is not sent over it', async () => {
    const root = (await admin.rootFolder(sb.workspaceId)).id;
    const put = (data: string) =>
      admin.uploadFile(root, 'Café', () => Readable.from([Buffer.from(data)]));
    await put('first version');
    await pair.engine.syncOnce();
    mkdirSync(path.join(pair.dir, 'Docs'));
    renameSync(path.join(pair.dir, 'Café'), path.join(pair.dir, 'Docs/Café'));
    writeFileSync(path.join(pair.dir, 'Docs', 'Café'.normalize('NFD')), 'mine');
    await put('second version, longer');
    await pair.engine.syncOnce();
    expect(remoteTree(sb)).toEqual(
      new Map([
        ['Docs', 'dir'],
        ['Docs/Café', sha('second version, longer')],
      ]),
    );
    // The new file waits here for a rename: for the service it has the same name.
    expect(localTree(pair.dir).get('Docs/' + 'Café'.normalize('NFD'))).toBe(sha('mine'));
    expect(pair.engine.status().problems.map((p) => [p.path, p.reason])).toEqual([
      ['Docs/' + 'Café'.normalize('NFD'), 'name'],
    ]);
  });

  it('a folder renamed here while renamed there and given a new file: the file is there once, in the folder as named here', async () => {
    const root = (await admin.rootFolder(sb.workspaceId)).id;
    const docs = await admin.createFolder(sb.workspaceId, root, 'Docs');
    await pair.engine.syncOnce();
    await admin.renameFolder(docs.id, 'docs');
    await admin.uploadFile(docs.id, 'Docs', () => Readable.from([Buffer.from('theirs')]));
    renameSync(path.join(pair.dir, 'Docs'), path.join(pair.dir, 'Photos'));
    await pair.engine.syncOnce();
    expect(remoteTree(sb)).toEqual(
      new Map([
        ['Photos', 'dir'],
        ['Photos/Docs', sha('theirs')],
      ]),
    );
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
  });

  it('a folder deleted here while the service added a file to it: it comes back with that file', async () => {
    const root = (await admin.rootFolder(sb.workspaceId)).id;
    const docs = await admin.createFolder(sb.workspaceId, root, 'Docs');
    await admin.uploadFile(docs.id, 'old.txt', () => Readable.from([Buffer.from('old')]));
    await pair.engine.syncOnce();
    await admin.uploadFile(docs.id, 'new.txt', () => Readable.from([Buffer.from('new')]));
    rmSync(path.join(pair.dir, 'Docs'), { recursive: true });
    await pair.engine.syncOnce();
    // The change there wins; what was deleted here and unchanged there is deleted there.
    expect(remoteTree(sb)).toEqual(
      new Map([
        ['Docs', 'dir'],
        ['Docs/new.txt', sha('new')],
      ]),
    );
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
  });

  it('a folder deleted here while renamed there and given a file: it comes back under the new name with that file', async () => {
    const root = (await admin.rootFolder(sb.workspaceId)).id;
    const docs = await admin.createFolder(sb.workspaceId, root, 'Docs');
    await admin.uploadFile(docs.id, 'old.txt', () => Readable.from([Buffer.from('old')]));
    await pair.engine.syncOnce();
    await admin.renameFolder(docs.id, 'Reports');
    await admin.uploadFile(docs.id, 'new.txt', () => Readable.from([Buffer.from('new')]));
    rmSync(path.join(pair.dir, 'Docs'), { recursive: true });
    await pair.engine.syncOnce();
    expect(remoteTree(sb)).toEqual(
      new Map([
        ['Reports', 'dir'],
        ['Reports/new.txt', sha('new')],
      ]),
    );
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
  });

  it("an editor's save whose old inode came back as a folder is a new version of the same file", async () => {
    const root = (await admin.rootFolder(sb.workspaceId)).id;
    // A folder and a file of the same name on the service: the file is "Docs (2)" here.
    await admin.createFolder(sb.workspaceId, root, 'Docs');
    const file = await admin.uploadFile(root, 'Docs', () => Readable.from([Buffer.from('first')]));
    await pair.engine.syncOnce();
    // ext4 gives a freed inode to the next item made: here a new folder has the file's old one.
    mkdirSync(path.join(pair.dir, 'Photos'));
    const j = pair.journal.atPath('Docs (2)')!;
    pair.journal.upsert({ ...j, ino: statSync(path.join(pair.dir, 'Photos')).ino });
    writeFileSync(path.join(pair.dir, 'Docs (2).tmp'), 'second');
    renameSync(path.join(pair.dir, 'Docs (2).tmp'), path.join(pair.dir, 'Docs (2)'));
    await pair.engine.syncOnce();
    // No "Docs (2)" on the service: the folder, the file (both "Docs") and Photos.
    expect([...remoteTree(sb).keys()].sort()).toEqual(['Docs', 'Photos']);
    expect((await admin.getFile(file.id)).size).toBe('second'.length);
    expect(localTree(pair.dir).get('Docs (2)')).toBe(sha('second'));
  });

  it('a new file whose name the service takes for a synced one (accents composed or not) is kept here and reported', async () => {
    const nfc = 'Caf\u00e9';
    const nfd = 'Cafe\u0301';
    writeFileSync(path.join(pair.dir, nfc), 'synced');
    await pair.engine.syncOnce();
    writeFileSync(path.join(pair.dir, nfd), 'new');
    await pair.engine.syncOnce();
    expect(remoteTree(sb)).toEqual(new Map([[nfc, sha('synced')]]));
    expect(pair.engine.status().problems.map((p) => [p.path, p.reason])).toEqual([[nfd, 'name']]);
    // Renamed, it goes up.
    renameSync(path.join(pair.dir, nfd), path.join(pair.dir, 'Cafe 2'));
    await pair.engine.syncOnce();
    expect(remoteTree(sb)).toEqual(localTree(pair.dir));
    expect(pair.engine.status().problems).toEqual([]);
  });

  it('a file deleted and made again with other case at once: the new one goes up, nothing lost', async () => {
    writeFileSync(path.join(pair.dir, 'notes.txt'), 'old');
    await pair.engine.syncOnce();
    rmSync(path.join(pair.dir, 'notes.txt'));
    writeFileSync(path.join(pair.dir, 'Notes.txt'), 'new');
    await pair.engine.syncOnce();
    expect(remoteTree(sb)).toEqual(new Map([['Notes.txt', sha('new')]]));
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
  });

  it('an upload whose answer was lost, then renamed on the service: the restart finds it by the feed, no second copy', async () => {
    const crash = await reopenCrashingAfter('upload');
    writeFileSync(path.join(pair.dir, 'Docs'), 'mine');
    await expect(pair.engine.syncOnce()).rejects.toThrow('crashed');
    crash.on = false;
    const [uploaded] = [...remoteTree(sb).keys()];
    expect(uploaded).toBe('Docs');
    for await (const e of admin.folderContents((await admin.rootFolder(sb.workspaceId)).id)) {
      if (e.kind === 'file') await admin.renameFile(e.file.id, 'Photos');
    }
    await pair.engine.syncOnce();
    expect(remoteTree(sb)).toEqual(new Map([['Photos', sha('mine')]]));
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
  });

  it('an upload whose answer was lost, then moved here before the restart: recorded by its identity, moved, not sent twice', async () => {
    const crash = await reopenCrashingAfter('upload');
    mkdirSync(path.join(pair.dir, 'Photos'));
    writeFileSync(path.join(pair.dir, 'Docs'), 'mine');
    await expect(pair.engine.syncOnce()).rejects.toThrow('crashed');
    crash.on = false;
    const idIn = async (folderId: number) => {
      for await (const e of admin.folderContents(folderId)) if (e.kind === 'file') return e.file.id;
    };
    const uploaded = await idIn((await admin.rootFolder(sb.workspaceId)).id);
    renameSync(path.join(pair.dir, 'Docs'), path.join(pair.dir, 'Photos', 'Docs'));
    await pair.engine.syncOnce();
    expect(await idIn(pair.journal.atPath('Photos')!.remoteId)).toBe(uploaded);
    expect(remoteTree(sb)).toEqual(
      new Map([
        ['Photos', 'dir'],
        ['Photos/Docs', sha('mine')],
      ]),
    );
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
    expect(pair.engine.status().problems).toEqual([]);
  });

  it('a new folder whose answer was lost, renamed here before the restart: the rename is sent, no second folder', async () => {
    const crash = await reopenCrashingAfter('mkdir');
    mkdirSync(path.join(pair.dir, 'Docs'));
    await expect(pair.engine.syncOnce()).rejects.toThrow('crashed');
    crash.on = false;
    renameSync(path.join(pair.dir, 'Docs'), path.join(pair.dir, 'docs'));
    await pair.engine.syncOnce();
    expect(remoteTree(sb)).toEqual(new Map([['docs', 'dir']]));
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
    expect(pair.engine.status().problems).toEqual([]);
  });

  it('a move copied on a server without the move extension, crashed after the copy: the old one is deleted, nothing twice', async () => {
    await withoutMoveExtension();
    const crash = await reopenCrashingAfter('upload');
    crash.on = false;
    mkdirSync(path.join(pair.dir, 'Photos'));
    writeFileSync(path.join(pair.dir, 'Docs'), 'mine');
    await pair.engine.syncOnce();
    renameSync(path.join(pair.dir, 'Docs'), path.join(pair.dir, 'Photos', 'Docs'));
    crash.on = true;
    await expect(pair.engine.syncOnce()).rejects.toThrow('crashed');
    crash.on = false;
    await pair.engine.syncOnce();
    expect(remoteTree(sb)).toEqual(
      new Map([
        ['Photos', 'dir'],
        ['Photos/Docs', sha('mine')],
      ]),
    );
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
  });

  it('on a case-insensitive volume, a file renamed in case here and replaced there by a folder: it makes way from its actual name', async () => {
    await pair.close();
    pair = await openPair(sb, clientFor(sb.baseUrl, tokenOf(member)), dirs, {
      profile: { flavor: 'posix', caseInsensitive: true, normalizationInsensitive: true },
      tuning: { now: () => Date.now() + ahead },
    });
    const root = (await admin.rootFolder(sb.workspaceId)).id;
    const file = await admin.uploadFile(root, 'Docs', () => Readable.from([Buffer.from('theirs')]));
    await pair.engine.syncOnce();
    renameSync(path.join(pair.dir, 'Docs'), path.join(pair.dir, 'docs'));
    await admin.deleteFile(file.id);
    await admin.createFolder(sb.workspaceId, root, 'docs');
    // The walk comes first: the folder is placed before the rename here is sent.
    tenMinutesPass();
    await pair.engine.syncOnce();
    // Deleted there and unchanged here (only its case changed): to the trash, out of the way.
    expect(remoteTree(sb)).toEqual(new Map([['docs', 'dir']]));
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
  });

  it('a folder replaced here by a file of its name, and a file by a folder: the old one goes, the new one comes', async () => {
    const root = (await admin.rootFolder(sb.workspaceId)).id;
    await admin.createFolder(sb.workspaceId, root, 'Notes.txt');
    await admin.uploadFile(root, 'plan.md', () => Readable.from([Buffer.from('plan')]));
    await pair.engine.syncOnce();
    rmSync(path.join(pair.dir, 'Notes.txt'), { recursive: true });
    writeFileSync(path.join(pair.dir, 'Notes.txt'), 'mine');
    rmSync(path.join(pair.dir, 'plan.md'));
    mkdirSync(path.join(pair.dir, 'plan.md'));
    await pair.engine.syncOnce();
    expect(remoteTree(sb)).toEqual(
      new Map([
        ['Notes.txt', sha('mine')],
        ['plan.md', 'dir'],
      ]),
    );
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
  });

  it('a move with a new name, on a server without the move extension, where that name is taken at the old place: copied, not stuck', async () => {
    await withoutMoveExtension();
    const root = (await admin.rootFolder(sb.workspaceId)).id;
    await admin.uploadFile(root, 'trail.', () => Readable.from([Buffer.from('trail')]));
    await admin.createFolder(sb.workspaceId, root, 'Photos');
    await admin.uploadFile(root, 'Docs', () => Readable.from([Buffer.from('docs')]));
    await pair.engine.syncOnce();
    renameSync(path.join(pair.dir, 'Docs'), path.join(pair.dir, 'Photos', 'trail.'));
    await pair.engine.syncOnce();
    expect(remoteTree(sb)).toEqual(
      new Map([
        ['Photos', 'dir'],
        ['Photos/trail.', sha('docs')],
        ['trail.', sha('trail')],
      ]),
    );
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
  });

  it('a folder renamed here to a name the service has in other case: renamed aside here and there, nothing stale', async () => {
    const root = (await admin.rootFolder(sb.workspaceId)).id;
    await admin.createFolder(sb.workspaceId, root, 'Docs');
    await pair.engine.syncOnce();
    await admin.createFolder(sb.workspaceId, root, 'Notes.txt');
    renameSync(path.join(pair.dir, 'Docs'), path.join(pair.dir, 'notes.txt'));
    await pair.engine.syncOnce();
    const names = [...remoteTree(sb).keys()];
    expect(names).toHaveLength(2);
    expect(names).toContain('Notes.txt');
    const aside = names.find((n) => n !== 'Notes.txt')!;
    expect(aside).toMatch(/^notes\.txt \(conflict \d{4}-\d\d-\d\d \d{6} .+\)$/);
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
    expect([...pair.journal.all()].map((j) => [j.localPath, j.remoteName]).sort()).toEqual(
      [
        ['Notes.txt', 'Notes.txt'],
        [aside, aside],
      ].sort(),
    );
    expect(pair.engine.status().conflicts.map((c) => c.message)).toEqual([
      `The service already has an item named like notes.txt there (names are compared without regard to case or accents): it was renamed ${aside}.`,
    ]);
    expect(pair.engine.status().problems).toEqual([]);
  });

  it.each([true, false])(
    'a folder moved into a new folder whose name the service takes for its own (move extension: %s): it steps aside, then moves in',
    async (extensions) => {
      if (!extensions) await withoutMoveExtension();
      mkdirSync(path.join(pair.dir, 'Docs'));
      writeFileSync(path.join(pair.dir, 'Docs', 'a.txt'), 'a');
      await pair.engine.syncOnce();
      mkdirSync(path.join(pair.dir, 'docs'));
      renameSync(path.join(pair.dir, 'Docs'), path.join(pair.dir, 'docs', 'Docs'));
      await pair.engine.syncOnce();
      expect(remoteTree(sb)).toEqual(
        new Map([
          ['docs', 'dir'],
          ['docs/Docs', 'dir'],
          ['docs/Docs/a.txt', sha('a')],
        ]),
      );
      expect(localTree(pair.dir)).toEqual(remoteTree(sb));
      expect(pair.engine.status().problems).toEqual([]);
      expect(pair.journal.openIntents()).toEqual([]);
    },
  );

  it('a folder kept here after the service deleted it goes up under its service name, not the mapped local one', async () => {
    const root = (await admin.rootFolder(sb.workspaceId)).id;
    await admin.uploadFile(root, 'q.txt', () => Readable.from([Buffer.from('file')]));
    const folder = await admin.createFolder(sb.workspaceId, root, 'q.txt');
    await pair.engine.syncOnce();
    const mapped = [...localTree(pair.dir).keys()].find((k) => k !== 'q.txt')!;
    expect(mapped).not.toBe('q.txt');
    writeFileSync(path.join(pair.dir, mapped, 'new.txt'), 'new');
    await admin.deleteFolder(folder.id);
    await pair.engine.syncOnce();
    const rows = sb.sandbox.db
      .prepare(`SELECT kind, filename FROM items WHERE parent_id = ? ORDER BY kind`)
      .all(root);
    expect(rows).toEqual([
      { kind: 'file', filename: 'q.txt' },
      { kind: 'folder', filename: 'q.txt' },
    ]);
    expect(remoteTree(sb).get('q.txt/new.txt')).toBe(sha('new'));
    expect(pair.journal.atPath(mapped)?.remoteName).toBe('q.txt');
  });

  it('a folder deleted there, renamed here in case with a file now at its old name: no crash, both go up', async () => {
    const root = (await admin.rootFolder(sb.workspaceId)).id;
    const folder = await admin.createFolder(sb.workspaceId, root, 'Docs');
    await pair.engine.syncOnce();
    renameSync(path.join(pair.dir, 'Docs'), path.join(pair.dir, 'docs'));
    writeFileSync(path.join(pair.dir, 'Docs'), 'file');
    await admin.deleteFolder(folder.id);
    await pair.engine.syncOnce();
    expect(remoteTree(sb)).toEqual(
      new Map([
        ['Docs', sha('file')],
        ['docs', 'dir'],
      ]),
    );
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
    expect(pair.engine.status().problems).toEqual([]);
  });

  it('a folder renamed here in case while renamed there, and a new folder there takes its old name: the local rename is sent', async () => {
    const root = (await admin.rootFolder(sb.workspaceId)).id;
    const folder = await admin.createFolder(sb.workspaceId, root, 'Café');
    await pair.engine.syncOnce();
    await admin.renameFolder(folder.id, 'Docs');
    await admin.createFolder(sb.workspaceId, root, 'Café');
    renameSync(path.join(pair.dir, 'Café'), path.join(pair.dir, 'café'));
    tenMinutesPass();
    await pair.engine.syncOnce();
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
    expect(pair.journal.get(folder.id)?.localPath).toBe(pair.journal.get(folder.id)?.remoteName);
    expect(remoteTree(sb).has('Café')).toBe(true);
  });

  it('a folder deleted here while renamed there, and a new folder there takes its old name: the delete is sent', async () => {
    const root = (await admin.rootFolder(sb.workspaceId)).id;
    const folder = await admin.createFolder(sb.workspaceId, root, 'Café');
    await pair.engine.syncOnce();
    await admin.renameFolder(folder.id, 'Docs');
    await admin.createFolder(sb.workspaceId, root, 'Café');
    rmSync(path.join(pair.dir, 'Café'), { recursive: true });
    tenMinutesPass();
    await pair.engine.syncOnce();
    expect(remoteTree(sb)).toEqual(new Map([['Café', 'dir']]));
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
    expect(pair.journal.get(folder.id)).toBeUndefined();
  });

  it('a folder moved here on a server without the move extension while a file was added to it there: the file is kept at the old place', async () => {
    await withoutMoveExtension();
    const root = (await admin.rootFolder(sb.workspaceId)).id;
    const docs = await admin.createFolder(sb.workspaceId, root, 'Docs');
    await admin.uploadFile(docs.id, 'a.txt', () => Readable.from([Buffer.from('a')]));
    await admin.createFolder(sb.workspaceId, root, 'Photos');
    await pair.engine.syncOnce();
    renameSync(path.join(pair.dir, 'Docs'), path.join(pair.dir, 'Photos', 'Docs'));
    await admin.uploadFile(docs.id, 'new.txt', () => Readable.from([Buffer.from('new')]));
    await pair.engine.syncOnce();
    expect(remoteTree(sb)).toEqual(
      new Map([
        ['Docs', 'dir'],
        ['Docs/new.txt', sha('new')],
        ['Photos', 'dir'],
        ['Photos/Docs', 'dir'],
        ['Photos/Docs/a.txt', sha('a')],
      ]),
    );
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
  });

  it('a file renamed here in case while renamed there a second later, synced while the role forbids downloads: put back, not uploaded twice', async () => {
    const root = (await admin.rootFolder(sb.workspaceId)).id;
    const file = await admin.uploadFile(root, 'data.bin', () =>
      Readable.from([Buffer.from('data')]),
    );
    await pair.engine.syncOnce();
    // The rename gives the file a new time: to the client, a version it may not download.
    sb.advanceClock(1);
    await admin.renameFile(file.id, 'notes.txt');
    renameSync(path.join(pair.dir, 'data.bin'), path.join(pair.dir, 'Data.bin'));
    await setRole('Viewer');
    tenMinutesPass();
    await pair.engine.syncOnce();
    await setRole('Collaborator');
    tenMinutesPass();
    await pair.engine.syncOnce();
    expect(remoteTree(sb)).toEqual(new Map([['notes.txt', sha('data')]]));
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
    expect(pair.engine.status().problems).toEqual([]);
  });

  it('a folder deleted there while the folder holding it was moved here, on a server without the move extension: it goes up once, with the copy', async () => {
    await withoutMoveExtension();
    const root = (await admin.rootFolder(sb.workspaceId)).id;
    await admin.createFolder(sb.workspaceId, root, 'Café');
    await pair.engine.syncOnce();
    await admin.createFolder(sb.workspaceId, root, 'Docs');
    mkdirSync(path.join(pair.dir, 'Café', 'Docs'));
    writeFileSync(path.join(pair.dir, 'Café', 'docs'), 'docs');
    await pair.engine.syncOnce();
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
    renameSync(path.join(pair.dir, 'Café'), path.join(pair.dir, 'Docs', 'Café'));
    await admin.deleteFolder(pair.journal.atPath('Café/Docs')!.remoteId);
    tenMinutesPass();
    await pair.engine.syncOnce();
    // Deleted there, carried along by a move here (not changed here): it goes up again, as the
    // move here found it.
    expect(localTree(pair.dir)).toEqual(
      new Map([
        ['Docs', 'dir'],
        ['Docs/Café', 'dir'],
        ['Docs/Café/Docs', 'dir'],
        ['Docs/Café/docs', sha('docs')],
      ]),
    );
    expect(remoteTree(sb)).toEqual(localTree(pair.dir));
    expect(pair.engine.status().problems).toEqual([]);
  });

  it('a file deleted there while its folder was moved here, on a server without the move extension: it goes up once, with the copy', async () => {
    await withoutMoveExtension();
    const root = (await admin.rootFolder(sb.workspaceId)).id;
    const cafe = await admin.createFolder(sb.workspaceId, root, 'Café');
    const file = await admin.uploadFile(cafe.id, 'a.txt', () => Readable.from([Buffer.from('a')]));
    await admin.createFolder(sb.workspaceId, root, 'Docs');
    await pair.engine.syncOnce();
    renameSync(path.join(pair.dir, 'Café'), path.join(pair.dir, 'Docs', 'Café'));
    await admin.deleteFile(file.id);
    tenMinutesPass();
    const summary = await pair.engine.syncOnce();
    expect(remoteTree(sb)).toEqual(
      new Map([
        ['Docs', 'dir'],
        ['Docs/Café', 'dir'],
        ['Docs/Café/a.txt', sha('a')],
      ]),
    );
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
    expect(summary.uploaded).toBe(1);
  });

  it('a new folder here whose name the service has in other case, then that folder renamed there to its exact name: the one here steps aside, nothing stale', async () => {
    const root = (await admin.rootFolder(sb.workspaceId)).id;
    mkdirSync(path.join(pair.dir, 'Trail.'));
    const theirs = await admin.createFolder(sb.workspaceId, root, 'trail.');
    await pair.engine.syncOnce();
    await admin.renameFolder(theirs.id, 'Trail.');
    // No walk (it would clear what was refused): the problem must go with the next full scan.
    await pair.engine.syncOnce();
    const names = [...localTree(pair.dir).keys()];
    expect(names).toEqual(['Trail.', expect.stringMatching(/^Trail\. \(conflict .*\)$/)]);
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
    expect(pair.journal.get(theirs.id)?.localPath).toBe('Trail.');
    expect(pair.engine.status().problems).toEqual([]);
  });

  it('a new file whose name the service takes for a synced one goes up as soon as that one is deleted there, without waiting for a walk', async () => {
    writeFileSync(path.join(pair.dir, 'notes.txt'), 'theirs');
    await pair.engine.syncOnce();
    writeFileSync(path.join(pair.dir, 'Notes.txt'), 'mine');
    await pair.engine.syncOnce();
    expect(pair.engine.status().problems.map((p) => [p.path, p.reason])).toEqual([
      ['Notes.txt', 'name'],
    ]);
    await admin.deleteFile(pair.journal.atPath('notes.txt')!.remoteId);
    await pair.engine.syncOnce();
    expect(remoteTree(sb)).toEqual(new Map([['Notes.txt', sha('mine')]]));
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
    expect(pair.engine.status().problems).toEqual([]);
  });

  it('a synced file moved here into a new folder whose name the service has in other case: it waits there with the folder, and goes up with it once renamed', async () => {
    mkdirSync(path.join(pair.dir, 'docs'));
    writeFileSync(path.join(pair.dir, 'plan.md'), 'plan');
    await pair.engine.syncOnce();
    const plan = pair.journal.atPath('plan.md')!.remoteId;
    mkdirSync(path.join(pair.dir, 'Docs'));
    renameSync(path.join(pair.dir, 'plan.md'), path.join(pair.dir, 'Docs/plan.md'));
    await pair.engine.syncOnce();
    expect(pair.engine.status().problems.map((p) => [p.path, p.reason])).toEqual([
      ['Docs', 'name'],
    ]);
    // Nothing is deleted or duplicated on the service while the folder waits.
    expect(remoteTree(sb)).toEqual(
      new Map([
        ['docs', 'dir'],
        ['plan.md', sha('plan')],
      ]),
    );
    renameSync(path.join(pair.dir, 'Docs'), path.join(pair.dir, 'Docs 2'));
    await pair.engine.syncOnce();
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
    expect(pair.journal.get(plan)?.localPath).toBe('Docs 2/plan.md');
    expect(pair.engine.status().problems).toEqual([]);
  });

  it('a file numbered here beside a folder of its name, deleted there while saved here through a temporary file: it goes up under its service name', async () => {
    const root = (await admin.rootFolder(sb.workspaceId)).id;
    await admin.createFolder(sb.workspaceId, root, 'plan.md');
    const file = await admin.uploadFile(root, 'plan.md', () =>
      Readable.from([Buffer.from('plan')]),
    );
    await pair.engine.syncOnce();
    expect([...localTree(pair.dir).keys()]).toEqual(['plan (2).md', 'plan.md']);
    await admin.createFolder(sb.workspaceId, root, 'Photos');
    await admin.deleteFile(file.id);
    writeFileSync(path.join(pair.dir, 'plan (2).md.tmp'), 'saved');
    renameSync(path.join(pair.dir, 'plan (2).md.tmp'), path.join(pair.dir, 'plan (2).md'));
    await pair.engine.syncOnce();
    const names = sb.sandbox.db
      .prepare(`SELECT kind || ' ' || filename FROM items WHERE parent_id = ? ORDER BY 1`)
      .pluck()
      .all(root);
    expect(names).toEqual(['file plan.md', 'folder Photos', 'folder plan.md']);
    expect([...localTree(pair.dir).keys()]).toEqual(['Photos', 'plan (2).md', 'plan.md']);
  });

  it('a folder replaced here by a file of its name while the service moved a file into it: no crash, the folder comes back beside the file', async () => {
    const root = (await admin.rootFolder(sb.workspaceId)).id;
    const docs = await admin.uploadFile(root, 'Docs', () => Readable.from([Buffer.from('docs')]));
    const folder = await admin.createFolder(sb.workspaceId, root, 'résumé.pdf');
    await pair.engine.syncOnce();
    rmSync(path.join(pair.dir, 'résumé.pdf'), { recursive: true });
    writeFileSync(path.join(pair.dir, 'résumé.pdf'), 'mine');
    await new Moves(admin).moveFile(docs.id, folder.id);
    tenMinutesPass();
    await pair.engine.syncOnce();
    const kinds = sb.sandbox.db
      .prepare(`SELECT kind || ' ' || filename FROM items WHERE parent_id IN (?, ?) ORDER BY 1`)
      .pluck()
      .all(root, folder.id);
    expect(kinds).toEqual(['file Docs', 'file résumé.pdf', 'folder résumé.pdf']);
    expect(pair.engine.status().problems).toEqual([]);
    const here = localTree(pair.dir);
    expect(here.get('résumé.pdf')).toBe(sha('mine'));
    expect(here.get('résumé.pdf (2)/Docs')).toBe(sha('docs'));
  });

  it('a file moved here on a server without the move extension while a new version arrived there: the new version is kept at the old place', async () => {
    await withoutMoveExtension();
    const root = (await admin.rootFolder(sb.workspaceId)).id;
    await admin.uploadFile(root, 'Docs', () => Readable.from([Buffer.from('old version')]));
    await pair.engine.syncOnce();
    mkdirSync(path.join(pair.dir, 'docs'));
    renameSync(path.join(pair.dir, 'Docs'), path.join(pair.dir, 'docs', 'Docs'));
    sb.advanceClock(1);
    await admin.uploadFile(root, 'Docs', () => Readable.from([Buffer.from('new')]));
    await pair.engine.syncOnce();
    expect(remoteTree(sb)).toEqual(
      new Map([
        ['Docs', sha('new')],
        ['docs', 'dir'],
        ['docs/Docs', sha('old version')],
      ]),
    );
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
  });

  it('a new file whose name the service takes for a synced one goes up as soon as that one is renamed there', async () => {
    const root = (await admin.rootFolder(sb.workspaceId)).id;
    const theirs = await admin.uploadFile(root, 'notes.txt', () =>
      Readable.from([Buffer.from('theirs')]),
    );
    await pair.engine.syncOnce();
    writeFileSync(path.join(pair.dir, 'Notes.txt'), 'mine');
    await pair.engine.syncOnce();
    expect(pair.engine.status().problems.map((p) => [p.path, p.reason])).toEqual([
      ['Notes.txt', 'name'],
    ]);
    await admin.renameFile(theirs.id, 'Docs');
    await pair.engine.syncOnce();
    expect(remoteTree(sb)).toEqual(
      new Map([
        ['Docs', sha('theirs')],
        ['Notes.txt', sha('mine')],
      ]),
    );
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
    expect(pair.engine.status().problems).toEqual([]);
  });

  it.each([true, false])(
    'a folder deleted here and a file renamed into its name, crashed after the rename (folder deleted there too: %s): the restart records it, the delete follows',
    async (deletedThere) => {
      const root = (await admin.rootFolder(sb.workspaceId)).id;
      const folder = await admin.createFolder(sb.workspaceId, root, 'Docs');
      await admin.uploadFile(root, 'docs', () => Readable.from([Buffer.from('docs')]));
      await pair.engine.syncOnce();
      rmSync(path.join(pair.dir, 'Docs'), { recursive: true });
      renameSync(path.join(pair.dir, 'docs'), path.join(pair.dir, 'Docs'));
      const crash = await reopenCrashingAfter('move');
      await expect(pair.engine.syncOnce()).rejects.toThrow('crashed');
      crash.on = false;
      if (deletedThere) await admin.deleteFolder(folder.id);
      await pair.engine.syncOnce();
      expect(remoteTree(sb)).toEqual(new Map([['Docs', sha('docs')]]));
      expect(localTree(pair.dir)).toEqual(remoteTree(sb));
    },
  );

  it('a file saved here while renamed there in the same second, and a folder took its old name: the new version goes to it under its new name, not to a second file', async () => {
    const root = (await admin.rootFolder(sb.workspaceId)).id;
    writeFileSync(path.join(pair.dir, 'Docs'), 'v1');
    await pair.engine.syncOnce();
    await admin.renameFile(pair.journal.atPath('Docs')!.remoteId, 'docs');
    writeFileSync(path.join(pair.dir, 'Docs.tmp'), 'v2');
    renameSync(path.join(pair.dir, 'Docs.tmp'), path.join(pair.dir, 'Docs'));
    await admin.createFolder(sb.workspaceId, root, 'Docs');
    const crash = await reopenCrashingAfter('upload');
    await expect(pair.engine.syncOnce()).rejects.toThrow('crashed');
    crash.on = false;
    await pair.engine.syncOnce();
    const copies = [...localTree(pair.dir).values()].filter((v) => v === sha('v2'));
    expect(copies).toHaveLength(1);
    const files = sb.sandbox.db
      .prepare(`SELECT filename FROM items WHERE kind = 'file' AND parent_id = ?`)
      .pluck()
      .all(root);
    expect(files).toEqual(['docs']);
  });

  it('a file moved and renamed here on a server without the move extension, nothing changed there: the old one is deleted once copied', async () => {
    await withoutMoveExtension();
    const root = (await admin.rootFolder(sb.workspaceId)).id;
    await admin.uploadFile(root, 'Docs', () => Readable.from([Buffer.from('docs')]));
    await pair.engine.syncOnce();
    mkdirSync(path.join(pair.dir, 'Photos'));
    await pair.engine.syncOnce();
    sb.advanceClock(1);
    renameSync(path.join(pair.dir, 'Docs'), path.join(pair.dir, 'Photos', 'docs'));
    await pair.engine.syncOnce();
    expect(remoteTree(sb)).toEqual(
      new Map([
        ['Photos', 'dir'],
        ['Photos/docs', sha('docs')],
      ]),
    );
    expect(localTree(pair.dir)).toEqual(remoteTree(sb));
    expect(pair.engine.status().conflicts).toEqual([]);
  });
});
