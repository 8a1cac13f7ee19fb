import { mkdirSync, rmSync } from 'node:fs';
import { ApiError } from '../../api/errors';
import { fetchToTemp } from '../download';
import { PARTIAL_DIR } from '../paths';
import { fromFile, type RemoteItem } from '../remote';
import type { RetireOp } from './plan';
import type { SendState } from './send-state';

/**
 * Retires the old place of an item copied to its new one (a move on a server without the move
 * extension, conventions.md): deleted on the service only once all of the copy is there, and only
 * what is known there as it is (a version or an item added there meanwhile is kept).
 */
export class Retirer {
  constructor(private readonly s: SendState) {}

  async retire(op: RetireOp): Promise<void> {
    const { journal, events } = this.s.ctx;
    const j = journal.items.get(op.item.remoteId);
    if (!j) return;
    events.notice({ key: 'engine.noMoves' });
    // The old records stay until the old place is deleted: a crash before that leaves them
    // pointing at a place that is empty here, which the next pass deletes on the service.
    const old = new Set([
      j.remoteId,
      ...journal.items.descendants(j.localPath).map((d) => d.remoteId),
    ]);
    const made = op.parts.filter((p) => {
      const r = journal.items.atPath(p);
      return r !== undefined && r.state === 'synced' && !old.has(r.remoteId);
    });
    if (made.length === 0) {
      // Nothing of the copy is there (its first folder refused, a Viewer's move): the move was
      // not sent, as a refused move is not. The records stay where they were; the next pass
      // finds the move again. Brought back here as well, the old place would come down beside
      // the moved one and, once sent, stand twice on the service (seed 20261202 history 63).
      events.note(op.path, { key: 'engine.notAllCopied' });
      return;
    }
    if (made.length < op.parts.length) {
      // The old place is kept on the service, and comes back here with the walk asked for: its
      // records are forgotten, and no event of the feed would name it again.
      journal.items.removeTree(j);
      this.s.result.walkNeeded = true;
      events.note(op.path, { key: 'engine.notAllCopied' });
      return;
    }
    const unchanged =
      j.kind === 'file'
        ? await this.sameVersionThere(j.remoteId)
        : await this.onlyKnownIn(j.remoteId);
    if (!unchanged) {
      // Changed there meanwhile (a new version; a folder given or changed a file): deleting the
      // old place would lose it. A folder loses only what the copy took along; the rest stays
      // there, and comes back here with the next pass.
      // What stays there (the folders that hold it, and an item never placed here, seed
      // 621463802: the bottom of a chain too deep for this disk) comes back with a walk.
      if (j.kind === 'folder' && !(await this.pruneCopied(j.remoteId))) {
        this.s.result.walkNeeded = true;
      }
      journal.items.removeTree(j);
      this.s.result.recheckRemote = true;
      this.s.result.remoteMoved++;
      events.note(
        j.localPath,
        j.kind === 'file'
          ? { key: 'engine.movedChangedFile' }
          : { key: 'engine.movedChangedFolder' },
      );
      return;
    }
    await this.deleteCopied(j.remoteId, j.kind, j.localPath);
    journal.items.removeTree(j);
    this.s.result.remoteMoved++;
  }

  async deleteCopied(id: number, kind: 'folder' | 'file', path: string): Promise<void> {
    const { client } = this.s.ctx;
    await this.s
      .mutate({ op: 'delete', id, kind, path }, async () => {
        await (kind === 'folder' ? client.deleteFolder(id) : client.deleteFile(id));
        return null;
      })
      .catch((err: unknown) => {
        if (!(err instanceof ApiError && err.kind === 'not-found')) throw err;
      });
  }

  /** Whether the service still has the version of a file the journal knows (or nothing). */
  async sameVersionThere(id: number): Promise<boolean> {
    const { client, journal, local } = this.s.ctx;
    try {
      const item = fromFile(await client.getFile(id));
      const j = journal.items.get(id);
      if (!j || j.kind !== 'file' || item.size !== j.remoteSize) return false;
      if (item.updatedAt === j.remoteUpdatedAt) return true;
      // Same size, another time: a rename (the move's own, too) gives a file a new time, so
      // its content tells.
      const partial = local.abs(PARTIAL_DIR);
      mkdirSync(partial, { recursive: true });
      const fetched = await fetchToTemp(client, journal, partial, item, () => {});
      rmSync(fetched.temp, { force: true });
      return fetched.hash === j.hash;
    } catch (err) {
      if (err instanceof ApiError && err.kind === 'not-found') return true;
      throw err;
    }
  }

  /** Whether the journal knows it as it is on the service now (a file: the same version). */
  known(item: RemoteItem): boolean {
    const j = this.s.ctx.journal.items.get(item.id);
    if (!j || j.kind !== item.kind) return false;
    return (
      item.kind === 'folder' || (j.remoteUpdatedAt === item.updatedAt && j.remoteSize === item.size)
    );
  }

  /** Whether everything below a folder on the service is known to the journal as it is. */
  async onlyKnownIn(folderId: number): Promise<boolean> {
    for (const item of await this.s.listing(folderId)) {
      if (!this.known(item)) return false;
      if (item.kind === 'folder' && !(await this.onlyKnownIn(item.id))) return false;
    }
    return true;
  }

  /** Deletes below a folder on the service what is known as it is; says whether all went. */
  async pruneCopied(folderId: number): Promise<boolean> {
    let all = true;
    for (const item of await this.s.listing(folderId)) {
      const path = this.s.ctx.journal.items.get(item.id)?.localPath ?? item.name;
      if (!this.known(item)) all = false;
      else if (item.kind === 'file' || (await this.pruneCopied(item.id))) {
        await this.deleteCopied(item.id, item.kind, path);
      } else all = false;
    }
    return all;
  }
}
