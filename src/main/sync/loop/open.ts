import { existsSync, lstatSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Language } from '../../../shared/i18n';
import type { ServiceClient } from '../../api/client';
import { Journal, journalFile } from '../../journal/journal';
import type { HeldDoor } from '../../core/pair-door';
import { takeDoor, type DoorKeeper } from './door';
import { SyncEngine, type EngineOptions } from './engine';
import { SyncFatalError } from '../errors';
import { checkSyncFolder } from '../folder-check';
import { defaultProfile, foldName, probeVolume, type VolumeProfile } from '../names';
import { CACHE_DIR } from '../paths';
import type { Logger, Trash } from '../ports';
import { FolderTrash } from '../trash';

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
  /** The local name rules; probed on the folder's volume by default. */
  profile?: VolumeProfile;
  /** Requests in flight at once; default 8. */
  concurrency?: number;
  /** The words of its conflict copies: the app's language, the CLI's; default English. */
  language?: Language;
  /** The engine's two-way settings (how long a file must be quiet, the delete guard, watching, crash-test hooks). */
  tuning?: Pick<
    EngineOptions,
    | 'writeQuietMs'
    | 'deleteGuard'
    | 'confirmDeletes'
    | 'remoteDeletes'
    | 'watch'
    | 'outboxStep'
    | 'overlapMs'
    | 'now'
    | 'retryBaseMs'
    | 'disk'
  >;
}

type PairKey = { server: string; user: string; workspaceId: number };

/** The journal's meta key holding its pair: `{ server, user, workspaceId, root }` as JSON. */
export const PAIR_META = 'pair';

export interface OpenSync {
  engine: SyncEngine;
  journal: Journal;
  /** The journal's SQLite file (with its `-wal` and `-shm` beside it while open). */
  journalFile: string;
  close(): Promise<void>;
}

/** Opens the journal of a sync pair (one per server, user, workspace and folder) and its engine. */
export async function openSync(opts: OpenSyncOptions): Promise<OpenSync> {
  const state = path.resolve(opts.stateDir);
  const wanted = path.resolve(opts.dir);
  const key = { server: opts.server, user: opts.user, workspaceId: opts.workspaceId };
  const file = journalFile(state, { ...key, root: wanted });
  // One pair, one engine: its door is taken before anything of it is touched (loop/door.ts).
  const keeper: DoorKeeper = { engine: null, journal: null };
  const door = await takeDoor(file, wanted, keeper);
  try {
    return await openHeld(opts, { state, wanted, key, file }, keeper, door);
  } catch (err) {
    await door.close();
    throw err;
  }
}

async function openHeld(
  opts: OpenSyncOptions,
  { state, wanted, key, file }: { state: string; wanted: string; key: PairKey; file: string },
  keeper: DoorKeeper,
  door: HeldDoor,
): Promise<OpenSync> {
  // A first run creates the folder; a later one finds a missing folder through the journal.
  // Missing with a journal: the engine says so with the journal's knowledge.
  const root = (await checkSyncFolder(wanted, { create: !journalExists(file) })) ?? wanted;
  if (root === state || root.startsWith(state + path.sep) || state.startsWith(root + path.sep)) {
    throw new SyncFatalError('journal', { key: 'engine.stateInFolder' });
  }
  // The name rules of the folder's volume, probed once (in the engine's own cache folder: same
  // volume, no stray file in the user's view) and kept with the journal: a later start must not
  // write into a folder before the engine has checked that it is the same folder.
  const known = journalExists(file);
  let profile = opts.profile ?? defaultProfile();
  if (!opts.profile && !known && existsSync(root) && lstatSync(root).isDirectory()) {
    const cache = path.join(root, CACHE_DIR);
    await mkdir(cache, { recursive: true });
    profile = await probeVolume(cache);
  }
  const journal = new Journal(file, { fold: (p) => foldName(p, profile) });
  const stored = readProfile(journal);
  if (stored) profile = opts.profile ?? stored;
  else journal.meta.set('volume_profile', JSON.stringify(profile));
  // Which pair this journal is, readable without knowing its key (its file name is a hash):
  // "copy share link" finds the pair of a local path by it (src/main/cli/pair-lookup.ts).
  const pair = JSON.stringify({ ...key, root: wanted });
  if (journal.meta.get(PAIR_META) !== pair) journal.meta.set(PAIR_META, pair);
  const engine = new SyncEngine({
    client: opts.client,
    workspaceId: opts.workspaceId,
    root,
    journal,
    trash:
      opts.trash ??
      // The folder as the pair names it (not its real path): the window matches records to pairs.
      new FolderTrash(path.join(state, 'trash'), {
        root: wanted,
        dir: path.join(state, 'trash-records'),
      }),
    log: opts.log,
    pollIntervalMs: opts.pollIntervalMs,
    fullWalkIntervalMs: opts.fullWalkIntervalMs,
    concurrency: opts.concurrency,
    language: opts.language,
    profile,
    ...opts.tuning,
  });
  keeper.engine = engine;
  keeper.journal = journal;
  return {
    engine,
    journal,
    journalFile: file,
    close: async () => {
      await door.close();
      journal.close();
    },
  };
}

const journalExists = (file: string) => existsSync(file);

/** Whether a sync of `dir` would be the pair's first (no journal for it in `stateDir` yet). */
export function isFirstSync(
  opts: Pick<OpenSyncOptions, 'server' | 'user' | 'workspaceId' | 'dir' | 'stateDir'>,
): boolean {
  const key = { server: opts.server, user: opts.user, workspaceId: opts.workspaceId };
  return !journalExists(
    journalFile(path.resolve(opts.stateDir), { ...key, root: path.resolve(opts.dir) }),
  );
}

function readProfile(journal: Journal): VolumeProfile | null {
  const raw = journal.meta.get('volume_profile');
  if (raw === undefined) return null;
  try {
    const p = JSON.parse(raw) as VolumeProfile;
    return p.flavor === 'posix' || p.flavor === 'win32' ? p : null;
  } catch {
    return null;
  }
}
