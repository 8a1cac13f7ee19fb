import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type { ItemKind } from '../../shared/item-kind';
import { ProtocolError } from './errors';
import type { Share } from './schemas';
import { Comment, Event, FileItem, Folder, Link, Rolemap, Workspace } from './schemas';
import type { Method, Transport } from './transport';
import { parseAnswer } from './validate';
import {
  eventFilterBody,
  rfc2822,
  segment,
  type ContentSort,
  type EventFilters,
  type EventsPage,
  type FolderEntry,
  type FolderPage,
  type LinkChanges,
  type WorkspaceFields,
} from './client-types';
import {
  call,
  itemAt,
  onePage,
  pageNext,
  pages,
  typed,
  type CallOptions,
  type PagesOptions,
} from './requests';
import { download, folderArchive, thumbnail, uploadFile } from './transfers';
import { invite } from './invitations';

// The shapes and the time format callers import from here, as before the split.
export { rfc2822 };
export type {
  ContentSort,
  EventFilters,
  EventsPage,
  FolderEntry,
  FolderPage,
  LinkChanges,
  WorkspaceFields,
};

/**
 * Typed operations on every endpoint of the contract. Answers are validated; lists are async
 * iterators over offset paging (or an unpaged answer); any 2xx is success.
 */
export class ServiceClient {
  constructor(readonly transport: Transport) {}

  private call<S extends z.ZodType>(
    method: Method,
    path: string,
    endpoint: string,
    schema: S | null,
    opts: CallOptions = {},
  ): Promise<z.output<S>> {
    return call(this.transport, method, path, endpoint, schema, opts);
  }

  /** Every item of a list, page after page (requests.ts says how it cannot be made endless). */
  pages(
    path: string,
    endpoint: string,
    opts: PagesOptions = {},
  ): AsyncGenerator<Record<string, unknown>> {
    return pages(this.transport, path, endpoint, opts);
  }

  private typed<S extends z.ZodType>(
    items: AsyncIterable<Record<string, unknown>>,
    key: string,
    schema: S,
    endpoint: string,
  ): AsyncGenerator<z.output<S>> {
    return typed(items, key, schema, endpoint);
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
    const endpoint = 'GET /workspaces/:id/folders';
    const page = await onePage(this.transport, `/workspaces/${workspaceId}/folders`, endpoint, 0);
    const first = page.items[0] as Record<string, unknown> | undefined;
    return parseAnswer(Folder, first?.folder ?? first, endpoint);
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
    const page = await onePage(this.transport, `/folders/${folderId}`, endpoint, offset, {
      query: { query: opts.query, sort: opts.sort },
    });
    const entries = page.items.map((item, i): FolderEntry => {
      const o = itemAt(endpoint, item, i);
      if (o.folder) return { kind: 'folder', folder: parseAnswer(Folder, o.folder, endpoint) };
      if (o.file) return { kind: 'file', file: parseAnswer(FileItem, o.file, endpoint) };
      throw new ProtocolError(endpoint, `items[${i}]`, 'is neither a folder nor a file');
    });
    if (!page.wrapper) return { entries, total: offset + entries.length, next: null };
    return {
      entries,
      total: page.wrapper.total_entries ?? null,
      next: pageNext(page.wrapper, offset, entries.length),
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
  folderArchive(id: number, signal?: AbortSignal, expectBytes?: number): Promise<Readable> {
    return folderArchive(this.transport, id, signal, expectBytes);
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
  uploadFile(
    folderId: number,
    name: string,
    open: () => Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
    size?: number,
  ): Promise<FileItem> {
    return uploadFile(this.transport, folderId, name, open, size);
  }

  /**
   * Downloads a file's bytes, from `offset` on when resuming (Range), streamed within the
   * download limit. `partial` says whether the server honoured the range; when it did not, the
   * body starts at byte 0.
   */
  download(
    id: number,
    opts: { offset?: number; signal?: AbortSignal; expectBytes?: number } = {},
  ): Promise<{ body: Readable; partial: boolean; length: number | null }> {
    return download(this.transport, id, opts);
  }

  /**
   * A file's thumbnail, read whole up to `maxBytes`: null when the service has none, when it is
   * larger, or when it is not a raster image the window may show.
   */
  thumbnail(id: number, maxBytes: number): Promise<{ mime: string; bytes: Buffer } | null> {
    return thumbnail(this.transport, id, maxBytes);
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
    const page = await onePage(this.transport, '/activity/', endpoint, offset, {
      json: eventFilterBody(filters),
    });
    const events = page.items.map((item, i) => {
      const wrapped = itemAt(endpoint, item, i).event ?? item;
      return parseAnswer(Event, wrapped, endpoint);
    });
    if (!page.wrapper) return { events, total: page.length, next: null };
    return {
      events,
      total: page.wrapper.total_entries ?? null,
      next: pageNext(page.wrapper, offset, events.length),
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

  invite(workspaceId: number, emails: string[], roleName?: string): Promise<Share> {
    return invite(this.transport, { kind: 'workspace', id: workspaceId }, emails, roleName);
  }
  /** Shares one folder or file with people by email (what it grants is the service's). */
  inviteToItem(kind: ItemKind, itemId: number, emails: string[], role?: string): Promise<Share> {
    return invite(this.transport, { kind, id: itemId }, emails, role);
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

/** Collects an async iterator (for small lists and tests). */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
