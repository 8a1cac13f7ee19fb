import {
  memo,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type SyntheticEvent,
} from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ArrowDown, ArrowUp } from 'lucide-react';
import type { BrowseSort, ContentSort, Entry, OnDevice } from '../../shared/app-api';
import type { SelectedItem } from '../navigation';
import { rovingTarget } from '../roving';
import { strings } from '../strings';
import { EntryRow, PlaceholderRow, ROW_HEIGHT } from './EntryRow';
import type { MenuRequest } from './ItemMenu';
import { laidOut, wantedBlocks } from './folder-blocks';
import type { Badge } from './on-device';
import type { RowEdit } from './BrowseEdit';

/** px: `.entries-head .entries-row` in styles.css. */
const HEAD_HEIGHT = 36;

export interface FolderRowsProps {
  /** The column order, and a header's click asking for another. */
  sort: BrowseSort;
  onSort: (order: BrowseSort) => void;
  /** A row's state badge in a synced workspace. */
  badge?: ((item: Entry) => Badge | undefined) | undefined;
  /** Rows to lay out, and whether that is the folder's own count (else it is not told). */
  count: number;
  exact: boolean;
  /** Whether a block of these rows is being read. */
  reading: (first: number, last: number) => boolean;
  /** The entry of a row, once its block is read. */
  entry: (index: number) => Entry | undefined;
  selected: SelectedItem | null;
  onOpenFolder: (id: number) => void;
  /** Opens a file with its app (double-click, Enter). */
  onOpenFile: (item: SelectedItem) => void;
  /** Absent offline: nothing to show details of. */
  onSelect?: ((item: SelectedItem) => void) | undefined;
  onMenu: (request: MenuRequest) => void;
  /** Where an item is on this device (files on demand), when it is synced here. */
  device?: ((item: Entry) => OnDevice | undefined) | undefined;
  /** The blocks to read (`wantedBlocks`), told after each render that changes them. */
  onWanted: (blocks: string) => void;
  /**
   * An item to give the focus to once its row is read (the folder just left by Backspace, an
   * item found by the search), the first row if no block read holds it; `onFocused` is told once
   * the focus is placed.
   */
  focusItem?: { kind: 'file' | 'folder'; id: number } | null | undefined;
  onFocused?: (() => void) | undefined;
  /** File operations (issue 42): marks, F2, Delete, drags; absent offline. */
  edit?: RowEdit | undefined;
}

/** The row index of the row an event happened in, if any. */
function rowOf(e: SyntheticEvent): number | null {
  const row = e.target instanceof Element ? e.target.closest('[data-index]') : null;
  return row instanceof HTMLElement ? Number(row.dataset.index) : null;
}

/**
 * A folder's rows as a table of which only the rows in view (and a few beyond) are in the page.
 * This is the one component drawn again on each scrolled frame, so it holds the scrolled state
 * only: reading blocks, the folder's size and the query cache are `FolderContents`', drawn again
 * only when the blocks wanted change or one arrives. The table keeps its size for assistive
 * technology (aria-rowcount, each row's aria-rowindex). An ARIA table of boxes rather than a
 * <table>: its rows are placed one by one, so a scrolled frame lays out the rows that came into
 * view, not the table (the rows' height is fixed, their columns the header's grid).
 */
