import { closeSync, lstatSync } from 'node:fs';
import type { ServiceClient } from '../../api/client';
import { ApiError, type ValidationError } from '../../api/errors';
import type { Moves } from '../../api/moves';
import type { Journal, JournalItem } from '../../journal/journal';
import type { SyncProblem } from '../../../shared/sync-status';
import { englishOf, type Words } from '../../../shared/i18n';

/** A problem's message as words and their English (the journal and logs keep the English). */
const said = (words: Words) => ({ message: englishOf(words), words });
import type { LocalEntry } from '../detect-local/scan';
import type { LocalRoot } from '../local';
import { decodeName, serviceKey, type VolumeProfile } from '../names';
import { MOVING_DIR, parentOf } from '../paths';
import type { Logger } from '../ports';
import { listFolder, remoteFields, type RemoteItem } from '../remote';
import { hashFd } from '../file-read';
import {
  isOutcomeUnknown,
  settle,
  type IntentOrigin,
  type IntentPayload,
  type OutboxStep,
} from './outbox';
import { refusalFacts, type Refusals } from './refusals';

// What one send shares between its jobs (structure, files, retiring copied places): the context,
// the result so far, what it learnt of the service's folders, and the outbox every mutation goes
// through (an intent before the request, completed with its record).

export interface SendEvents {
  begin(op: string, path: string, files?: number): void;
  done(): void;
  bytes(n: number): void;
  problem(p: Omit<SyncProblem, 'at'>): void;
  /** A local change at this path reached the service: a refusal reported there is over. */
  sent(path: string): void;
  /** Something the person should know about: a merge, a kept copy, a fallback. */
  note(path: string, message: Words | string): void;
  /** A limit worked around (said once per run). */
  notice(message: Words | string): void;
}

export interface SendContext {
  client: ServiceClient;
  moves: Moves;
  journal: Journal;
  local: LocalRoot;
  workspaceId: number;
  rootId: number;
  profile: VolumeProfile;
  log: Logger;
  concurrency: number;
  events: SendEvents;
  /** The refusals that stand: a refused change is not sent again until it changes. */
  refusals: Refusals;
  /** Crash tests stop the process at these points. */
  step?: (step: OutboxStep, op: IntentPayload['op']) => void;
}

/** What a send learnt, for the loop: data the next passes act on. */
export interface SendResult {
  remoteFoldersCreated: number;
  uploaded: number;
  bytesUploaded: number;
  remoteMoved: number;
  remoteDeleted: number;
  conflicts: number;
  /** The service changed under us (a version, a parent gone): a remote pass should look. */
  recheckRemote: boolean;
  /**
   * A full walk should restore something: a delete the role refused, or the old place of a copied
   * item kept on the service (its records forgotten here, so only a walk finds it again).
   */
  walkNeeded: boolean;
  /** Deletes waited for the remote pass: another round is needed. */
  deletesDeferred: boolean;
  /** The server cannot move items: the moves not made are planned as copies next pass. */
  movesUnsupported: boolean;
  /** Paths to look at again in the next local pass. */
  rescan: Set<string>;
  /** Items changed on the service too: the next remote pass brings their version down, and
   * the local work is kept beside it. */
  fetch: RemoteItem[];
}

export const emptySendResult = (): SendResult => ({
  remoteFoldersCreated: 0,
  uploaded: 0,
  bytesUploaded: 0,
  remoteMoved: 0,
  remoteDeleted: 0,
  conflicts: 0,
  recheckRemote: false,
  walkNeeded: false,
  deletesDeferred: false,
  movesUnsupported: false,
  rescan: new Set(),
  fetch: [],
});

export class SendState {
  readonly result = emptySendResult();
  /** Items a planned move takes away from their recorded place: not a parent for anything yet. */
  readonly leaving = new Set<number>();
  /** Names in remote folders, read once per send before a new file is uploaded there. */
  readonly remoteKids = new Map<number, Promise<Map<string, RemoteItem>>>();
  /** Folders this send created: known empty on the service. */
  readonly created = new Set<number>();

  constructor(readonly ctx: SendContext) {}

  /** The remote id of the synced folder at a local path, once it is settled there. */
  folderId(path: string): number | undefined {
    if (path === '') return this.ctx.rootId;
    const j = this.ctx.journal.items.atPath(path);
    if (!j || j.kind !== 'folder' || j.state !== 'synced' || this.leaving.has(j.remoteId)) {
      return undefined;
    }
    return j.remoteId;
  }

