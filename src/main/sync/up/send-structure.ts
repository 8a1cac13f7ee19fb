import { renameSync } from 'node:fs';
import pLimit from 'p-limit';
import { ApiError, ValidationError } from '../../api/errors';
import type { JournalItem } from '../../journal/journal';
import type { LocalEntry } from '../detect-local/scan';
import { decodeName, serviceKey } from '../names';
import { joinPath, parentOf } from '../paths';
import { placeholderOf } from '../placeholder';
import { asRemote, findInFolder, fromFile, remoteFields, type RemoteItem } from '../remote';
import { requestMove, toRemote } from './move-request';
import type { IntentPayload } from './outbox';
import type { MkdirOp, MoveOp } from './plan';
import { isProvisional, provisionalName } from './provisional';
import { refusalFacts } from './refusals';
import { isTaken, type SendState } from './send-state';

type MoveVersion = NonNullable<Extract<IntentPayload, { op: 'move' }>['version']>;

/**
 * Sends the structure: moves and renames (one call each, whatever they hold) and new folders,
 * in waves (a folder's parent must exist first). What the service refuses stays on disk and is
 * reported; a move the role refuses is put back here, a name the service takes for another's
 * is renamed aside here and sent under it (both are the outcome of the one job, not a new plan).
 */
export class StructureSender {
  constructor(private readonly s: SendState) {}