function Rows({
  sort,
  onSort,
  badge,
  count,
  exact,
  reading,
  entry,
  selected,
  onOpenFolder,
  onOpenFile,
  onSelect,
  onMenu,
  device,
  onWanted,
  focusItem = null,
  onFocused,
  edit,
}: FolderRowsProps) {
  const scroller = useRef<HTMLDivElement>(null);
  // The row that last held focus (or a menu) stays in the page while it is scrolled away, so
  // focus is not lost to the page and a closing menu has its row to go back to.
  const [pinned, setPinned] = useState<number | null>(null);

  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    // The header row sticks above the body in the same scrolled box.
    scrollMargin: HEAD_HEIGHT,
    // The rows beyond the view are `laidOut`'s, by whole steps.
    overscan: 0,
  });
  const range = virtualizer.calculateRange();
  const view = range && { first: range.startIndex, last: range.endIndex };
  const laid = view && laidOut(view.first, view.last, count);
  const wanted = wantedBlocks({ laid, view, count, pinned, entry });
  // A string: the same blocks are the same value, so a frame that keeps them tells nothing.
  useLayoutEffect(() => onWanted(wanted), [onWanted, wanted]);

  // Arrow keys move between rows as in a file manager's list: the row asked for is scrolled to
  // and pinned, and takes the focus once it is in the page with its entry (its block may be
  // read first: a later render focuses it).
  const [focusTo, setFocusTo] = useState<number | null>(null);
  useLayoutEffect(() => {
    if (focusTo === null) return;
    const button = scroller.current?.querySelector<HTMLElement>(`[data-index="${focusTo}"] .name`);
    if (!button) return;
    button.focus();
    setFocusTo(null);
  });
  // The folder left by Backspace (an item found): its row once its block is read (no later
  // render would find it otherwise), else the first row, so the focus stays in the list.
  useLayoutEffect(() => {
    if (focusItem === null || focusTo !== null || entry(0) === undefined) return;
    let at = 0;
    for (let i = 0; i < count; i++) {
      const e = entry(i);
      if (e?.kind === focusItem.kind && e.id === focusItem.id) {
        at = i;
        break;
      }
    }
    setPinned(at);
    virtualizer.scrollToIndex(at, { align: 'auto' });
    setFocusTo(at);
    onFocused?.();
  });
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const at = rowOf(e);
    if (at !== null && edit && editKey(e, at)) return;
    if (at === null || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    // Left and right move between a row's buttons (its name, its details): one Tab stop a
    // list, so these are how the details button is reached from the keyboard.
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      const row = e.target instanceof Element ? e.target.closest('[data-index]') : null;
      const buttons = row ? [...row.querySelectorAll<HTMLElement>('button')] : [];
      const i = buttons.indexOf(e.target as HTMLElement);
      const next = buttons[i + (e.key === 'ArrowRight' ? 1 : -1)];
      if (i < 0 || !next) return;
      e.preventDefault();
      next.focus();
      return;
    }
    const page = Math.max(1, (view ? view.last - view.first : 10) - 1);
    const next = rovingTarget(e.key, at, page, count);
    if (next === undefined) return;
    e.preventDefault();
    if (next === at) return;
    setPinned(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
    setFocusTo(next);
  };

  /** F2 renames, Delete deletes, Ctrl+Space marks, Shift+arrows mark a range (issue 42). */
  const editKey = (e: KeyboardEvent<HTMLDivElement>, at: number): boolean => {
    const item = entry(at);
    if (!edit || !item || e.altKey) return false;
    const plain = !e.ctrlKey && !e.metaKey && !e.shiftKey;
    let next: number | null = null;
    if (plain && e.key === 'F2') edit.onCommand('rename', item);
    else if (plain && e.key === 'Delete') edit.onCommand('delete', item);
    else if ((e.ctrlKey || e.metaKey) && e.key === ' ') edit.onMark('toggle', at, entry);
    else if (e.shiftKey && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
      next = Math.max(0, Math.min(count - 1, at + (e.key === 'ArrowDown' ? 1 : -1)));
      edit.onMark('range', next, entry, at);
    } else return false;
    e.preventDefault();
    if (next !== null && next !== at) {
      setPinned(next);
      virtualizer.scrollToIndex(next, { align: 'auto' });
      setFocusTo(next);
    }
    return true;
  };

  return (
    <div ref={scroller} className="entries-scroll">
      <div
        role="table"
        className="entries"
        aria-label={strings.browse.contents}
        // The header row and every entry, though only a few are in the page (-1: not known).
        aria-rowcount={exact ? count + 1 : -1}
        aria-busy={view !== null && reading(view.first, view.last)}
      >
        <div role="rowgroup" className="entries-head">
          <div role="row" aria-rowindex={1} className="entries-row">
            {COLUMNS.map((c) => (
              <SortHeader key={c.sort} column={c} order={sort} onSort={onSort} />
            ))}
          </div>
        </div>
        <div
          role="rowgroup"
          // While it scrolls, the pointer goes through the rows: each frame moves other rows
          // under it, and their hover (events, styles) would be redone each frame for nothing.
          className={virtualizer.isScrolling ? 'entries-body scrolling' : 'entries-body'}
          style={{ height: virtualizer.getTotalSize() }}
          onFocus={(e) => setPinned(rowOf(e))}
          onContextMenu={(e) => setPinned(rowOf(e))}
          onKeyDown={onKeyDown}
        >
          {laid && (
            <RowRange
              first={laid.first}
              last={laid.last}
              pinned={pinned}
              // One Tab stop for the list (roving tabindex): the row last focused, else the
              // first row laid out; arrows move from there and Tab leaves the list.
              tabStop={pinned ?? laid.first}
              entry={entry}
              selected={selected}
              onOpenFolder={onOpenFolder}
              onOpenFile={onOpenFile}
              onSelect={onSelect}
              onMenu={onMenu}
              device={device}
              badge={badge}
              edit={edit}
            />
          )}
        </div>
      </div>
    </div>
  );
}

