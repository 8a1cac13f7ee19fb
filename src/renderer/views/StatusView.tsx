import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { SyncPair } from '../../shared/app-api';
import { useApi } from '../context';
import { useEvent } from '../hooks';
import { strings } from '../strings';
import { Loading } from '../components/Loading';
import { ErrorMessage } from '../components/ErrorMessage';
import { PairCard } from './PairCard';
import { SetupPair } from './SetupPair';

export function StatusView() {
  const api = useApi();
  const queryClient = useQueryClient();
  const pairs = useQuery({ queryKey: ['pairs'], queryFn: () => api.call('pairs.list', {}) });

  // Status is pushed as it changes; the cached list is patched instead of asked again.
  useEvent('pair-status', ({ pairId, status }) => {
    queryClient.setQueryData<SyncPair[]>(['pairs'], (old) =>
      old?.map((p) => (p.id === pairId ? { ...p, status, paused: status.state === 'paused' } : p)),
    );
  });

  return (
    <section aria-labelledby="status-title">
      <h1 id="status-title">{strings.status.title}</h1>
      {pairs.isPending && <Loading />}
      {pairs.isError && <ErrorMessage error={pairs.error} onRetry={() => void pairs.refetch()} />}
      {pairs.data?.length === 0 && (
        <>
          <p className="empty">{strings.status.noPairs}</p>
          <SetupPair />
        </>
      )}
      {pairs.data?.map((p) => (
        <PairCard key={p.id} pair={p} />
      ))}
    </section>
  );
}
