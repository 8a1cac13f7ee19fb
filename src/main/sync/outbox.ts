import type { FolderEntry, ServiceClient } from '../api/client';
import { ApiError, OutcomeUnknownError } from '../api/errors';
import type { Journal } from '../journal/journal';
import { fromEntry, fromFile, type RemoteItem } from './remote';

/**
 * Every remote mutation goes through the outbox: written (and committed) as an intent before
 * its request leaves, completed in the same transaction as the journal's record of its result.
 * An intent left open by a crash or a lost answer is settled by looking at the service before
 * anything is tried again: no duplicate folders, no lost renames.
 */

export type IntentPayload =
  | { op: 'mkdir'; parentId: number; name: string; path: string }
  | {
      op: 'upload';
      parentId: number;
      name: string;
      path: string;
      /** The file this upload makes a new version of; null for a new file. */
      fileId: number | null;
      size: number;
      hash: string;
      /** The remote time of the version it replaces (a new version changes it). */
      before: string | null;
    }
  | {
      op: 'move';
      id: number;
      kind: 'folder' | 'file';
      parentId: number;
      name: string;
      path: string;
    }
  | { op: 'delete'; id: number; kind: 'folder' | 'file'; path: string };

/** Points between the steps of a mutation, for crash tests (the child kills itself there). */
export type OutboxStep = 'intent-written' | 'answered' | 'recorded';

/** Where the payload's change stands on the service: made (with the item as it is now), or not. */
export type Settlement = { made: true; item: RemoteItem | null } | { made: false };

/** What the sandbox and the real service do to characters a name cannot hold. */
export const repairedName = (name: string) => name.replace(/[/\\\u0000-\u001f\u007f]/g, '-'); // eslint-disable-line no-control-regex

const sameName = (a: string, b: string) =>
  a === b || a.toLowerCase() === b.toLowerCase() || repairedName(a) === b;

async function findChild(
  client: ServiceClient,
  parentId: number,
  match: (entry: FolderEntry) => boolean,
): Promise<RemoteItem | null> {
  for await (const entry of client.folderContents(parentId)) {
    if (match(entry)) return fromEntry(entry, parentId);
  }
  return null;
}

const nameOf = (e: FolderEntry) => (e.kind === 'folder' ? e.folder.filename : e.file.filename);
const idOf = (e: FolderEntry) => (e.kind === 'folder' ? e.folder.id : e.file.id);

/** Looks at the service to learn whether an intent's change was made. */
export async function settle(
  client: ServiceClient,
  journal: Journal,
  p: IntentPayload,
): Promise<Settlement> {
  try {
    switch (p.op) {
      case 'mkdir': {
        const found = await findChild(
          client,
          p.parentId,
          (e) => e.kind === 'folder' && sameName(p.name, nameOf(e)) && !journal.get(idOf(e)),
        );
        return found ? { made: true, item: found } : { made: false };
      }
      case 'upload': {
        if (p.fileId !== null) {
          const file = fromFile(await client.getFile(p.fileId));
          const made = file.size === p.size && file.updatedAt !== p.before;
          return made ? { made: true, item: file } : { made: false };
        }
        const found = await findChild(
          client,
          p.parentId,
          (e) =>
            e.kind === 'file' &&
            sameName(p.name, nameOf(e)) &&
            e.file.size === p.size &&
            !journal.get(e.file.id),
        );
        return found ? { made: true, item: found } : { made: false };
      }
      case 'move': {
        const found = await findChild(client, p.parentId, (e) => idOf(e) === p.id);
        return found && sameName(p.name, found.name)
          ? { made: true, item: found }
          : { made: false };
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

async function exists(client: ServiceClient, p: { id: number; kind: string }): Promise<boolean> {
  try {
    if (p.kind === 'file') await client.getFile(p.id);
    else {
      // Folders have no metadata read: their listing answers 404 once they are gone.
      const it = client.folderContents(p.id);
      await it.next();
      await it.return(undefined);
    }
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.kind === 'not-found') return false;
    throw err;
  }
}

export const isOutcomeUnknown = (err: unknown) => err instanceof OutcomeUnknownError;
