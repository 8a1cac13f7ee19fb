import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppBackend } from '../../src/main/backend/backend';
import {
  WINDOW_LIST_BYTES,
  WINDOW_LIST_ITEMS,
  WINDOW_LIST_READ,
} from '../../src/main/backend/bounded';
import type { RunningSandbox } from '../../src/service/sandbox';
import { startStandIn } from '../sync/stand-in';
import { backendWithSandbox, type BackendWithSandbox } from './with-backend';

// Issue 38, attack 4: a lying service answers a list the backend gathers for the window with
// endless fresh pages of 16 KB items, each page with a next offset. One call went past 1 GB and
// took the engine host down. Here a node:http stand-in in front of the real sandbox lies on one
// list at a time, and each backend call ends with the list cut at its bound (and says so), the
// service having sent at most the bound and a page, and the heap (after a full collection, the
// answer still held) grown by less than HEAP_BOUND. The lie stops at LIE_ITEMS so that a backend
// without the bounds ends too (failing) rather than filling the machine.

/** 16 KB per item, as in the attack. */
const PAD = 'x'.repeat(16 * 1024);
const PAGE = 25;
/** What one call may leave on the heap: the kept list's bound, with room for V8's own. */
const HEAP_BOUND = 3 * WINDOW_LIST_BYTES;

// A full collection before each measure: heap figures without it are whatever was not swept yet.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapNow = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

let t: BackendWithSandbox;
let sb: RunningSandbox;
let standIn: { baseUrl: string; close(): Promise<void> };
let backend: AppBackend;
let accountId: string;
let rootFolderId: number;
let fileId: number;

/** The list that lies now: its path, how its items look, and what it stops at. */
let lie: { path: RegExp; item: (id: number) => unknown; stopAt: number } | null = null;
let served = 0;
let peakRss = 0;

const ok: BackendWithSandbox['ok'] = (method, params) => t.ok(method, params);

/** The stand-in in front of the sandbox: it lies on `lie`'s list, passes the rest on. */
async function lyingStandIn(sb: RunningSandbox) {
  standIn = await startStandIn(sb.baseUrl, {
    answer: (req, res, url) => {
      if (!lie || req.method !== 'GET' || !lie.path.test(url.pathname)) return false;
      req.resume();
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const count = Math.max(0, Math.min(PAGE, lie.stopAt - offset));
      const items = Array.from({ length: count }, (_, i) => lie!.item(1_000_000 + offset + i));
      served += count;
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
      // Fresh items every page and always a next one: only the lie's own stop ends it.
      const page =
        count === 0 ? { items, total_entries: offset } : { items, next_offset: offset + count };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(page));
      return true;
    },
  });
}

beforeAll(async () => {
  // Signed in through the stand-in below, not the sandbox.
  t = await backendWithSandbox({
    seed: 'demo',
    prefix: 'endless-lists',
    user: null,
    prepare: ({ sb }) => lyingStandIn(sb),
  });
  ({ sb, backend } = t);
  const ann = sb.users.find((u) => u.role === 'Administrator')!;
  accountId = (
    await ok('accounts.signIn', {
      server: standIn.baseUrl,
      email: ann.email,
      password: ann.password,
    })
  ).id;
  rootFolderId = (await ok('workspaces.list', { accountId })).items.find(
    (w) => w.id === sb.workspaceId,
  )!.rootFolderId;
  const root = await ok('folders.contents', { accountId, folderId: rootFolderId, limit: 500 });
  fileId = root.items.find((e) => e.kind === 'file')!.id;
}, 60_000);

afterAll(async () => {
  await t?.close();
  await standIn?.close();
});

/** Runs `call` against the lie; returns what it answered, what it cost and what was served. */
async function against<T>(
  lying: NonNullable<typeof lie>,
  call: () => Promise<T>,
): Promise<{ result: T; grown: number; served: number }> {
  served = 0;
  const before = heapNow();
  lie = lying;
  try {
    const result = await call();
    const grown = heapNow() - before;
    console.info(
      `${lying.path.source}: ${served} items served, heap +${(grown / 2 ** 20).toFixed(1)} MB, ` +
        `peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MB`,
    );
    return { result, grown, served };
  } finally {
    lie = null;
  }
}

const at = new Date(0).toISOString();
/** A kept list's lie: past its bound, but not past what a machine holds. */
const KEPT_STOP = 4_000;

