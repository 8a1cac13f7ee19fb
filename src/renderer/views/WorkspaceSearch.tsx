import { useRef, type KeyboardEvent } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { SearchHit } from '../../shared/app-api';
import { useAccount, useApi } from '../context';
import { strings } from '../strings';
import { ErrorMessage } from '../components/ErrorMessage';
import { Loading } from '../components/Loading';
import { ItemIcon } from './ItemIcon';
import { SEARCH_MAX_HITS, useServiceSearch } from './service-search';

/**
 * Browse's search of the whole workspace (issue 42): a synced one from its pair's journal as the
 * person types (`synced.search`), any other through the service folder by folder, the items
 * streaming in, with a Stop button (`service-search.ts`). Each item found names its folder; a
 * click or Enter on it opens that folder with the item selected. Up and Down move between them.
 */
export function WorkspaceSearch({
  workspaceId,
  workspaceName,
  rootFolderId,
  query,
  onOpen,
}: {
  workspaceId: number;
  workspaceName: string;
  rootFolderId: number;
  query: string;
  onOpen: (hit: SearchHit) => void;
}) {
  const api = useApi();
  const account = useAccount();
  const synced = useQuery({
    queryKey: ['synced.search', account.id, workspaceId, query],
    queryFn: () =>
      api.call('synced.search', {
        accountId: account.id,
        workspaceId,
        query,
        limit: SEARCH_MAX_HITS,
      }),
    placeholderData: keepPreviousData,
  });
  const viaService = synced.data?.pairId === null;
  const service = useServiceSearch(rootFolderId, query, viaService);
  const list = useRef<HTMLUListElement>(null);

  if (synced.isPending) return <Loading />;
  if (synced.isError)
    return <ErrorMessage error={synced.error} onRetry={() => void synced.refetch()} />;

  const hits = viaService ? service.hits : synced.data.hits;
  const said: string[] = [];
  if (viaService) {
    const n = service.folders;
    if (service.ended === null) said.push(strings.browse.searching(n));
    else if (service.ended === 'done') said.push(strings.browse.searchDone(n));
    else if (service.ended === 'stopped') said.push(strings.browse.searchStopped(n));
    else if (service.ended === 'cut') said.push(strings.browse.searchCut(n));
    if (service.ended === 'hits') said.push(strings.browse.foundMore(hits.length));
    else said.push(strings.browse.found(hits.length));
  } else {
    said.push(
      synced.data.more ? strings.browse.foundMore(hits.length) : strings.browse.found(hits.length),
    );
    said.push(strings.browse.searchSynced);
    if (synced.data.excluded > 0) said.push(strings.browse.searchExcluded(synced.data.excluded));
  }

  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const buttons = [...(list.current?.querySelectorAll<HTMLElement>('button') ?? [])];
    const at = buttons.indexOf(e.target as HTMLElement);
    const next = buttons[at + (e.key === 'ArrowDown' ? 1 : -1)];
    if (at < 0 || !next) return;
    e.preventDefault();
    next.focus();
  };

  return (
    <div className="search-results">
      <div className="search-state">
        <p role="status" aria-live="polite">
          {said.join(' ')}
        </p>
        {viaService && service.ended === null && (
          <button type="button" onClick={service.stop}>
            {strings.browse.searchStop}
          </button>
        )}
      </div>
      {Boolean(service.error) && <ErrorMessage error={service.error} />}
      {hits.length > 0 && (
        <ul ref={list} aria-label={strings.browse.results} onKeyDown={onKeyDown}>
          {hits.map((hit) => {
            const folder = hit.folderPath === '' ? workspaceName : hit.folderPath;
            return (
              <li key={`${hit.kind}-${hit.id}`}>
                <button type="button" className="search-hit" onClick={() => onOpen(hit)}>
                  <span className="row-icon">
                    <ItemIcon kind={hit.kind} name={hit.name} />
                  </span>
                  <span className="search-hit-name">{hit.name}</span>
                  {/* A space: its name and its folder read apart. */}{' '}
                  <span className="search-hit-folder">{strings.browse.inFolder(folder)}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
