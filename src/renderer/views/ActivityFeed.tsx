import {
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
} from 'react';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { defaultRangeExtractor, useVirtualizer } from '@tanstack/react-virtual';
import type { ActivityEvent, ActivityFilters } from '../../shared/app-api';
import { useAccount, useApi } from '../context';
import { useEvent } from '../hooks';
import { rovingTarget } from '../roving';
import {
  endOfDayIso,
  formatDate,
  formatDay,
  formatRelative,
  formatTime,
  startOfDayIso,
} from '../format';
import { strings } from '../strings';
import { Loading } from '../components/Loading';
import { ErrorMessage } from '../components/ErrorMessage';
import { Empty } from '../components/Empty';
import { EventLine } from './EventLine';
import type { FilterState } from './ActivityFiltersForm';
import { feedRows, type FeedRow } from './feed-rows';

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
    ...(f.showOwnReads ? {} : { foldOwnReads: true }),
    ...(f.from ? { from: startOfDayIso(f.from) } : {}),
    ...(f.to ? { to: endOfDayIso(f.to) } : {}),
  };
}

/** The feed: pages by offset as the list scrolls, only the rows in view in the DOM. */
export function ActivityFeed({
  filters,
  onOpen,
  onLoaded,
  onShowOwnReads,
}: {
  filters: FilterState;
  /** Brings the folded events back (the filter's switch). */
  onShowOwnReads: () => void;
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
  /** Pushed events folded away (the person's own reads), counted with the pages' `folded`. */
  const [freshFolded, setFreshFolded] = useState(0);
  /** Event ids of the bursts opened: a burst is open while it holds one (it grows as pushed). */
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  /** The feed's Tab stop (see below): another filter is another list, which starts at its top. */
  const [active, setActive] = useState(0);
  useEffect(() => {
    setFresh([]);
    setFreshFolded(0);
    setActive(0);
  }, [params]);

  // A pushed event is prepended when it certainly matches; when filters the window cannot
  // check on its own (verbs, dates, whose change) are set, the feed is asked again instead.
  useEvent('activity', ({ accountId, event }) => {
    if (accountId !== account.id) return;
    if (event.ownRead && !filters.showOwnReads) {
      setFreshFolded((n) => n + 1);
      return;
    }
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
  const rows = useMemo(() => feedRows(events, expanded, Date.now()), [events, expanded]);
  const folded = freshFolded + (feed.data?.pages.reduce((n, p) => n + (p.folded ?? 0), 0) ?? 0);
  const toggle = (burst: ActivityEvent[], open: boolean) =>
    setExpanded((old) => {
      const next = new Set(old);
      for (const e of burst) {
        if (open) next.add(e.id);
        else next.delete(e.id);
      }
      return next;
    });

  const scroller = useRef<HTMLDivElement>(null);
  // One Tab stop for the feed (roving tabindex): the row last focused, kept in the page while
  // scrolled away so the focus is not lost; arrows move between rows, Tab leaves the feed.
  const [focusTo, setFocusTo] = useState<number | null>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    // One line a row, day headings and bursts too (long sentences are cut with an ellipsis,
    // their text stays whole for assistive technology): rows of one known height need no
    // measuring while scrolling.
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    rangeExtractor: (range) => {
      const indexes = defaultRangeExtractor(range);
      return active < range.count && !indexes.includes(active)
        ? [...indexes, active].sort((a, b) => a - b)
        : indexes;
    },
  });
  useLayoutEffect(() => {
    if (focusTo === null) return;
    const row = scroller.current?.querySelector<HTMLElement>(`li[data-index="${focusTo}"]`);
    if (!row) return;
    row.focus();
    setFocusTo(null);
  });
  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || !(e.target instanceof HTMLElement))
      return;
    const li = e.target.closest<HTMLElement>('li[data-index]');
    if (!li) return;
    const at = Number(li.dataset.index);
    // Right and left go through the row's buttons (an object to open, a burst to unfold).
    const buttons = [li, ...li.querySelectorAll<HTMLElement>('button')];
    const inRow = buttons.indexOf(e.target);
    if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
      const next = buttons[inRow + (e.key === 'ArrowRight' ? 1 : -1)];
      if (inRow < 0 || !next) return;
      e.preventDefault();
      next.focus();
      return;
    }
    if (e.key === 'Enter' && e.target === li) {
      e.preventDefault();
      buttons[1]?.click();
      return;
    }
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? 0) / ROW_HEIGHT) - 1);
    const next = rovingTarget(e.key, at, page, rows.length);
    if (next === undefined) return;
    e.preventDefault();
    setActive(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
    setFocusTo(next);
  };
  // A line cut by the row's width says itself whole on hover (and on focus: styles.css).
  const titleIfCut = (e: MouseEvent<HTMLLIElement>) => {
    const line = e.currentTarget.querySelector('.event-line');
    if (line && line.scrollWidth > line.clientWidth) e.currentTarget.title = line.textContent;
    else e.currentTarget.removeAttribute('title');
  };
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? -1;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = feed;
  useEffect(() => {
    if (lastIndex >= rows.length - 5 && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [lastIndex, rows.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  if (feed.isPending) return <Loading />;
  if (feed.isError) return <ErrorMessage error={feed.error} onRetry={() => void feed.refetch()} />;
  const foldedNote = folded > 0 && (
    <p className="muted folded-note">
      {strings.feed.folded(folded)}{' '}
      <button type="button" className="link-button" onClick={onShowOwnReads}>
        {strings.feed.showFolded}
      </button>
    </p>
  );
  if (events.length === 0)
    return (
      <>
        {foldedNote}
        {/* Still reading past the folded events: the end is not known yet. */}
        {hasNextPage ? <Loading /> : <Empty>{strings.activity.empty}</Empty>}
      </>
    );

  return (
    <>
      {foldedNote}
      <p className="visually-hidden" role="status" aria-live="polite">
        {fresh.length > 0 ? strings.activity.newEvents(fresh.length) : ''}
      </p>
      <div
        ref={scroller}
        className="feed"
        role="region"
        aria-label={strings.activity.feed}
        aria-busy={isFetchingNextPage}
      >
        <ul
          style={{ height: virtualizer.getTotalSize() }}
          className="feed-list"
          onKeyDown={onKeyDown}
          onFocus={(e) => {
            const li = e.target.closest<HTMLElement>('li[data-index]');
            if (li) setActive(Number(li.dataset.index));
          }}
        >
          {items.map((item) => {
            const row = rows[item.index]!;
            return (
              <li
                key={row.key}
                data-index={item.index}
                // Only the rows in view exist: their place in the whole list is told to
                // assistive technology.
                aria-posinset={item.index + 1}
                aria-setsize={rows.length}
                className={`feed-row feed-${row.type}`}
                style={{ transform: `translateY(${item.start}px)` }}
                tabIndex={item.index === Math.min(active, rows.length - 1) ? 0 : -1}
                onMouseEnter={titleIfCut}
              >
                <Row row={row} onOpen={onOpen} onToggle={toggle} />
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

function Row({
  row,
  onOpen,
  onToggle,
}: {
  row: FeedRow;
  onOpen: (object: EventObject, event: ActivityEvent) => void;
  onToggle: (events: ActivityEvent[], open: boolean) => void;
}) {
  switch (row.type) {
    case 'day':
      return (
        <h2 className="feed-day-title">
          {row.relation === 'today'
            ? strings.feed.today
            : row.relation === 'yesterday'
              ? strings.feed.yesterday
              : formatDay(row.at)}
        </h2>
      );
    case 'event':
      return (
        <EventLine
          event={row.event}
          onOpen={(o) => onOpen(o, row.event)}
          clock={row.day !== 'today'}
          inList
        />
      );
    case 'member':
      return (
        <EventLine
          event={row.event}
          onOpen={(o) => onOpen(o, row.event)}
          clock={row.day !== 'today'}
          compact
          inList
        />
      );
    case 'burst':
      return <BurstLine row={row} onToggle={onToggle} />;
  }
}

/** Files of a burst whose folder is asked for: larger bursts say their workspace. */
const FOLDER_LOOKUP_MAX = 100;

/**
 * A burst's line: "Kenji Sato uploaded 48 files in Reports" once the service says one folder
 * holds them all (asked only for the bursts drawn), else in the workspace the events name.
 */
function BurstLine({
  row,
  onToggle,
}: {
  row: Extract<FeedRow, { type: 'burst' }>;
  onToggle: (events: ActivityEvent[], open: boolean) => void;
}) {
  const api = useApi();
  const account = useAccount();
  const newest = row.events[0]!;
  const oldest = row.events.at(-1)!;
  const fileIds = row.events.map((e) => e.objects[0]?.id ?? null);
  const ids = fileIds.filter((id): id is number => id !== null);
  const folder = useQuery({
    queryKey: ['activity.burstFolder', account.id, ids.join(',')],
    queryFn: () => api.call('activity.burstFolder', { accountId: account.id, fileIds: ids }),
    enabled:
      row.kind === 'file' && ids.length === fileIds.length && ids.length <= FOLDER_LOOKUP_MAX,
    // Where a file was when it was uploaded does not change what the line says.
    staleTime: Infinity,
    retry: false,
  });
  const where = folder.data?.folder?.name ?? row.workspace;
  return (
    <p className="event-line burst">
      <button
        type="button"
        className="burst-toggle"
        tabIndex={-1}
        aria-expanded={row.expanded}
        onClick={() => onToggle(row.events, !row.expanded)}
      >
        <span className="chevron" aria-hidden="true">
          {row.expanded ? '▾' : '▸'}
        </span>
        {strings.feed.burst(newest.subject, newest.predicate, row.events.length, row.kind, where)}
      </button>{' '}
      <time
        className="muted"
        dateTime={newest.at}
        title={`${formatDate(oldest.at)} – ${formatDate(newest.at)}`}
      >
        {row.day === 'today' ? formatRelative(newest.at) : formatTime(newest.at)}
      </time>
    </p>
  );
}
