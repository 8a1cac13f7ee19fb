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
