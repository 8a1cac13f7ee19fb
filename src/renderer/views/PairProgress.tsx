import type { SyncPairStatus } from '../../shared/app-api';
import { progressFraction } from '../../shared/progress-words';
import { formatBytes, formatCount } from '../format';
import { strings } from '../strings';

/**
 * A pass's progress on a pair's card: the bar (items and bytes, half each) with their counts, the speed and the time
 * left (once the engine can tell), and the step under way in words. The engine keeps done within
 * total (docs/SYNC.md, Progress), so nothing here clamps.
 */
export function PairProgress({ status }: { status: SyncPairStatus }) {
  const busy = status.state === 'syncing' || status.state === 'scanning';
  const { items, bytes, rate, current } = status;
  const pace = [
    rate && rate.bytesPerSecond > 0 ? strings.status.speed(formatBytes(rate.bytesPerSecond)) : '',
    rate && rate.secondsLeft !== null
      ? strings.status.timeLeft(strings.status.duration(rate.secondsLeft))
      : '',
  ].filter(Boolean);
  return (
    <>
      {(busy || items.total > 0) && (
        <div className="progress">
          <progress
            aria-label={strings.status.progress}
            max={1000}
            value={Math.round(progressFraction(status) * 1000)}
          />
          <p>
            {strings.status.items(formatCount(items.done), formatCount(items.total))}
            {bytes.total > 0 && (
              <>
                {' · '}
                {strings.status.bytes(formatBytes(bytes.done), formatBytes(bytes.total))}
              </>
            )}
            {pace.length > 0 && <span className="pace">{` · ${pace.join(', ')}`}</span>}
          </p>
        </div>
      )}
      {current && (
        <p className="current">
          <span className="muted">{strings.status.current}: </span>
          <span title={current.path}>{strings.status.step(current)}</span>
        </p>
      )}
    </>
  );
}