  /** Whether a change at `path` with these facts was refused, and the refusal still stands. */
  refusedNow(path: string, facts: string): boolean {
    const held = this.ctx.refusals.of(path);
    if (!held || held.facts !== facts) return false;
    if (held.kind === 'change') return true;
    // A name clash stands while the synced item holding the name is still here; once it left
    // (deleted, or moved away), this one goes up.
    const holder = this.ctx.journal.items.get(held.holderId);
    if (!holder || parentOf(holder.localPath) !== parentOf(path)) return false;
    const name = decodeName(path.slice(path.lastIndexOf('/') + 1), this.ctx.profile);
    if (serviceKey(holder.remoteName) !== serviceKey(name)) return false; // renamed since
    const there = this.ctx.local.stat(holder.localPath);
    return there !== undefined && there.ino === holder.ino && there.dev === holder.dev;
  }

  /** The name a new item goes up under: its local name decoded, or the one it had there. */
  serviceName(entry: LocalEntry): string {
    return (
      this.ctx.journal.keptNames.get(entry, entry.name) ?? decodeName(entry.name, this.ctx.profile)
    );
  }

  /** Items of a folder on the service, read whole (pages would shift under deletes). */
  async listing(folderId: number): Promise<RemoteItem[]> {
    return (await listFolder(this.ctx.client, folderId)).children;
  }

  /** A folder's files by service name, listed once per send. */
  kidsOf(parentId: number): Promise<Map<string, RemoteItem>> {
    let kids = this.remoteKids.get(parentId);
    if (!kids) {
      kids = this.listing(parentId).then(
        (items) =>
          new Map(items.filter((i) => i.kind === 'file').map((i) => [serviceKey(i.name), i])),
      );
      this.remoteKids.set(parentId, kids);
    }
    return kids;
  }

  /** Two files here that the service would take for one: this one is kept here and reported. */
  clash(path: string, entry: Facted, other: JournalItem): void {
    this.ctx.refusals.add({
      kind: 'clash',
      path,
      facts: refusalFacts(entry),
      holderId: other.remoteId,
    });
    this.ctx.events.problem({
      path,
      remoteId: null,
      reason: 'name',
      ...said({ key: 'engine.sameName', params: { other: other.localPath } }),
    });
  }

  /** A change the service will not take: kept here, reported, not tried again until it changes. */
  refuse(
    refusal:
      { kind: 'change'; path: string; entry: Facted } | { kind: 'delete'; item: JournalItem },
    err: unknown,
  ): void {
    if (!(err instanceof ApiError) || err.retryable || err.kind === 'outcome-unknown') throw err;
    if (err.kind === 'not-authenticated') throw err;
    const path = refusal.kind === 'change' ? refusal.path : refusal.item.localPath;
    this.ctx.refusals.add(
      refusal.kind === 'change'
        ? { kind: 'change', path, facts: refusalFacts(refusal.entry) }
        : { kind: 'delete', id: refusal.item.remoteId, path },
    );
    this.ctx.events.problem({
      path,
      remoteId: null,
      reason:
        err.kind === 'forbidden' ? 'not-permitted' : err.kind === 'validation' ? 'name' : 'error',
      ...(err.kind === 'forbidden'
        ? said({ key: 'engine.changeRefused' })
        : err.kind === 'validation'
          ? said({ key: 'engine.serviceRefused', params: { reason: err.words ?? err.message } })
          : { message: err.message, ...(err.words ? { words: err.words } : {}) }),
    });
  }

  // The outbox

  /**
   * Sends one mutation as an intent: written before the request, completed with its record. A
   * lost answer is settled by looking at the service, then tried again only if it was not made.
   */
  async mutate(
    payload: IntentPayload,
    send: () => Promise<RemoteItem | null>,
    record: (item: RemoteItem | null) => void = (item) => this.record(payload, item),
  ): Promise<RemoteItem | null> {
    const { journal, client, step } = this.ctx;
    for (let attempt = 1; ; attempt++) {
      const written = Date.now();
      const id = journal.outbox.add(payload.op, payload, written);
      step?.('intent-written', payload.op);
      let item: RemoteItem | null;
      try {
        item = await send();
      } catch (err) {
        if (err instanceof ApiError && !err.retryable && !isOutcomeUnknown(err)) {
          journal.outbox.fail(id, err.kind);
          throw err;
        }
        if (!isOutcomeUnknown(err) || attempt >= 3) throw err; // left open: settled next pass
        const s = await settle(client, journal, payload, this.origin(written));
        if (!s.made) {
          journal.outbox.fail(id, 'lost, not made');
          continue;
        }
        item = s.item;
      }
      step?.('answered', payload.op);
      journal.transaction(() => {
        record(item);
        journal.outbox.complete(id, item ? { id: item.id } : null);
        // Its event, read back from the feed, is then ours: no request to look at it.
        if (item && payload.op !== 'delete') {
          journal.feed.noteOwnChange(item.id, Date.parse(item.updatedAt));
        }
      });
      step?.('recorded', payload.op);
      this.ctx.events.sent(payload.path);
      return item;
    }
  }

