import type { KeyboardEvent } from 'react';

/**
 * Where a list's one Tab stop moves for a key (roving tabindex, as the WAI-ARIA grid and listbox
 * patterns do it): arrows by a row, Page keys by a page, Home and End to the ends, kept within
 * the list; `undefined` for any other key, which the list leaves to the browser.
 */
export function rovingTarget(
  key: string,
  at: number,
  page: number,
  count: number,
): number | undefined {
  const to = {
    ArrowDown: at + 1,
    ArrowUp: at - 1,
    PageDown: at + page,
    PageUp: at - page,
    Home: 0,
    End: count - 1,
  }[key];
  return to === undefined ? undefined : Math.max(0, Math.min(count - 1, to));
}

/**
 * A folder picker's list keys (the sync folder picker and Browse's Move to…): arrows, Home and
 * End move the choice within the list; Enter opens the chosen folder; Backspace goes up, where
 * there is an up.
 */
export function pickerKey(
  e: KeyboardEvent<HTMLElement>,
  active: number,
  count: number,
  act: { choose(i: number): void; open(i: number): void; up?: () => void },
): void {
  const last = count - 1;
  if (e.key === 'Enter') {
    if (active >= 0 && active <= last) {
      e.preventDefault();
      act.open(active);
    }
    return;
  }
  if (e.key === 'Backspace') {
    if (act.up) {
      e.preventDefault();
      act.up();
    }
    return;
  }
  const to = { ArrowDown: active + 1, ArrowUp: active <= 0 ? 0 : active - 1, Home: 0, End: last }[
    e.key
  ];
  if (to === undefined) return;
  e.preventDefault();
  if (last >= 0) act.choose(Math.max(0, Math.min(last, to)));
}
