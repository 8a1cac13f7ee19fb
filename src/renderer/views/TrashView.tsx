import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TrashEntry } from '../../shared/app-api';
import { useApi } from '../context';
import { formatDate } from '../format';
import { strings } from '../strings';
import { Empty } from '../components/Empty';
import { Loading } from '../components/Loading';
import { ErrorMessage } from '../components/ErrorMessage';

/**
 * Trash: what the sync moved to its trash (deleted on the service, Keep mine or Keep theirs, a
 * folder left out), newest first, each with where it came from; Restore puts it back in its
 * folder (a numbered name when the place is taken), Show opens the file manager at it.
 */
export function TrashView() {
  const api = useApi();
  const queryClient = useQueryClient();
  const trash = useQuery({ queryKey: ['trash'], queryFn: () => api.call('trash.list', {}) });
  const [notice, setNotice] = useState('');
  const restore = useMutation({
    mutationFn: (e: TrashEntry) => api.call('trash.restore', { id: e.id }),
    onSuccess: async ({ path }, e) => {
      setNotice(strings.trash.restored(e.name, path));
      await queryClient.invalidateQueries({ queryKey: ['trash'] });
    },
  });
  const show = useMutation({
    mutationFn: (e: TrashEntry) => api.call('trash.show', { id: e.id }),
  });
  const items = trash.data?.items ?? [];
  return (
    <section aria-labelledby="trash-title">
      <h1 id="trash-title">{strings.trash.title}</h1>
      <p className="muted">{strings.trash.explain}</p>
      <p role="status" aria-live="polite" className="notice-line">
        {notice}
      </p>
      {restore.isError && <ErrorMessage error={restore.error} title={strings.trash.restore} />}
      {show.isError && <ErrorMessage error={show.error} title={strings.trash.show} />}
      {trash.isPending && <Loading />}
      {trash.isError && <ErrorMessage error={trash.error} onRetry={() => void trash.refetch()} />}
      {trash.data && items.length === 0 && <Empty>{strings.trash.empty}</Empty>}
      {items.length > 0 && (
        <ul className="trash-list">
          {items.map((e) => (
            <li key={e.id} className="trash-entry">
              <div>
                <strong>{e.name}</strong>
                <p className="muted">{strings.trash.from(e.relPath, e.root)}</p>
                <p className="muted">{strings.trash.when(formatDate(e.trashedAt))}</p>
              </div>
              <div className="actions">
                <button
                  type="button"
                  aria-label={strings.trash.restoreLabel(e.name)}
                  disabled={restore.isPending}
                  onClick={() => restore.mutate(e)}
                >
                  {strings.trash.restore}
                </button>
                <button
                  type="button"
                  aria-label={strings.trash.showLabel(e.name)}
                  onClick={() => show.mutate(e)}
                >
                  {strings.trash.show}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {trash.data?.cut && <p className="muted">{strings.listCut(items.length)}</p>}
    </section>
  );
}
