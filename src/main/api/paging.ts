import { ProtocolError } from './errors';

// Offset paging that ends whatever the server says: past `total_entries`, at a page of items
// all listed already (an ignored offset), or past more items than any list holds.

/** More items than any one list holds: past this a server is sending the same list forever. */
export const MAX_LIST_ITEMS = 1_000_000;

/** What names a list item across pages: its wrapped resource's id (`{folder: {id}}`) or its own. */
export function identity(item: Record<string, unknown>): string | null {
  for (const [key, value] of Object.entries(item)) {
    if (value && typeof value === 'object' && 'id' in value) {
      return `${key}:${String((value as { id: unknown }).id)}`;
    }
  }
  return 'id' in item ? `id:${String(item.id)}` : null;
}

/**
 * The offset of the page after one of `count` items at `offset` (`fresh` of them not seen on an
 * earlier page, `listed` yielded in all), or null at the end; throws when the server loops.
 */
export function nextOffset(
  endpoint: string,
  page: { total_entries?: number; next_offset?: number | null },
  offset: number,
  count: number,
  fresh: number,
  listed: number,
): number | null {
  if (page.total_entries !== undefined && offset + count >= page.total_entries) return null;
  if (fresh === 0) {
    throw new ProtocolError(
      endpoint,
      '',
      `repeats the page at offset ${offset} (the server ignores offset)`,
    );
  }
  if (listed > MAX_LIST_ITEMS) {
    throw new ProtocolError(endpoint, '', `lists more than ${MAX_LIST_ITEMS} items`);
  }
  const next = page.next_offset !== undefined ? page.next_offset : offset + count;
  return next === null || next <= offset ? null : next;
}
