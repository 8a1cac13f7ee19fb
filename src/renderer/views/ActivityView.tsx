import { useCallback, useState } from 'react';
import type { ActivityEvent } from '../../shared/app-api';
import { useQuery } from '@tanstack/react-query';
import { useAccount, useApi } from '../context';
import type { Navigate } from '../navigation';
import { strings } from '../strings';
import {
  ActivityFiltersForm,
  filtersSet,
  noFilters,
  type FilterState,
  type Person,
} from './ActivityFiltersForm';
import { ActivityFeed } from './ActivityFeed';

/** A window where the filters open would leave the feed a few lines (styles.css's narrow width). */
const SMALL = '(max-width: 960px), (max-height: 700px)';

export function ActivityView({ navigate }: { navigate: Navigate }) {
  const api = useApi();
  const account = useAccount();
  const [filters, setFilters] = useState<FilterState>(noFilters);
  // Folded by default in a small window, where the filters would take most of the view from
  // the feed; open in a large one. The person's choice holds while the view is shown.
  const [filtersOpen, setFiltersOpen] = useState(() => !window.matchMedia(SMALL).matches);
  const set = filtersSet(filters);
  // The people seen acting in the events loaded so far: kept when a filter narrows the feed,
  // so the person chosen stays on the list and another one can be chosen.
  const [people, setPeople] = useState<Person[]>([]);
  const learn = useCallback((events: ActivityEvent[]) => {
    setPeople((known) => {
      const byId = new Map(known.map((p) => [p.id, p]));
      for (const e of events)
        if (e.actorId != null && !byId.has(e.actorId))
          byId.set(e.actorId, { id: e.actorId, name: e.subject });
      if (byId.size === known.length) return known;
      return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name));
    });
  }, []);
  const workspaces = useQuery({
    queryKey: ['workspaces', account.id],
    queryFn: () => api.call('workspaces.list', { accountId: account.id }),
    select: (listed) => listed.items,
  });
  return (
    <section aria-labelledby="activity-title" className="activity">
      <h1 id="activity-title">{strings.activity.title}</h1>
      <div className="filters-toggle">
        <button
          type="button"
          aria-expanded={filtersOpen}
          aria-controls="activity-filters"
          onClick={() => setFiltersOpen(!filtersOpen)}
        >
          <span className="chevron" aria-hidden="true">
            {filtersOpen ? '▾' : '▸'}
          </span>
          {strings.activity.filters}
        </button>
        {/* Folded filters still narrow the feed: say so, or the feed would look whole. */}
        {!filtersOpen && set > 0 && (
          <span className="muted">{strings.activity.filtersSet(set)}</span>
        )}
      </div>
      {filtersOpen && (
        <ActivityFiltersForm
          id="activity-filters"
          filters={filters}
          onChange={setFilters}
          workspaces={workspaces.data ?? []}
          people={people}
        />
      )}
      <ActivityFeed
        filters={filters}
        onLoaded={learn}
        onShowOwnReads={() => setFilters((f) => ({ ...f, showOwnReads: true }))}
        onOpen={(o, event) => {
          const workspaceId = o.workspaceId ?? event.workspaceId;
          if (o.id == null) return;
          if (o.kind === 'folder')
            navigate('browse', { workspaceId, folderId: o.id, selected: null });
          else if (o.kind === 'file') {
            // The event does not say which folder holds the file: the service does (the burst's
            // folder of one file); Browse opens there with the file selected, at the root when
            // it cannot be told (the file gone, or no longer this person's to see).
            const selected = { kind: 'file' as const, id: o.id, name: o.text };
            const open = (folderId: number | null) =>
              navigate('browse', { workspaceId, folderId, selected });
            api
              .call('activity.burstFolder', { accountId: account.id, fileIds: [o.id] })
              .then(({ folder }) => open(folder?.id ?? null))
              .catch(() => open(null));
          } else navigate('browse', { workspaceId: o.id, folderId: null, selected: null });
        }}
      />
    </section>
  );
}
