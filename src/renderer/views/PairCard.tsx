import { useRef, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { SyncPair } from '../../shared/app-api';
import { useApi } from '../context';
import { formatDate, formatRelative } from '../format';
import { strings } from '../strings';
import { ErrorMessage } from '../components/ErrorMessage';
import { Attention } from './Attention';
import { PairProgress } from './PairProgress';
import { RemovePairDialog } from './RemovePairDialog';
import { ChooseFoldersDialog } from './ChooseFoldersDialog';
import { useAnswerDeletes, usePauseToggle } from './pairs';

/** One synced folder: its state (announced as it changes), progress, and what needs a look. */
export function PairCard({
  pair,
  account,
}: {
  pair: SyncPair;
  /** The account's email, shown when several are signed in. */
  account?: string;
}) {
  const api = useApi();
  const { status } = pair;
  // The engine's sentence in the window's language (its words), else its own text.
  const message = strings.say(status.words, status.message);
  const toggle = usePauseToggle(pair);
  const answer = useAnswerDeletes(pair);
  const open = useMutation({
    mutationFn: () => api.call('pairs.openFolder', { pairId: pair.id }),
  });
  const [removing, setRemoving] = useState(false);
  const removeButton = useRef<HTMLButtonElement>(null);
  const [choosing, setChoosing] = useState(false);
  const chooseButton = useRef<HTMLButtonElement>(null);
  const headingId = `pair-${pair.id}`;

  return (
    <article className="card pair" aria-labelledby={headingId}>
      <header className="pair-header">
        <div>
          <h2 id={headingId}>{pair.workspaceName}</h2>
          <p className="muted">{strings.status.syncedTo(pair.dir)}</p>
          {account && <p className="muted">{strings.setup.accountOf(account)}</p>}
        </div>
        <div className="actions">
          <button type="button" onClick={() => toggle.mutate()} disabled={toggle.isPending}>
            {pair.paused ? strings.status.resume : strings.status.pause}
          </button>
          <button type="button" onClick={() => open.mutate()} disabled={open.isPending}>
            {strings.status.openFolder}
          </button>
          <button
            ref={chooseButton}
            type="button"
            aria-label={strings.selection.openLabel(pair.workspaceName)}
            onClick={() => setChoosing(true)}
          >
            {strings.selection.open}
          </button>
          <button
            ref={removeButton}
            type="button"
            className="danger"
            aria-label={strings.status.removeLabel(pair.workspaceName)}
            onClick={() => setRemoving(true)}
          >
            {strings.status.remove}
          </button>
        </div>
      </header>
      {choosing && (
        <ChooseFoldersDialog
          pair={pair}
          onClose={() => {
            setChoosing(false);
            chooseButton.current?.focus();
          }}
        />
      )}
      {removing && (
        <RemovePairDialog
          pair={pair}
          onClose={() => {
            setRemoving(false);
            // Back where the person was, when the pair is still there (cancelled).
            removeButton.current?.focus();
          }}
        />
      )}
      <div className={`state state-${status.state}`} role="status" aria-live="polite">
        <span className="state-dot" aria-hidden="true" />
        <strong>{strings.status.states[status.state]}</strong>
        {/* The engine's message often repeats the state ("Up to date"): said once is enough. */}
        {message && message.toLowerCase() !== strings.status.states[status.state].toLowerCase() && (
          <span className="muted"> — {message}</span>
        )}
      </div>
      {status.held && (
        // Nothing moves until the person answers; each answer loses nothing (docs/SYNC.md).
        <div className="actions">
          <button
            type="button"
            onClick={() => answer.mutate('confirm')}
            disabled={answer.isPending}
          >
            {status.held.side === 'local'
              ? strings.status.held.confirmLocal
              : strings.status.held.confirmRemote}
          </button>
          {status.held.side === 'remote' && (
            <button type="button" onClick={() => answer.mutate('keep')} disabled={answer.isPending}>
              {strings.status.held.keepRemote}
            </button>
          )}
        </div>
      )}
      {answer.isError && <ErrorMessage error={answer.error} />}
      {status.lastSyncAt != null && (
        <p className="muted">
          <time
            dateTime={new Date(status.lastSyncAt).toISOString()}
            title={formatDate(status.lastSyncAt)}
          >
            {strings.status.lastSync(formatRelative(status.lastSyncAt))}
          </time>
        </p>
      )}
      <PairProgress status={status} />
      {toggle.isError && <ErrorMessage error={toggle.error} />}
      {open.isError && <ErrorMessage error={open.error} />}
      <Attention pair={pair} />
    </article>
  );
}
