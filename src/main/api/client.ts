import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { DateTime } from 'luxon';
import type { z } from 'zod';
import type { ItemKind } from '../../shared/item-kind';
import { ProtocolError } from './errors';
import {
  Comment,
  Event,
  FileItem,
  Folder,
  Link,
  ListWrapper,
  Rolemap,
  Share,
  Workspace,
} from './schemas';
import type { Method, QueryValue, Transport } from './transport';
import { identity, nextOffset } from './paging';
import { parseAnswer } from './validate';
import { HeldTime } from './throttle';

/** Image types a thumbnail may have: raster only (an SVG is a document, not a picture). */
const THUMBNAIL_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

export type FolderEntry = { kind: 'folder'; folder: Folder } | { kind: 'file'; file: FileItem };
export type ContentSort = 'alphabetical' | 'modified' | 'size' | 'type' | 'index';

export interface WorkspaceFields {
  name?: string;
  background_color?: string;
  data_room?: boolean;
  default_view?: 'rows' | 'thumbnails';
}

export interface EventFilters {
  workspaces?: number[];
  verbs?: ('create' | 'upload' | 'read' | 'download' | 'update' | 'delete' | 'invite')[];
  filterSelf?: boolean;
  actor?: number;
  /** Epoch milliseconds; sent as RFC 2822 with an explicit +0000 zone. */
  startTime?: number;
  endTime?: number;
  /** Events to skip (newest first): a window reading page by page starts where it left off. */
  offset?: number;
}

/** One page of List Folder Contents. */
export interface FolderPage {
  entries: FolderEntry[];
  /** `total_entries`: the folder's items (matching the query), on every page; null when not said. */
  total: number | null;
  /** The offset of the next page, or null at the end. */
  next: number | null;
}

/** One page of List all Events for a User. */
export interface EventsPage {
  events: Event[];
  /** `total_entries`: the events matching the filters, on every page; null when not said. */
  total: number | null;
  /** The offset of the next page, or null at the end. */
  next: number | null;
}

function eventFilterBody(filters: EventFilters): Record<string, unknown> {
  const json: Record<string, unknown> = {};
  if (filters.workspaces) json.workspaces = filters.workspaces;
  if (filters.verbs) json.verbs = filters.verbs;
  if (filters.filterSelf !== undefined) json.filter_self = filters.filterSelf;
  if (filters.actor !== undefined) json.actor = filters.actor;
  if (filters.startTime !== undefined) json.start_time = rfc2822(filters.startTime);
  if (filters.endTime !== undefined) json.end_time = rfc2822(filters.endTime);
  return json;
}

export interface LinkChanges {
  token_accessible?: boolean;
  require_password?: boolean;
  password?: string;
  /** Epoch milliseconds, or null for no expiry (an extension). */
  expiresAt?: number | null;
}

/** Formats a time for the service: RFC 2822 with an explicit zone, never relying on the user's. */
export function rfc2822(ms: number): string {
  return DateTime.fromMillis(ms, { zone: 'utc' }).toFormat("EEE, dd LLL yyyy HH:mm:ss '+0000'", {
    locale: 'en-US',
  });
}

const segment = (kind: ItemKind) => (kind === 'folder' ? 'folders' : 'files');

/**
 * Typed operations on every endpoint of the contract. Answers are validated; lists are async
 * iterators over offset paging (or an unpaged answer); any 2xx is success.
 */
export class ServiceClient {
  constructor(readonly transport: Transport) {}

  private async call<S extends z.ZodType>(
    method: Method,
    path: string,
    endpoint: string,
    schema: S | null,
    opts: { json?: unknown; query?: Record<string, QueryValue>; wrapper?: string } = {},
  ): Promise<z.output<S>> {
    const { json } = await this.transport.requestJson({
      method,
      path,
      endpoint: `${method} ${endpoint}`,
      json: opts.json,
      query: opts.query,
    });
    if (schema === null) return undefined as z.output<S>;
    const value =
      opts.wrapper && json && typeof json === 'object' && opts.wrapper in json
        ? (json as Record<string, unknown>)[opts.wrapper]
        : json;
    return parseAnswer(schema, value, `${method} ${endpoint}`);
  }

