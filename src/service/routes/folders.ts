import type { Statement } from 'better-sqlite3';
import { streamFolderArchive } from '../archive';
import type { Sandbox, User } from '../context';
import { NEXT_ITEM_ID, type ItemRow, type WorkspaceRow } from '../db';
import { HttpError, asId, unwrap, type Router } from '../http';
import {
  accessItem,
  chainTo,
  deleteItem,
  isUniqueViolation,
  itemEvent,
  reload,
  renameOrMoveItem,
  statements,
  taken,
} from '../items';
import { itemJson, pageOf, pageWindow, serializeItem, workspaceFor } from '../model';
import { nameKey, repairName } from '../names';
import { can } from '../roles';

export { deleteItem, renameOrMoveItem } from '../items';

export const FOLDER_PER_PAGE = 60;
export const CONTENT_SORTS = ['alphabetical', 'modified', 'size', 'type', 'index'] as const;
export type ContentSort = (typeof CONTENT_SORTS)[number];

/** Creates a folder named `name` (repaired) in folder `parentId`. Creator and above. */
export function createFolder(sb: Sandbox, user: User, parentId: number, name: string): ItemRow {
  const { item: parent, workspace, role } = accessItem(sb, user, parentId, 'folder');
  if (!can.create(role)) throw HttpError.forbidden('Your role may not create folders');
  const filename = repairName(name);
  const key = nameKey(filename);
  if (statements(sb).folderByKey.get(parent.id, key)) throw taken();
  const now = sb.clock.now();
  try {
    return sb.db.transaction(() => {
      const result = sb.db
        .prepare(
          `INSERT INTO items (id, kind, workspace_id, parent_id, filename, name_key, user_id, created_at, updated_at)
           VALUES (${NEXT_ITEM_ID}, 'folder', ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(parent.workspace_id, parent.id, filename, key, user.id, now, now);
      const folder = reload(sb, Number(result.lastInsertRowid));
      itemEvent(sb, workspace, user, 'create', 'created', folder);
      return folder;
    })();
  } catch (err) {
    if (isUniqueViolation(err)) throw taken();
    throw err;
  }
}

const ORDER: Record<ContentSort, string> = {
  alphabetical: `name_key, filename, id`,
  modified: `updated_at DESC, name_key, id`,
  size: `size DESC, name_key, id`,
  type: `item_ext(filename), name_key, id`,
  index: `id`,
};

// The listing reads only what serializeItem shows, as raw arrays, and not the columns every
// child shares with its folder: the driver's cost grows with every value it hands over.
const LIST_COLUMNS = `id, kind, filename, user_id, hidden, size, width, height, created_at, updated_at`;
type ListRow = [
  number,
  'folder' | 'file',
  string,
  number | null,
  number,
  number,
  number | null,
  number | null,
  number,
  number,
];

function rowOf(r: ListRow, folder: ItemRow): ItemRow {
  return {
    id: r[0],
    kind: r[1],
    workspace_id: folder.workspace_id,
    parent_id: folder.id,
    filename: r[2],
    name_key: '',
    user_id: r[3],
    hidden: r[4],
    size: r[5],
    blob: null,
    width: r[6],
    height: r[7],
    created_at: r[8],
    updated_at: r[9],
  };
}

function listStatements(sb: Sandbox, sort: ContentSort, filtered: boolean) {
  const s = statements(sb);
  const key = `${sort}|${filtered ? 'q' : ''}`;
  let list = s.lists.get(key);
  let count = s.counts.get(key);
  if (!list || !count) {
    const where = `parent_id = ?${filtered ? ' AND instr(name_key, ?) > 0' : ''}`;
    list = sb.db
      .prepare(
        `SELECT ${LIST_COLUMNS} FROM items WHERE ${where}
         ORDER BY kind DESC /* 'folder' > 'file': folders first */, ${ORDER[sort]} LIMIT ? OFFSET ?`,
      )
      .raw();
    count = sb.db.prepare(`SELECT count(*) AS n FROM items WHERE ${where}`).pluck();
    s.lists.set(key, list);
    s.counts.set(key, count);
  }
  return { list: list as Statement<unknown[]>, count: count as Statement<unknown[]> };
}

export interface ContentsOptions {
  sort?: string | null;
  query?: string | null;
  offset: number;
  perPage?: number;
}

function checkSort(workspace: WorkspaceRow, raw: string | null | undefined): ContentSort {
  const sort = (raw ?? 'alphabetical') as ContentSort;
  if (!(CONTENT_SORTS as readonly string[]).includes(sort)) {
    throw HttpError.validation('sort', `must be one of ${CONTENT_SORTS.join(', ')}`);
  }
  if (sort === 'index' && !(workspace.data_room === 1 && workspace.automatic_indexing === 1)) {
    throw HttpError.validation(
      'sort',
      'index is available only when Data Room mode and Automatic Indexing are both enabled',
    );
  }
  return sort;
}

/**
 * List Folder Contents as JSON text: folders first, then files, each group in the order of
 * `sort`. Built as text because it is the hottest read of the service (see itemJson).
 */
export function folderContents(sb: Sandbox, user: User, folderId: number, opts: ContentsOptions) {
  const { item: folder, workspace } = accessItem(sb, user, folderId, 'folder');
  const sort = checkSort(workspace, opts.sort);
  const perPage = opts.perPage ?? FOLDER_PER_PAGE;
  const { offset } = opts;
  const q = opts.query ? nameKey(opts.query) : '';
  const { list, count } = listStatements(sb, sort, q !== '');
  const args: unknown[] = q !== '' ? [folder.id, q] : [folder.id];
  const total = count.get(...args) as number;
  const rows = list.all(...args, perPage, offset) as ListRow[];
  // Every child shares the same ancestors: the chain down to this folder, computed once.
  const ancestors = JSON.stringify(chainTo(sb, folder.id));
  const items = rows.map((r) => `{"${r[1]}":${itemJson(rowOf(r, folder), user, ancestors)}}`);
  const page = pageOf<never>([], total, offset, perPage);
  const previous = offset > 0 ? Math.max(0, offset - perPage) : null;
  const next = offset + perPage < total ? offset + perPage : null;
  return (
    `{"total_entries":${page.total_entries},"current_page":${page.current_page},` +
    `"total_pages":${page.total_pages},"per_page":${page.per_page},"items":[${items.join(',')}],` +
    `"offset":${offset},"previous_offset":${previous},"next_offset":${next}}`
  );
}

function wrapFolder(sb: Sandbox, folder: ItemRow, user: User) {
  return {
    folder: serializeItem(folder, user, chainTo(sb, folder.parent_id), folder.parent_id === null),
  };
}

function folderName(body: Record<string, unknown>): unknown {
  return unwrap(body, 'folder').filename;
}

export function registerFolders(router: Router<User>, sb: Sandbox): void {
  router.add('GET', '/workspaces/:id/folders', ({ user, params }) => {
    const { workspace } = workspaceFor(sb, user, Number(params.id));
    const root = reload(sb, workspace.root_folder_id);
    return {
      status: 200,
      json: { items: [{ folder: serializeItem(root, user, [], true) }] },
    };
  });

  const create = async (
    user: User,
    workspaceId: number,
    folderId: number | null,
    body: Record<string, unknown>,
  ) => {
    const { workspace } = workspaceFor(sb, user, workspaceId);
    const parentId = folderId ?? workspace.root_folder_id;
    const parent = accessItem(sb, user, parentId, 'folder').item;
    if (parent.workspace_id !== workspace.id) throw HttpError.notFound('Folder not found');
    const name = folderName(body);
    const folder = createFolder(sb, user, parentId, typeof name === 'string' ? name : '');
    return { status: 201, json: wrapFolder(sb, folder, user) };
  };

  router.add('POST', '/workspaces/:workspace_id/folders', async ({ user, params, body }) =>
    create(user, Number(params.workspace_id), null, await body()),
  );
  router.add(
    'POST',
    '/workspaces/:workspace_id/folders/:folder_id/folders',
    async ({ user, params, body }) =>
      create(user, Number(params.workspace_id), Number(params.folder_id), await body()),
  );

  router.add('GET', '/folders/:id', async ({ user, params, query, body }) => {
    const b = await body();
    const { offset } = pageWindow(query, b, FOLDER_PER_PAGE);
    const sort = query.get('sort') ?? (typeof b.sort === 'string' ? b.sort : null);
    const q = query.get('query') ?? (typeof b.query === 'string' ? b.query : null);
    return {
      status: 200,
      jsonText: folderContents(sb, user, Number(params.id), { sort, query: q, offset }),
    };
  });

  router.add('PUT', '/folders/:id', async ({ user, params, body }) => {
    const b = unwrap(await body(), 'folder');
    const changes: { filename?: string; parentId?: number } = {};
    if (b.filename !== undefined) {
      changes.filename = typeof b.filename === 'string' ? b.filename : '';
    }
    // Without the extensions a server knows nothing of parent_id: it is ignored, not refused.
    if (sb.config.extensions) changes.parentId = asId(b.parent_id, 'parent_id');
    const folder = renameOrMoveItem(sb, user, 'folder', Number(params.id), changes);
    return { status: 200, json: wrapFolder(sb, folder, user) };
  });

  router.add('DELETE', '/folders/:id', ({ user, params }) => {
    deleteItem(sb, user, 'folder', Number(params.id));
    return { status: 204 };
  });

  router.add('GET', '/folders/:id/archive', async ({ user, params, req, res }) => {
    const access = accessItem(sb, user, Number(params.id), 'folder');
    if (!can.download(access.role)) {
      throw HttpError.forbidden('Your role may not download');
    }
    await streamFolderArchive(sb, user, access, req, res);
    return 'handled' as const;
  });
}
