import { useEffect, useMemo, useRef, useState } from 'react';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { ActivityEvent, ActivityFilters } from '../../shared/app-api';
import { useAccount, useApi } from '../context';
import { useEvent } from '../hooks';
import { endOfDayIso, startOfDayIso } from '../format';
import { strings } from '../strings';
import { Loading } from '../components/Loading';
import { ErrorMessage } from '../components/ErrorMessage';
import { Empty } from '../components/Empty';
import { EventLine } from './EventLine';
import type { FilterState } from './ActivityFiltersForm';

/**
 * The first page is one of the service's (30 events): the feed shows after one request. Later
 * pages are larger, so a long scroll makes fewer round trips and fewer renders.
 */
/** px: `.feed-row` in styles.css. */
const ROW_HEIGHT = 40;
const FIRST_PAGE = 30;
const PAGE = 120;
type EventObject = ActivityEvent['objects'][number];

function toParams(accountId: string, f: FilterState): ActivityFilters {
  return {
    accountId,
    ...(f.workspaceId != null ? { workspaces: [f.workspaceId] } : {}),
    ...(f.actor != null ? { actor: f.actor } : {}),
    ...(f.verbs.length ? { verbs: f.verbs } : {}),
    ...(f.othersOnly ? { othersOnly: true } : {}),
    ...(f.from ? { from: startOfDayIso(f.from) } : {}),
    ...(f.to ? { to: endOfDayIso(f.to) } : {}),
  };
}

/** The feed: pages by offset as the list scrolls, only the rows in view in the DOM. */
export function ActivityFeed({
  filters,
  onOpen,
  onLoaded,
}: {
  filters: FilterState;
  onOpen: (object: EventObject, event: ActivityEvent) => void;
  /** The events held now, each time they change (the view learns who acted from them). */
  onLoaded?: (events: ActivityEvent[]) => void;
}) {
  const api = useApi();
  const account = useAccount();
  const queryClient = useQueryClient();
  const params = useMemo(() => toParams(account.id, filters), [account.id, filters]);
  const key = ['activity', params];
  const feed = useInfiniteQuery({
    queryKey: key,
    queryFn: ({ pageParam }) =>
      api.call('activity.list', {
        ...params,
        offset: pageParam,
        limit: pageParam === 0 ? FIRST_PAGE : PAGE,
      }),
    initialPageParam: 0,
    getNextPageParam: (last) => last.nextOffset ?? undefined,
    // Pages only grow: comparing thousands of events with the previous ones on every page
    // costs frames while scrolling and saves no render.
    structuralSharing: false,
    // Pushes reach the feed only while it is shown: coming back to it reads it anew.
    staleTime: 0,
  });
  const [fresh, setFresh] = useState<ActivityEvent[]>([]);
  useEffect(() => setFresh([]), [params]);

  // A pushed event is prepended when it certainly matches; when filters the window cannot
  // check on its own (verbs, dates, whose change) are set, the feed is asked again instead.
  useEvent('activity', ({ accountId, event }) => {
    if (accountId !== account.id) return;
    if (filters.workspaceId != null && event.workspaceId !== filters.workspaceId) return;
    if (filters.actor != null && event.actorId !== filters.actor) return;
    if (filters.verbs.length || filters.othersOnly || filters.from || filters.to) {
      void queryClient.invalidateQueries({ queryKey: key });
      return;
    }
    setFresh((old) => [event, ...old]);
  });

  const events = useMemo(() => {
    const seen = new Set<number>();
    const all: ActivityEvent[] = [];
    // Pushed events shift the server's offsets: a later page may repeat one.
    for (const e of [...fresh, ...(feed.data?.pages.flatMap((p) => p.items) ?? [])]) {
      if (seen.has(e.id)) continue;
      seen.add(e.id);
      all.push(e);
    }
    return all;
  }, [fresh, feed.data]);
  useEffect(() => onLoaded?.(events), [events, onLoaded]);

  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: events.length,
    getScrollElement: () => scroller.current,
    // One line a row (long sentences are cut with an ellipsis, their text stays whole for
    // assistive technology): rows of one known height need no measuring while scrolling.
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? -1;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = feed;
  useEffect(() => {
    if (lastIndex >= events.length - 5 && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [lastIndex, events.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  if (feed.isPending) return <Loading />;
  if (feed.isError) return <ErrorMessage error={feed.error} onRetry={() => void feed.refetch()} />;
  if (events.length === 0) return <Empty>{strings.activity.empty}</Empty>;

  return (
    <>
      <p className="visually-hidden" role="status" aria-live="polite">
        {fresh.length > 0 ? strings.activity.newEvents(fresh.length) : ''}
      </p>
      <div
        ref={scroller}
        className="feed"
        role="region"
        aria-label={strings.activity.feed}
        aria-busy={isFetchingNextPage}
        tabIndex={0}
      >
        <ul style={{ height: virtualizer.getTotalSize() }} className="feed-list">
          {items.map((row) => {
            const event = events[row.index]!;
            return (
              <li
                key={event.id}
                data-index={row.index}
                // Only the rows in view exist: their place in the whole list is told to
                // assistive technology.
                aria-posinset={row.index + 1}
                aria-setsize={events.length}
                className="feed-row"
                style={{ transform: `translateY(${row.start}px)` }}
              >
                <EventLine event={event} onOpen={(o) => onOpen(o, event)} />
              </li>
            );
          })}
        </ul>
        {isFetchingNextPage && <Loading />}
        {!hasNextPage && <p className="muted end">{strings.activity.end}</p>}
      </div>
    </>
  );
}