  /**
   * `asides`: the moves that break a cycle of renames (up/plan.ts): each item steps aside under
   * a temporary name first, so that the others can take their names, then takes its own.
   */
  async run(moves: MoveOp[], mkdirs: MkdirOp[], asides: readonly MoveOp[] = []): Promise<void> {
    for (const op of asides) await this.stepAside(op);
    let pendingMoves = [...moves];
    let pendingDirs = [...mkdirs];
    const retried = new Set<MoveOp>();
    const steppedAside = new Set<MoveOp>();
    const limit = pLimit(this.s.ctx.concurrency);
    while (pendingMoves.length + pendingDirs.length > 0) {
      let progress = false;
      const later: MoveOp[] = [];
      for (const op of pendingMoves) {
        if (this.s.folderId(parentOf(op.entry.path)) === undefined) {
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
        (op) => this.s.folderId(parentOf(op.entry.path)) !== undefined,
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

  /** Returns the pending move whose item holds the name on the service, if that refused it. */
  async mkdir(op: MkdirOp, moving: readonly MoveOp[]): Promise<MoveOp | undefined> {
    const { client, workspaceId, events } = this.s.ctx;
    const { entry } = op;
    if (this.s.refusedNow(entry.path, refusalFacts(entry))) return undefined;
    const made = this.s.ctx.journal.items.atPath(entry.path);
    if (made?.kind === 'folder' && made.dev === entry.dev && made.ino === entry.ino) {
      return undefined; // copied along with the folder it is in (a move without the extension)
    }
    if (made?.state === 'online' && made.kind === 'file') {
      // A folder made at the real name of a file online only (its placeholder beside it): the
      // file's record holds that path here, so the folder would be made there at every pass and
      // never recorded (found by the soak, seed 20261203 history 505). Kept here, said.
      this.s.clash(entry.path, entry, made);
      return undefined;
    }
    const parentId = this.s.folderId(parentOf(entry.path))!;
    const name = this.s.serviceName(entry);
    events.begin('create folder', entry.path);
    try {
      const payload: IntentPayload = {
        op: 'mkdir',
        parentId,
        name,
        path: entry.path,
        identity: { dev: entry.dev, ino: entry.ino },
      };
      const item = await this.s.mutate(payload, async () =>
        toRemote(await client.createFolder(workspaceId, parentId, name), 'folder', parentId),
      );
      if (item) this.s.created.add(item.id);
      this.s.result.remoteFoldersCreated++;
    } catch (err) {
      if (err instanceof ValidationError && isTaken(err)) {
        // A folder of that name appeared on the service meanwhile: same-name folders merge.
        const existing = await findInFolder(
          client,
          parentId,
          (i) => i.kind === 'folder' && serviceKey(i.name) === serviceKey(name),
        );
        if (existing && !this.s.ctx.journal.items.get(existing.id)) {
          this.s.ctx.journal.transaction(() =>
            this.s.record({ op: 'mkdir', parentId, name, path: entry.path }, existing),
          );
          this.s.remoteKids.delete(existing.id);
          events.note(entry.path, { key: 'engine.foldersMerged' });
          this.s.result.recheckRemote = true;
          return undefined;
        }
        const holder = existing && this.s.ctx.journal.items.get(existing.id);
        const leaving = holder && moving.find((m) => m.item.remoteId === holder.remoteId);
        if (leaving) return leaving;
        if (holder && holder.localPath !== entry.path) {
          this.s.clash(entry.path, entry, holder);
          return undefined;
        }
      }
      this.s.refuse({ kind: 'change', path: entry.path, entry }, err);
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
  async stepAside(op: MoveOp): Promise<boolean> {
    const { client, journal, events } = this.s.ctx;
    const j = journal.items.get(op.item.remoteId);
    if (!j) return false;
    // Aside already (the journal recorded it before a crash or a failed pass): its name is free.
    if (isProvisional(j.remoteName)) return true;
    // Its move was refused (the role): the step aside would be too, in every pass.
    if (this.s.refusedNow(op.entry.path, refusalFacts(op.entry))) return false;
    events.begin('rename', j.localPath);
    try {
      const version = await this.versionBefore(j);
      // A temporary name someone else holds (3 random bytes: hardly ever) is drawn again.
      for (let attempt = 1; ; attempt++) {
        const payload: IntentPayload = {
          op: 'move',
          id: j.remoteId,
          kind: j.kind,
          parentId: j.remoteParentId,
          name: provisionalName(j.remoteName, j.kind),
          path: j.localPath,
          ...(version ? { version } : {}),
        };
        try {
          await this.s.mutate(payload, async () =>
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
          if (err instanceof ValidationError && isTaken(err) && attempt < 3) continue;
          throw err;
        }
      }
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
  async move(op: MoveOp, final: boolean): Promise<'done' | 'retry' | 'failed'> {
    const outcome = await this.sendMove(op, final, false);
    if (outcome !== 'taken') return outcome;
    const aside = this.moveAside(op);
    return aside ? ((await this.sendMove(aside, true, true)) as 'done' | 'failed') : 'failed';
  }

  async sendMove(
    op: MoveOp,
    final: boolean,
    aside: boolean,
  ): Promise<'done' | 'retry' | 'failed' | 'taken'> {
    const { journal, profile, events } = this.s.ctx;
    const j = journal.items.get(op.item.remoteId);
    const { entry } = op;
    if (!j) return 'failed';
    const parentId = this.s.folderId(parentOf(entry.path))!;
    const name = decodeName(entry.name, profile);
    const payload: Extract<IntentPayload, { op: 'move' }> = {
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
        journal.transaction(() => this.s.record(payload, { ...asRemote(j) }));
        return 'done';
      }
      if (this.s.refusedNow(entry.path, refusalFacts(entry))) return 'failed';
      const version = await this.versionBefore(j);
      if (version) payload.version = version;
      const fell = { back: false };
      await this.s.mutate(
        payload,
        () => requestMove(this.s.ctx, j, parentId, name, fell),
        (item) => {
          if (!fell.back) this.s.record(payload, item);
          // Not moved: only what the service did to it where it is (a rename) is recorded; a
          // file's new time only from the version recorded here (`versionBefore`).
          else if (item) this.recordRenamedOnly(j, item, entry, payload.version !== undefined);
        },
      );
      this.s.leaving.delete(j.remoteId);
      if (fell.back) {
        // Not made: the next local pass finds it again, and plans it as a copy (up/plan.ts).
        this.s.result.movesUnsupported = true;
        this.s.result.rescan.add(parentOf(entry.path));
        return 'done';
      }
      this.s.result.remoteMoved++;
      return 'done';
    } catch (err) {
      return this.moveFailed(err, j, entry, final, aside);
    } finally {
      events.done();
    }
  }

  /**
   * A server without moves renamed the item where it is, as asked: the record takes that name
   * there, its path too (the rows below it with it), so that the local name and the service's
   * agree. The copy then starts from there, and what comes back here meanwhile (the old place
   * restored, a chain's bottom that now fits) stands at the service's name. Left at the old
   * name, nothing would ever rename it here (seed 41042 history 189).
   */
  private recordRenamedOnly(
    j: JournalItem,
    item: RemoteItem,
    entry: LocalEntry,
    versionKnown: boolean,
  ): void {
    const { journal, local } = this.s.ctx;
    const time = j.kind === 'folder' || versionKnown ? {} : { remoteUpdatedAt: j.remoteUpdatedAt };
    const renamed = { ...j, ...remoteFields(item), ...time };
    const at = joinPath(parentOf(j.localPath), entry.name);
    // Not over anything this side has at that name (a new item not sent yet).
    const free = at !== j.localPath && !journal.items.atPath(at) && !local.stat(at);
    if (free) journal.items.moveTree(renamed, { localPath: at, localName: entry.name });
    else journal.items.upsert(renamed);
  }

  /** A move that failed: put back, retried, tried aside, or refused. */
  private moveFailed(
    err: unknown,
    j: JournalItem,
    entry: LocalEntry,
    final: boolean,
    aside: boolean,
  ): 'retry' | 'failed' | 'taken' {
    const { journal, events } = this.s.ctx;
    this.s.leaving.delete(j.remoteId);
    if (err instanceof ApiError && err.kind === 'not-found') {
      // Deleted on the service meanwhile: what is here is kept and goes back up as new.
      journal.items.removeTree(j);
      this.s.result.rescan.add(parentOf(entry.path));
      this.s.result.rescan.add(entry.path);
      events.note(entry.path, { key: 'engine.movedDeleted' });
      return 'failed';
    }
    if (err instanceof ValidationError && !final) {
      this.s.leaving.add(j.remoteId);
      return 'retry';
    }
    if (err instanceof ValidationError && isTaken(err) && !aside) return 'taken';
    if (err instanceof ApiError && err.kind === 'forbidden' && this.putBack(j, entry)) {
      return 'failed';
    }
    this.s.refuse({ kind: 'change', path: entry.path, entry }, err);
    return 'failed';
  }

  /**
   * A file's version on the service just before its rename, when it is the one the journal
   * records: the rename's answer (or, after a crash, the item looked up) then gives it a new
   * time that is the rename's alone, and the journal adopts it (send-state.ts `record`).
   * Otherwise someone's version came between (or it cannot tell): the time stays, and the
   * remote pass brings that version down. One read per file renamed, against a download of
   * the file at the next walk.
   */
  private async versionBefore(j: JournalItem): Promise<MoveVersion | undefined> {
    if (j.kind !== 'file' || j.remoteUpdatedAt === null || j.remoteSize === null) return undefined;
    try {
      const now = fromFile(await this.s.ctx.client.getFile(j.remoteId));
      const same =
        now.size === j.remoteSize && Date.parse(now.updatedAt) === Date.parse(j.remoteUpdatedAt);
      return same ? { updatedAt: j.remoteUpdatedAt, size: j.remoteSize } : undefined;
    } catch (err) {
      // The rename itself then meets what the look met (gone, refused, offline).
      if (err instanceof ApiError) return undefined;
      throw err;
    }
  }

  /**
   * A move the role refused is undone here, as a refused delete is: the item goes back to where
   * the service has it, so both sides agree again. Not when something else took that place.
   */
  putBack(j: JournalItem, entry: LocalEntry): boolean {
    const { local, events } = this.s.ctx;
    // An online-only file is here as its placeholder: that is what moved, and goes back (found
    // by the soak, seed 41043: the real path was renamed, failing every pass).
    const at = (p: string) => (j.state === 'online' ? placeholderOf(p) : p);
    const there = local.stat(at(j.localPath));
    const sameItem = there !== undefined && there.ino === entry.ino && there.dev === entry.dev;
    if ((there && !sameItem) || !local.stat(parentOf(j.localPath))?.isDirectory()) return false;
    local.assertContained(at(j.localPath));
    renameSync(local.abs(at(entry.path)), local.abs(at(j.localPath)));
    this.s.result.rescan.add(parentOf(entry.path));
    this.s.result.rescan.add(parentOf(j.localPath));
    const parentId = this.s.folderId(parentOf(j.localPath));
    const name = decodeName(j.localName, this.s.ctx.profile);
    if (
      parentId !== undefined &&
      (parentId !== j.remoteParentId || serviceKey(name) !== serviceKey(j.remoteName))
    ) {
      // Moved on the service meanwhile (its record took the new place there, waiting for this
      // move to win): the record says again where it is here, and a walk brings it there.
      this.s.ctx.journal.items.upsert({ ...j, remoteParentId: parentId, remoteName: name });
      this.s.result.walkNeeded = true;
    }
    // What was added in it while it had the other name goes up from its old place.
    if (j.kind === 'folder') {
      this.s.result.rescan.add(j.localPath);
      for (const d of this.s.ctx.journal.items.descendants(j.localPath)) {
        if (d.kind === 'folder') this.s.result.rescan.add(d.localPath);
      }
    }
    events.note(j.localPath, { key: 'engine.moveRefused', params: { path: entry.path } });
    return true;
  }

  /**
   * A rename or move to a name the service already has there (names differ only in case or
   * accents, or the other item came meanwhile): the item here takes a conflict name, as a local
   * item in a remote one's way does, and goes to the service under it. Left as it was, it would be
   * renamed here and not there, and its record would point at a name that is gone.
   */
  moveAside(op: MoveOp): MoveOp | undefined {
    const { local, events } = this.s.ctx;
    const from = op.entry.path;
    const st = local.stat(from);
    if (!st || st.ino !== op.entry.ino || st.dev !== op.entry.dev) return undefined;
    const to = local.moveAside(from, st.isDirectory());
    const name = to.slice(to.lastIndexOf('/') + 1);
    this.s.result.rescan.add(parentOf(to));
    if (st.isDirectory()) this.s.result.rescan.add(to);
    events.note(to, { key: 'engine.nameTaken', params: { from, name } });
    return { ...op, entry: { ...op.entry, path: to, name } };
  }
}
