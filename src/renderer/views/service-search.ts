import { useCallback, useEffect, useRef, useState } from 'react';
import type { ResultOf, SearchHit } from '../../shared/app-api';
import { useAccount, useApi } from '../context';

// Browse's search of a workspace not synced here (issue 42): through the service, folder by
// folder from the top (its listings: the service's own query filters one folder, not a tree),
// the items found shown as each folder is read, until every folder is looked at, the person
// stops it, or its bounds are reached (a search must end: no endless walk of a huge workspace).

/** Folders looked at, at most: beyond, the person opens a folder deeper down and searches there. */
export const SEARCH_MAX_FOLDERS = 1000;
/** Items listed, at most (a few huge folders cost as much as many small ones). */
export const SEARCH_MAX_LISTED = 50_000;
/** Items found, at most: more says to type more. */
export const SEARCH_MAX_HITS = 200;
/** A listing's page: the backend's largest. */
const PAGE = 500;

export interface ServiceSearch {
  hits: SearchHit[];
  /** Folders looked at so far. */
  folders: number;
  /** Why it ended: every folder looked at, stopped by the person, its bounds; null while on. */
  ended: 'done' | 'stopped' | 'cut' | 'hits' | null;
  error: unknown;
}

const joined = (path: string, name: string) => (path === '' ? name : `${path}/${name}`);

/**
 * Searches the workspace under `rootId` for names holding `query` (case aside), while `enabled`;
 * a new query starts again. `stop` ends the search where it is.
 */
export function useServiceSearch(rootId: number, query: string, enabled: boolean) {
  const api = useApi();
  const account = useAccount();
  const empty: ServiceSearch = { hits: [], folders: 0, ended: null, error: null };
  const [state, setState] = useState<ServiceSearch>(empty);
  const stopRef = useRef<(() => void) | null>(null);

  useEffect(() => {
    if (!enabled || query === '') return;
    let stopped = false;
    stopRef.current = () => {
      stopped = true;
      setState((s) => ({ ...s, ended: s.ended ?? 'stopped' }));
    };
    setState({ hits: [], folders: 0, ended: null, error: null });
    const lower = query.toLowerCase();
    const walk = async () => {
      const queue = [{ id: rootId, path: '' }];
      const hits: SearchHit[] = [];
      let folders = 0;
      let listed = 0;
      for (let f = queue.shift(); f && !stopped; f = queue.shift()) {
        let offset: number | null = 0;
        while (offset !== null && !stopped) {
          const page: ResultOf<'folders.contents'> = await api.call('folders.contents', {
            accountId: account.id,
            folderId: f.id,
            offset,
            limit: PAGE,
          });
          listed += page.items.length;
          for (const e of page.items) {
            if (e.kind === 'folder') queue.push({ id: e.id, path: joined(f.path, e.name) });
            if (!e.name.toLowerCase().includes(lower)) continue;
            const { kind, id, name, size, updatedAt } = e;
            hits.push({ kind, id, name, size, updatedAt, folderId: f.id, folderPath: f.path });
          }
          offset = listed >= SEARCH_MAX_LISTED ? null : page.nextOffset;
        }
        if (stopped) return;
        folders++;
        const ended =
          hits.length > SEARCH_MAX_HITS
            ? 'hits'
            : queue.length === 0
              ? 'done'
              : folders >= SEARCH_MAX_FOLDERS || listed >= SEARCH_MAX_LISTED
                ? 'cut'
                : null;
        setState({ hits: hits.slice(0, SEARCH_MAX_HITS), folders, ended, error: null });
        if (ended) return;
      }
    };
    walk().catch((error: unknown) => {
      if (!stopped) setState((s) => ({ ...s, ended: 'stopped', error }));
    });
    return () => {
      stopped = true;
    };
  }, [api, account.id, rootId, query, enabled]);

  const stop = useCallback(() => stopRef.current?.(), []);
  return { ...(enabled && query !== '' ? state : empty), stop };
}
