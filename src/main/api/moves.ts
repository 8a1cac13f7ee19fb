import { NotFoundError, ValidationError } from './errors';
import { FileItem, Folder } from './schemas';
import type { ServiceClient } from './client';
import { parseAnswer } from './validate';

// The move extensions (PUT with `parent_id` / `folder_id`) are not in the real service's
// documentation: support is detected, and a server without them gets a typed "unsupported"
// answer (once remembered, no further calls) so the engine can fall back without an error storm.

/**
 * `item` on an unsupported answer: the item as a server that ignored the parent left it (it may
 * have taken the new name where it is).
 */
export type MoveResult<T> =
  { supported: true; item: T } | { supported: false; reason: string; item?: T };

const UNSUPPORTED_STATUSES = [404, 405, 501] as const;

export class Moves {
  /** null: not known yet. */
  private support: boolean | null = null;

  constructor(private readonly client: ServiceClient) {}

  get supported(): boolean | null {
    return this.support;
  }

  moveFolder(id: number, parentId: number, newName?: string): Promise<MoveResult<Folder>> {
    return this.move('folders', id, { parent_id: parentId }, parentId, newName, Folder);
  }

  moveFile(id: number, folderId: number, newName?: string): Promise<MoveResult<FileItem>> {
    return this.move('files', id, { folder_id: folderId }, folderId, newName, FileItem);
  }

  private async move<T extends Folder | FileItem>(
    segment: 'folders' | 'files',
    id: number,
    target: Record<string, number>,
    parentId: number,
    newName: string | undefined,
    schema: typeof Folder | typeof FileItem,
  ): Promise<MoveResult<T>> {
    if (this.support === false) {
      return { supported: false, reason: 'this server does not support moves' };
    }
    if (this.support === null && newName !== undefined) {
      try {
        return await this.send<T>(segment, id, target, parentId, newName, schema);
      } catch (err) {
        if (!(err instanceof ValidationError)) throw err;
        // A server that ignores the parent renames the item where it is, and refuses a name
        // taken there: that tells nothing yet. The move alone does; the new name follows.
        const probe = await this.send<T>(segment, id, target, parentId, undefined, schema);
        if (!probe.supported) return probe;
      }
    }
    return this.send<T>(segment, id, target, parentId, newName, schema);
  }

  private async send<T extends Folder | FileItem>(
    segment: 'folders' | 'files',
    id: number,
    target: Record<string, number>,
    parentId: number,
    newName: string | undefined,
    schema: typeof Folder | typeof FileItem,
  ): Promise<MoveResult<T>> {
    const endpoint = `PUT /${segment}/:id`;
    const res = await this.client.transport.request({
      method: 'PUT',
      path: `/${segment}/${id}`,
      endpoint,
      json: { ...target, ...(newName !== undefined ? { filename: newName } : {}) },
      accept: UNSUPPORTED_STATUSES,
    });
    const text = await res.body.text();
    if ((UNSUPPORTED_STATUSES as readonly number[]).includes(res.status)) {
      // A 404 may also mean the item is gone: it marks the server only if the item is there.
      if (res.status === 404 && !(await this.exists(segment, id)))
        throw new NotFoundError(endpoint);
      this.support = false;
      return { supported: false, reason: `the server answered ${res.status}` };
    }
    let json: unknown = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    const key = segment === 'folders' ? 'folder' : 'file';
    const value =
      json && typeof json === 'object' && key in json
        ? (json as Record<string, unknown>)[key]
        : json;
    const item = parseAnswer(schema, value, endpoint) as T;
    const ancestors = item.ancestor_ids;
    if (ancestors && ancestors[ancestors.length - 1] !== parentId) {
      // 200 with the old place: the server ignored the field it does not know.
      this.support = false;
      return { supported: false, reason: 'the server ignored the move', item };
    }
    this.support = true;
    return { supported: true, item };
  }

  private async exists(segment: 'folders' | 'files', id: number): Promise<boolean> {
    const res = await this.client.transport.request({
      method: 'GET',
      path: `/${segment}/${id}`,
      endpoint: `GET /${segment}/:id`,
      accept: [404],
    });
    await res.body.dump();
    return res.status !== 404;
  }
}
