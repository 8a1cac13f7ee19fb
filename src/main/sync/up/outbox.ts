import { createHash } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { ServiceClient } from '../../api/client';
import { parseDetail } from '../../../shared/detail';
import { ApiError, OutcomeUnknownError } from '../../api/errors';
import type { Journal } from '../../journal/journal';
import { findInFolder, folderExists, fromFile, type RemoteItem } from '../remote';

/**
 * Every remote mutation goes through the outbox: written (and committed) as an intent before
 * its request leaves, completed in the same transaction as the journal's record of its result.
 * An intent left open by a crash or a lost answer is resolved by looking at the service before
 * anything is tried again: no duplicate folders, no lost renames.
 */

export type IntentPayload =
  | {
      op: 'mkdir';
      parentId: number;
      name: string;
      path: string;
      /** The folder's identity when it was sent: it is recorded even if it moved since. */
      identity?: { dev: number; ino: number };
    }
  | {
      op: 'upload';
      parentId: number;
      name: string;
      path: string;
      /** The file this upload makes a new version of; null for a new file. */
      fileId: number | null;
      size: number;
      /**
       * The sha256 of the bytes sent; null in the intent of a large file hashed while it is
       * sent (known once its last byte is read, after the intent is written).
       */
      hash: string | null;
      /** The remote time of the version it replaces (a new version changes it). */
      before: string | null;
      /** The file's identity when it was sent: it is recorded even if the file moved since. */
      identity?: { dev: number; ino: number; mtimeMs: number };
    }
  | {
      op: 'move';
      id: number;
      kind: 'folder' | 'file';
      parentId: number;
      name: string;
      path: string;
      /**
       * A file's version on the service as looked at just before the rename, sent only when it
       * was the journal's: the answer's new time is then this rename's alone (adopted).
       */
      version?: { updatedAt: string; size: number };
    }
  | { op: 'delete'; id: number; kind: 'folder' | 'file'; path: string };

/** Points between the steps of a mutation, for crash tests (the child kills itself there). */
export type OutboxStep = 'intent-written' | 'answered' | 'recorded';

/** Where the payload's change stands on the service: made (with the item as it is now), or not. */
export type Resolution =
  | { made: true; item: RemoteItem | null }
  | {
      made: false;
      /**
       * A move a server without the move extension took as a rename where the item is (send-
       * structure.ts `fellBack`): that rename is ours, as the answered move's would have been.
       */
      renamedInPlace?: RemoteItem;
    };

/** What the sandbox and the real service do to characters a name cannot hold. */
export const repairedName = (name: string) => name.replace(/[/\\\u0000-\u001f\u007f]/g, '-'); // eslint-disable-line no-control-regex

const sameName = (a: string, b: string) =>
  a === b || a.toLowerCase() === b.toLowerCase() || repairedName(a) === b;

/** When the intent was written, and in which workspace: where the feed can tell more. */
export interface IntentOrigin {
  timeMs: number;
  workspaceId: number;
  /**
   * For an intent without a hash (a large file hashed while it was sent): the sha256 of the
   * local file if it is still what was sent (same identity, size and time), else null.
   */
  localHash?: (p: Extract<IntentPayload, { op: 'upload' }>) => Promise<string | null>;
}

/** How far before the intent the feed is read: the service's clock may differ from ours. */
const FEED_SLACK_MS = 10 * 60_000;

/** Looks at the service to learn whether an intent's change was made. */
export async function resolveIntent(
  client: ServiceClient,
  journal: Journal,
  p: IntentPayload,
  origin?: IntentOrigin,
): Promise<Resolution> {
  try {
    switch (p.op) {
      case 'mkdir': {
        const found = await findInFolder(
          client,
          p.parentId,
          (e) => e.kind === 'folder' && sameName(p.name, e.name) && !journal.items.get(e.id),
        );
        return found ? { made: true, item: found } : { made: false };
      }
      case 'upload': {
        if (p.fileId !== null) {
          const file = fromFile(await client.getFile(p.fileId));
          const made = file.size === p.size && file.updatedAt !== p.before;
          return made ? { made: true, item: file } : { made: false };
        }
        const found = await findInFolder(
          client,
          p.parentId,
          (e) =>
            e.kind === 'file' &&
            sameName(p.name, e.name) &&
            e.size === p.size &&
            !journal.items.get(e.id),
        );
        if (found) return { made: true, item: found };
        const moved = origin && (await uploadedSince(client, journal, p, origin));
        return moved ? { made: true, item: moved } : { made: false };
      }
      case 'move': {
        const found = await findInFolder(client, p.parentId, (e) => e.id === p.id);
        if (!found || !sameName(p.name, found.name)) {
          // Where it was, under the name asked for: the server ignored the parent (seed
          // 300405985: taken for a colleague's rename, it came back down beside its copy).
          const was = journal.items.get(p.id);
          if (!was || was.remoteParentId === p.parentId || was.remoteName === p.name) {
            return { made: false };
          }
          const there = await findInFolder(client, was.remoteParentId, (e) => e.id === p.id);
          if (!there || !sameName(p.name, there.name)) return { made: false };
          // A file's new time only when nothing but the rename happened since; else it has no
          // time here, and the remote pass compares it as anyone's change (as `made` does).
          const own = there.kind === 'folder' || (await onlyRenamedSince(client, p, origin));
          return { made: false, renamedInPlace: own ? there : { ...there, updatedAt: '' } };
        }
        // Its time now may be a later version's (someone's upload after the rename): then it
        // has no time here, and the remote pass compares it as anyone's change.
        if (p.version && found.kind === 'file' && !(await onlyRenamedSince(client, p, origin))) {
          return { made: true, item: { ...found, updatedAt: '' } };
        }
        return { made: true, item: found };
      }
      case 'delete':
        return (await exists(client, p)) ? { made: false } : { made: true, item: null };
    }
  } catch (err) {
    // The parent itself is gone: nothing was made in it.
    if (err instanceof ApiError && err.kind === 'not-found') return { made: false };
    throw err;
  }
}

