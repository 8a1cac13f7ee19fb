import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { OnDemandOp, OnDevice } from '../../shared/app-api';
import type { SelectedItem } from '../navigation';
import { strings } from '../strings';
import { offers } from './on-device';
import { editStrings } from './edit-strings';

/** A file operation of the menu (issue 42): `reason` says why it is disabled (null: it is not). */
export interface MenuEditAction {
  reason: string | null;
  run: () => void;
}

/** A context menu asked for: on which item, where, and where focus goes back after. */
export interface MenuRequest {
  item: SelectedItem;
  /** The signed-in person added it (`Entry.mine`): a Creator may delete it. */
  mine?: boolean | undefined;
  /** Viewport coordinates: the pointer, or below the focused row for the keyboard. */
  x: number;
  y: number;
  returnTo: HTMLElement | null;
}

/** Whether a key press asks for the context menu (the Menu key, or Shift+F10). */
export function isMenuKey(e: { key: string; shiftKey: boolean }): boolean {
  return e.key === 'ContextMenu' || (e.shiftKey && e.key === 'F10');
}

const MARGIN = 4;

/**
 * The right-click menu of an item in Browse, after the WAI-ARIA menu pattern: focus moves to the
 * first item, arrows (Home, End) move between items, Enter or Space runs one, Escape or Tab
 * closes and focus goes back where it was; a click elsewhere closes it.
 */
export function ItemMenu({
  request,
  onClose,
  onOpen,
  onShow,
  onBrowser,
  onCopy,
  onDetails,
  device,
  onDemand,
  edit,
}: {
  request: MenuRequest;
  onClose: () => void;
  /** A folder: into it; a file: with its app (when synced here). */
  onOpen: (item: SelectedItem) => void;
  /** The synced item selected in the system's file manager. */
  onShow: (item: SelectedItem) => void;
  /** The item's share page in the browser; absent offline (as are the next two). */
  onBrowser?: ((item: SelectedItem) => void) | undefined;
  onCopy?: ((item: SelectedItem) => void) | undefined;
  onDetails?: ((item: SelectedItem) => void) | undefined;
  /** Where the item is on this device (files on demand): absent when it is not synced here. */
  device?: OnDevice | undefined;
  onDemand?: ((item: SelectedItem, op: OnDemandOp) => void) | undefined;
  /** Rename, move and delete (absent offline), each disabled with its reason where not allowed. */
  edit?: { rename: MenuEditAction; move: MenuEditAction; remove: MenuEditAction } | undefined;
}) {
  const menu = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState({ left: request.x, top: request.y });
  const { item, returnTo } = request;

  const items = () => [
    ...(menu.current?.querySelectorAll<HTMLButtonElement>('[role^="menuitem"]') ?? []),
  ];
  const close = (restoreFocus: boolean) => {
    onClose();
    if (restoreFocus) returnTo?.focus();
  };

  // Kept inside the window, measured before it is painted.
  useLayoutEffect(() => {
    const box = menu.current?.getBoundingClientRect();
    if (!box) return;
    setPlace({
      left: Math.max(MARGIN, Math.min(request.x, window.innerWidth - box.width - MARGIN)),
      top: Math.max(MARGIN, Math.min(request.y, window.innerHeight - box.height - MARGIN)),
    });
  }, [request.x, request.y]);

  useEffect(() => {
    items()[0]?.focus();
    const outside = (e: PointerEvent) => {
      if (!menu.current?.contains(e.target as Node)) onClose();
    };
    document.addEventListener('pointerdown', outside, true);
    return () => document.removeEventListener('pointerdown', outside, true);
    // Once per menu: a new request is a new menu (the caller keys it).
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLButtonElement);
    const move = (to: number) => all[(to + all.length) % all.length]?.focus();
    switch (e.key) {
      case 'ArrowDown':
        move(at + 1);
        break;
      case 'ArrowUp':
        move(at - 1);
        break;
      case 'Home':
        move(0);
        break;
      case 'End':
        move(all.length - 1);
        break;
      case 'Escape':
      case 'Tab':
        close(true);
        break;
      default:
        // The menu key again, on the open menu, does not open another one.
        if (!isMenuKey(e)) return;
    }
    e.preventDefault();
    e.stopPropagation();
  };

  const run = (action: (item: SelectedItem) => void) => () => {
    close(true);
    action(item);
  };

  // In the menu's order; an action the place does not offer (undefined) is left out.
  const actions: [string, ((item: SelectedItem) => void) | undefined][] = [
    [strings.files.open, onOpen],
    [strings.files.showInFolder, onShow],
    [strings.files.openInBrowser, onBrowser],
    [strings.menu.copyLink, onCopy],
    [strings.menu.details, onDetails],
  ];

  // Files on demand: an action that cannot apply now stays in its place, disabled (reachable, as
  // the menu pattern keeps disabled items, so the person learns it exists).
  const may = device && offers(device);
  const onDevice = may && onDemand && (
    <>
      <div role="separator" className="menu-separator" />
      <button
        type="button"
        role="menuitem"
        tabIndex={-1}
        aria-disabled={!may.download || undefined}
        onClick={may.download ? run((i) => onDemand(i, 'download')) : undefined}
      >
        {strings.files.downloadNow}
      </button>
      <button
        type="button"
        role="menuitemcheckbox"
        aria-checked={may.pinned}
        tabIndex={-1}
        onClick={run((i) => onDemand(i, may.pinned ? 'unpin' : 'pin'))}
      >
        <span className="menu-check" aria-hidden="true">
          {may.pinned ? '✓' : ''}
        </span>
        {strings.files.alwaysKeep}
      </button>
      <button
        type="button"
        role="menuitem"
        tabIndex={-1}
        aria-disabled={!may.free || undefined}
        title={may.pinned ? strings.files.freeUpPinned : undefined}
        onClick={may.free ? run((i) => onDemand(i, 'free')) : undefined}
      >
        {strings.files.freeUp}
      </button>
    </>
  );

  const es = editStrings();
  const editing = edit && (
    <>
      <div role="separator" className="menu-separator" />
      {(
        [
          [es.rename, edit.rename, 'F2'],
          [es.moveTo, edit.move, undefined],
          [es.delete, edit.remove, 'Delete'],
        ] as const
      ).map(([label, action, keys]) => (
        <button
          key={label}
          type="button"
          role="menuitem"
          tabIndex={-1}
          aria-keyshortcuts={keys}
          aria-disabled={action.reason !== null || undefined}
          // Why it cannot be done, in words: the pointer's tooltip and the item's description.
          title={action.reason ?? undefined}
          onClick={action.reason === null ? run(() => action.run()) : undefined}
        >
          {label}
        </button>
      ))}
    </>
  );

  return (
    <div
      ref={menu}
      role="menu"
      aria-label={strings.menu.label(item.name)}
      className="context-menu"
      style={{ left: place.left, top: place.top }}
      onKeyDown={onKeyDown}
      onContextMenu={(e) => e.preventDefault()}
    >
      {actions.map(
        ([label, action]) =>
          action && (
            <button key={label} type="button" role="menuitem" tabIndex={-1} onClick={run(action)}>
              {label}
            </button>
          ),
      )}
      {editing}
      {onDevice}
    </div>
  );
}