/** Drawn again by a scroll (its own state) or when its folder's data changes, not otherwise. */
export const FolderRows = memo(Rows);

/**
 * The rows `first` to `last`, and the pinned one wherever it is. A scrolled frame that keeps the
 * same rows laid out draws nothing here: the page only scrolls.
 */
const RowRange = memo(function RowRange({
  first,
  last,
  pinned,
  tabStop,
  entry,
  selected,
  onOpenFolder,
  onOpenFile,
  onSelect,
  onMenu,
  device,
  badge,
  edit,
}: {
  first: number;
  last: number;
  pinned: number | null;
  tabStop: number;
} & Pick<
  FolderRowsProps,
  | 'entry'
  | 'selected'
  | 'onOpenFolder'
  | 'onOpenFile'
  | 'onSelect'
  | 'onMenu'
  | 'device'
  | 'badge'
  | 'edit'
>) {
  const indexes: number[] = [];
  if (pinned !== null && pinned < first) indexes.push(pinned);
  for (let i = first; i <= last; i++) indexes.push(i);
  if (pinned !== null && pinned > last) indexes.push(pinned);
  return indexes.map((index) => {
    const item = entry(index);
    return item ? (
      <EntryRow
        key={index}
        index={index}
        entry={item}
        tabbable={index === tabStop}
        selected={selected?.kind === item.kind && selected.id === item.id}
        onOpenFolder={onOpenFolder}
        onOpenFile={onOpenFile}
        onSelect={onSelect}
        onMenu={onMenu}
        device={device?.(item)}
        badge={badge?.(item)}
        edit={edit}
        marked={edit?.isMarked(item)}
        entryAt={edit && entry}
      />
    ) : (
      <PlaceholderRow key={index} index={index} />
    );
  });
});

/**
 * The columns, each sorting by its header. The service's order for each is its first click (names
 * and types A to Z, the newest and the largest first); a second click turns it round.
 */
const COLUMNS: { sort: ContentSort; label: () => string; num?: boolean; natural: Direction }[] = [
  { sort: 'alphabetical', label: () => strings.browse.name, natural: 'ascending' },
  { sort: 'type', label: () => strings.browse.type, natural: 'ascending' },
  { sort: 'size', label: () => strings.browse.size, num: true, natural: 'descending' },
  { sort: 'modified', label: () => strings.browse.modified, natural: 'descending' },
];

type Direction = 'ascending' | 'descending';

/** A column's header: a button that sorts by it, the direction shown (aria-sort, an arrow). */
function SortHeader({
  column,
  order,
  onSort,
}: {
  column: (typeof COLUMNS)[number];
  order: BrowseSort;
  onSort: (order: BrowseSort) => void;
}) {
  const active = order.sort === column.sort;
  const flip = (d: Direction): Direction => (d === 'ascending' ? 'descending' : 'ascending');
  const direction = active && order.reversed ? flip(column.natural) : column.natural;
  const Arrow = direction === 'ascending' ? ArrowUp : ArrowDown;
  return (
    <div
      role="columnheader"
      className={column.num ? 'num' : undefined}
      aria-sort={active ? direction : undefined}
    >
      <button
        type="button"
        className={`sort-button ${active ? 'is-active' : ''}`}
        onClick={() => onSort({ sort: column.sort, reversed: active ? !order.reversed : false })}
      >
        {column.label()}
        {active && <Arrow size={14} aria-hidden="true" focusable="false" />}
      </button>
    </div>
  );
}
