import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/main/api/client';
import type { SignedIn } from '../../src/main/backend/accounts';
import { editHandlers } from '../../src/main/backend/handlers/edit';
import type { HandlerContext } from '../../src/main/backend/handlers/context';
import type { RunningSandbox } from '../../src/service/sandbox';
import { TempDirs, localTree, remoteTree, requestsOf, type Pair } from './harness';
import { closeBoth, pairWithSandbox } from './sandbox-pair';

// Issue 42: a change made in Browse (the window's edit.* handlers, as the pair's own account)
// in a synced workspace shows on disk at the next pass, learned from the feed as a colleague's
// change is: no walk. Each case counts the pass's requests by route (`/_sandbox/stats`); a walk
// of the demo workspace would list each of its folders (`GET /folders/:id`).

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

let sb: RunningSandbox;
let client: ServiceClient;
let pair: Pair;
let edit: ReturnType<typeof editHandlers>;
let root: number;
const accountId = 'ann';

/** The demo workspace's folders: what a walk would list, one request each. */
const folderCount = () => [...remoteTree(sb).values()].filter((v) => v === 'dir').length + 1;

beforeEach(async () => {
  ({ sb, client, pair } = await pairWithSandbox(dirs, { sandbox: { seed: 'demo' } }));
  // Browse's handlers as the backend runs them, for the pair's own account: only `account` is used.
  const ctx = {
    account: () => Promise.resolve({ client } as SignedIn),
  } as unknown as HandlerContext;
  edit = editHandlers(ctx);
  await pair.engine.syncOnce();
  root = (await client.rootFolder(sb.workspaceId)).id;
  // Past the feed's overlap with the first sync's own events.
  sb.advanceClock(10);
});
afterEach(() => closeBoth(pair, sb));

/** One pass after the change: its requests by route; no walk, and the feed read once. */
async function passAfterChange(): Promise<Record<string, number>> {
  const stats = await requestsOf(sb, () => pair.engine.syncOnce());
  const said = JSON.stringify(stats);
  expect(folderCount()).toBeGreaterThan(8);
  // At most the parent and a new folder listed (what a colleague's change costs), not a walk.
  expect(stats['GET /folders/:id'] ?? 0, said).toBeLessThanOrEqual(2);
  expect(stats['GET /workspaces/:id/folders'] ?? 0, said).toBe(0);
  expect(stats['GET /activity'], said).toBeLessThanOrEqual(2);
  expect(localTree(pair.dir)).toEqual(remoteTree(sb));
  // And the pass after that is an idle poll.
  expect(await requestsOf(sb, () => pair.engine.syncOnce())).toEqual({ 'GET /activity': 1 });
  return stats;
}

const idOf = async (folderId: number, name: string) => {
  const page = await client.folderContentsPage(folderId, {});
  const e = page.entries.find((x) => (x.kind === 'folder' ? x.folder : x.file).filename === name);
  if (!e) throw new Error(`no ${name}`);
  return e.kind === 'folder' ? e.folder.id : e.file.id;
};

describe('a change made in Browse, in a synced workspace', () => {
  it('a new folder is made on disk at the next pass', async () => {
    await edit['edit.newFolder']({
      accountId,
      workspaceId: sb.workspaceId,
      parentId: root,
      name: 'From Browse',
    });
    await passAfterChange();
    expect(localTree(pair.dir).get('From Browse')).toBe('dir');
  });

  it('a rename and a move are a rename and a move on disk', async () => {
    const readme = await idOf(root, 'README.txt');
    await edit['edit.rename']({ accountId, kind: 'file', itemId: readme, name: 'READ ME.txt' });
    await passAfterChange();
    expect(localTree(pair.dir).has('READ ME.txt')).toBe(true);
    expect(localTree(pair.dir).has('README.txt')).toBe(false);

    const archive = await idOf(root, 'Archive');
    await edit['edit.move']({
      accountId,
      items: [{ kind: 'file', id: readme, name: 'READ ME.txt' }],
      to: archive,
    });
    await passAfterChange();
    expect(localTree(pair.dir).has('Archive/READ ME.txt')).toBe(true);
  });

  it('a delete moves the copy here to the sync trash at the next pass', async () => {
    const archive = await idOf(root, 'Archive');
    const readme = await idOf(root, 'README.txt');
    await edit['edit.delete']({
      accountId,
      items: [
        { kind: 'folder', id: archive, name: 'Archive' },
        { kind: 'file', id: readme, name: 'README.txt' },
      ],
    });
    await passAfterChange();
    expect(existsSync(path.join(pair.dir, 'README.txt'))).toBe(false);
    expect(existsSync(path.join(pair.dir, 'Archive'))).toBe(false);
    const trash = path.join(pair.state, 'trash');
    const trashed = readdirSync(trash, { recursive: true }).map(String);
    expect(trashed.some((p) => p.endsWith('README.txt'))).toBe(true);
    expect(trashed.some((p) => p.endsWith('Archive'))).toBe(true);
  });
});
