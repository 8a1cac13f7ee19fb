// What a send writes to the journal once the service answered (or once an intent cut short by a
// crash is resolved): the item's record at its place, its identity as it was sent.
import { lstatSync, type Stats } from 'node:fs';
import type { Journal } from '../../journal/journal';
import type { LocalEntry } from '../detect-local/scan';
import type { LocalRoot } from '../local';
import { MOVING_DIR } from '../paths';
import { remoteFields, type RemoteItem } from '../remote';
import type { IntentPayload } from './outbox';

/** What of a send (its SendState) the records touch. */
export interface SendRecords {
  readonly ctx: { journal: Journal; local: LocalRoot };
  /** Items this send is moving away from their places (a swap's other half). */
  readonly leaving: ReadonlySet<number>;
  /** Folders known empty on the service, and folders' names as read: stale once moved into. */
  readonly created: Set<number>;
  readonly remoteKids: Map<number, unknown>;
}

/** Writes a mutation's outcome to the journal (also for intents resolved after a crash). */
export function recordOutcome(s: SendRecords, p: IntentPayload, item: RemoteItem | null): void {
  const st = lstatSync(s.ctx.local.abs(p.path), { throwIfNoEntry: false });
  const name = p.path.slice(p.path.lastIndexOf('/') + 1);
  switch (p.op) {
    case 'mkdir':
      recordMkdir(s.ctx.journal, p, item, st, name);
      return;
    case 'upload': {
      if (!item) return;
      // What was sent, by its identity then: a file moved or saved over since is then seen
      // for what it is by the next local pass.
      recordFile(
        s,
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
    case 'move':
      recordMove(s, p, item, st, name);
      return;
    case 'delete': {
      const j = s.ctx.journal.items.get(p.id);
      if (j) s.ctx.journal.items.removeTree(j);
      return;
    }
  }
}

function recordMkdir(
  journal: Journal,
  p: Extract<IntentPayload, { op: 'mkdir' }>,
  item: RemoteItem | null,
  st: Stats | undefined,
  name: string,
): void {
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
}

function recordMove(
  s: SendRecords,
  p: Extract<IntentPayload, { op: 'move' }>,
  item: RemoteItem | null,
  st: Stats | undefined,
  name: string,
): void {
  const { journal } = s.ctx;
  const j = journal.items.get(p.id);
  if (!j) return;
  // The folder it went into is no longer known empty, nor its names as read before.
  s.created.delete(p.parentId);
  s.remoteKids.delete(p.parentId);
  const other = journal.items.atPath(p.path);
  if (other && other.remoteId !== j.remoteId) {
    // The item that had this place is leaving it in this send too (a swap), or the disk
    // shows this item there (the other was deleted or moved here, not sent yet: a crash
    // came first, or its delete follows in this send): the other's record waits in the
    // holding place, for its own move or for the local pass to see it gone. Left where it
    // was, this move would go unrecorded, and the next remote pass would bring the item
    // down a second time beside the one here.
    const here = st !== undefined && j.ino !== null && st.ino === j.ino && st.dev === j.dev;
    if (!s.leaving.has(other.remoteId) && !here) return;
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
}

export function recordFile(
  s: SendRecords,
  p: Extract<IntentPayload, { op: 'upload' }>,
  item: RemoteItem | null,
  st?: { dev: number; ino: number; size: number; mtimeMs: number },
  entry?: LocalEntry,
): void {
  if (!item) return;
  const { journal } = s.ctx;
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