  /**
   * Every item of a list, page after page, driven by `offset` and the wrapper's figures. A
   * hostile or broken server cannot make it endless: it stops past `total_entries`, and a page
   * whose items were all listed already (an ignored `offset`) or a list past MAX_LIST_ITEMS is
   * a protocol error rather than a loop that fills the memory.
   */
  async *pages(
    path: string,
    endpoint: string,
    opts: {
      query?: Record<string, QueryValue>;
      json?: Record<string, unknown>;
      offset?: number;
    } = {},
  ): AsyncGenerator<Record<string, unknown>> {
    let offset = opts.offset ?? 0;
    const seen = new Set<string>();
    let listed = 0;
    for (;;) {
      const { json } = await this.transport.requestJson({
        method: 'GET',
        path,
        endpoint: `GET ${endpoint}`,
        query: { ...opts.query, offset: offset || undefined },
        json: opts.json,
      });
      const page = parseAnswer(ListWrapper, json, `GET ${endpoint}`);
      // An unpaged answer is the whole list, whatever offset was asked for.
      const items = Array.isArray(page) ? page.slice(offset) : page.items;
      let fresh = 0;
      for (const [i, item] of items.entries()) {
        if (!item || typeof item !== 'object') {
          throw new ProtocolError(`GET ${endpoint}`, `items[${i}]`, 'is not an object');
        }
        const key = identity(item as Record<string, unknown>);
        if (key !== null && seen.has(key)) continue;
        if (key !== null) seen.add(key);
        fresh++;
        listed++;
        yield item as Record<string, unknown>;
      }
      if (Array.isArray(page) || items.length === 0) return;
      const next = nextOffset(`GET ${endpoint}`, page, offset, items.length, fresh, listed);
      if (next === null) return;
      offset = next;
    }
  }

  private async *typed<S extends z.ZodType>(
    items: AsyncIterable<Record<string, unknown>>,
    key: string,
    schema: S,
    endpoint: string,
  ): AsyncGenerator<z.output<S>> {
    for await (const item of items) yield parseAnswer(schema, item[key] ?? item, `GET ${endpoint}`);
  }

  // Workspaces

  listWorkspaces(): AsyncGenerator<Workspace> {
    return this.typed(
      this.pages('/workspaces', '/workspaces'),
      'workspace',
      Workspace,
      '/workspaces',
    );
  }
  getWorkspace(id: number): Promise<Workspace> {
    return this.call('GET', `/workspaces/${id}`, '/workspaces/:id', Workspace, {
      wrapper: 'workspace',
    });
  }
  createWorkspace(fields: WorkspaceFields & { name: string }): Promise<Workspace> {
    return this.call('POST', '/workspaces', '/workspaces', Workspace, {
      json: { workspace: fields },
      wrapper: 'workspace',
    });
  }
  updateWorkspace(id: number, fields: WorkspaceFields): Promise<Workspace> {
    return this.call('PUT', `/workspaces/${id}`, '/workspaces/:id', Workspace, {
      json: { workspace: fields },
      wrapper: 'workspace',
    });
  }
  async deleteWorkspace(id: number): Promise<void> {
    await this.call('DELETE', `/workspaces/${id}`, '/workspaces/:id', null);
  }

  // Folders

  async rootFolder(workspaceId: number): Promise<Folder> {
    const { json } = await this.transport.requestJson({
      method: 'GET',
      path: `/workspaces/${workspaceId}/folders`,
      endpoint: 'GET /workspaces/:id/folders',
    });
    const page = parseAnswer(ListWrapper, json, 'GET /workspaces/:id/folders');
    const first = (Array.isArray(page) ? page : page.items)[0] as
      Record<string, unknown> | undefined;
    return parseAnswer(Folder, first?.folder ?? first, 'GET /workspaces/:id/folders');
  }

  async *folderContents(
    folderId: number,
    opts: { query?: string; sort?: ContentSort } = {},
  ): AsyncGenerator<FolderEntry> {
    const endpoint = '/folders/:id';
    for await (const item of this.pages(`/folders/${folderId}`, endpoint, { query: opts })) {
      if (item.folder)
        yield { kind: 'folder', folder: parseAnswer(Folder, item.folder, `GET ${endpoint}`) };
      else if (item.file)
        yield { kind: 'file', file: parseAnswer(FileItem, item.file, `GET ${endpoint}`) };
      else throw new ProtocolError(`GET ${endpoint}`, 'items[]', 'is neither a folder nor a file');
    }
  }