describe('a service answering a list with endless fresh pages of 16 KB items', () => {
  it('workspaces.list: cut at its bound, the window told', async () => {
    const got = await against(
      {
        path: /^\/workspaces$/,
        item: (id) => ({ workspace: { id, name: PAD, root_folder_id: id } }),
        stopAt: KEPT_STOP,
      },
      () => ok('workspaces.list', { accountId }),
    );
    expect(got.result.cut).toBe(true);
    expect(got.result.items.length).toBeLessThanOrEqual(WINDOW_LIST_ITEMS);
    expect(got.served).toBeLessThan(KEPT_STOP);
    expect(got.grown).toBeLessThan(HEAP_BOUND);
  });

  it('members.list: cut at its bound, the window told', async () => {
    const got = await against(
      {
        path: /^\/workspaces\/\d+\/rolemaps$/,
        item: (id) => ({
          rolemap: {
            id,
            role_name: 'Viewer',
            user: { id, email: `u${id}@x.org`, first_name: PAD },
          },
        }),
        stopAt: KEPT_STOP,
      },
      () => ok('members.list', { accountId, workspaceId: sb.workspaceId }),
    );
    expect(got.result.cut).toBe(true);
    expect(got.result.members!.length).toBeGreaterThan(0);
    expect(got.served).toBeLessThan(KEPT_STOP);
    expect(got.grown).toBeLessThan(HEAP_BOUND);
  });

  it('comments.list: cut at its bound, the window told', async () => {
    const got = await against(
      {
        path: /^\/files\/\d+\/comments$/,
        item: (id) => ({ comment: { id, body: PAD, user_id: 1, updated_at: at } }),
        stopAt: KEPT_STOP,
      },
      () => ok('comments.list', { accountId, kind: 'file', itemId: fileId }),
    );
    expect(got.result.cut).toBe(true);
    expect(got.served).toBeLessThan(KEPT_STOP);
    expect(got.grown).toBeLessThan(HEAP_BOUND);
  });

  it('activity.auditTrail: cut at its bound, the window told', async () => {
    const got = await against(
      {
        path: /^\/files\/\d+\/audit_trail$/,
        item: (id) => ({ event: { id, updated_at: at, detail: PAD, user_id: 1 } }),
        stopAt: KEPT_STOP,
      },
      () => ok('activity.auditTrail', { accountId, fileId }),
    );
    expect(got.result.cut).toBe(true);
    expect(got.served).toBeLessThan(KEPT_STOP);
    expect(got.grown).toBeLessThan(HEAP_BOUND);
  });

  it('selection.folders: cut at its bound, the window told', async () => {
    const got = await against(
      {
        path: new RegExp(`^/folders/${rootFolderId}$`),
        item: (id) => ({ folder: { id, filename: `${id} ${PAD}`, updated_at: at } }),
        stopAt: KEPT_STOP,
      },
      () => ok('selection.folders', { accountId, workspaceId: sb.workspaceId }),
    );
    expect(got.result.cut).toBe(true);
    expect(got.served).toBeLessThan(KEPT_STOP);
    expect(got.grown).toBeLessThan(HEAP_BOUND);
  });

  it('folders.contents, block after block: what the folder index learns stays bounded', async () => {
    const BLOCKS = 24;
    const got = await against(
      {
        path: new RegExp(`^/folders/${rootFolderId}$`),
        item: (id) => ({
          folder: { id, filename: `${id} ${PAD}`, updated_at: at, ancestor_ids: [rootFolderId] },
        }),
        stopAt: BLOCKS * 500,
      },
      async () => {
        // Scrolled through: each block is shown and let go; only the index keeps anything.
        for (let block = 0; block < BLOCKS; block++) {
          const page = await ok('folders.contents', {
            accountId,
            folderId: rootFolderId,
            offset: block * 500,
            limit: 500,
          });
          expect(page.items).toHaveLength(500);
        }
      },
    );
    expect(got.served).toBe(BLOCKS * 500);
    expect(got.grown).toBeLessThan(HEAP_BOUND);
  }, 120_000);

  // Lists read only to look for something keep nothing: what bounds them is the items read.
  // A number, not the bound: a backend without the bound reads it all (and fails) rather than on.
  const LOOK_STOP = 25_000;

  it('accounts.signIn (who the tokens belong to): looks through the first ones only', async () => {
    const ann = sb.users.find((u) => u.role === 'Administrator')!;
    const got = await against(
      {
        path: /^\/workspaces$/,
        item: (id) => ({ workspace: { id, name: PAD, root_folder_id: id } }),
        stopAt: LOOK_STOP,
      },
      () =>
        ok('accounts.signIn', {
          server: standIn.baseUrl,
          email: ann.email,
          password: ann.password,
        }),
    );
    expect(got.result.email).toBe(ann.email);
    // One page more: the API base's probe (`GET /workspaces` without credentials) reads one.
    expect(got.served).toBeLessThanOrEqual(WINDOW_LIST_READ + 2 * PAGE);
    expect(got.grown).toBeLessThan(HEAP_BOUND);
  }, 120_000);

  it('folders.path of a folder not listed yet: looks through the first entries only', async () => {
    const got = await against(
      {
        path: /^\/folders\/987654$/,
        item: (id) => ({ folder: { id, filename: PAD, updated_at: at } }),
        stopAt: LOOK_STOP,
      },
      () => backend.call('folders.path', { accountId, folderId: 987654 }),
    );
    // Its entries name no chain: a clear "not found", not a heap of them.
    expect(got.result.ok).toBe(false);
    expect(got.served).toBeLessThanOrEqual(WINDOW_LIST_READ + PAGE);
    expect(got.grown).toBeLessThan(HEAP_BOUND);
  }, 120_000);
});
