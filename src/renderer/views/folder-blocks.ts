import { useEffect, useMemo } from 'react';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import type { ContentSort, Entry, ResultOf } from '../../shared/app-api';
import { useAccount, useApi } from '../context';

// A folder's listing read by blocks of rows as they come into view: a folder of 20,000 entries
// is a few requests wherever it is scrolled to, never all 334 pages before the first rows. The
// list's size comes first (from the blocks read so far), then the blocks of the rows it lays
// out and of those about to come into view (`wantedBlocks`).

/**
 * Rows per request: one of the service's folder pages (60), so that a block is one round trip
 * and the first rows of a folder wait for one page only.
 */
export const BLOCK = 60;

type Block = ResultOf<'folders.contents'>;

export interface Listing {
  folderId: number;
  query: string;
  sort: ContentSort;
  /** The other way round from the service's order (folders still first). */
  reversed?: boolean;
  /** Offline: the pair whose journal is read instead of the service (`synced.contents`). */
  pairId?: string | null;
}

/** The query key of a listing's blocks, without the block's number. */
function useListingKey({ folderId, query, sort, reversed = false, pairId }: Listing) {
  const account = useAccount();
  return useMemo(
    () =>
      pairId
        ? (['synced.contents', pairId, folderId, query, sort, reversed] as const)
        : (['folders.contents', account.id, folderId, query, sort, reversed] as const),
    [account.id, folderId, query, sort, reversed, pairId],
  );
}

export interface FolderSize {
  /** Rows to lay out: the folder's count, or what is known so far when the server does not say. */
  count: number;
  /** Whether `count` is the folder's own count (else more may follow past it). */
  exact: boolean;
  /** Nothing read yet: no count to lay out. */
  pending: boolean;
}

/**
 * How many rows the listing has, from the newest block read (the folder may have changed
 * meanwhile). Every block read counts, not only those in view: rows scrolled to before their
 * block is read keep their place instead of the list going back to "loading". The component
 * is drawn again when a block it shows arrives (`useFolderBlocks`), which is when this changes.
 */
export function useFolderSize(listing: Listing): FolderSize {
  const queryClient = useQueryClient();
  const base = useListingKey(listing);
  let newest: { at: number; data: Block } | null = null;
  let known = 0;
  let more = false;
  for (const q of queryClient.getQueryCache().findAll({ queryKey: base })) {
    const data = q.state.data as Block | undefined;
    const block = q.queryKey[base.length];
    if (!data || typeof block !== 'number') continue;
    if (!newest || q.state.dataUpdatedAt > newest.at) newest = { at: q.state.dataUpdatedAt, data };
    const end = block * BLOCK + data.items.length;
    if (end >= known) {
      known = end;
      more = data.nextOffset !== null;
    }
  }
  const total = newest?.data.total;
  return {
    // No count from the server: the rows known, and one more to read on where a next page is.
    count: total ?? known + (more ? 1 : 0),
    exact: total != null,
    pending: newest === null,
  };
}

/** The blocks holding rows `first` to `last` (both included); the first block when none. */
export function blocksOf(first: number, last: number): number[] {
  if (last < first) return [0];
  const out: number[] = [];
  for (let b = Math.floor(first / BLOCK); b <= Math.floor(last / BLOCK); b++) out.push(b);
  return out;
}

/**
 * Rows beyond the overscan whose blocks are read ahead once the rows in view are shown: at a
 * wheel's pace (a few rows a frame) the next block has arrived before its rows scroll in, so
 * they are laid out once with their entries instead of as placeholders first.
 */
export const AHEAD = BLOCK;

/**
 * The blocks a list wants read, as their numbers joined by commas (the same blocks, the same
 * string): those of the rows `laid` out; then, once the rows in `view` have their entries, those
 * `AHEAD` rows further either way (not before: the first rows of a folder wait for one request
 * only); and the pinned row's, so that it stays read (and is read again when the list is). The
 * first block while nothing is laid out.
 */
