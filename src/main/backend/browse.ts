import type { z } from 'zod';
import type { Entry, ItemDetails, Methods, SyncedWorkspace } from '../../shared/app-api';
import {
  listSynced,
  syncedItem,
  syncedPath,
  syncedRoot,
  type SyncedItemRow,
} from '../sync/synced-tree';
import { ApiError } from '../api/errors';
import type { Logger } from '../sync/ports';
import type { SignedIn } from './accounts';
import { resolveInsideRoot } from './attention';
import { failOpen } from './open-failed';
import { fail } from './errors';
import type { FolderIndex } from './folders';
import { activityOf } from './map';
import type { Pairs } from './pairs';
import type { HandlersOf } from './handlers/context';

type Params<M extends keyof typeof Methods> = z.output<(typeof Methods)[M]['params']>;

/**
 * Thumbnails larger than this are not shown (the service sends the image itself): a data URL
 * crosses the IPC or WebSocket in one message, and a row's icon needs no more.
 */
export const THUMBNAIL_MAX_BYTES = 256 * 1024;
/** Thumbnails kept in memory (all accounts), least recently used dropped first. */
const THUMBNAIL_CACHE_BYTES = 16 * 1024 * 1024;

/** A small LRU of data URLs by key, bounded in bytes (a Map keeps insertion order). */
class ThumbnailCache {
  private readonly entries = new Map<string, string | null>();
  private bytes = 0;