  /**
   * One page of a folder's contents at `opts.offset`, with the folder's count: the window reads
   * a large folder where it is scrolled to, without listing everything before it. `total` is
   * null where the server does not say (an unpaged answer is the whole list).
   */
  async folderContentsPage(
    folderId: number,
    opts: { offset?: number; query?: string; sort?: ContentSort } = {},
  ): Promise<FolderPage> {
    const offset = opts.offset ?? 0;
    const endpoint = 'GET /folders/:id';
    const { json } = await this.transport.requestJson({
      method: 'GET',
      path: `/folders/${folderId}`,
      endpoint,
      query: { query: opts.query, sort: opts.sort, offset: offset || undefined },
    });
    const page = parseAnswer(ListWrapper, json, endpoint);
    const raw = Array.isArray(page) ? page.slice(offset) : page.items;
    const entries = raw.map((item, i): FolderEntry => {
      if (!item || typeof item !== 'object') {
        throw new ProtocolError(endpoint, `items[${i}]`, 'is not an object');
      }
      const o = item as Record<string, unknown>;
      if (o.folder) return { kind: 'folder', folder: parseAnswer(Folder, o.folder, endpoint) };
      if (o.file) return { kind: 'file', file: parseAnswer(FileItem, o.file, endpoint) };
      throw new ProtocolError(endpoint, `items[${i}]`, 'is neither a folder nor a file');
    });
    if (Array.isArray(page)) return { entries, total: offset + entries.length, next: null };
    const next =
      entries.length === 0
        ? null
        : page.next_offset !== undefined
          ? page.next_offset
          : page.total_entries !== undefined && offset + entries.length >= page.total_entries
            ? null
            : offset + entries.length;
    return {
      entries,
      total: page.total_entries ?? null,
      // A server that does not move forward ends the listing rather than repeating it.
      next: next !== null && next > offset ? next : null,
    };
  }

  createFolder(workspaceId: number, parentId: number | null, name: string): Promise<Folder> {
    return parentId === null
      ? this.call('POST', `/workspaces/${workspaceId}/folders`, '/workspaces/:id/folders', Folder, {
          json: { filename: name },
          wrapper: 'folder',
        })
      : this.call(
          'POST',
          `/workspaces/${workspaceId}/folders/${parentId}/folders`,
          '/workspaces/:id/folders/:id/folders',
          Folder,
          { json: { filename: name }, wrapper: 'folder' },
        );
  }
  renameFolder(id: number, name: string): Promise<Folder> {
    return this.call('PUT', `/folders/${id}`, '/folders/:id', Folder, {
      json: { filename: name },
      wrapper: 'folder',
    });
  }
  async deleteFolder(id: number): Promise<void> {
    await this.call('DELETE', `/folders/${id}`, '/folders/:id', null);
  }
  /**
   * The zip of a folder's subtree, streamed within the download limit; `expectBytes` (its listed
   * size) sets its deadline.
   */
  async folderArchive(id: number, signal?: AbortSignal, expectBytes?: number): Promise<Readable> {
    const held = new HeldTime();
    const res = await this.transport.request({
      method: 'GET',
      path: `/folders/${id}/archive`,
      endpoint: 'GET /folders/:id/archive',
      signal,
      expectBytes,
      held,
    });
    return this.transport.transfers.down.stream(res.body, held);
  }

  // Files

  getFile(id: number): Promise<FileItem> {
    return this.call('GET', `/files/${id}`, '/files/:id', FileItem, { wrapper: 'file' });
  }
  renameFile(id: number, name: string): Promise<FileItem> {
    return this.call('PUT', `/files/${id}`, '/files/:id', FileItem, {
      json: { filename: name },
      wrapper: 'file',
    });
  }
  async deleteFile(id: number): Promise<void> {
    await this.call('DELETE', `/files/${id}`, '/files/:id', null);
  }