export function wantedBlocks({
  laid,
  view,
  count,
  pinned,
  entry,
}: {
  laid: { first: number; last: number } | null;
  view: { first: number; last: number } | null;
  count: number;
  pinned: number | null;
  entry: (index: number) => Entry | undefined;
}): string {
  if (!laid || !view || count === 0) return '0';
  const ahead = entry(view.first) !== undefined && entry(view.last) !== undefined ? AHEAD : 0;
  const blocks = blocksOf(Math.max(0, laid.first - ahead), Math.min(count - 1, laid.last + ahead));
  const pinnedBlock = pinned === null ? null : Math.floor(pinned / BLOCK);
  if (pinnedBlock !== null && !blocks.includes(pinnedBlock)) blocks.push(pinnedBlock);
  return blocks.join(',');
}

/**
 * Rows are laid out and dropped this many at a time, at least this many beyond the view either
 * way (Tab reaches the next row's buttons before it scrolls in). While a wheel moves a few rows
 * a frame, most frames then add no row: the page only scrolls, and the rows that do come are
 * laid out, styled and painted together rather than a few each frame, each time paying again
 * for a render, a style pass and a layout.
 */
export const STEP = 10;

/** The rows laid out for the rows `first` to `last` in view: whole steps, one more either way. */
export function laidOut(
  first: number,
  last: number,
  count: number,
): { first: number; last: number } {
  return {
    first: Math.max(0, (Math.floor(first / STEP) - 1) * STEP),
    last: Math.min(count - 1, (Math.floor(last / STEP) + 2) * STEP - 1),
  };
}

export interface FolderBlocks {
  entry(index: number): Entry | undefined;
  /** The first failure among the blocks wanted, with a retry of them. */
  error: Error | null;
  retry(): void;
  /** Whether a block of the rows `first` to `last` is being read (those read ahead do not count). */
  reading(first: number, last: number): boolean;
}

/**
 * Reads the blocks `wanted` (those of the rows laid out and read ahead, `wantedBlocks`), and
 * gives the rows' entries.
 */
export function useFolderBlocks(listing: Listing, wanted: readonly number[]): FolderBlocks {
  const api = useApi();
  const account = useAccount();
  const queryClient = useQueryClient();
  const base = useListingKey(listing);
  const { folderId, query, sort, reversed = false, pairId } = listing;

  // Opening a folder lists it anew, as a file manager does (what is cached shows meanwhile).
  // Blocks read during this visit stay fresh: scrolling back asks nothing again.
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: base }, { cancelRefetch: false });
  }, [queryClient, base]);

  const results = useQueries({
    queries: wanted.map((b) => ({
      queryKey: [...base, b],
      queryFn: (): Promise<Block> => {
        const page = {
          folderId,
          sort,
          ...(reversed ? { reversed } : {}),
          offset: b * BLOCK,
          limit: BLOCK,
          ...(query ? { query } : {}),
        };
        return pairId
          ? api.call('synced.contents', { pairId, ...page })
          : api.call('folders.contents', { accountId: account.id, ...page });
      },
      staleTime: Infinity,
    })),
  });

  // Read here, in the render, not later in the callbacks below: useQueries draws this again only
  // when a field it saw read changes (an arriving block's data, a read ending).
  const data = results.map((r) => r.data);
  const fetching = results.map((r) => r.isFetching);
  // Blocks out of view are read from the cache: a pinned row (the focused one) keeps its data.
  const blockAt = (b: number): Block | undefined => {
    const i = wanted.indexOf(b);
    return (i >= 0 ? data[i] : undefined) ?? queryClient.getQueryData<Block>([...base, b]);
  };
  const failed = results.find((r) => r.error);
  return {
    entry: (index) => blockAt(Math.floor(index / BLOCK))?.items[index % BLOCK],
    error: failed?.error ?? null,
    retry: () => {
      for (const r of results) if (r.error) void r.refetch();
    },
    reading: (first, last) =>
      blocksOf(first, last).some((b) => fetching[wanted.indexOf(b)] === true),
  };
}