  get(key: string): string | null | undefined {
    const hit = this.entries.get(key);
    if (hit === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit;
  }

  set(key: string, value: string | null): void {
    this.drop(key);
    this.entries.set(key, value);
    this.bytes += value?.length ?? 0;
    for (const old of this.entries.keys()) {
      if (this.bytes <= THUMBNAIL_CACHE_BYTES) break;
      this.drop(old);
    }
  }

  private drop(key: string): void {
    const old = this.entries.get(key);
    if (old === undefined) return;
    this.bytes -= old?.length ?? 0;
    this.entries.delete(key);
  }
}

function syncedEntry(row: SyncedItemRow): Entry {
  return {
    kind: row.kind,
    id: row.remoteId,
    name: row.name,
    size: row.size,
    updatedAt: row.updatedAt ?? new Date(0).toISOString(),
    hidden: false,
    thumbnail: false,
  };
}

/**
 * The window's Browse methods beyond listing (app-api.ts, issue 28): thumbnails through the
 * backend (cached, bounded), an item's details, opening a synced item on this computer through
 * its pair's journal (inside its folder only), and the synced tree read from the journals when
 * the service cannot be reached (a share page in the browser is handlers/links.ts's).
 */
export function browseHandlers(deps: {
  account: (p: { accountId: string }) => Promise<SignedIn>;
  folderIndex: (s: SignedIn) => FolderIndex;
  pairs: Pairs;
  open: (file: string) => Promise<void>;
  show: (file: string) => Promise<void>;
  log: Logger;
}): HandlersOf<'files' | 'items' | 'synced'> {
  const { pairs } = deps;
  const thumbnails = new ThumbnailCache();
  /** Names of users by account and id, learned from their events (the contract has no users). */
  const names = new Map<string, string | null>();

  const nameOf = async (s: SignedIn, userId: number): Promise<string | null> => {
    if (userId === s.userId) return s.info.name;
    const key = `${s.info.id}:${userId}`;
    if (names.has(key)) return names.get(key) ?? null;
    let name: string | null = null;
    try {
      for await (const e of s.client.listEvents({ actor: userId })) {
        name = activityOf(e).subject || null;
        break;
      }
    } catch (err) {
      deps.log.info('no name for a user', { err });
    }
    names.set(key, name);
    return name;
  };

  /** The pair of the account's workspace, to read its journal; refused when there is none. */
  const pairOf = (pairId: string) => {
    try {
      return { dir: pairs.dirOf(pairId), journal: pairs.journalOf(pairId) };
    } catch {
      return fail('not-found', { key: 'backend.pairGone' });
    }
  };

  return {
    'files.thumbnail': async (p: Params<'files.thumbnail'>) => {
      const s = await deps.account(p);
      const key = `${s.info.id}:${p.fileId}`;
      const cached = thumbnails.get(key);
      if (cached !== undefined) return { dataUrl: cached };
      let dataUrl: string | null = null;
      try {
        const got = await s.client.thumbnail(p.fileId, THUMBNAIL_MAX_BYTES);
        dataUrl = got && `data:${got.mime};base64,${got.bytes.toString('base64')}`;
      } catch (err) {
        // A missing picture is not worth an error in a row: the type's icon stays.
        if (err instanceof ApiError && (err.kind === 'network' || err.kind === 'proxy')) throw err;
        deps.log.info('no thumbnail', { err });
      }
      thumbnails.set(key, dataUrl);
      return { dataUrl };
    },

    'items.details': async (p: Params<'items.details'>): Promise<ItemDetails> => {
      const s = await deps.account(p);
      if (p.kind === 'file') {
        const f = await s.client.getFile(p.itemId);
        const version = (f as Record<string, unknown>).version;
        return {
          size: f.size,
          createdAt: f.created_at ?? null,
          updatedAt: f.updated_at,
          by: typeof f.user_id === 'number' ? await nameOf(s, f.user_id) : null,
          version:
            typeof version === 'number' || typeof version === 'string' ? String(version) : null,
        };
      }
      const k = await deps.folderIndex(s).details(p.itemId);
      return {
        size: k.size,
        createdAt: k.createdAt,
        updatedAt: k.updatedAt,
        by: k.userId === null ? null : await nameOf(s, k.userId),
        version: null,
      };
    },

    'items.openSynced': async (p: Params<'items.openSynced'>) => {
      const candidates = pairs
        .list()
        .filter((x) => x.accountId === p.accountId && x.workspaceId === p.workspaceId);
      if (candidates.length === 0) return fail('not-found', { key: 'backend.workspaceNotSynced' });
      for (const pair of candidates) {
        const { dir, journal } = pairOf(pair.id);
        const row = syncedItem(journal, p.itemId);
        if (!row || row.kind !== p.kind) continue;
        if (row.state !== 'synced')
          return fail('forbidden', { key: 'backend.roleNoDownload', params: { name: row.name } });
        const abs = resolveInsideRoot(dir, row.localPath);
        try {
          await (p.how === 'open' ? deps.open(abs) : deps.show(abs));
        } catch (err) {
          failOpen(err, abs, 'item');
        }
        return null;
      }
      return fail('not-found', { key: 'backend.notSyncedYet' });
    },

    'synced.workspaces': (p: Params<'synced.workspaces'>): Promise<SyncedWorkspace[]> => {
      const out: SyncedWorkspace[] = [];
      for (const pair of pairs.list()) {
        if (pair.accountId !== p.accountId) continue;
        try {
          const root = syncedRoot(pairs.journalOf(pair.id));
          if (root === null) continue; // never synced: no tree yet
          out.push({
            pairId: pair.id,
            workspaceId: pair.workspaceId,
            name: pair.workspaceName,
            rootFolderId: root,
          });
        } catch (err) {
          deps.log.warn('journal not readable for Browse', { pair: pair.id, err });
        }
      }
      return Promise.resolve(out);
    },

    'synced.contents': (p: Params<'synced.contents'>) => {
      const { journal } = pairOf(p.pairId);
      const got = listSynced(journal, p.folderId, {
        query: p.query ?? '',
        sort: p.sort ?? 'alphabetical',
        offset: p.offset ?? 0,
        limit: p.limit ?? 100,
      });
      return Promise.resolve({ ...got, items: got.items.map(syncedEntry) });
    },

    'synced.path': (p: Params<'synced.path'>) => {
      const { journal } = pairOf(p.pairId);
      return Promise.resolve(syncedPath(journal, p.folderId));
    },
  };
}
