import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MethodName, ParamsOf } from '../../src/shared/app-api';
import type { HandlerContext } from '../../src/main/backend/handlers/context';
import { editHandlers } from '../../src/main/backend/handlers/edit';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { clientFor, remoteTree, tokenOf } from '../sync/harness';
import { backendWithSandbox, type BackendWithSandbox } from './with-backend';

// File operations in Browse (issue 42) through the window's API (edit.*, uploads.*): a real
// sandbox over HTTP, a Collaborator who may do everything, a Creator and a Viewer whose refusals
// come back in words (never a status code), and a batch in which one refused item does not stop
// the others.

let t: BackendWithSandbox;
let sb: RunningSandbox;
let root: number;
const accounts: Record<string, string> = {};

async function as(role: string): Promise<string> {
  const u = sb.users.find((x) => x.role === role)!;
  accounts[role] ??= (
    await t.ok('accounts.signIn', { server: sb.baseUrl, email: u.email, password: u.password })
  ).id;
  return accounts[role];
}

async function refused<M extends MethodName>(method: M, params: ParamsOf<M>) {
  const error = await t.refused(method, params);
  expect(error.message).not.toMatch(/\b(403|404|422)\b/);
  return error;
}

/** Uploads `text` as `name` in pieces of `piece` characters of base64. */
async function upload(accountId: string, folderId: number, name: string, text: string) {
  const bytes = Buffer.from(text);
  const { uploadId } = await t.ok('uploads.begin', {
    accountId,
    folderId,
    name,
    size: bytes.length,
  });
  // Two pieces: the backend appends them in order.
  const half = Math.floor(bytes.length / 2);
  for (const part of [bytes.subarray(0, half), bytes.subarray(half)])
    await t.ok('uploads.chunk', { uploadId, data: part.toString('base64') });
  return t.ok('uploads.finish', { uploadId });
}

beforeAll(async () => {
  t = await backendWithSandbox({
    seed: 'empty',
    prefix: 'edit',
    user: null,
    // A piece an earlier run left waiting (its window closed mid-upload).
    prepare: ({ tmp }) => {
      mkdirSync(path.join(tmp.dir, 'state', 'uploads'), { recursive: true });
      writeFileSync(path.join(tmp.dir, 'state', 'uploads', 'left-over'), 'x');
    },
  });
  sb = t.sb;
  root = (await t.client.rootFolder(sb.workspaceId)).id;
}, 60_000);
afterAll(() => t?.close());

