import { strings } from '../strings';
import { Loading } from '../components/Loading';
import { ErrorMessage } from '../components/ErrorMessage';
import { PairCard } from './PairCard';
import { SetupPair } from './SetupPair';
import { usePairs } from './pairs';

export function StatusView() {
  const pairs = usePairs();

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
