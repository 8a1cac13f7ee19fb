import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Journal } from '../../src/main/journal/journal';
import { walkRemote } from '../../src/main/sync/detect-remote/walk';
import { planChanges } from '../../src/main/sync/down/plan';
import {
  chooseWalkArchives,
  planChunk,
  stagedSource,
  walkChunks,
} from '../../src/main/sync/down/plan-walk';
import type { PlanOptions } from '../../src/main/sync/down/plan-types';
import { defaultProfile } from '../../src/main/sync/names';
import { emptyView, type RemoteItem } from '../../src/main/sync/remote';
import type { User } from '../../src/service/context';
import { createFolder } from '../../src/service/routes/folders';
import { uploadFile } from '../../src/service/routes/files';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { clientFor, tokenOf } from './harness';

// A full walk streams what it lists into the journal's staging tables (nothing of the tree is
// returned or held), and planning it a chunk of folders at a time decides what planning the
// whole tree at once decides.

const FOLDERS = 6;
const SUBFOLDERS = 8;
const FILES_PER_LEAF = 20;

let sb: RunningSandbox;
let rootId: number;
let items = 0;

beforeAll(async () => {
  sb = await startSandbox({ seed: 'empty' });
  const owner = sb.sandbox.db
    .prepare(`SELECT * FROM users WHERE id = ?`)
    .get(sb.users.find((u) => u.role === 'Administrator')!.id) as User;
  rootId = (
    sb.sandbox.db
      .prepare(`SELECT root_folder_id FROM workspaces WHERE id = ?`)
      .get(sb.workspaceId) as { root_folder_id: number }
  ).root_folder_id;
  for (let a = 0; a < FOLDERS; a++) {
    const top = createFolder(sb.sandbox, owner, rootId, `Top ${a}`);
    items++;
    for (let b = 0; b < SUBFOLDERS; b++) {
      const sub = createFolder(sb.sandbox, owner, top.id, `Sub ${b}`);
      items++;
      // One leaf in each top folder gets many files: archives and singles both.
      const files = b === 0 ? 3 : FILES_PER_LEAF;
      for (let f = 0; f < files; f++) {
        await uploadFile(sb.sandbox, owner, sub.id, `f${f}.txt`, Readable.from([`${a}/${b}/${f}`]));
        items++;
      }
    }
  }
}, 120_000);
afterAll(() => sb.close());

const client = () =>
  clientFor(sb.baseUrl, tokenOf(sb.users.find((u) => u.role === 'Administrator')!));

describe('a full walk', () => {
  it('writes each listing into the staging tables as it arrives, and returns none of it', async () => {
    const journal = new Journal(':memory:');
    const staged = () =>
      journal.db.prepare(`SELECT count(*) FROM walk_items`).pluck().get() as number;
    let listedSoFar = 0;
    let laggingBehind = 0;
    const walk = await walkRemote(client(), rootId, journal, {
      concurrency: 4,
      onListed: (_folder, children) => {
        listedSoFar += children.length;
        // Already in the journal when the next listing is asked for: nothing waits in memory.
        if (staged() !== listedSoFar) laggingBehind++;
      },
    });
    expect(laggingBehind).toBe(0);
    expect(staged()).toBe(items);
    // Only the folders it could not list: no view of the tree.
    expect(Object.keys(walk).sort()).toEqual(['rootId', 'unlisted']);
    expect(walk.unlisted.size).toBe(0);
    journal.close();
  });

  it('planned a chunk at a time decides what the whole tree at once decides', async () => {
    const journal = new Journal(':memory:');
    const walk = await walkRemote(client(), rootId, journal, { concurrency: 4 });
    // Half the tree synced before (all but a few files of its first leaves): the root is no
    // archive then, the other half's folders are, and those few files come one by one.
    const record = (item: RemoteItem, localPath: string) =>
      journal.items.upsert({
        remoteId: item.id,
        kind: item.kind,
        remoteParentId: item.parentId,
        remoteName: item.name,
        localPath,
        localName: item.name,
        dev: 1,
        ino: item.id,
        size: item.size,
        mtimeMs: 0,
        hash: null,
        remoteSize: item.kind === 'file' ? item.size : null,
        remoteUpdatedAt: item.updatedAt,
        state: 'synced',
      });
    for (const top of journal.walk.children(rootId)) {
      if (Number(top.name.slice(4)) >= FOLDERS / 2) continue;
      record(top, top.name);
      for (const sub of journal.walk.children(top.id)) {
        record(sub, `${top.name}/${sub.name}`);
        if (sub.name === 'Sub 0') continue;
        for (const f of journal.walk.children(sub.id)) {
          record(f, `${top.name}/${sub.name}/${f.name}`);
        }
      }
    }
    const opts: PlanOptions = {
      profile: defaultProfile('linux'),
      retryNotPermitted: true,
      mayDownload: true,
    };

    // The whole tree at once, from a view in memory holding what the walk staged.
    const view = emptyView(rootId, true);
    for (let after = 0; ;) {
      const page = journal.walk.foldersAfter(after, 1000);
      if (page.length === 0) break;
      for (const f of page) {
        after = f.seq;
        view.listed.add(f.id);
        for (const c of journal.walk.children(f.id)) view.items.set(c.id, c);
      }
    }
    const whole = planChanges(view, journal, opts);

    // Smaller than a leaf's 20 files: a folder's children are split across chunks.
    const chunkSize = 7;
    const archives = chooseWalkArchives(journal, walk, true);
    const source = stagedSource(journal, walk);
    const structure: string[] = [];
    const singles: string[] = [];
    const archived: string[] = [];
    const roots: number[] = [];
    let chunks = 0;
    for (const chunk of walkChunks(journal, chunkSize)) {
      chunks++;
      // A chunk holds at most its size, however many children a folder has.
      expect(chunk.items.length).toBeLessThanOrEqual(chunkSize);
      const plan = planChunk(source, chunk, journal, opts, archives);
      structure.push(...plan.structure.map((op) => `${op.type} ${op.path}`));
      singles.push(...plan.downloads.map((p) => p.path));
      // Archives are planned when the executor takes them: the chunk holds none of their files.
      for (const lazy of plan.archives) {
        expect(typeof lazy).toBe('function');
        const job = lazy();
        if (!job) continue;
        roots.push(job.folderId);
        archived.push(...[...job.files.values()].map((p) => p.path));
      }
    }
    expect(chunks).toBeGreaterThan(3);
    const paths = (ps: { path: string }[]) => ps.map((p) => p.path).sort();
    expect(structure.sort()).toEqual(whole.structure.map((op) => `${op.type} ${op.path}`).sort());
    expect(singles.sort()).toEqual(paths(whole.downloads));
    expect(roots.sort()).toEqual(whole.archives.map((a) => a.folderId).sort());
    expect(archived.sort()).toEqual(
      whole.archives.flatMap((a) => paths([...a.files.values()])).sort(),
    );
    expect(roots.length).toBeGreaterThan(0);
    expect(singles.length).toBeGreaterThan(0);
    journal.close();
  });
});
