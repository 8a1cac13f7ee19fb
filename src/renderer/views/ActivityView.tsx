import { useCallback, useState } from 'react';
import type { ActivityEvent } from '../../shared/app-api';
import { useQuery } from '@tanstack/react-query';
import { useAccount, useApi } from '../context';
import type { Navigate } from '../navigation';
import { strings } from '../strings';
import {
  ActivityFiltersForm,
  noFilters,
  type FilterState,
  type Person,
} from './ActivityFiltersForm';
import { ActivityFeed } from './ActivityFeed';

export function ActivityView({ navigate }: { navigate: Navigate }) {
  const api = useApi();
  const account = useAccount();
  const [filters, setFilters] = useState<FilterState>(noFilters);
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
      <ActivityFiltersForm
        filters={filters}
        onChange={setFilters}
        workspaces={workspaces.data ?? []}
        people={people}
      />
      <ActivityFeed
        filters={filters}
        onLoaded={learn}
        onShowOwnReads={() => setFilters((f) => ({ ...f, showOwnReads: true }))}
        onOpen={(o, event) => {
          const workspaceId = o.workspaceId ?? event.workspaceId;
          if (o.id == null) return;
          if (o.kind === 'folder')
            navigate('browse', { workspaceId, folderId: o.id, selected: null });
          else if (o.kind === 'file')
            // The event does not say which folder holds the file: its panel opens at the root.
            navigate('browse', {
              workspaceId,
              folderId: null,
              selected: { kind: 'file', id: o.id, name: o.text },
            });
          else navigate('browse', { workspaceId: o.id, folderId: null, selected: null });
        }}
      />
    </section>
  );
}
