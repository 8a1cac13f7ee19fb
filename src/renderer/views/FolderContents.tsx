import { useInfiniteQuery } from '@tanstack/react-query';
import type { ContentSort } from '../../shared/app-api';
import { useAccount, useApi } from '../context';
import type { SelectedItem } from '../navigation';
import { strings } from '../strings';
import { Loading } from '../components/Loading';
import { ErrorMessage } from '../components/ErrorMessage';
import { Empty } from '../components/Empty';
import { EntryRow } from './EntryRow';
import type { MenuRequest } from './ItemMenu';

const PAGE = 200;

export function FolderContents({
  folderId,
  query,
  sort,
  selected,
  onOpenFolder,
  onSelect,
  onMenu,
}: {
  folderId: number;
  query: string;
  sort: ContentSort;
  selected: SelectedItem | null;
  onOpenFolder: (id: number) => void;
  onSelect: (item: SelectedItem) => void;
  onMenu: (request: MenuRequest) => void;
}) {
  const api = useApi();
  const account = useAccount();
  const contents = useInfiniteQuery({
    queryKey: ['folders.contents', account.id, folderId, query, sort],
    queryFn: ({ pageParam }) =>
      api.call('folders.contents', {
        accountId: account.id,
        folderId,
        sort,
        offset: pageParam,
        limit: PAGE,
        ...(query ? { query } : {}),
      }),
    initialPageParam: 0,
    getNextPageParam: (last) => last.nextOffset ?? undefined,
    // Opening a folder lists it anew, as a file manager does (the cached list shows meanwhile).
    staleTime: 0,
  });

  if (contents.isPending) return <Loading />;
  if (contents.isError)
    return <ErrorMessage error={contents.error} onRetry={() => void contents.refetch()} />;
  const entries = contents.data.pages.flatMap((p) => p.items);
  if (entries.length === 0)
    return <Empty>{query ? strings.browse.noMatches(query) : strings.browse.empty}</Empty>;

  return (
    <>
      <table className="entries" aria-label={strings.browse.contents}>
        <thead>
          <tr>
            <th scope="col">{strings.browse.name}</th>
            <th scope="col" className="num">
              {strings.browse.size}
            </th>
            <th scope="col">{strings.browse.modified}</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <EntryRow
              key={`${e.kind}-${e.id}`}
              entry={e}
              selected={selected?.kind === e.kind && selected.id === e.id}
              onOpenFolder={onOpenFolder}
              onSelect={onSelect}
              onMenu={onMenu}
            />
          ))}
        </tbody>
      </table>
      {contents.hasNextPage && (
        <button
          type="button"
          onClick={() => void contents.fetchNextPage()}
          disabled={contents.isFetchingNextPage}
        >
          {strings.browse.loadMore}
        </button>
      )}
    </>
  );
}
