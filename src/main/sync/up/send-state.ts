import { closeSync } from 'node:fs';
import type { ServiceClient } from '../../api/client';
import { ApiError, type ValidationError } from '../../api/errors';
import type { Moves } from '../../api/moves';
import type { Journal, JournalItem } from '../../journal/journal';
import type { SyncProblem } from '../../../shared/sync-status';
import { englishOf, type Words } from '../../../shared/i18n';
import { PLACEHOLDER_SUFFIX } from '../../../shared/placeholder';

/** A problem's message as words and their English (the journal and logs keep the English). */
const said = (words: Words) => ({ message: englishOf(words), words });
import type { LocalEntry } from '../detect-local/scan';
import type { LocalRoot } from '../local';
import { decodeName, serviceKey, type VolumeProfile } from '../names';
import { parentOf } from '../paths';
import type { Logger } from '../ports';
import { listFolder, type RemoteItem } from '../remote';
import { hashFd } from '../file-read';
import {
  isOutcomeUnknown,
  resolveIntent,
  type IntentOrigin,
  type IntentPayload,
  type OutboxStep,
} from './outbox';
import { refusalFacts, type Refusals } from './refusals';
import { recordFile, recordOutcome } from './send-record';

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

  /** The remote id of the synced folder at a local path, once it is recorded there. */
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

  /**
   * Two items here that the service would take for one (or a folder at the real name of a file
   * online only, whose record holds that path): this one is kept here and reported.
   */
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
      ...said(
        other.state === 'online' && other.localPath === path
          ? { key: 'engine.placeholderName', params: { name: PLACEHOLDER_SUFFIX } }
          : { key: 'engine.sameName', params: { other: other.localPath } },
      ),
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
   * lost answer is resolved by looking at the service, then tried again only if it was not made.
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
        if (!isOutcomeUnknown(err) || attempt >= 3) throw err; // left open: resolved next pass
        const s = await resolveIntent(client, journal, payload, this.origin(written));
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

  /** Where an intent written at `timeMs` came from, for resolving it. */
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

  /** Writes a mutation's outcome to the journal (also for intents resolved after a crash). */
  record(p: IntentPayload, item: RemoteItem | null): void {
    recordOutcome(this, p, item);
  }

  /** Records a file sent (send-record.ts). */
  recordFile(
    p: Extract<IntentPayload, { op: 'upload' }>,
    item: RemoteItem | null,
    st?: { dev: number; ino: number; size: number; mtimeMs: number },
    entry?: LocalEntry,
  ): void {
    recordFile(this, p, item, st, entry);
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
