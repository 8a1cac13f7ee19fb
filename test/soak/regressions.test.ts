import { mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/main/api/client';
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
// Most are now histories the soak replays (histories.ts: `npm run -s soak -- --replay all`, and
// soak.test.ts). These stay scripts: each needs what no soak step does (a journal row patched
// as a volume that hands a freed inode out again would leave it; the service's clock moved on
// with no write; two changes within one second of the service's clock where a soak step moves
// it on).

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
  it("an editor's save whose old inode came back as a folder is a new version of the same file", async () => {
    const root = (await admin.rootFolder(sb.workspaceId)).id;
    // A folder and a file of the same name on the service: the file is "Docs (2)" here.
    await admin.createFolder(sb.workspaceId, root, 'Docs');
    const file = await admin.uploadFile(root, 'Docs', () => Readable.from([Buffer.from('first')]));
    await pair.engine.syncOnce();
    // ext4 gives a freed inode to the next item made: here a new folder has the file's old one.
    mkdirSync(path.join(pair.dir, 'Photos'));
    const j = pair.journal.items.atPath('Docs (2)')!;
    pair.journal.items.upsert({ ...j, ino: statSync(path.join(pair.dir, 'Photos')).ino });
    writeFileSync(path.join(pair.dir, 'Docs (2).tmp'), 'second');
    renameSync(path.join(pair.dir, 'Docs (2).tmp'), path.join(pair.dir, 'Docs (2)'));
    await pair.engine.syncOnce();
    // No "Docs (2)" on the service: the folder, the file (both "Docs") and Photos.
    expect([...remoteTree(sb).keys()].sort()).toEqual(['Docs', 'Photos']);
    expect((await admin.getFile(file.id)).size).toBe('second'.length);
    expect(localTree(pair.dir).get('Docs (2)')).toBe(sha('second'));
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

  it('a file saved here while renamed there in the same second, and a folder took its old name: the new version goes to it under its new name, not to a second file', async () => {
    const root = (await admin.rootFolder(sb.workspaceId)).id;
    writeFileSync(path.join(pair.dir, 'Docs'), 'v1');
    await pair.engine.syncOnce();
    await admin.renameFile(pair.journal.items.atPath('Docs')!.remoteId, 'docs');
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
