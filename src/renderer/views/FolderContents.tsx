import { useEffect, useMemo, useState } from 'react';
import { AppCallError } from '../../shared/app-api';
import type { BrowseSort, Entry, OnDevice } from '../../shared/app-api';
import type { SelectedItem } from '../navigation';
import { strings } from '../strings';
import { Loading } from '../components/Loading';
import { ErrorMessage } from '../components/ErrorMessage';
import { Empty } from '../components/Empty';
import type { MenuRequest } from './ItemMenu';
import { FolderRows } from './FolderRows';
import type { Badge } from './on-device';
import { useFolderBlocks, useFolderSize } from './folder-blocks';
import type { RowEdit } from './BrowseEdit';

interface Props {
  folderId: number;
  query: string;
  sort: BrowseSort;
  /** A column header clicked: the order asked for. */
  onSort: (order: BrowseSort) => void;
  /** A row's state badge in a synced workspace. */
  badge?: ((item: Entry) => Badge | undefined) | undefined;
  selected: SelectedItem | null;
  /** Offline: the pair whose journal lists the folder. */
  pairId?: string | null;
  onOpenFolder: (id: number) => void;
  onOpenFile: (item: SelectedItem) => void;
  onSelect?: ((item: SelectedItem) => void) | undefined;
  onMenu: (request: MenuRequest) => void;
  /** Where an item is on this device (files on demand), when it is synced here. */
  device?: ((item: Entry) => OnDevice | undefined) | undefined;
  /** The service could not be reached while listing (Browse turns to the synced tree). */
  onOffline?: () => void;
  /** The folder just left (Backspace), or an item found: its row takes the focus (`FolderRows`). */
  focusItem?: { kind: 'file' | 'folder'; id: number } | null;
  onFocused?: () => void;
  /** File operations (issue 42): absent offline. */
  edit?: RowEdit | undefined;
}

/** Another folder, search or order is another list: it starts at its top, nothing pinned. */
export function FolderContents(props: Props) {
  return (
    <Contents
      key={`${props.pairId ?? ''}|${props.folderId}|${props.query}|${props.sort.sort}|${props.sort.reversed}`}
      {...props}
    />
  );
}

/**
 * A folder's contents, read by blocks as they come into view (`folder-blocks.ts`). The rows
 * (`FolderRows`) say which blocks they want; this reads them and is drawn again only when those
 * change or one arrives, not on every scrolled frame: a frame costs the rows it moves, not the
 * query cache.
 */
function Contents({
  folderId,
  query,
  sort,
  onSort,
  badge,
  selected,
  pairId,
  onOpenFolder,
  onOpenFile,
  onSelect,
  onMenu,
  device,
  onOffline,
  focusItem,
  onFocused,
  edit,
}: Props) {
  // The first block until the rows have laid out (they are not in the page before it is read).
  const [wanted, setWanted] = useState('0');
  const blockList = useMemo(() => wanted.split(',').map(Number), [wanted]);
  const listing = {
    folderId,
    query,
    sort: sort.sort,
    reversed: sort.reversed,
    pairId: pairId ?? null,
  };
  const { count, exact, pending } = useFolderSize(listing);
  const blocks = useFolderBlocks(listing, blockList);
  const offline = blocks.error instanceof AppCallError && blocks.error.error.kind === 'offline';
  useEffect(() => {
    if (offline && !pairId) onOffline?.();
  }, [offline, pairId, onOffline]);

  if (pending && blocks.error) return <ErrorMessage error={blocks.error} onRetry={blocks.retry} />;
  if (pending) return <Loading />;
  if (count === 0)
    return <Empty>{query ? strings.browse.noMatches(query) : strings.browse.empty}</Empty>;

  return (
    <>
      <FolderRows
        sort={sort}
        onSort={onSort}
        badge={badge}
        count={count}
        exact={exact}
        reading={blocks.reading}
        entry={blocks.entry}
        selected={selected}
        onOpenFolder={onOpenFolder}
        onOpenFile={onOpenFile}
        onSelect={onSelect}
        onMenu={onMenu}
        device={device}
        onWanted={setWanted}
        focusItem={focusItem}
        onFocused={onFocused}
        edit={edit}
      />
      {blocks.error && <ErrorMessage error={blocks.error} onRetry={blocks.retry} />}
    </>
  );
}
