import { lstatSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ServiceClient } from '../../api/client';
import { ApiError } from '../../api/errors';
import type { Journal } from '../../journal/journal';
import { SyncFatalError } from '../errors';
import { checkSyncFolder } from '../folder-check';
import type { LocalRoot } from '../local';
import { CACHE_DIR, PARTIAL_DIR } from '../paths';
import { askWalk } from './context';

// The sync root and the workspace's root folder, checked before each round.

/** The sync folder is the one the journal was made for (or a new one, recorded now). */
export async function checkRoot(journal: Journal, root: string): Promise<void> {
  const st = statSync(root, { throwIfNoEntry: false });
  const dev = journal.meta.get('root_dev');
  const ino = journal.meta.get('root_ino');
  if (dev !== undefined) {
    if (!st) {
      throw new SyncFatalError('root-missing', { key: 'engine.rootMissing', params: { root } });
    }
    if (String(st.dev) !== dev || String(st.ino) !== ino) {
      throw new SyncFatalError('root-changed', { key: 'engine.rootChanged', params: { root } });
    }
  } else {
    const made = await checkSyncFolder(root, { create: true });
    const now = statSync(made ?? root);
    journal.meta.set('root_dev', now.dev);
    journal.meta.set('root_ino', now.ino);
  }
}

/**
 * The engine's own folder: a file in its way moved aside, leftovers no download will resume
 * removed; items left in the holding place by an interrupted pass make a walk due.
 */
export function tidyCache(local: LocalRoot, journal: Journal): void {
  const cache = lstatSync(local.abs(CACHE_DIR), { throwIfNoEntry: false });
  if (cache && !cache.isDirectory()) local.moveAside(CACHE_DIR, false);
  const partial = local.abs(PARTIAL_DIR);
  let names: string[] = [];
  try {
    names = readdirSync(partial);
  } catch {
    // No partial downloads.
  }
  const resumable = new Set(journal.downloads.all().map((d) => d.tempName));
  for (const name of names) {
    if (!resumable.has(name) && (name.endsWith('.part') || name.endsWith('.zip'))) {
      rmSync(path.join(partial, name), { force: true });
    }
  }
  // A pass interrupted while items waited in the holding place: a walk puts them back.
  if (journal.items.descendants(CACHE_DIR).length > 0) askWalk(journal, { kind: 'mid-move' });
}

/** The workspace's root folder: from the journal, else asked once and recorded. */
export async function rootFolderId(
  client: ServiceClient,
  journal: Journal,
  workspaceId: number,
): Promise<number> {
  const stored = journal.meta.get('root_folder_id');
  if (stored !== undefined) return Number(stored);
  const folder = await ofWorkspace(workspaceId, () => client.rootFolder(workspaceId));
  journal.meta.set('root_folder_id', folder.id);
  journal.meta.set('workspace_id', workspaceId);
  return folder.id;
}

/**
 * A request about the workspace itself: a 404 or a 403 means it is gone for this user (deleted,
 * or no longer shared), which stops syncing (state `gone`); never read as its items deleted.
 */
export async function ofWorkspace<T>(workspaceId: number, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (err) {
    if (err instanceof ApiError && (err.kind === 'not-found' || err.kind === 'forbidden')) {
      throw new SyncFatalError('workspace-gone', {
        key: 'engine.workspaceGone',
        params: { id: String(workspaceId) },
      });
    }
    throw err;
  }
}

/** Asks the service for the workspace: throws the `workspace-gone` SyncFatalError when it is gone. */
export async function checkWorkspace(client: ServiceClient, workspaceId: number): Promise<void> {
  await ofWorkspace(workspaceId, () => client.getWorkspace(workspaceId));
}
