import { createHash } from 'node:crypto';
import { closeSync, lstatSync, type Stats } from 'node:fs';
import { ApiError } from '../../api/errors';
import type { JournalItem } from '../../journal/journal';
import type { LocalEntry } from '../detect-local/scan';
import { SwapError } from '../confined';
import { SMALL_BODY, hashFd, readHashed, readWhole } from '../file-read';
import { serviceKey } from '../names';
import { parentOf } from '../paths';
import { placeholderOf } from '../placeholder';
import { fromFile, type RemoteItem } from '../remote';
import type { IntentPayload } from './outbox';
import type { DeleteOp, UploadOp } from './plan';
import { refusalFacts } from './refusals';
import { facts, type Facted, type SendState } from './send-state';
import { unreadableReason, unreadableWords } from './unreadable';
import { highWater } from '../high-water';

/**
 * Sends files and deletes: a new file or a new version (only over the version it was made from;
 * never over someone else's file of that name), and the delete of a synced item gone from here.
 */
export class FileSender {
  constructor(private readonly s: SendState) {}

  async upload(op: UploadOp): Promise<void> {
    const { journal, local, events } = this.s.ctx;
    const { entry } = op;
    const parentId = this.s.folderId(parentOf(entry.path));
    if (parentId === undefined) return;
    const abs = local.abs(entry.path);
    const st = lstatSync(abs, { throwIfNoEntry: false });
    if (!st || !st.isFile()) return;
    const now = { ...entry, ...facts(st) };
    if (this.s.refusedNow(entry.path, refusalFacts(now))) return;
    const made = op.item ? undefined : journal.items.atPath(entry.path);
    if (
      made?.kind === 'file' &&
      made.dev === now.dev &&
      made.ino === now.ino &&
      made.size === now.size &&
      made.mtimeMs === now.mtimeMs
    ) {
      return; // copied along with the folder it is in (a move without the extension)
    }
    events.begin('upload', entry.path);
    // Opened once, without following a link, and only if it is the file just looked at: the
    // hash and every attempt of the upload read that descriptor, never the path again.
    let fd: number | undefined;
    try {
      fd = local.confined.openFile(entry.path, st);
      await this.send(op, parentId, st, now, fd);
    } catch (err) {
      this.failed(op, now, err);
    } finally {
      if (fd !== undefined) closeSync(fd);
      events.done();
    }
  }

  /** Sends the opened file: unless it is the synced version unchanged, or its place is not free. */
  private async send(
    op: UploadOp,
    parentId: number,
    st: Stats,
    now: Facted & LocalEntry,
    fd: number,
  ): Promise<void> {
    const { client, journal, events } = this.s.ctx;
    const { entry } = op;
    const found = op.item ? journal.items.get(op.item.remoteId) : undefined;
    // Read once: a small file whole (hashed, then sent from that buffer by every attempt); a
    // large one is hashed while it is sent. Only a large file of the size of its synced
    // version is hashed first: a file saved unchanged or only touched (its time changed, not
    // its bytes) is then not sent again, for one local read (far cheaper than the upload). A
    // new file, or one whose size changed, cannot be the synced version: its one read is the
    // upload's.
    const whole = st.size <= SMALL_BODY ? readWhole(fd, st.size) : null;
    let hash: string | null = null;
    if (whole) hash = createHash('sha256').update(whole).digest('hex');
    else if (found?.hash && found.size === st.size) hash = await hashFd(fd, st.size);
    if (found && hash !== null && found.hash === hash) {
      journal.items.upsert({ ...found, ...facts(st) });
      return;
    }
    const target = await this.target(found, entry, parentId);
    if (target === null) return;
    const { item, name, into } = target;
    if (!item && !this.s.created.has(parentId) && !(await this.nameFree(parentId, name, now))) {
      return;
    }
    const payload: IntentPayload = {
      op: 'upload',
      parentId: into,
      name,
      path: entry.path,
      fileId: item?.remoteId ?? null,
      size: st.size,
      hash,
      before: item?.remoteUpdatedAt ?? null,
      identity: { dev: st.dev, ino: st.ino, mtimeMs: st.mtimeMs },
    };
    const progress = uploadProgress(st.size, (n) => events.bytes(n));
    // What each attempt sends. A streamed file's hash is known once its last byte is read:
    // the intent written before it goes out has none (or the one read first), and the
    // record (or a lost answer's resolving) gets the hash of the bytes that went.
    const open = whole
      ? () => [whole]
      : () => progress.counting(readHashed(fd, st.size, (sha256) => (payload.hash = sha256)));
    await this.s.mutate(
      payload,
      async () => {
        const answer = await client.uploadFile(into, name, open, st.size);
        return fromFile({
          ...answer,
          ancestor_ids: answer.ancestor_ids?.length ? answer.ancestor_ids : [into],
        });
      },
      (answer) => this.s.recordFile(payload, answer, st, entry),
    );
    this.s.result.uploaded++;
    this.s.result.bytesUploaded += st.size;
    progress.reached(st.size);
  }

