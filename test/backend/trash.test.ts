import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncPairStatus } from '../../src/shared/app-api';
import type { ServiceClient } from '../../src/main/api/client';
import type { RunningSandbox } from '../../src/service/sandbox';
import { remoteTree, sha } from '../sync/harness';
import { backendWithSandbox, type BackendWithSandbox } from './with-backend';

// The window's Trash (issue 39): what the sync moved to its trash, listed with where it came
// from, put back by Restore (never over what is there now) and then synced as anything new in the
// folder; Show hands the file manager the trashed item. A real pair on a real sandbox.

let t: BackendWithSandbox;
let sb: RunningSandbox;
let client: ServiceClient;
let pairId: string;
let dir: string;
const shown: string[] = [];

const ok: BackendWithSandbox['ok'] = (method, params) => t.ok(method, params);
const refused: BackendWithSandbox['refused'] = (method, params) => t.refused(method, params);
const statusWhere: BackendWithSandbox['statusWhere'] = (check) => t.statusWhere(check);
const disk = (rel: string) => path.join(dir, rel);
const idle = (s: SyncPairStatus) => s.state === 'idle' && s.current === null;
const remoteId = (name: string) =>
  sb.sandbox.db
    .prepare(`SELECT id FROM items WHERE filename = ? AND workspace_id = ? ORDER BY id DESC`)
    .pluck()
    .get(name, sb.workspaceId) as number;
const trashed = async () => (await ok('trash.list', {})).items;

beforeAll(async () => {
  t = await backendWithSandbox({
    seed: 'empty',
    prefix: 'trash',
    pair: 'Q3',
    backend: { openPath: () => Promise.resolve(), showPath: async (p) => void shown.push(p) },
  });
  ({ sb, client, pairId, dir } = t);
  writeFileSync(disk('plan.txt'), 'original');
  await statusWhere((s) => idle(s) && remoteTree(sb).get('plan.txt') === sha('original'));
});

afterAll(() => t?.close());

describe('the trash through the backend', () => {
  it('starts empty', async () => {
    expect(await ok('trash.list', {})).toEqual({ items: [], cut: false });
  });

  it('lists a file deleted on the service; Restore puts it back and the next pass uploads it', async () => {
    await client.deleteFile(remoteId('plan.txt'));
    await statusWhere((s) => idle(s) && !existsSync(disk('plan.txt')));
    const [entry, ...rest] = await trashed();
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({ name: 'plan.txt', relPath: 'plan.txt', root: dir, kind: 'file' });

    await ok('trash.show', { id: entry!.id });
    expect(shown).toHaveLength(1);
    expect(readFileSync(shown[0]!, 'utf8')).toBe('original');

    expect(await ok('trash.restore', { id: entry!.id })).toEqual({ path: disk('plan.txt') });
    expect(readFileSync(disk('plan.txt'), 'utf8')).toBe('original');
    expect(await trashed()).toEqual([]);
    // A new file in the folder as far as the engine knows: up it goes, under its name.
    await statusWhere((s) => idle(s) && remoteTree(sb).get('plan.txt') === sha('original'));
    expect(existsSync(disk('plan.txt'))).toBe(true);
    // Gone from the trash: a second Restore, or Show, says so in words.
    expect(await refused('trash.restore', { id: entry!.id })).toMatchObject({
      kind: 'not-found',
      message: 'This item is no longer in the trash.',
    });
    expect(await refused('trash.show', { id: entry!.id })).toMatchObject({ kind: 'not-found' });
    expect(await refused('trash.restore', { id: '../../etc/passwd' })).toMatchObject({
      kind: 'not-found',
    });
  });

  it('Keep theirs moves my copy to the trash; Restore brings it back beside theirs, and it syncs', async () => {
    await ok('pairs.pause', { pairId });
    await statusWhere((s) => s.state === 'paused');
    writeFileSync(disk('plan.txt'), 'mine');
    const root = (await client.rootFolder(sb.workspaceId)).id;
    await client.uploadFile(root, 'plan.txt', () => Readable.from([Buffer.from('theirs')]));
    await ok('pairs.resume', { pairId });
    const s = await statusWhere(
      (s) => s.state === 'needs-attention' && s.conflicts.some((c) => c.copy !== undefined),
    );
    const c = s.conflicts.find((c) => c.copy !== undefined)!;
    await ok('pairs.settleConflict', { pairId, conflictId: c.id!, keep: 'theirs' });
    await statusWhere((s) => idle(s) && s.conflicts.length === 0 && !remoteTree(sb).has(c.copy!));
    expect(readFileSync(disk('plan.txt'), 'utf8')).toBe('theirs');

    const entry = (await trashed()).find((e) => e.relPath === c.copy);
    expect(entry).toBeDefined();
    await ok('trash.restore', { id: entry!.id });
    expect(readFileSync(disk(c.copy!), 'utf8')).toBe('mine');
    // Uploaded as a new file; theirs stays as it is.
    await statusWhere((s) => idle(s) && remoteTree(sb).get(c.copy!) === sha('mine'));
    expect(remoteTree(sb).get('plan.txt')).toBe(sha('theirs'));
  });

  it('never replaces what is at the place now: the restored item takes a numbered name', async () => {
    writeFileSync(disk('notes.txt'), 'old notes');
    await statusWhere((s) => idle(s) && remoteTree(sb).get('notes.txt') === sha('old notes'));
    await client.deleteFile(remoteId('notes.txt'));
    await statusWhere((s) => idle(s) && !existsSync(disk('notes.txt')));
    writeFileSync(disk('notes.txt'), 'new notes');
    await statusWhere((s) => idle(s) && remoteTree(sb).get('notes.txt') === sha('new notes'));
    const entry = (await trashed()).find((e) => e.relPath === 'notes.txt')!;
    expect(await ok('trash.restore', { id: entry.id })).toEqual({ path: disk('notes (2).txt') });
    expect(readFileSync(disk('notes.txt'), 'utf8')).toBe('new notes');
    expect(readFileSync(disk('notes (2).txt'), 'utf8')).toBe('old notes');
    await statusWhere((s) => idle(s) && remoteTree(sb).get('notes (2).txt') === sha('old notes'));
  });
});
