// What a list gathered whole for the window may cost. A service that answers with endless fresh
// pages (each one new, each with a next offset) passes every check of the client's paging until
// a million items: gathered for the window, one call went past 1 GB and took the engine host,
// and every pair's sync with it, down. So a list kept for the window stops at a number of items
// and of bytes, and one read only to look for something stops at a number of items read; the
// window is told it was cut (`cut`). What one call costs at most is then WINDOW_LIST_BYTES of
// kept items plus the one page being read (the transport refuses an answer past its
// `maxJsonBytes`, 32 MB).

/** Items a list kept for the window holds at most: more than a person reads in a list. */
export const WINDOW_LIST_ITEMS = 5_000;
/** Characters of JSON (what crosses to the window; about its bytes) a kept list holds at most. */
export const WINDOW_LIST_BYTES = 8 * 1024 * 1024;
/** Items read at most while looking through a list (kept or not): past this it is cut. */
export const WINDOW_LIST_READ = 20_000;

export interface Gathered<U> {
  items: U[];
  /** Whether the list went on past a bound: the window says only the first ones are shown. */
  cut: boolean;
}

/**
 * Gathers `keep`'s answers for the items of a list (null: read, not kept) within the bounds
 * above. Leaving the loop ends the client's page iterator, so no page past the bound is asked.
 */
export async function gather<T, U>(
  items: AsyncIterable<T>,
  keep: (item: T) => U | null,
  bounds: { items?: number; bytes?: number; read?: number } = {},
): Promise<Gathered<U>> {
  const maxItems = bounds.items ?? WINDOW_LIST_ITEMS;
  const maxBytes = bounds.bytes ?? WINDOW_LIST_BYTES;
  const maxRead = bounds.read ?? WINDOW_LIST_READ;
  const out: U[] = [];
  let bytes = 0;
  let read = 0;
  for await (const item of items) {
    if (read >= maxRead || out.length >= maxItems) return { items: out, cut: true };
    read++;
    const kept = keep(item);
    if (kept === null) continue;
    bytes += JSON.stringify(kept).length;
    if (bytes > maxBytes) return { items: out, cut: true };
    out.push(kept);
  }
  return { items: out, cut: false };
}

/** The first WINDOW_LIST_READ items of a list (or `n`): a look through it that ends. */
export async function* upTo<T>(items: AsyncIterable<T>, n = WINDOW_LIST_READ): AsyncGenerator<T> {
  let read = 0;
  for await (const item of items) {
    if (read++ >= n) return;
    yield item;
  }
}
