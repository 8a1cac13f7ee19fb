import { readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { readJournalItem, readJournalMeta, type JournalItemRow } from '../journal/read-only';
import { defaultProfile, foldName, PAIR_META, type VolumeProfile } from '../engine';
import type { Logger } from '../core/logger';

/** A sync pair as its journal knows it (see `PAIR_META` in sync/open.ts). */
export interface PairOnDisk {
  journal: string;
  server: string;
  /** The account's email; '' for a pasted token. */
  user: string;
  workspaceId: number;
  /** The local folder as the pair was opened with. */
  root: string;
  /** The folder with symlinks resolved (as `root` when it is gone). */
  realRoot: string;
  rootFolderId: number | null;
  profile: VolumeProfile;
  /** The folder's identity when the engine last checked it (device, inode). */
  rootIdentity: { dev: string; ino: string } | null;
}

/** One synced item of a pair's journal. */
export type SyncedItem = JournalItemRow;

const PairMeta = z.object({
  server: z.string().min(1),
  user: z.string(),
  workspaceId: z.number().int(),
  root: z.string().min(1),
});

const Profile = z.object({
  flavor: z.enum(['posix', 'win32']),
  caseInsensitive: z.boolean(),
  normalizationInsensitive: z.boolean(),
});

const realOr = (p: string) => {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
};

function readPair(file: string): PairOnDisk | null {
  const meta = readJournalMeta(file);
  const json = (key: string): unknown => {
    try {
      return JSON.parse(meta.get(key) ?? 'null') as unknown;
    } catch {
      return null;
    }
  };
  const pair = PairMeta.safeParse(json(PAIR_META));
  if (!pair.success) return null;
  const profile = Profile.safeParse(json('volume_profile'));
  const rootFolder = Number(meta.get('root_folder_id'));
  const dev = meta.get('root_dev');
  const ino = meta.get('root_ino');
  return {
    journal: file,
    ...pair.data,
    realRoot: realOr(pair.data.root),
    rootFolderId: Number.isSafeInteger(rootFolder) ? rootFolder : null,
    profile: profile.success ? profile.data : defaultProfile(),
    rootIdentity: dev !== undefined && ino !== undefined ? { dev, ino } : null,
  };
}

/** The pairs of every journal in the state directory; unreadable journals are logged and left. */
export function pairsOnDisk(stateDir: string, log: Logger): PairOnDisk[] {
  const dir = path.join(stateDir, 'journals');
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.db'));
  } catch {
    return [];
  }
  const pairs: PairOnDisk[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      const pair = readPair(file);
      if (pair) pairs.push(pair);
    } catch (err) {
      log.warn('journal not readable: skipped', { journal: file, err });
    }
  }
  return pairs;
}

export const isInside = (p: string, root: string) =>
  p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);

/** Newest write to a journal: the WAL takes the writes of a running engine. */
function lastWrite(journal: string): number {
  let t = 0;
  for (const f of [journal, `${journal}-wal`]) {
    const st = statSync(f, { throwIfNoEntry: false });
    if (st) t = Math.max(t, st.mtimeMs);
  }
  return t;
}

function sameIdentity(pair: PairOnDisk): boolean {
  if (!pair.rootIdentity) return false;
  const st = statSync(pair.realRoot, { throwIfNoEntry: false });
  return (
    !!st && String(st.dev) === pair.rootIdentity.dev && String(st.ino) === pair.rootIdentity.ino
  );
}

/**
 * The pair whose folder holds `realPath` (symlinks resolved): the deepest folder wins; between
 * journals of the same folder (a folder synced again with another workspace or account), the
 * one that knows this very folder (same device and inode), then the one written last.
 */
export function pairOf(realPath: string, pairs: PairOnDisk[]): PairOnDisk | null {
  const holding = pairs.filter((p) => isInside(realPath, p.realRoot));
  if (holding.length === 0) return null;
  const depth = (p: PairOnDisk) => p.realRoot.length;
  const rank = (p: PairOnDisk): [number, number, number] => [
    depth(p),
    sameIdentity(p) ? 1 : 0,
    lastWrite(p.journal),
  ];
  const ranked = holding.map((p) => ({ p, r: rank(p) }));
  ranked.sort((a, b) => b.r[0] - a.r[0] || b.r[1] - a.r[1] || b.r[2] - a.r[2]);
  return ranked[0]!.p;
}

/** The synced item at `relPath` ('/'-separated, relative to the pair's folder), or null. */
export function syncedItem(pair: PairOnDisk, relPath: string): SyncedItem | null {
  return readJournalItem(pair.journal, foldName(relPath, pair.profile));
}
