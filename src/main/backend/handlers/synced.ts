import type { Entry, SyncedWorkspace } from '../../../shared/app-api';
import { searchSynced } from '../../folders/search';
import { listSynced, type SyncedItemRow, syncedPath, syncedRoot } from '../../folders/synced-tree';
import { fail } from '../errors';
import type { Pairs } from '../pairs';
import type { HandlerContext, HandlersOf } from './context';

/** The pair of the account's workspace, to read its journal; refused when there is none. */
export function pairOf(pairs: Pairs, pairId: string) {
  try {
    return { dir: pairs.dirOf(pairId), journal: pairs.journalOf(pairId) };
  } catch {
    return fail('not-found', { key: 'backend.pairGone' });
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

/** The synced tree, read from the pairs' journals when the service cannot be reached. */
export function syncedHandlers(ctx: HandlerContext): HandlersOf<'synced'> {
  const { pairs } = ctx;
  return {
    'synced.workspaces': (p): Promise<SyncedWorkspace[]> => {
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
          ctx.log.warn('journal not readable for Browse', { pair: pair.id, err });
        }
      }
      return Promise.resolve(out);
    },

    'synced.contents': (p) => {
      const { journal } = pairOf(pairs, p.pairId);
      const got = listSynced(journal, p.folderId, {
        query: p.query ?? '',
        sort: p.sort ?? 'alphabetical',
        reversed: p.reversed ?? false,
        offset: p.offset ?? 0,
        limit: p.limit ?? 100,
      });
      return Promise.resolve({ ...got, items: got.items.map(syncedEntry) });
    },

    'synced.path': (p) => {
      const { journal } = pairOf(pairs, p.pairId);
      return Promise.resolve(syncedPath(journal, p.folderId));
    },

    // The first pair of the workspace that synced once (a workspace synced to two folders holds
    // the same tree in each); none: the window searches the service instead.
    'synced.search': (p) => {
      for (const pair of pairs.list()) {
        if (pair.accountId !== p.accountId || pair.workspaceId !== p.workspaceId) continue;
        const journal = pairs.journalOf(pair.id);
        if (syncedRoot(journal) === null) continue;
        const found = searchSynced(journal, p.query, p.limit ?? 200);
        return Promise.resolve({ pairId: pair.id, ...found });
      }
      return Promise.resolve({ pairId: null, hits: [], more: false, excluded: 0 });
    },
  };
}
