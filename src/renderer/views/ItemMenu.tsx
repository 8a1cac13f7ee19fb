import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { SelectedItem } from '../navigation';
import { strings } from '../strings';

/** A context menu asked for: on which item, where, and where focus goes back after. */
export interface MenuRequest {
  item: SelectedItem;
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
}) {
  const menu = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState({ left: request.x, top: request.y });
  const { item, returnTo } = request;

  const items = () => [
    ...(menu.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? []),
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
    </div>
  );
}