  /**
   * Where the file goes, and as what: a new version of `item` only if the service still has the
   * version this one was made from (where it is now); a new file if `item` was deleted there.
   * Null when it changed on both sides: the service's version comes down first.
   */
  private async target(
    found: JournalItem | undefined,
    entry: LocalEntry,
    parentId: number,
  ): Promise<{ item: JournalItem | undefined; name: string; into: number } | null> {
    const { client, journal } = this.s.ctx;
    let item = found;
    let name = this.s.serviceName(entry);
    let into = parentId;
    if (!item) return { item, name, into };
    let remote: RemoteItem | null = null;
    try {
      remote = fromFile(await client.getFile(item.remoteId));
    } catch (err) {
      if (!(err instanceof ApiError && err.kind === 'not-found')) throw err;
    }
    if (!remote) {
      // Deleted there: it goes up again as a new file, under the name it had there (the
      // one here may be numbered or mapped), unless it was renamed here.
      if (item.localName === entry.name) name = item.remoteName;
      journal.items.removeTree(item);
      item = undefined;
    } else if (remote.updatedAt !== item.remoteUpdatedAt || remote.size !== item.remoteSize) {
      // Changed on both sides: the service's version comes down and this one is kept
      // beside it as a conflict copy (then uploaded as a file of its own).
      this.s.result.fetch.push(remote);
      this.s.result.conflicts++;
      return null;
    } else {
      // The same version there, perhaps renamed or moved meanwhile: the new version goes
      // to it where it is now (by its old name it would become a second file).
      name = remote.name;
      into = remote.parentId;
    }
    return { item, name, into };
  }

  /** Whether a new file may take `name` in the folder: no other file there has it. */
  private async nameFree(
    parentId: number,
    name: string,
    now: Facted & LocalEntry,
  ): Promise<boolean> {
    const { journal, local } = this.s.ctx;
    const taken = (await this.s.kidsOf(parentId)).get(serviceKey(name));
    const synced = taken && journal.items.get(taken.id);
    if (taken && !synced) {
      // Someone else's file of that name: uploading would bury it as an old version. It
      // comes down instead; this one is kept beside it (or adopted if the same).
      this.s.result.fetch.push(taken);
      this.s.result.conflicts++;
      return false;
    }
    if (
      synced &&
      synced.remoteParentId === parentId &&
      serviceKey(synced.remoteName) === serviceKey(name)
    ) {
      // A synced file here has the same name for the service (it differs only in case or
      // accents): uploading would make this a new version of that one. While that file is
      // still here, this one waits for a rename; once it left (deleted or moved here, sent
      // after the uploads), this one goes up in the next pass.
      // An online-only one is here as its placeholder (found by the soak: seed 20261130).
      const here =
        local.stat(synced.localPath) ??
        (synced.state === 'online' ? local.stat(placeholderOf(synced.localPath)) : undefined);
      if (here) this.s.clash(now.path, now, synced);
      else this.s.result.rescan.add(parentOf(now.path));
      return false;
    }
    return true;
  }

  /** An upload that failed: what it says of the file, or a refusal by the service. */
  private failed(op: UploadOp, now: Facted & LocalEntry, err: unknown): void {
    const { events } = this.s.ctx;
    const { entry } = op;
    if (err instanceof ApiError && err.kind === 'not-found') {
      this.s.result.recheckRemote = true;
      return;
    }
    if (err instanceof SwapError) {
      // Replaced (perhaps by a link to elsewhere) since it was looked at: not sent; the next
      // pass looks again.
      events.problem({
        path: entry.path,
        remoteId: null,
        reason: 'local',
        message: err.message,
        ...(err.words ? { words: err.words } : {}),
      });
      return;
    }
    if ((err as NodeJS.ErrnoException | null)?.code === 'ENOENT') {
      this.s.result.rescan.add(parentOf(entry.path)); // gone since the scan: looked at again
      return;
    }
    const reason = unreadableReason(err);
    if (reason !== null) {
      events.problem({
        path: entry.path,
        remoteId: null,
        reason: 'local',
        ...unreadableWords(reason),
      });
      return;
    }
    this.s.refuse({ kind: 'change', path: entry.path, entry: now }, err);
  }

  async delete(op: DeleteOp): Promise<void> {
    const { client, journal, events } = this.s.ctx;
    const j = journal.items.get(op.item.remoteId);
    if (!j) return;
    if (this.s.ctx.refusals.ofDelete(j.remoteId)?.path === j.localPath) return;
    events.begin('delete', j.localPath);
    try {
      await this.s.mutate(
        { op: 'delete', id: j.remoteId, kind: j.kind, path: j.localPath },
        async () => {
          try {
            await (j.kind === 'folder'
              ? client.deleteFolder(j.remoteId)
              : client.deleteFile(j.remoteId));
          } catch (err) {
            // Already gone (a retried request, or deleted there too): the same outcome.
            if (!(err instanceof ApiError && err.kind === 'not-found')) throw err;
          }
          return null;
        },
      );
      this.s.result.remoteDeleted += op.count;
    } catch (err) {
      if (err instanceof ApiError && err.kind === 'forbidden') {
        // The role may not delete it: the service keeps it, and it comes back here. Once back
        // it is in sync, so this is a note in the status, not a standing problem.
        journal.items.removeTree(j);
        this.s.result.walkNeeded = true;
        events.note(j.localPath, { key: 'engine.deleteRefused' });
        return;
      }
      this.s.refuse({ kind: 'delete', item: j }, err);
    } finally {
      events.done();
    }
  }
}

/**
 * A streamed upload's bytes in the progress as they are read to be sent (each piece waits for the
 * upload limit's tokens before it is read on), counted once however many attempts it takes: an
 * attempt counts only past what an earlier one reached, and the end tops up to the file's size.
 */
function uploadProgress(size: number, count: (n: number) => void) {
  const reached = highWater(size, count);
  return {
    reached,
    async *counting(body: AsyncIterable<Buffer>): AsyncGenerator<Buffer, void, undefined> {
      let read = 0;
      for await (const piece of body) {
        read += piece.length;
        reached(read);
        yield piece;
      }
    },
  };
}