  /** Where an intent written at `timeMs` came from, for settling it. */
  origin(timeMs: number): IntentOrigin {
    return { timeMs, workspaceId: this.ctx.workspaceId, localHash: (p) => this.localHash(p) };
  }

  /**
   * The sha256 of an upload's file if it is still what was sent (identity, size, time), read
   * through its opened folder as an upload reads it; else null.
   */
  private async localHash(p: Extract<IntentPayload, { op: 'upload' }>): Promise<string | null> {
    if (!p.identity) return null;
    let fd: number | undefined;
    try {
      fd = this.ctx.local.confined.openFile(p.path, { ...p.identity, size: p.size });
      return await hashFd(fd, p.size);
    } catch {
      return null; // changed, gone or unreadable since: it cannot tell
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  /** Writes a mutation's outcome to the journal (also for intents settled after a crash). */
  record(p: IntentPayload, item: RemoteItem | null): void {
    const { journal, local } = this.ctx;
    const st = lstatSync(local.abs(p.path), { throwIfNoEntry: false });
    const name = p.path.slice(p.path.lastIndexOf('/') + 1);
    switch (p.op) {
      case 'mkdir': {
        if (!item || journal.items.atPath(p.path)) return;
        const id = p.identity ?? (st?.isDirectory() ? st : null);
        if (id) journal.keptNames.forget(id);
        journal.items.upsert({
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
        const j = journal.items.get(p.id);
        if (!j) return;
        // The folder it went into is no longer known empty, nor its names as read before.
        this.created.delete(p.parentId);
        this.remoteKids.delete(p.parentId);
        const other = journal.items.atPath(p.path);
        if (other && other.remoteId !== j.remoteId) {
          // The item that had this place is leaving it in this send too (a swap), or the disk
          // shows this item there (the other was deleted or moved here, not sent yet: a crash
          // came first, or its delete follows in this send): the other's record waits in the
          // holding place, for its own move or for the local pass to see it gone. Left where it
          // was, this move would go unrecorded, and the next remote pass would bring the item
          // down a second time beside the one here.
          const here = st !== undefined && j.ino !== null && st.ino === j.ino && st.dev === j.dev;
          if (!this.leaving.has(other.remoteId) && !here) return;
          journal.items.moveTree(other, {
            localPath: `${MOVING_DIR}/${other.remoteId}`,
            localName: String(other.remoteId),
          });
        }
        // The answer's time: a folder's is only its own; a file's only when the rename started
        // from the version recorded here and the answer has its size (send-structure.ts
        // `versionBefore`). Otherwise the next walk would take the rename for a new version.
        const v = p.version;
        const ours =
          item !== null &&
          item.updatedAt !== '' &&
          (j.kind === 'folder' ||
            (v !== undefined &&
              item.size === v.size &&
              j.remoteSize === v.size &&
              j.remoteUpdatedAt === v.updatedAt));
        journal.items.moveTree(
          {
            ...j,
            remoteParentId: item?.parentId ?? p.parentId,
            remoteName: item?.name ?? p.name,
            ...(ours ? { remoteUpdatedAt: item.updatedAt } : {}),
            ...(j.kind === 'folder' && st?.isDirectory() ? { dev: st.dev, ino: st.ino } : {}),
          },
          { localPath: p.path, localName: name },
        );
        return;
      }
      case 'delete': {
        const j = journal.items.get(p.id);
        if (j) journal.items.removeTree(j);
        return;
      }
    }
  }

  recordFile(
    p: Extract<IntentPayload, { op: 'upload' }>,
    item: RemoteItem | null,
    st?: { dev: number; ino: number; size: number; mtimeMs: number },
    entry?: LocalEntry,
  ): void {
    if (!item) return;
    const { journal } = this.ctx;
    if (st) journal.keptNames.forget(st);
    const other = journal.items.atPath(p.path);
    if (other && other.remoteId !== item.id) journal.items.removeTree(other);
    journal.items.upsert({
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
}

/** An entry's facts, as a refusal compares them. */
export type Facted = { kind: string; ino: number; size: number; mtimeMs: number };

export const isTaken = (err: ValidationError) =>
  Object.values(err.errors).some((msgs) => msgs.some((m) => /taken/i.test(m)));

/** The local facts the journal keeps of an entry (a folder has no size). */
export const facts = (st: {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  kind?: string;
}) => ({
  dev: st.dev,
  ino: st.ino,
  mtimeMs: st.mtimeMs,
  ...(st.kind === 'folder' ? {} : { size: st.size }),
});
