import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../context';
import { strings } from '../strings';
import { Loading } from '../components/Loading';
import { ErrorMessage } from '../components/ErrorMessage';
import { PairCard } from './PairCard';
import { SetupPair } from './SetupPair';
import { usePairs } from './pairs';

/**
 * One card per synced folder, each with its own pause, and "Add folder" at any time: the
 * setup form opens above the cards (for `setupFor`, an account just added, at once).
 */
export function StatusView({ setupFor }: { setupFor?: string | null }) {
  const api = useApi();
  const pairs = usePairs();
  const accounts = useQuery({
    queryKey: ['accounts'],
    queryFn: () => api.call('accounts.list', {}),
  });
  /** Each card names its account once there are several. */
  const emailOf = (accountId: string) =>
    (accounts.data?.length ?? 0) > 1
      ? accounts.data?.find((a) => a.id === accountId)?.email
      : undefined;
  const [adding, setAdding] = useState<{ accountId?: string } | null>(
    setupFor ? { accountId: setupFor } : null,
  );
  const addButton = useRef<HTMLButtonElement>(null);
  const none = pairs.data?.length === 0;
  // Back at Add folder once the form is gone (the button is enabled again by then), for the
  // next one: the form replaced nothing else.
  const refocus = useRef(false);
  useEffect(() => {
    // After the first pair, the button appears once the list has it.
    if (adding !== null || none || !refocus.current) return;
    refocus.current = false;
    addButton.current?.focus();
  }, [adding, none]);
  const close = () => {
    refocus.current = true;
    setAdding(null);
  };

  return (
    <section aria-labelledby="status-title">
      <div className="view-header">
        <h1 id="status-title">{strings.status.title}</h1>
        {pairs.data && !none && (
          <button
            ref={addButton}
            type="button"
            className="primary"
            aria-expanded={adding !== null}
            onClick={() => setAdding({})}
            disabled={adding !== null}
          >
            <span aria-hidden="true">+ </span>
            {strings.setup.addFolder}
          </button>
        )}
      </div>
      {pairs.isPending && <Loading />}
      {pairs.isError && <ErrorMessage error={pairs.error} onRetry={() => void pairs.refetch()} />}
      {none && <p className="empty">{strings.status.noPairs}</p>}
      {(none || adding) && (
        <SetupPair
          key={adding?.accountId ?? ''}
          {...(adding?.accountId ? { accountId: adding.accountId } : {})}
          onDone={close}
          {...(none && !adding ? {} : { onCancel: close })}
        />
      )}
      {pairs.data?.map((p) => (
        <PairCard key={p.id} pair={p} account={emailOf(p.accountId)} />
      ))}
    </section>
  );
}
