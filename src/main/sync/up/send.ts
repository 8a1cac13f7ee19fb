import { randomBytes } from 'node:crypto';
import { createReadStream, lstatSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import pLimit from 'p-limit';
import type { ServiceClient } from '../../api/client';
import { ApiError, ValidationError } from '../../api/errors';
import type { Moves } from '../../api/moves';
import type { Journal, JournalItem } from '../../journal/journal';
import type { SyncProblem } from '../../../shared/sync-status';
import { fetchToTemp } from '../download';
import { hashFile, type LocalRoot } from '../local';
import type { LocalPlan, LocalOp } from './reconcile';
import { decodeName, serviceKey, type VolumeProfile } from '../names';
import { MOVING_DIR, PARTIAL_DIR, parentOf } from '../paths';
import { isOutcomeUnknown, settle, type IntentPayload, type OutboxStep } from './outbox';
import type { Logger } from '../ports';
import { asRemote, fromEntry, fromFile, remoteFields, type RemoteItem } from '../remote';
import { scanLocal, type LocalEntry } from '../detect-local/scan';

export interface PushEvents {
  begin(op: string, path: string): void;
  done(): void;
  bytes(n: number): void;
  problem(p: Omit<SyncProblem, 'at'>): void;
  /** A local change at this path reached the service: a refusal reported there is over. */
  sent(path: string): void;
  /** Something the person should know about: a merge, a kept copy, a fallback. */
  note(path: string, message: string): void;
  /** A limit worked around (said once per run). */
  notice(message: string): void;
}

export interface PushContext {
  client: ServiceClient;
  moves: Moves;
  journal: Journal;
  local: LocalRoot;
  workspaceId: number;
  rootId: number;
  profile: VolumeProfile;
  log: Logger;
  concurrency: number;
  events: PushEvents;
  ignores: (rel: string, isDir: boolean) => boolean;
  /**
   * Local changes the service refused (403, 422), by path, with the local facts they had: not
   * tried again until they change (or the role does).
   */
  refused: Map<string, string>;
  /** Whether the service changed since this round's remote pass (asked before deleting). */
  serviceChanged: () => Promise<boolean>;
  /** Crash tests stop the process at these points. */
  step?: (step: OutboxStep, op: IntentPayload['op']) => void;
}

export interface PushResult {
  remoteFoldersCreated: number;
  uploaded: number;
  bytesUploaded: number;
  remoteMoved: number;
  remoteDeleted: number;
  conflicts: number;
  /** The service changed under us (a version, a parent gone): a remote pass should look. */
  recheckRemote: boolean;
  /** A full walk should restore something (a delete the role refused). */
  walkNeeded: boolean;
  /** Deletes waited for the remote pass: another round is needed. */
  deletesDeferred: boolean;
  /** Paths to look at again in the next local pass. */
  rescan: Set<string>;
  /** Items changed on the service too: their version comes down, local work kept beside it. */
  fetch: RemoteItem[];
}

type MkdirOp = Extract<LocalOp, { type: 'mkdir' }>;
type MoveOp = Extract<LocalOp, { type: 'move' }>;
type UploadOp = Extract<LocalOp, { type: 'upload' }>;
type DeleteOp = Extract<LocalOp, { type: 'delete' }>;

const signature = (e: { kind: string; ino: number; size: number; mtimeMs: number }) =>
  e.kind === 'folder' ? `folder:${e.ino}` : `${e.ino}:${e.size}:${e.mtimeMs}`;

function toRemote(
  answer: { id: number; filename: string; size?: number | null; updated_at: string },
  kind: 'folder' | 'file',
  parentId: number,
): RemoteItem {
  return {
    id: answer.id,
    kind,
    parentId,
    name: answer.filename,
    size: answer.size ?? 0,
    updatedAt: answer.updated_at,
  };
}

/**
 * Sends local changes to the service: new folders (parents first), moves and renames (one call
 * each, whatever they hold), new files and new versions, then deletes. Each mutation is an
 * intent in the outbox before it leaves; the journal records its result with the intent's
 * completion. What the service refuses stays on disk and is reported, never undone.
 */
export class Pusher {
  private readonly result: PushResult = {
    remoteFoldersCreated: 0,
    uploaded: 0,
    bytesUploaded: 0,
    remoteMoved: 0,
    remoteDeleted: 0,
    conflicts: 0,
    recheckRemote: false,
    walkNeeded: false,
    deletesDeferred: false,
    rescan: new Set(),
    fetch: [],
  };
  /** Items a planned move takes away from their recorded place: not a parent for anything yet. */
  private readonly leaving = new Set<number>();
  /** Names in remote folders, read once per push before a new file is uploaded there. */
  private readonly remoteKids = new Map<number, Promise<Map<string, RemoteItem>>>();
  /** Folders this push created: known empty on the service. */
  private readonly created = new Set<number>();

  constructor(private readonly ctx: PushContext) {}

  async run(plan: LocalPlan): Promise<PushResult> {
    const { journal } = this.ctx;
    await this.settleOpen();
    for (const r of plan.relinks) {
      const j = journal.get(r.item.remoteId);
      if (j) journal.upsert({ ...j, ...facts(r.entry) });
    }
    for (const m of plan.moves) this.leaving.add(m.item.remoteId);
    const limit = pLimit(this.ctx.concurrency);
    // A folder replaced here by a file of its name (or the reverse): the old one is deleted
    // first, or the new one's record would take its place in the journal before it is sent.
    const made = new Set([
      ...plan.mkdirs.map((m) => m.entry.path),
      ...plan.uploads.filter((u) => !u.item).map((u) => u.entry.path),
    ]);
    const replaced = plan.deletes.filter((d) => made.has(d.item.localPath));
    let { mkdirs, uploads, deletes } = plan;
    if (replaced.length > 0) {
      deletes = deletes.filter((d) => !replaced.includes(d));
      if (await this.ctx.serviceChanged()) {
        // Deletes wait for the remote pass (below); what replaces them waits with them.
        const waiting = new Set(replaced.map((d) => d.item.localPath));
        mkdirs = mkdirs.filter((m) => !waiting.has(m.entry.path));
        uploads = uploads.filter((u) => u.item || !waiting.has(u.entry.path));
        deletes = [...deletes, ...replaced];
      } else {
        await Promise.all(replaced.map((op) => limit(() => this.remove(op))));
      }
    }
    await this.structure(plan.moves, mkdirs);
    await Promise.all(uploads.map((op) => limit(() => this.upload(op))));
    if (deletes.length > 0) {
      if (await this.ctx.serviceChanged()) {
        // The service moved on since the remote pass: it is applied first, so that a change
        // made there to something deleted here wins.
        this.result.deletesDeferred = true;
      } else {
        await Promise.all(deletes.map((op) => limit(() => this.remove(op))));
      }
    }
    return this.result;
  }

  /**
   * Settles intents a crash or a failed pass left open, by looking at the service. Returns the
   * folders to look at again.
   */
  async settleOpen(): Promise<ReadonlySet<string>> {
    const { journal, client } = this.ctx;
    for (const intent of journal.openIntents()) {
      const payload = intent.payload as IntentPayload;
      const s = await settle(client, journal, payload, {
        timeMs: intent.createdAt,
        workspaceId: this.ctx.workspaceId,
      });
      if (s.made) {
        journal.transaction(() => {
          this.record(payload, s.item);
          journal.completeIntent(intent.id, { settled: true });
        });
        this.ctx.log.info('settled an interrupted change: it was made', { op: payload.op });
      } else {
        journal.failIntent(intent.id, 'not made; the next pass does it again');
      }
      this.result.rescan.add(parentOf(payload.path));
    }
    return this.result.rescan;
  }

  // Structure: moves and new folders, in waves (a folder's parent must exist first)

  private async structure(moves: MoveOp[], mkdirs: MkdirOp[]): Promise<void> {
    let pendingMoves = [...moves];
    let pendingDirs = [...mkdirs];
    const retried = new Set<MoveOp>();
    const steppedAside = new Set<MoveOp>();
    const limit = pLimit(this.ctx.concurrency);
    while (pendingMoves.length + pendingDirs.length > 0) {
      let progress = false;
      const later: MoveOp[] = [];
      for (const op of pendingMoves) {
        if (this.folderId(parentOf(op.entry.path)) === undefined) {
          later.push(op);
          continue;
        }
        progress = true;
        const outcome = await this.move(op, retried.has(op));
        if (outcome === 'retry' && !retried.has(op)) {
          retried.add(op);
          later.push(op);
        }
      }
      pendingMoves = later;
      const ready = pendingDirs.filter(
        (op) => this.folderId(parentOf(op.entry.path)) !== undefined,
      );
      pendingDirs = pendingDirs.filter((op) => !ready.includes(op));
      if (ready.length > 0) progress = true;
      const blockers = await Promise.all(
        ready.map((op) => limit(() => this.mkdir(op, pendingMoves))),
      );
      // A new folder whose name is held by an item moving into it (`mkdir docs; mv Docs docs/`
      // where the service takes both names for one): neither can go first. The item steps
      // aside under a provisional name, then the folder is made, then the item moves in.
      for (const [i, blocker] of blockers.entries()) {
        if (!blocker || steppedAside.has(blocker)) continue;
        steppedAside.add(blocker);
        if (await this.stepAside(blocker)) pendingDirs.push(ready[i]!);
      }
      if (!progress) break;
    }
  }

  /** The remote id of the synced folder at a local path, once it is settled there. */
  private folderId(path: string): number | undefined {
    if (path === '') return this.ctx.rootId;
    const j = this.ctx.journal.atPath(path);
    if (!j || j.kind !== 'folder' || j.state !== 'synced' || this.leaving.has(j.remoteId)) {
      return undefined;
    }
    return j.remoteId;
  }

  private refusedNow(key: string, sig: string): boolean {
    const held = this.ctx.refused.get(key);
    if (held === sig) return true;
    // A name clash stands while the synced item holding the name is still here; once it left
    // (deleted, or moved away), this one goes up.
    const clash = held?.startsWith(sig + CLASH)
      ? Number(held.slice(sig.length + CLASH.length))
      : NaN;
    const holder = Number.isNaN(clash) ? undefined : this.ctx.journal.get(clash);
    if (!holder || parentOf(holder.localPath) !== parentOf(key)) return false;
    const name = decodeName(key.slice(key.lastIndexOf('/') + 1), this.ctx.profile);
    if (serviceKey(holder.remoteName) !== serviceKey(name)) return false; // renamed since
    const there = this.ctx.local.stat(holder.localPath);
    return there !== undefined && there.ino === holder.ino && there.dev === holder.dev;
  }

  /** Returns the pending move whose item holds the name on the service, if that refused it. */
  private async mkdir(op: MkdirOp, moving: readonly MoveOp[]): Promise<MoveOp | undefined> {
    const { client, workspaceId, profile, events } = this.ctx;
    const { entry } = op;
    if (this.refusedNow(entry.path, signature(entry))) return undefined;
    const made = this.ctx.journal.atPath(entry.path);
    if (made?.kind === 'folder' && made.dev === entry.dev && made.ino === entry.ino) {
      return undefined; // copied along with the folder it is in (a move without the extension)
    }
    const parentId = this.folderId(parentOf(entry.path))!;
    const name = this.serviceName(entry, profile);
    events.begin('create folder', entry.path);
    try {
      const payload: IntentPayload = {
        op: 'mkdir',
        parentId,
        name,
        path: entry.path,
        identity: { dev: entry.dev, ino: entry.ino },
      };
      const item = await this.mutate(payload, async () =>
        toRemote(await client.createFolder(workspaceId, parentId, name), 'folder', parentId),
      );
      if (item) this.created.add(item.id);
      this.result.remoteFoldersCreated++;
    } catch (err) {
      if (err instanceof ValidationError && isTaken(err)) {
        // A folder of that name appeared on the service meanwhile: same-name folders merge.
        const existing = await this.findRemote(parentId, name, 'folder');
        if (existing && !this.ctx.journal.get(existing.id)) {
          this.ctx.journal.transaction(() =>
            this.record({ op: 'mkdir', parentId, name, path: entry.path }, existing),
          );
          this.remoteKids.delete(existing.id);
          events.note(
            entry.path,
            'A folder of the same name was made on the service too: they were merged.',
          );
          this.result.recheckRemote = true;
          return undefined;
        }
        const holder = existing && this.ctx.journal.get(existing.id);
        const leaving = holder && moving.find((m) => m.item.remoteId === holder.remoteId);
        if (leaving) return leaving;
        if (holder && holder.localPath !== entry.path) {
          this.clash(entry.path, signature(entry), holder);
          return undefined;
        }
      }
      this.refuse(entry.path, signature(entry), err);
      return undefined;
    } finally {
      events.done();
    }
  }

  /**
   * Renames a moving item on the service, where it still is, to a provisional name that frees
   * its own. Its move then sends the final name. Recorded like any move: after a crash, the local
   * pass sees the item still to be moved and sends the rest.
   */
  private async stepAside(op: MoveOp): Promise<boolean> {
    const { client, journal, events } = this.ctx;
    const j = journal.get(op.item.remoteId);
    if (!j) return false;
    const payload: IntentPayload = {
      op: 'move',
      id: j.remoteId,
      kind: j.kind,
      parentId: j.remoteParentId,
      name: provisionalName(j.remoteName, j.kind),
      path: j.localPath,
    };
    events.begin('rename', j.localPath);
    try {
      await this.mutate(payload, async () =>
        j.kind === 'folder'
          ? toRemote(
              await client.renameFolder(j.remoteId, payload.name),
              'folder',
              j.remoteParentId,
            )
          : fromFile(await client.renameFile(j.remoteId, payload.name)),
      );
      return true;
    } catch (err) {
      if (!(err instanceof ApiError) || err.retryable || err.kind === 'outcome-unknown') throw err;
      return false;
    } finally {
      events.done();
    }
  }

  /**
   * `final`: a refused name was already tried once in this push (the item holding it may have
   * been moving away then). A name still taken then is given up for a conflict name here.
   */
  private async move(op: MoveOp, final: boolean): Promise<'done' | 'retry' | 'failed'> {
    const outcome = await this.sendMove(op, final, false);
    if (outcome !== 'taken') return outcome;
    const aside = this.moveAside(op);
    return aside ? ((await this.sendMove(aside, true, true)) as 'done' | 'failed') : 'failed';
  }

  private async sendMove(
    op: MoveOp,
    final: boolean,
    aside: boolean,
  ): Promise<'done' | 'retry' | 'failed' | 'taken'> {
    const { client, journal, moves, profile, events } = this.ctx;
    const j = journal.get(op.item.remoteId);
    const { entry } = op;
    if (!j) return 'failed';
    const parentId = this.folderId(parentOf(entry.path))!;
    const name = decodeName(entry.name, profile);
    const payload: IntentPayload = {
      op: 'move',
      id: j.remoteId,
      kind: j.kind,
      parentId,
      name: parentId === j.remoteParentId && name === j.remoteName ? j.remoteName : name,
      path: entry.path,
    };
    events.begin(parentId === j.remoteParentId ? 'rename' : 'move', entry.path);
    try {
      if (parentId === j.remoteParentId && name === j.remoteName) {
        // Only the local name changed (a mapping): nothing to tell the service.
        journal.transaction(() => this.record(payload, { ...asRemote(j) }));
        return 'done';
      }
      if (this.refusedNow(entry.path, signature(entry))) return 'failed';
      let fellBack = false;
      await this.mutate(
        payload,
        async () => {
          if (parentId === j.remoteParentId) {
            return j.kind === 'folder'
              ? toRemote(await client.renameFolder(j.remoteId, name), 'folder', parentId)
              : fromFile(await client.renameFile(j.remoteId, name));
          }
          const moved =
            j.kind === 'folder'
              ? await moves.moveFolder(
                  j.remoteId,
                  parentId,
                  name !== j.remoteName ? name : undefined,
                )
              : await moves.moveFile(
                  j.remoteId,
                  parentId,
                  name !== j.remoteName ? name : undefined,
                );
          if (!moved.supported) {
            fellBack = true;
            return null;
          }
          return toRemote(moved.item, j.kind, parentId);
        },
        (item) => {
          // A move that fell back records nothing itself: the copy records what it makes.
          if (!fellBack) this.record(payload, item);
        },
      );
      this.leaving.delete(j.remoteId);
      if (fellBack) {
        await this.copyThenDelete(j, entry);
        return 'done';
      }
      this.result.remoteMoved++;
      return 'done';
    } catch (err) {
      this.leaving.delete(j.remoteId);
      if (err instanceof ApiError && err.kind === 'not-found') {
        // Deleted on the service meanwhile: what is here is kept and goes back up as new.
        journal.removeTree(j);
        this.result.rescan.add(parentOf(entry.path));
        this.result.rescan.add(entry.path);
        events.note(
          entry.path,
          'It was deleted on the service while it was moved here: it is uploaded again.',
        );
        return 'failed';
      }
      if (err instanceof ValidationError && !final) {
        this.leaving.add(j.remoteId);
        return 'retry';
      }
      if (err instanceof ValidationError && isTaken(err) && !aside) return 'taken';
      if (err instanceof ApiError && err.kind === 'forbidden' && this.putBack(j, entry)) {
        return 'failed';
      }
      this.refuse(entry.path, signature(entry), err);
      return 'failed';
    } finally {
      events.done();
    }
  }

  /**
   * A move on a server without the move extension (conventions.md): the item is made again at
   * its new place from what is on disk, and the old one is deleted only after all of that
   * succeeded.
   */
  private async copyThenDelete(j: JournalItem, entry: LocalEntry): Promise<void> {
    const { journal, events, local, ignores } = this.ctx;
    events.notice(
      'This server cannot move items: a moved item is copied to its new place, then deleted ' +
        'from the old one once all of it is there.',
    );
    const inside = await scanLocal(local, [entry.path], true, {
      ignores,
      descend: () => true,
      settleMs: 0,
    });
    // The old records stay until the old place is deleted: a crash before that leaves them
    // pointing at a place that is empty here, which the next pass deletes on the service.
    const entries = [entry, ...inside.entries.values()];
    const before = this.result.remoteFoldersCreated + this.result.uploaded;
    await this.structure(
      [],
      entries.filter((e) => e.kind === 'folder').map((e) => ({ type: 'mkdir' as const, entry: e })),
    );
    const limit = pLimit(this.ctx.concurrency);
    await Promise.all(
      entries
        .filter((e) => e.kind === 'file')
        .map((e) => limit(() => this.upload({ type: 'upload', entry: e, item: null }))),
    );
    const made = this.result.remoteFoldersCreated + this.result.uploaded - before;
    if (made < entries.length) {
      // The old place is kept on the service, and comes back here with the next walk.
      journal.removeTree(j);
      events.note(
        entry.path,
        'Not all of it could be copied: the old place on the service is kept.',
      );
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
      if (j.kind === 'folder') await this.pruneCopied(j.remoteId);
      journal.removeTree(j);
      this.result.recheckRemote = true;
      this.result.remoteMoved++;
      events.note(
        j.localPath,
        j.kind === 'file'
          ? 'It changed on the service while it was moved here: the new version is kept at its old place.'
          : 'It changed on the service while it was moved here: what changed there is kept at its old place.',
      );
      return;
    }
    await this.deleteCopied(j.remoteId, j.kind, j.localPath);
    journal.removeTree(j);
    this.result.remoteMoved++;
  }

  private async deleteCopied(id: number, kind: 'folder' | 'file', path: string): Promise<void> {
    const { client } = this.ctx;
    await this.mutate({ op: 'delete', id, kind, path }, async () => {
      await (kind === 'folder' ? client.deleteFolder(id) : client.deleteFile(id));
      return null;
    }).catch((err: unknown) => {
      if (!(err instanceof ApiError && err.kind === 'not-found')) throw err;
    });
  }

  /** Items of a folder on the service, read whole before any is deleted (pages would shift). */
  private async listing(folderId: number): Promise<RemoteItem[]> {
    const out: RemoteItem[] = [];
    for await (const e of this.ctx.client.folderContents(folderId)) {
      out.push(fromEntry(e, folderId));
    }
    return out;
  }

  /** Whether the service still has the version of a file the journal knows (or nothing). */
  private async sameVersionThere(id: number): Promise<boolean> {
    const { client, journal, local } = this.ctx;
    try {
      const item = fromFile(await client.getFile(id));
      const j = journal.get(id);
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
  private known(item: RemoteItem): boolean {
    const j = this.ctx.journal.get(item.id);
    if (!j || j.kind !== item.kind) return false;
    return (
      item.kind === 'folder' || (j.remoteUpdatedAt === item.updatedAt && j.remoteSize === item.size)
    );
  }

  /** Whether everything below a folder on the service is known to the journal as it is. */
  private async onlyKnownIn(folderId: number): Promise<boolean> {
    for (const item of await this.listing(folderId)) {
      if (!this.known(item)) return false;
      if (item.kind === 'folder' && !(await this.onlyKnownIn(item.id))) return false;
    }
    return true;
  }

  /** Deletes below a folder on the service what is known as it is; says whether all went. */
  private async pruneCopied(folderId: number): Promise<boolean> {
    let all = true;
    for (const item of await this.listing(folderId)) {
      const path = this.ctx.journal.get(item.id)?.localPath ?? item.name;
      if (!this.known(item)) all = false;
      else if (item.kind === 'file' || (await this.pruneCopied(item.id))) {
        await this.deleteCopied(item.id, item.kind, path);
      } else all = false;
    }
    return all;
  }

  private async upload(op: UploadOp): Promise<void> {
    const { client, journal, local, profile, events } = this.ctx;
    const { entry } = op;
    const parentId = this.folderId(parentOf(entry.path));
    if (parentId === undefined) return;
    let into = parentId;
    const abs = local.abs(entry.path);
    const st = lstatSync(abs, { throwIfNoEntry: false });
    if (!st || !st.isFile()) return;
    const now = { ...entry, ...facts(st) };
    if (this.refusedNow(entry.path, signature(now))) return;
    const made = op.item ? undefined : journal.atPath(entry.path);
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
    try {
      const hash = await hashFile(abs);
      let item = op.item ? journal.get(op.item.remoteId) : undefined;
      if (item && item.hash === hash) {
        journal.upsert({ ...item, ...facts(st) });
        return;
      }
      let name = this.serviceName(entry, profile);
      if (item) {
        // A new version: only if the service still has the version this one was made from.
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
          journal.removeTree(item);
          item = undefined;
        } else if (remote.updatedAt !== item.remoteUpdatedAt || remote.size !== item.remoteSize) {
          // Changed on both sides: the service's version comes down and this one is kept
          // beside it as a conflict copy (then uploaded as a file of its own).
          this.result.fetch.push(remote);
          this.result.conflicts++;
          return;
        } else {
          // The same version there, perhaps renamed or moved meanwhile: the new version goes
          // to it where it is now (by its old name it would become a second file).
          name = remote.name;
          into = remote.parentId;
        }
      }
      if (!item && !this.created.has(parentId)) {
        const taken = (await this.kidsOf(parentId)).get(serviceKey(name));
        const synced = taken && journal.get(taken.id);
        if (taken && !synced) {
          // Someone else's file of that name: uploading would bury it as an old version. It
          // comes down instead; this one is kept beside it (or adopted if the same).
          this.result.fetch.push(taken);
          this.result.conflicts++;
          return;
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
          if (local.stat(synced.localPath)) this.clash(entry.path, signature(now), synced);
          else this.result.rescan.add(parentOf(entry.path));
          return;
        }
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
      await this.mutate(
        payload,
        async () => {
          const answer = await client.uploadFile(into, name, () => createReadStream(abs), st.size);
          return fromFile({
            ...answer,
            ancestor_ids: answer.ancestor_ids?.length ? answer.ancestor_ids : [into],
          });
        },
        (answer) => this.recordFile(payload, answer, st, entry),
      );
      this.result.uploaded++;
      this.result.bytesUploaded += st.size;
      events.bytes(st.size);
    } catch (err) {
      if (err instanceof ApiError && err.kind === 'not-found') {
        this.result.recheckRemote = true;
        return;
      }
      this.refuse(entry.path, signature(now), err);
    } finally {
      events.done();
    }
  }

  private async remove(op: DeleteOp): Promise<void> {
    const { client, journal, events } = this.ctx;
    const j = journal.get(op.item.remoteId);
    if (!j) return;
    const key = `delete:${j.remoteId}`;
    if (this.refusedNow(key, j.localPath)) return;
    events.begin('delete', j.localPath);
    try {
      await this.mutate(
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
      this.result.remoteDeleted += op.count;
    } catch (err) {
      if (err instanceof ApiError && err.kind === 'forbidden') {
        // The role may not delete it: the service keeps it, and it comes back here. Once back
        // it is in sync, so this is a note in the status, not a standing problem.
        journal.removeTree(j);
        this.result.walkNeeded = true;
        events.note(
          j.localPath,
          'Your role does not allow deleting it on the service: it is put back.',
        );
        return;
      }
      this.refuse(key, j.localPath, err);
    } finally {
      events.done();
    }
  }

  // The outbox

  /**
   * Sends one mutation as an intent: written before the request, completed with its record. A
   * lost answer is settled by looking at the service, then tried again only if it was not made.
   */
  private async mutate(
    payload: IntentPayload,
    send: () => Promise<RemoteItem | null>,
    record: (item: RemoteItem | null) => void = (item) => this.record(payload, item),
  ): Promise<RemoteItem | null> {
    const { journal, client, step } = this.ctx;
    for (let attempt = 1; ; attempt++) {
      const written = Date.now();
      const id = journal.addIntent(payload.op, payload, written);
      step?.('intent-written', payload.op);
      let item: RemoteItem | null;
      try {
        item = await send();
      } catch (err) {
        if (err instanceof ApiError && !err.retryable && !isOutcomeUnknown(err)) {
          journal.failIntent(id, err.kind);
          throw err;
        }
        if (!isOutcomeUnknown(err) || attempt >= 3) throw err; // left open: settled next pass
        const s = await settle(client, journal, payload, {
          timeMs: written,
          workspaceId: this.ctx.workspaceId,
        });
        if (!s.made) {
          journal.failIntent(id, 'lost, not made');
          continue;
        }
        item = s.item;
      }
      step?.('answered', payload.op);
      journal.transaction(() => {
        record(item);
        journal.completeIntent(id, item ? { id: item.id } : null);
        // Its event, read back from the feed, is then ours: no request to look at it.
        if (item && payload.op !== 'delete') {
          journal.noteOwnChange(item.id, Date.parse(item.updatedAt));
        }
      });
      step?.('recorded', payload.op);
      this.ctx.events.sent(payload.path);
      return item;
    }
  }

  /** Writes a mutation's outcome to the journal (also for intents settled after a crash). */
  private record(p: IntentPayload, item: RemoteItem | null): void {
    const { journal, local } = this.ctx;
    const st = lstatSync(local.abs(p.path), { throwIfNoEntry: false });
    const name = p.path.slice(p.path.lastIndexOf('/') + 1);
    switch (p.op) {
      case 'mkdir': {
        if (!item || journal.atPath(p.path)) return;
        const id = p.identity ?? (st?.isDirectory() ? st : null);
        if (id) journal.forgetName(id);
        journal.upsert({
          ...remoteFields(item),
          localPath: p.path,
          localName: name,
          dev: id?.dev ?? null,
          ino: id?.ino ?? null,
          size: null,
          mtimeMs: st?.isDirectory() ? st.mtimeMs : null,
          hash: null,
          state: 'synced',
        });
        return;
      }
      case 'upload': {
        if (!item) return;
        // What was sent, by its identity then: a file moved or saved over since is then seen
        // for what it is by the next local pass.
        this.recordFile(
          p,
          item,
          p.identity
            ? { ...p.identity, size: p.size }
            : st && st.isFile() && st.size === p.size
              ? st
              : undefined,
        );
        return;
      }
      case 'move': {
        const j = journal.get(p.id);
        if (!j) return;
        // The folder it went into is no longer known empty, nor its names as read before.
        this.created.delete(p.parentId);
        this.remoteKids.delete(p.parentId);
        const other = journal.atPath(p.path);
        if (other && other.remoteId !== j.remoteId) {
          // The item that had this place is leaving it in this push too (a swap): its record
          // waits in the holding place until its own move.
          if (!this.leaving.has(other.remoteId)) return;
          journal.moveTree(other, {
            localPath: `${MOVING_DIR}/${other.remoteId}`,
            localName: String(other.remoteId),
          });
        }
        journal.moveTree(
          {
            ...j,
            remoteParentId: item?.parentId ?? p.parentId,
            remoteName: item?.name ?? p.name,
            ...(j.kind === 'folder' && st?.isDirectory() ? { dev: st.dev, ino: st.ino } : {}),
          },
          { localPath: p.path, localName: name },
        );
        return;
      }
      case 'delete': {
        const j = journal.get(p.id);
        if (j) journal.removeTree(j);
        return;
      }
    }
  }

  private recordFile(
    p: Extract<IntentPayload, { op: 'upload' }>,
    item: RemoteItem | null,
    st?: { dev: number; ino: number; size: number; mtimeMs: number },
    entry?: LocalEntry,
  ): void {
    if (!item) return;
    const { journal } = this.ctx;
    if (st) journal.forgetName(st);
    const other = journal.atPath(p.path);
    if (other && other.remoteId !== item.id) journal.removeTree(other);
    journal.upsert({
      ...remoteFields(item),
      localPath: p.path,
      localName: entry?.name ?? p.path.slice(p.path.lastIndexOf('/') + 1),
      dev: st?.dev ?? null,
      ino: st?.ino ?? null,
      size: st?.size ?? null,
      mtimeMs: st?.mtimeMs ?? null,
      hash: p.hash,
      state: 'synced',
    });
  }

  private async findRemote(parentId: number, name: string, kind: 'folder' | 'file') {
    for await (const e of this.ctx.client.folderContents(parentId)) {
      const item = fromEntry(e, parentId);
      if (item.kind === kind && serviceKey(item.name) === serviceKey(name)) return item;
    }
    return null;
  }

  private kidsOf(parentId: number): Promise<Map<string, RemoteItem>> {
    let kids = this.remoteKids.get(parentId);
    if (!kids) {
      kids = (async () => {
        const map = new Map<string, RemoteItem>();
        for await (const e of this.ctx.client.folderContents(parentId)) {
          const item = fromEntry(e, parentId);
          if (item.kind === 'file') map.set(serviceKey(item.name), item);
        }
        return map;
      })();
      this.remoteKids.set(parentId, kids);
    }
    return kids;
  }

  /**
   * A move the role refused is undone here, as a refused delete is: the item goes back to where
   * the service has it, so both sides agree again. Not when something else took that place.
   */
  private putBack(j: JournalItem, entry: LocalEntry): boolean {
    const { local, events } = this.ctx;
    const there = local.stat(j.localPath);
    const sameItem = there !== undefined && there.ino === entry.ino && there.dev === entry.dev;
    if ((there && !sameItem) || !local.stat(parentOf(j.localPath))?.isDirectory()) return false;
    local.assertContained(j.localPath);
    renameSync(local.abs(entry.path), local.abs(j.localPath));
    this.result.rescan.add(parentOf(entry.path));
    this.result.rescan.add(parentOf(j.localPath));
    const parentId = this.folderId(parentOf(j.localPath));
    const name = decodeName(j.localName, this.ctx.profile);
    if (
      parentId !== undefined &&
      (parentId !== j.remoteParentId || serviceKey(name) !== serviceKey(j.remoteName))
    ) {
      // Moved on the service meanwhile (its record took the new place there, waiting for this
      // move to win): the record says again where it is here, and a walk brings it there.
      this.ctx.journal.upsert({ ...j, remoteParentId: parentId, remoteName: name });
      this.result.walkNeeded = true;
    }
    // What was added in it while it had the other name goes up from its old place.
    if (j.kind === 'folder') {
      this.result.rescan.add(j.localPath);
      for (const d of this.ctx.journal.descendants(j.localPath)) {
        if (d.kind === 'folder') this.result.rescan.add(d.localPath);
      }
    }
    events.note(
      j.localPath,
      `Your role does not allow moving or renaming it on the service: it is put back (it was ${entry.path}).`,
    );
    return true;
  }

  /**
   * A rename or move to a name the service already has there (names differ only in case or
   * accents, or the other item came meanwhile): the item here takes a conflict name, as a local
   * item in a remote one's way does, and goes to the service under it. Left as it was, it would be
   * renamed here and not there, and its record would point at a name that is gone.
   */
  private moveAside(op: MoveOp): MoveOp | undefined {
    const { local, events } = this.ctx;
    const from = op.entry.path;
    const st = local.stat(from);
    if (!st || st.ino !== op.entry.ino || st.dev !== op.entry.dev) return undefined;
    const to = local.moveAside(from, st.isDirectory());
    const name = to.slice(to.lastIndexOf('/') + 1);
    this.result.rescan.add(parentOf(to));
    if (st.isDirectory()) this.result.rescan.add(to);
    events.note(
      to,
      `The service already has an item named like ${from} there (names are compared without regard to case or accents): it was renamed ${name}.`,
    );
    return { ...op, entry: { ...op.entry, path: to, name } };
  }

  /** The name a new item goes up under: its local name decoded, or the one it had there. */
  private serviceName(entry: LocalEntry, profile: VolumeProfile): string {
    return this.ctx.journal.keptName(entry, entry.name) ?? decodeName(entry.name, profile);
  }

  /** Two files here that the service would take for one: this one is kept here and reported. */
  private clash(path: string, sig: string, other: JournalItem): void {
    this.ctx.refused.set(path, `${sig}${CLASH}${other.remoteId}`);
    this.ctx.events.problem({
      path,
      remoteId: null,
      reason: 'name',
      message: `For the service this is the same name as ${other.localPath} (they differ only in case or accents): rename one of them to sync it.`,
    });
  }

  /** A change the service will not take: kept here, reported, not tried again until it changes. */
  private refuse(key: string, sig: string, err: unknown): void {
    if (!(err instanceof ApiError) || err.retryable || err.kind === 'outcome-unknown') throw err;
    if (err.kind === 'not-authenticated') throw err;
    this.ctx.refused.set(key, sig);
    const path = key.startsWith('delete:') ? sig : key;
    this.ctx.events.problem({
      path,
      remoteId: null,
      reason:
        err.kind === 'forbidden' ? 'not-permitted' : err.kind === 'validation' ? 'name' : 'error',
      message:
        err.kind === 'forbidden'
          ? 'Your role in this workspace does not allow this change: it is kept here only.'
          : err.kind === 'validation'
            ? `The service refused it (${err.message}): it is kept here only.`
            : err.message,
    });
  }
}

/** Marks a refusal that holds while the synced item of that name (its id follows) is here. */
const CLASH = '|clash:';

/** `Docs (moving 1a2b3c)`: unlike any name a person gives, and free for its first few seconds. */
const provisionalName = (name: string, kind: 'folder' | 'file'): string => {
  const tag = `moving ${randomBytes(3).toString('hex')}`;
  const dot = name.lastIndexOf('.');
  return kind === 'file' && dot > 0
    ? `${name.slice(0, dot)} (${tag})${name.slice(dot)}`
    : `${name} (${tag})`;
};

const isTaken = (err: ValidationError) =>
  Object.values(err.errors).some((msgs) => msgs.some((m) => /taken/i.test(m)));

const facts = (st: { dev: number; ino: number; size: number; mtimeMs: number; kind?: string }) => ({
  dev: st.dev,
  ino: st.ino,
  mtimeMs: st.mtimeMs,
  ...(st.kind === 'folder' ? {} : { size: st.size }),
});
