import { useCallback } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BrowseSort, Settings } from '../../shared/app-api';
import { useApi } from '../context';

// Browse's column order per workspace (issue 42), kept in the settings (`browseSorts`) so that
// it is there again when the window is opened again; shown at once, stored behind.

export const DEFAULT_SORT: BrowseSort = { sort: 'alphabetical', reversed: false };

/** The order of the workspace `workspaceId`, and a setter that keeps it. */
export function useBrowseSort(workspaceId: number | null) {
  const api = useApi();
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: ['settings'],
    queryFn: () => api.call('settings.get', {}),
  });
  const key = workspaceId === null ? null : String(workspaceId);
  const order = (key !== null && settings.data?.browseSorts[key]) || DEFAULT_SORT;
  const { mutate } = useMutation({
    mutationFn: (browseSorts: Settings['browseSorts']) =>
      api.call('settings.update', { browseSorts }),
    onSuccess: (next) => queryClient.setQueryData(['settings'], next),
  });
  const set = useCallback(
    (next: BrowseSort) => {
      if (key === null) return;
      const now = queryClient.getQueryData<Settings>(['settings']);
      if (!now) return;
      const browseSorts = { ...now.browseSorts, [key]: next };
      // Shown at once: the listing follows the order without waiting for the file.
      queryClient.setQueryData<Settings>(['settings'], { ...now, browseSorts });
      mutate(browseSorts);
    },
    [key, mutate, queryClient],
  );
  return [order, set] as const;
}