describe('file operations in Browse, on the service', () => {
  it('a Collaborator makes a folder, uploads, renames, moves and deletes', async () => {
    const accountId = await as('Collaborator');
    const workspaceId = sb.workspaceId;
    const plans = await t.ok('edit.newFolder', {
      accountId,
      workspaceId,
      parentId: root,
      name: ' Plans ',
    });
    expect(plans).toMatchObject({ kind: 'folder', name: 'Plans' });

    // The same name, in another case: the service's 422 said as a name to choose again.
    const taken = await refused('edit.newFolder', {
      accountId,
      workspaceId,
      parentId: root,
      name: 'plans',
    });
    expect(taken.kind).toBe('conflict');
    expect(taken.words).toEqual({ key: 'edit.nameTaken', params: { name: 'plans' } });
    expect(taken.message).toBe('The name plans is already taken in this folder: choose another.');
    const slash = await refused('edit.newFolder', {
      accountId,
      workspaceId,
      parentId: root,
      name: 'a/b',
    });
    expect(slash.words).toEqual({ key: 'edit.nameSlash' });

    const file = await upload(accountId, root, 'notes.txt', 'minutes of the meeting, in two');
    expect(file).toMatchObject({ kind: 'file', name: 'notes.txt', size: 30 });
    expect(readdirSync(path.join(t.state, 'uploads'))).toEqual([]);
    expect(remoteTree(sb).get('notes.txt')).toBeDefined();

    const renamed = await t.ok('edit.rename', {
      accountId,
      kind: 'file',
      itemId: file.id,
      name: 'minutes.txt',
    });
    expect(renamed.name).toBe('minutes.txt');

    const moved = await t.ok('edit.move', {
      accountId,
      items: [{ kind: 'file', id: file.id, name: 'minutes.txt' }],
      to: plans.id,
    });
    expect(moved).toEqual({ done: 1, failed: [] });
    expect(remoteTree(sb).has('Plans/minutes.txt')).toBe(true);

    // A folder into itself: refused in words, the rest of the batch still done.
    const other = await t.ok('edit.newFolder', {
      accountId,
      workspaceId,
      parentId: root,
      name: 'Other',
    });
    const mixed = await t.ok('edit.move', {
      accountId,
      items: [
        { kind: 'folder', id: plans.id, name: 'Plans' },
        { kind: 'folder', id: other.id, name: 'Other' },
      ],
      to: plans.id,
    });
    expect(mixed.done).toBe(1);
    expect(mixed.failed).toMatchObject([
      { id: plans.id, words: { key: 'edit.intoItself' }, message: expect.stringMatching(/itself/) },
    ]);
    expect(remoteTree(sb).has('Plans/Other')).toBe(true);

    const deleted = await t.ok('edit.delete', {
      accountId,
      items: [{ kind: 'folder', id: plans.id, name: 'Plans' }],
    });
    expect(deleted).toEqual({ done: 1, failed: [] });
    expect([...remoteTree(sb).keys()].filter((k) => k.startsWith('Plans'))).toEqual([]);

    // Deleted meanwhile: a rename of it says so.
    const gone = await refused('edit.rename', {
      accountId,
      kind: 'folder',
      itemId: plans.id,
      name: 'Again',
    });
    expect(gone.words).toEqual({ key: 'edit.gone', params: { name: 'Again' } });
  });

  it('a Viewer is refused in words; a batch says each item', async () => {
    const admin = await as('Administrator');
    const a = await t.ok('edit.newFolder', {
      accountId: admin,
      workspaceId: sb.workspaceId,
      parentId: root,
      name: 'Kept A',
    });
    const b = await upload(admin, root, 'kept-b.txt', 'b');
    const viewer = await as('Viewer');
    const made = await refused('edit.newFolder', {
      accountId: viewer,
      workspaceId: sb.workspaceId,
      parentId: root,
      name: 'Mine',
    });
    expect(made.kind).toBe('forbidden');
    expect(made.message).toBe('Your role in this workspace does not allow this.');
    const upBegun = await t.ok('uploads.begin', {
      accountId: viewer,
      folderId: root,
      name: 'v.txt',
      size: 1,
    });
    await t.ok('uploads.chunk', { uploadId: upBegun.uploadId, data: 'eA==' });
    const up = await refused('uploads.finish', { uploadId: upBegun.uploadId });
    expect(up.words).toEqual({ key: 'edit.roleRefused' });
    const batch = await t.ok('edit.delete', {
      accountId: viewer,
      items: [
        { kind: 'folder', id: a.id, name: 'Kept A' },
        { kind: 'file', id: b.id, name: 'kept-b.txt' },
      ],
    });
    expect(batch.done).toBe(0);
    expect(batch.failed.map((f) => [f.name, f.words?.key])).toEqual([
      ['Kept A', 'edit.roleRefused'],
      ['kept-b.txt', 'edit.roleRefused'],
    ]);
    expect(remoteTree(sb).has('Kept A')).toBe(true);
    expect(remoteTree(sb).has('kept-b.txt')).toBe(true);
  });

  it("a Creator's listing says what they added; they delete that, not another's", async () => {
    const creator = await as('Creator');
    const own = await t.ok('edit.newFolder', {
      accountId: creator,
      workspaceId: sb.workspaceId,
      parentId: root,
      name: 'Creator’s',
    });
    const listed = await t.ok('folders.contents', { accountId: creator, folderId: root });
    const mine = Object.fromEntries(listed.items.map((e) => [e.name, e.mine]));
    expect(mine['Creator’s']).toBe(true);
    expect(mine['Kept A']).toBe(false);
    const kept = listed.items.find((e) => e.name === 'Kept A')!;
    const got = await t.ok('edit.delete', {
      accountId: creator,
      items: [
        { kind: 'folder', id: kept.id, name: 'Kept A' },
        { kind: 'folder', id: own.id, name: 'Creator’s' },
      ],
    });
    expect(got.done).toBe(1);
    expect(got.failed.map((f) => [f.name, f.words?.key])).toEqual([['Kept A', 'edit.roleRefused']]);
  });

  it('the service out of reach is said in words: nothing was changed', async () => {
    const accountId = await as('Collaborator');
    // Every request answered 503 (its Retry-After 0: the client's retries do not wait).
    sb.setFaults('fail=1,after=0');
    try {
      const made = await refused('edit.newFolder', {
        accountId,
        workspaceId: sb.workspaceId,
        parentId: root,
        name: 'Unreached',
      });
      expect(made.kind).toBe('offline');
      expect(made.message).toBe(
        'The service cannot be reached: nothing was changed. Try again when online.',
      );
      const batch = await t.ok('edit.delete', {
        accountId,
        items: [{ kind: 'folder', id: root, name: 'Anything' }],
      });
      expect(batch.failed.map((f) => f.words?.key)).toEqual(['edit.offline']);
    } finally {
      sb.setFaults('');
    }
    expect(remoteTree(sb).has('Unreached')).toBe(false);
  });

  it('an upload is refused when its bytes do not match its size, and forgotten', async () => {
    const accountId = await as('Collaborator');
    const { uploadId } = await t.ok('uploads.begin', {
      accountId,
      folderId: root,
      name: 'short.txt',
      size: 2,
    });
    const long = await refused('uploads.chunk', {
      uploadId,
      data: Buffer.from('abc').toString('base64'),
    });
    expect(long.words).toEqual({ key: 'edit.uploadTooLong' });
    const after = await refused('uploads.finish', { uploadId });
    expect(after.words).toEqual({ key: 'edit.uploadGone' });
    expect(remoteTree(sb).has('short.txt')).toBe(false);
  });
});

describe('a service without the move extension', () => {
  it('a move is said not possible there, in words, and nothing moves', async () => {
    const plain = await startSandbox({ seed: 'empty', extensions: false });
    try {
      const client = clientFor(
        plain.baseUrl,
        tokenOf(plain.users.find((u) => u.role === 'Administrator')!),
      );
      // The handlers as the backend runs them: only `account` is used.
      const ctx = { account: () => Promise.resolve({ client, userId: null }) };
      const edit = editHandlers(ctx as unknown as HandlerContext);
      const top = (await client.rootFolder(plain.workspaceId)).id;
      const into = await client.createFolder(plain.workspaceId, top, 'Into');
      const moving = await client.createFolder(plain.workspaceId, top, 'Moving');
      const got = await edit['edit.move']({
        accountId: 'a',
        items: [{ kind: 'folder', id: moving.id, name: 'Moving' }],
        to: into.id,
      });
      expect(got.done).toBe(0);
      expect(got.failed.map((f) => f.words)).toEqual([{ key: 'edit.moveUnsupported' }]);
      expect(remoteTree(plain).has('Moving')).toBe(true);
    } finally {
      await plain.close();
    }
  });
});