/**
 * A new file of ours that its name no longer finds: someone renamed or moved it after the answer
 * was lost. The feed's uploads since the intent name the candidates; only one with our bytes is
 * ours. It is given the name and place it was made with, and no time, so that the remote pass
 * then brings the later rename (and any later version) here like anyone else's change.
 */
async function uploadedSince(
  client: ServiceClient,
  journal: Journal,
  p: Extract<IntentPayload, { op: 'upload' }>,
  origin: IntentOrigin,
): Promise<RemoteItem | null> {
  const startTime = Math.floor((origin.timeMs - FEED_SLACK_MS) / 1000) * 1000;
  const looked = new Set<number>();
  // The bytes sent: the intent's hash, else the file's if unchanged since (read only once a
  // candidate of the right size is found). Unknown, nothing can be told ours: not made (sent
  // again, a copy there at worst; nothing is lost).
  let want: Promise<string | null> | undefined;
  for await (const event of client.listEvents({
    workspaces: [origin.workspaceId],
    verbs: ['upload'],
    startTime,
  })) {
    const target = parseDetail(event.detail).objects[0];
    if (target?.kind !== 'file' || target.id === null || looked.has(target.id)) continue;
    looked.add(target.id);
    if (journal.items.get(target.id)) continue;
    let file: RemoteItem;
    try {
      file = fromFile(await client.getFile(target.id));
    } catch (err) {
      if (err instanceof ApiError && err.kind === 'not-found') continue;
      throw err;
    }
    if (file.size !== p.size) continue;
    want ??=
      p.hash !== null ? Promise.resolve(p.hash) : (origin.localHash?.(p) ?? Promise.resolve(null));
    const sent = await want;
    if (sent === null || (await remoteHash(client, file.id)) !== sent) continue;
    return { ...file, name: p.name, parentId: p.parentId, updatedAt: '' };
  }
  return null;
}

/**
 * Whether the file was renamed since the intent and nothing more: no upload of it in the feed
 * after the version it was renamed from (that version's own event shares its time). Without
 * the feed's word (no origin), it cannot tell.
 */
async function onlyRenamedSince(
  client: ServiceClient,
  p: Extract<IntentPayload, { op: 'move' }>,
  origin: IntentOrigin | undefined,
): Promise<boolean> {
  if (!origin || !p.version) return false;
  const versionMs = Date.parse(p.version.updatedAt);
  if (!Number.isFinite(versionMs)) return false;
  const startTime = Math.floor((origin.timeMs - FEED_SLACK_MS) / 1000) * 1000;
  for await (const event of client.listEvents({
    workspaces: [origin.workspaceId],
    verbs: ['upload'],
    startTime,
  })) {
    const target = parseDetail(event.detail).objects[0];
    if (target?.kind !== 'file' || target.id !== p.id) continue;
    // An event may lag its item's time by a moment (journal.feed.takeOwnChange's slack).
    const at = Date.parse(event.updated_at);
    if (!Number.isFinite(at) || at > versionMs + OWN_SLACK_MS) return false;
  }
  return true;
}

/** How far an event's time may lag its item's. */
const OWN_SLACK_MS = 2_000;

async function remoteHash(client: ServiceClient, id: number): Promise<string> {
  const hash = createHash('sha256');
  await pipeline((await client.download(id)).body, hash);
  return hash.digest('hex');
}

async function exists(client: ServiceClient, p: { id: number; kind: string }): Promise<boolean> {
  if (p.kind === 'folder') return folderExists(client, p.id);
  try {
    await client.getFile(p.id);
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.kind === 'not-found') return false;
    throw err;
  }
}

export const isOutcomeUnknown = (err: unknown) => err instanceof OutcomeUnknownError;
