import { existsSync, lstatSync, mkdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { ServiceClient } from '../api/client';
import { Journal, journalFile } from '../journal/journal';
import { SyncEngine } from './engine';
import { SyncFatalError } from './errors';
import { defaultProfile, foldName, probeVolume } from './names';
import { CACHE_DIR } from './plan';
import type { Logger, Trash } from './ports';
import { FolderTrash } from './trash';

export interface OpenSyncOptions {
  client: ServiceClient;
  /** The service's base URL (part of the journal's key). */
  server: string;
  /** The account's email, or '' for a pasted token (part of the journal's key). */
  user: string;
  workspaceId: number;
  /** The local folder; created when missing. */
  dir: string;
  /** Where the journal (and, by default, the trash) live: never inside `dir`. */
  stateDir: string;
  /** Default: a trash folder inside the state directory. */
  trash?: Trash;
  log?: Logger;
  pollIntervalMs?: number;
  fullWalkIntervalMs?: number;
}

export interface OpenSync {
  engine: SyncEngine;
  journal: Journal;
  close(): Promise<void>;
}

/** Opens the journal of a sync pair (one per server, user, workspace and folder) and its engine. */
export async function openSync(opts: OpenSyncOptions): Promise<OpenSync> {
  const state = path.resolve(opts.stateDir);
  const wanted = path.resolve(opts.dir);
  const key = { server: opts.server, user: opts.user, workspaceId: opts.workspaceId };
  const file = journalFile(state, { ...key, root: wanted });
  // A first run creates the folder; a later one finds a missing folder through the journal.
  if (!journalExists(file)) mkdirSync(wanted, { recursive: true });
  let root = wanted;
  try {
    root = realpathSync(wanted);
  } catch {
    // Missing: the engine says so with the journal's knowledge.
  }
  if (root === state || root.startsWith(state + path.sep) || state.startsWith(root + path.sep)) {
    throw new SyncFatalError(
      'journal',
      'The state directory and the sync folder must not contain each other: choose another --state or --dir.',
    );
  }
  // Probed in the engine's own cache folder: same volume, and no stray file in the user's view.
  const cache = path.join(root, CACHE_DIR);
  let profile = defaultProfile();
  if (existsSync(root) && lstatSync(root).isDirectory()) {
    mkdirSync(cache, { recursive: true });
    profile = await probeVolume(cache);
  }
  const journal = new Journal(file, { fold: (p) => foldName(p, profile) });
  const engine = new SyncEngine({
    client: opts.client,
    workspaceId: opts.workspaceId,
    root,
    journal,
    trash: opts.trash ?? new FolderTrash(path.join(state, 'trash')),
    log: opts.log,
    pollIntervalMs: opts.pollIntervalMs,
    fullWalkIntervalMs: opts.fullWalkIntervalMs,
    profile,
  });
  return {
    engine,
    journal,
    close: async () => journal.close(),
  };
}

const journalExists = (file: string) => existsSync(file);
