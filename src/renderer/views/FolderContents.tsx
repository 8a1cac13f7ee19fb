import { useLayoutEffect, useRef, useState, type SyntheticEvent } from 'react';
import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import type { ContentSort } from '../../shared/app-api';
import type { SelectedItem } from '../navigation';
import { strings } from '../strings';
import { Loading } from '../components/Loading';
import { ErrorMessage } from '../components/ErrorMessage';
import { Empty } from '../components/Empty';
import { EntryRow, PlaceholderRow } from './EntryRow';
import type { MenuRequest } from './ItemMenu';
import { blocksOf, useFolderBlocks } from './folder-blocks';

/** px: `.entries tbody tr` in styles.css (one line a row: long names end in an ellipsis). */
const ROW_HEIGHT = 40;
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
  const row = e.target instanceof Element ? e.target.closest('tr[data-index]') : null;
  return row instanceof HTMLElement ? Number(row.dataset.index) : null;
}

/**
 * A folder's contents: a table of which only the rows in view (and a few beyond) are in the
 * page, read by blocks as they come into view. The table keeps its size for assistive
 * technology (aria-rowcount, each row's aria-rowindex); the rows above and below the view are
 * two empty spacer rows.
 */
function Contents({ folderId, query, sort, selected, onOpenFolder, onSelect, onMenu }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const [wanted, setWanted] = useState<number[]>([0]);
  // The row that last held focus (or a menu) stays in the page while it is scrolled away, so
  // focus is not lost to the page and a closing menu has its row to go back to.
  const [pinned, setPinned] = useState<number | null>(null);
  const blocks = useFolderBlocks({ folderId, query, sort }, wanted);
  const { count } = blocks;

  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    rangeExtractor: (range: Range) => {
      const rows = defaultRangeExtractor(range);
      if (pinned === null || pinned >= range.count || rows.includes(pinned)) return rows;
      return [...rows, pinned].sort((a, b) => a - b);
    },
  });
  const items = virtualizer.getVirtualItems();
  // The rows in view and the overscan (not the pinned row: its block was read when it was).
  const range = virtualizer.range;
  const needed = range
    ? blocksOf(
        Math.max(0, range.startIndex - OVERSCAN),
        Math.min(count - 1, range.endIndex + OVERSCAN),
      )
    : [0];
  const neededKey = needed.join(',');
  // Before paint: the blocks of the rows now laid out are asked for in the same frame.
  useLayoutEffect(() => {
    setWanted((old) => (old.join(',') === neededKey ? old : neededKey.split(',').map(Number)));
  }, [neededKey]);

  if (blocks.pending && blocks.error)
    return <ErrorMessage error={blocks.error} onRetry={blocks.retry} />;
  if (blocks.pending) return <Loading />;
  if (count === 0)
    return <Empty>{query ? strings.browse.noMatches(query) : strings.browse.empty}</Empty>;

  const rows = [];
  let at = 0;
  for (const row of items) {
    // The gap before a row: everything above the view, or between it and the pinned row.
    if (row.start > at) rows.push(<Spacer key={`gap-${row.index}`} height={row.start - at} />);
    const entry = blocks.entry(row.index);
    rows.push(
      entry ? (
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
      ),
    );
    at = row.end;
  }
  const total = virtualizer.getTotalSize();
  if (total > at) rows.push(<Spacer key="gap-end" height={total - at} />);

  return (
    <>
      <div ref={scroller} className="entries-scroll">
        <table
          className="entries"
          aria-label={strings.browse.contents}
          // The header row and every entry, though only a few are in the page (-1: not known).
          aria-rowcount={blocks.exact ? count + 1 : -1}
          aria-busy={blocks.fetching}
        >
          <thead>
            <tr aria-rowindex={1}>
              <th scope="col">{strings.browse.name}</th>
              <th scope="col" className="num">
                {strings.browse.size}
              </th>
              <th scope="col">{strings.browse.modified}</th>
            </tr>
          </thead>
          <tbody onFocus={(e) => setPinned(rowOf(e))} onContextMenu={(e) => setPinned(rowOf(e))}>
            {rows}
          </tbody>
        </table>
      </div>
      {blocks.error && <ErrorMessage error={blocks.error} onRetry={blocks.retry} />}
    </>
  );
}

/** Room for rows not in the page: no row for assistive technology. */
function Spacer({ height }: { height: number }) {
  return (
    <tr className="spacer" aria-hidden="true">
      <td colSpan={3} style={{ height }} />
    </tr>
  );
}
