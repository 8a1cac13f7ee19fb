import {
  memo,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type MouseEvent,
} from 'react';
import type { Entry, OnDevice } from '../../shared/app-api';
import { formatBytes, formatDate } from '../format';
import type { SelectedItem } from '../navigation';
import { strings } from '../strings';
import { isMenuKey, type MenuRequest } from './ItemMenu';
import { ItemIcon } from './ItemIcon';
import { OnDeviceBadge, RowBadge, type Badge } from './on-device';
import { typeWords } from './ItemFacts';
import { ITEMS_TYPE, type RowEdit } from './BrowseEdit';
import { editStrings } from './edit-strings';

/**
 * One folder or file. A folder's name opens it; the details button (or a file's name) selects.
 * A double-click anywhere on the row, or Enter on its name, opens it as a file manager does (a
 * folder: into it; a file: with its app, when it is synced here). A right-click anywhere on the
 * row, or the Menu key (Shift+F10) on one of its buttons, asks for the item's context menu.
 * Without `onSelect` (offline Browse) there are no details to show.
 */
function Row({
  index,
  entry,
  tabbable,
  selected,
  onOpenFolder,
  onOpenFile,
  onSelect,
  onMenu,
  device,
  badge,
  edit,
  marked = false,
  entryAt,
}: {
  /** The row's place in the folder (from 0). */
  index: number;
  entry: Entry;
  /** The list's one Tab stop is this row's name; its other buttons are reached by arrows. */
  tabbable: boolean;
  selected: boolean;
  onOpenFolder: (id: number) => void;
  onOpenFile: (item: SelectedItem) => void;
  onSelect?: ((item: SelectedItem) => void) | undefined;
  onMenu: (request: MenuRequest) => void;
  /** Where it is on this device (files on demand); absent when it is not synced here. */
  device?: OnDevice | undefined;
  /** Its state in a synced workspace (issue 42): synced, syncing, left out, a problem…; absent elsewhere. */
  badge?: Badge | undefined;
  /** File operations (issue 42): absent offline. */
  edit?: RowEdit | undefined;
  /** Marked for a move or a delete (Ctrl/Shift click). */
  marked?: boolean;
  /** The folder's entries by row, for a range marked with Shift. */
  entryAt?: ((i: number) => Entry | undefined) | undefined;
}) {
  const [dropTarget, setDropTarget] = useState(false);
  const item = { kind: entry.kind, id: entry.id, name: entry.name };
  const isFolder = entry.kind === 'folder';
  const name = useRef<HTMLButtonElement>(null);
  /** Below the element for the keyboard, at the pointer for a mouse (or a touch's long press). */
  const menuAt = (x: number, y: number, focused: Element | null) =>
    onMenu({
      item,
      mine: entry.mine,
      x,
      y,
      returnTo: focused instanceof HTMLElement ? focused : name.current,
    });
  const belowOf = (el: HTMLElement) => {
    const box = el.getBoundingClientRect();
    menuAt(box.left, box.bottom, el);
  };
  const onContextMenu = (e: MouseEvent<HTMLDivElement>) => {
    e.preventDefault();
    // A menu key the browser turned into this event (no pointer) opens below the focus.
    if (e.clientX === 0 && e.clientY === 0 && e.target instanceof HTMLElement) belowOf(e.target);
    else menuAt(e.clientX, e.clientY, null);
  };
  const open = () => (isFolder ? onOpenFolder(entry.id) : onOpenFile(item));
  // A double-click opens the row its first click was on: a folder opened by that first click
  // puts other rows under the pointer, and the second click and the double-click land on them.
  const firstClick = useRef(false);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    // Enter on a file's name opens it (a click, or Space, selects it).
    if (e.key === 'Enter' && !isFolder && e.target === name.current) {
      e.preventDefault();
      open();
      return;
    }
    if (!isMenuKey(e) || !(e.target instanceof HTMLElement)) return;
    e.preventDefault();
    belowOf(e.target);
  };
  return (
    <div
      role="row"
      data-index={index}
      aria-rowindex={rowIndex(index)}
      className={`entries-row ${selected ? 'selected' : ''} ${entry.hidden ? 'is-hidden' : ''}${
        marked ? ' marked' : ''
      }${dropTarget ? ' drop-target' : ''}${badge?.state === 'excluded' ? ' is-excluded' : ''}`}
      style={placed(index)}
      draggable={edit?.canDrag || undefined}
      onDragStart={(e) => {
        if (!edit?.canDrag) return;
        e.dataTransfer.setData(ITEMS_TYPE, JSON.stringify(edit.dragged(entry)));
        e.dataTransfer.effectAllowed = 'move';
      }}
      // A folder takes items dragged onto it (a move) and the computer's files (an upload).
      onDragOver={(e) => {
        if (!isFolder || !edit) return;
        const types = e.dataTransfer.types;
        // Not taken here (the role): the drop falls to the list, or nowhere.
        if (!edit.takes(e)) return;
        e.preventDefault();
        e.stopPropagation();
        e.dataTransfer.dropEffect = types.includes('Files') ? 'copy' : 'move';
        setDropTarget(true);
      }}
      onDragLeave={() => setDropTarget(false)}
      onDrop={(e) => {
        if (!isFolder || !edit) return;
        e.preventDefault();
        e.stopPropagation();
        setDropTarget(false);
        edit.onDrop(entry, e);
      }}
      // Ctrl (or Cmd) and Shift clicks mark rows, as in a file manager, instead of acting.
      onClickCapture={(e) => {
        if (!edit || !entryAt || !(e.ctrlKey || e.metaKey || e.shiftKey)) return;
        e.preventDefault();
        e.stopPropagation();
        edit.onMark(e.shiftKey ? 'range' : 'toggle', index, entryAt);
      }}
      onContextMenu={onContextMenu}
      onKeyDown={onKeyDown}
      onClick={(e) => {
        if (e.detail === 1) firstClick.current = true;
      }}
      onDoubleClick={(e) => {
        // A double-click on the details button is two clicks on it, not an open.
        if (
          !firstClick.current ||
          (e.target instanceof Element && e.target.closest('.icon-button'))
        )
          return;
        open();
      }}
    >
      <div role="cell" className="name-cell">
        {edit && entryAt && (
          <input
            type="checkbox"
            className="mark"
            tabIndex={-1}
            checked={marked}
            aria-label={editStrings().select(entry.name)}
            onChange={() => edit.onMark('toggle', index, entryAt)}
          />
        )}
        <span className="row-icon">
          <ItemIcon
            kind={entry.kind}
            name={entry.name}
            thumbnail={
              entry.thumbnail ? { fileId: entry.id, updatedAt: entry.updatedAt } : undefined
            }
          />
        </span>
        <button
          ref={name}
          type="button"
          tabIndex={tabbable ? 0 : -1}
          className="link-button name"
          title={entry.name}
          aria-keyshortcuts="Enter Shift+F10"
          // A folder's name opens it; a file's selects it (toggled, so it says whether it is).
          // The second click of a double-click is not another open (Enter's click has detail 0).
          onClick={(e) => {
            if (e.detail >= 2) return;
            if (isFolder) onOpenFolder(entry.id);
            else onSelect?.(item);
          }}
          aria-label={isFolder ? strings.browse.openFolder(entry.name) : undefined}
          aria-pressed={!isFolder && onSelect ? selected : undefined}
        >
          {entry.name}
        </button>
        {badge ? <RowBadge badge={badge} /> : device && <OnDeviceBadge device={device} />}
        {entry.hidden && (
          <span className="badge" title={strings.browse.hiddenHint}>
            {strings.browse.hidden}
          </span>
        )}
        {isFolder && onSelect && (
          <button
            type="button"
            tabIndex={-1}
            className="icon-button"
            aria-pressed={selected}
            aria-label={strings.browse.details(entry.name)}
            onClick={() => onSelect(item)}
          >
            <span className="info-icon" aria-hidden="true">
              i
            </span>
          </button>
        )}
      </div>
      <div role="cell" className="type-cell">
        {typeWords(entry)}
      </div>
      <div role="cell" className="num">
        {entry.size == null ? '—' : formatBytes(entry.size)}
      </div>
      <div role="cell">
        <time dateTime={entry.updatedAt}>{formatDate(entry.updatedAt)}</time>
      </div>
    </div>
  );
}

/**
 * Rows are drawn again only when their own entry changes: while a long folder scrolls, the rows
 * still in view are left alone, and a block read meanwhile redraws only its own rows.
 */
export const EntryRow = memo(Row);

/** px: `.entries-row` in styles.css (one line a row: long names end in an ellipsis). */
export const ROW_HEIGHT = 40;

/** The header is row 1: the entry at `index` (from 0) is row `index + 2` of the table. */
function rowIndex(index: number): number {
  return index + 2;
}

/**
 * Where a row is drawn in the folder's body: rows are laid out on their own (absolutely placed,
 * of a fixed height), so a row coming into view lays out that row only, not the whole table.
 */
function placed(index: number): CSSProperties {
  return { transform: `translateY(${index * ROW_HEIGHT}px)` };
}

/** A row whose block is being read: its place is kept, its content follows. */
export function PlaceholderRow({ index }: { index: number }) {
  return (
    <div
      role="row"
      data-index={index}
      aria-rowindex={rowIndex(index)}
      className="entries-row placeholder"
      style={placed(index)}
    >
      <div role="cell">
        <span className="placeholder-bar" aria-hidden="true" />
        <span className="visually-hidden">{strings.loading}</span>
      </div>
    </div>
  );
}