  /**
   * Uploads `name` into a folder as a streamed multipart body; `open` is called for each attempt
   * (a retried upload reads its source again). A file of that name becomes a new version.
   */
  async uploadFile(
    folderId: number,
    name: string,
    open: () => Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
    size?: number,
  ): Promise<FileItem> {
    const boundary = `----WorkspaceSync${randomBytes(12).toString('hex')}`;
    const quoted = name.replace(/[\r\n"\\]/g, (c) => encodeURIComponent(c));
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quoted}"; ` +
        `filename*=UTF-8''${rfc5987(name)}\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const { json } = await this.transport.requestJson({
      method: 'POST',
      path: `/folders/${folderId}/files`,
      endpoint: 'POST /folders/:id/files',
      expectBytes: size,
      body: () => ({
        // The parts as they come, straight to the socket: no stream between that would read
        // ahead (and hold) chunks the socket is not ready for.
        body: (async function* () {
          yield head;
          yield* open();
          yield tail;
        })(),
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          ...(size !== undefined
            ? { 'content-length': String(head.length + size + tail.length) }
            : {}),
        },
      }),
    });
    const value =
      json && typeof json === 'object' && 'file' in json ? (json as { file: unknown }).file : json;
    return parseAnswer(FileItem, value, 'POST /folders/:id/files');
  }

  /**
   * Downloads a file's bytes, from `offset` on when resuming (Range), streamed within the
   * download limit. `partial` says whether the server honoured the range; when it did not, the
   * body starts at byte 0.
   */
  async download(
    id: number,
    opts: { offset?: number; signal?: AbortSignal; expectBytes?: number } = {},
  ): Promise<{ body: Readable; partial: boolean; length: number | null }> {
    const offset = opts.offset ?? 0;
    const held = new HeldTime();
    const res = await this.transport.request({
      method: 'GET',
      path: `/download/${id}`,
      endpoint: 'GET /download/:id',
      headers: offset > 0 ? { range: `bytes=${offset}-` } : {},
      signal: opts.signal,
      expectBytes: opts.expectBytes,
      held,
    });
    const raw = res.headers['content-length'];
    const length = raw === undefined ? null : Number(Array.isArray(raw) ? raw[0] : raw);
    return {
      body: this.transport.transfers.down.stream(res.body, held),
      partial: res.status === 206,
      length: Number.isFinite(length) ? length : null,
    };
  }

  /**
   * A file's thumbnail (`GET /files/:id/thumbnail`), read whole up to `maxBytes`: null when the
   * service has none (404), when it is larger, or when it is not a raster image the window may
   * show (its type must say so: nothing else becomes a data URL).
   */
  async thumbnail(id: number, maxBytes: number): Promise<{ mime: string; bytes: Buffer } | null> {
    const endpoint = 'GET /files/:id/thumbnail';
    const res = await this.transport.request({
      method: 'GET',
      path: `/files/${id}/thumbnail`,
      endpoint,
      accept: [404],
      expectBytes: maxBytes,
    });
    // A body let go unread ends in an abort: nobody waits for it, it must not be unhandled.
    res.body.on('error', () => undefined);
    const type = String(res.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    const declared = Number(res.headers['content-length']);
    if (
      res.status !== 200 ||
      !THUMBNAIL_TYPES.has(type) ||
      (Number.isFinite(declared) && declared > maxBytes)
    ) {
      res.body.destroy();
      return null;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > maxBytes) break;
        chunks.push(chunk as Buffer);
      }
    } catch {
      // Cut off mid-way: no picture rather than half of one.
      return null;
    } finally {
      res.body.destroy();
    }
    return size > maxBytes ? null : { mime: type, bytes: Buffer.concat(chunks) };
  }

  // Comments

  listComments(kind: ItemKind, itemId: number): AsyncGenerator<Comment> {
    const endpoint = `/${segment(kind)}/:id/comments`;
    return this.typed(
      this.pages(`/${segment(kind)}/${itemId}/comments`, endpoint),
      'comment',
      Comment,
      endpoint,
    );
  }
  addComment(kind: ItemKind, itemId: number, body: string): Promise<Comment> {
    return this.call(
      'POST',
      `/${segment(kind)}/${itemId}/comments`,
      `/${segment(kind)}/:id/comments`,
      Comment,
      {
        json: { body },
        wrapper: 'comment',
      },
    );
  }
  async deleteComment(kind: ItemKind, itemId: number, commentId: number): Promise<void> {
    await this.call(
      'DELETE',
      `/${segment(kind)}/${itemId}/comments/${commentId}`,
      `/${segment(kind)}/:id/comments/:id`,
      null,
    );
  }

  // Links

  getLink(kind: ItemKind, itemId: number): Promise<Link> {
    return this.call(
      'GET',
      `/${segment(kind)}/${itemId}/link`,
      `/${segment(kind)}/:id/link`,
      Link,
      {
        wrapper: 'content_item_link',
      },
    );
  }
  updateLink(kind: ItemKind, itemId: number, changes: LinkChanges): Promise<Link> {
    const json: Record<string, unknown> = {};
    if (changes.token_accessible !== undefined) json.token_accessible = changes.token_accessible;
    if (changes.require_password !== undefined) json.require_password = changes.require_password;
    if (changes.password !== undefined) json.password = changes.password;
    if (changes.expiresAt !== undefined) {
      json.token_expires_at = changes.expiresAt === null ? null : rfc2822(changes.expiresAt);
    }
    return this.call(
      'PUT',
      `/${segment(kind)}/${itemId}/link`,
      `/${segment(kind)}/:id/link`,
      Link,
      {
        json,
        wrapper: 'content_item_link',
      },
    );
  }

  // Events

  /** Events across the user's workspaces, newest first; filters travel as a JSON body on the GET. */
  listEvents(filters: EventFilters = {}): AsyncGenerator<Event> {
    return this.typed(
      this.pages('/activity/', '/activity/', {
        json: eventFilterBody(filters),
        offset: filters.offset,
      }),
      'event',
      Event,
      '/activity/',
    );
  }

  /**
   * One page of events at `filters.offset`, with the list's own count: the sync engine's feed
   * compares `total` with the events it already knows, so that an idle poll is one request.
   * `total` is null where the server does not say (an unpaged answer is the whole list).
   */
  async eventsPage(filters: EventFilters): Promise<EventsPage> {
    const offset = filters.offset ?? 0;
    const endpoint = 'GET /activity/';
    const { json } = await this.transport.requestJson({
      method: 'GET',
      path: '/activity/',
      endpoint,
      query: { offset: offset || undefined },
      json: eventFilterBody(filters),
    });
    const page = parseAnswer(ListWrapper, json, endpoint);
    const raw = Array.isArray(page) ? page.slice(offset) : page.items;
    const events = raw.map((item, i) => {
      if (!item || typeof item !== 'object') {
        throw new ProtocolError(endpoint, `items[${i}]`, 'is not an object');
      }
      const wrapped = (item as Record<string, unknown>).event ?? item;
      return parseAnswer(Event, wrapped, endpoint);
    });
    if (Array.isArray(page)) return { events, total: page.length, next: null };
    const next =
      events.length === 0
        ? null
        : page.next_offset !== undefined
          ? page.next_offset
          : page.total_entries !== undefined && offset + events.length >= page.total_entries
            ? null
            : offset + events.length;
    return {
      events,
      total: page.total_entries ?? null,
      next: next !== null && next > offset ? next : null,
    };
  }
  fileAuditTrail(fileId: number): AsyncGenerator<Event> {
    const endpoint = '/files/:id/audit_trail';
    return this.typed(
      this.pages(`/files/${fileId}/audit_trail`, endpoint),
      'event',
      Event,
      endpoint,
    );
  }

  // Invitations and role maps

  async invite(workspaceId: number, emails: string[], roleName?: string): Promise<Share> {
    return this.call(
      'POST',
      `/workspaces/${workspaceId}/invitations`,
      '/workspaces/:id/invitations',
      Share,
      {
        json: {
          invitation: { emails: emails.join(', '), ...(roleName ? { role_name: roleName } : {}) },
        },
        wrapper: 'share',
      },
    );
  }
  listRolemaps(workspaceId: number): AsyncGenerator<Rolemap> {
    const endpoint = '/workspaces/:id/rolemaps';
    return this.typed(
      this.pages(`/workspaces/${workspaceId}/rolemaps`, endpoint),
      'rolemap',
      Rolemap,
      endpoint,
    );
  }
  getRolemap(rolemapId: number): Promise<Rolemap> {
    return this.call('GET', `/rolemaps/${rolemapId}`, '/rolemaps/:id', Rolemap, {
      wrapper: 'rolemap',
    });
  }
  /** The real service answers 200 with an empty body: read the rolemap again to see the change. */
  async changeRole(rolemapId: number, roleName: string): Promise<void> {
    await this.call('PUT', `/rolemaps/${rolemapId}`, '/rolemaps/:id', null, {
      json: { role_name: roleName },
    });
  }
  async revokeRolemap(rolemapId: number): Promise<void> {
    await this.call('DELETE', `/rolemaps/${rolemapId}`, '/rolemaps/:id', null);
  }
}

/** A name as an RFC 5987 ext-value: parentheses, quotes and stars must be escaped too. */
const rfc5987 = (name: string) =>
  encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );

/** Collects an async iterator (for small lists and tests). */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
