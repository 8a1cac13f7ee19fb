import { useRef, useState, type SyntheticEvent } from 'react';
import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import type { ContentSort } from '../../shared/app-api';
import type { SelectedItem } from '../navigation';
import { strings } from '../strings';
import { Loading } from '../components/Loading';
import { ErrorMessage } from '../components/ErrorMessage';
import { Empty } from '../components/Empty';
import { EntryRow, PlaceholderRow, ROW_HEIGHT } from './EntryRow';
import type { MenuRequest } from './ItemMenu';
import { BLOCK, blocksOf, useFolderBlocks, useFolderSize } from './folder-blocks';

/** px: `.entries-head .entries-row` in styles.css. */
const HEAD_HEIGHT = 36;
/** Rows laid out beyond the view: Tab reaches the next row's buttons before it scrolls in. */
const OVERSCAN = 10;

interface Props {
  folderId: number;
  query: string;
  sort: ContentSort;
  selected: SelectedItem | null;
  onOpenFolder: (id: number) => void;
  onSelect: (item: SelectedItem) => void;
  onMenu: (request: MenuRequest) => void;
}

/** Another folder, search or order is another list: it starts at its top, nothing pinned. */
export function FolderContents(props: Props) {
  return <Contents key={`${props.folderId}|${props.query}|${props.sort}`} {...props} />;
}

/** The row index of the row an event happened in, if any. */
function rowOf(e: SyntheticEvent): number | null {
  const row = e.target instanceof Element ? e.target.closest('[data-index]') : null;
  return row instanceof HTMLElement ? Number(row.dataset.index) : null;
}

/**
 * A folder's contents: a table of which only the rows in view (and a few beyond) are in the
 * page, read by blocks as they come into view. The table keeps its size for assistive
 * technology (aria-rowcount, each row's aria-rowindex). An ARIA table of boxes rather than a
 * <table>: its rows are placed one by one, so a scrolled frame lays out the rows that came
 * into view, not the table (the rows' height is fixed, their columns the header's grid).
 */
function Contents({ folderId, query, sort, selected, onOpenFolder, onSelect, onMenu }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  // The row that last held focus (or a menu) stays in the page while it is scrolled away, so
  // focus is not lost to the page and a closing menu has its row to go back to.
  const [pinned, setPinned] = useState<number | null>(null);
  const listing = { folderId, query, sort };
  const { count, exact, pending } = useFolderSize(listing);

  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    // The header row sticks above the body in the same scrolled box.
    scrollMargin: HEAD_HEIGHT,
    overscan: OVERSCAN,
    rangeExtractor: (range: Range) => {
      const rows = defaultRangeExtractor(range);
      if (pinned === null || pinned >= range.count || rows.includes(pinned)) return rows;
      return [...rows, pinned].sort((a, b) => a - b);
    },
  });
  const items = virtualizer.getVirtualItems();
  // The blocks of the rows in view and the overscan, asked for in the render that lays them
  // out; and the pinned row's, so that it stays read (and is read again when the list is).
  const range = virtualizer.range;
  const wanted = range
    ? blocksOf(
        Math.max(0, range.startIndex - OVERSCAN),
        Math.min(count - 1, range.endIndex + OVERSCAN),
      )
    : [0];
  const pinnedBlock = pinned === null ? null : Math.floor(pinned / BLOCK);
  if (pinnedBlock !== null && !wanted.includes(pinnedBlock)) wanted.push(pinnedBlock);
  const blocks = useFolderBlocks(listing, wanted);

  if (pending && blocks.error) return <ErrorMessage error={blocks.error} onRetry={blocks.retry} />;
  if (pending) return <Loading />;
  if (count === 0)
    return <Empty>{query ? strings.browse.noMatches(query) : strings.browse.empty}</Empty>;

  return (
    <>
      <div ref={scroller} className="entries-scroll">
        <div
          role="table"
          className="entries"
          aria-label={strings.browse.contents}
          // The header row and every entry, though only a few are in the page (-1: not known).
          aria-rowcount={exact ? count + 1 : -1}
          aria-busy={blocks.fetching}
        >
          <div role="rowgroup" className="entries-head">
            <div role="row" aria-rowindex={1} className="entries-row">
              <div role="columnheader">{strings.browse.name}</div>
              <div role="columnheader" className="num">
                {strings.browse.size}
              </div>
              <div role="columnheader">{strings.browse.modified}</div>
            </div>
          </div>
          <div
            role="rowgroup"
            className="entries-body"
            style={{ height: virtualizer.getTotalSize() }}
            onFocus={(e) => setPinned(rowOf(e))}
            onContextMenu={(e) => setPinned(rowOf(e))}
          >
            {items.map((row) => {
              const entry = blocks.entry(row.index);
              return entry ? (
                <EntryRow
                  key={row.index}
                  index={row.index}
                  entry={entry}
                  selected={selected?.kind === entry.kind && selected.id === entry.id}
                  onOpenFolder={onOpenFolder}
                  onSelect={onSelect}
                  onMenu={onMenu}
                />
              ) : (
                <PlaceholderRow key={row.index} index={row.index} />
              );
            })}
          </div>
        </div>
      </div>
      {blocks.error && <ErrorMessage error={blocks.error} onRetry={blocks.retry} />}
    </>
  );
}
