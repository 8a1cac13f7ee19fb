import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SyncPair } from '../../shared/app-api';
import { useApi } from '../context';
import { useEvent } from '../hooks';

/** The sync pairs, kept current by the status pushes (Status and Settings share this cache). */
export function usePairs() {
  const api = useApi();
  const queryClient = useQueryClient();
  const pairs = useQuery({ queryKey: ['pairs'], queryFn: () => api.call('pairs.list', {}) });
  // Status is pushed as it changes; the cached list is patched instead of asked again.
  useEvent('pair-status', ({ pairId, status }) => {
    const before = queryClient.getQueryData<SyncPair[]>(['pairs'])?.find((p) => p.id === pairId);
    queryClient.setQueryData<SyncPair[]>(['pairs'], (old) =>
      old?.map((p) => (p.id === pairId ? { ...p, status, paused: status.state === 'paused' } : p)),
    );
    // Signed out by the service (or back): the sidebar's account says so, asked again once.
    const out = (s?: SyncPair['status']) => s?.error?.kind === 'signed-out';
    if (out(before?.status) !== out(status))
      void queryClient.invalidateQueries({ queryKey: ['accounts'] });
  });
  return pairs;
}

/** Answers the deletions a pair holds back (its status's `held`). */
export function useAnswerDeletes(pair: SyncPair) {
  const api = useApi();
  return useMutation({
    mutationFn: (answer: 'confirm' | 'keep') =>
      api.call('pairs.answerDeletes', { pairId: pair.id, answer }),
  });
}

/** Pause or resume a pair, whichever it is not; the list is asked again after. */
export function usePauseToggle(pair: SyncPair) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.call(pair.paused ? 'pairs.resume' : 'pairs.pause', { pairId: pair.id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['pairs'] }),
  });
}

/** Retry now: the pair's next pass starts at once (the wait after a failure cut short). */
export function useRetryNow(pair: SyncPair) {
  const api = useApi();
  return useMutation({ mutationFn: () => api.call('pairs.retry', { pairId: pair.id }) });
}
