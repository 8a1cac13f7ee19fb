import { useRef, useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { SyncPair } from '../../shared/app-api';
import { useApi, useSignInAgain } from '../context';
import { formatDate, formatRelative } from '../format';
import { strings } from '../strings';
import { ErrorMessage } from '../components/ErrorMessage';
import { Attention } from './Attention';
import { PairProgress } from './PairProgress';
import { RemovePairDialog } from './RemovePairDialog';
import { ChooseFoldersDialog } from './ChooseFoldersDialog';
import { NewFilesSetting } from './NewFilesSetting';
import { useAnswerDeletes, usePauseToggle, useRetryNow } from './pairs';

/** States where the last pass did not succeed: the time shown is the last one that did. */
const FAILED = new Set(['error', 'offline', 'needs-attention', 'gone']);

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
  const gone = status.state === 'gone';
  const signedOut = status.error?.kind === 'signed-out';
  // A pass that failed and is tried again (by itself, or now): its reason, and Retry now.
  const failed = status.state === 'error' || status.state === 'offline';
  // The engine's sentence in the window's language (its words), else its own text.
  const message = strings.say(status.words, status.message);
  const label = signedOut ? strings.status.signedOut : strings.status.states[status.state];
  const saysLabel = !gone && !signedOut && message.toLowerCase().startsWith(label.toLowerCase());
  const retry = useRetryNow(pair);
  const signInAgain = useSignInAgain();
  const accounts = useQuery({
    queryKey: ['accounts'],
    queryFn: () => api.call('accounts.list', {}),
    enabled: signedOut,
  });
  const owner = accounts.data?.find((a) => a.id === pair.accountId);
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

  // "Stop syncing" stands in the header, or, for a gone workspace, under what happened: one
  // button in either place, so Cancel in its dialog brings the focus back to it.
  const removeOffer = (
    <button
      ref={removeButton}
      type="button"
      className="danger"
      aria-label={strings.status.removeLabel(pair.workspaceName)}
      onClick={() => setRemoving(true)}
    >
      {strings.status.remove}
    </button>
  );
  return (
    <article className="card pair" aria-labelledby={headingId}>
      <header className="pair-header">
        <div>
          <h2 id={headingId}>{pair.workspaceName}</h2>
          <p className="muted">{strings.status.syncedTo(pair.dir)}</p>
          {account && <p className="muted">{strings.setup.accountOf(account)}</p>}
        </div>
        <div className="actions">
          {/* A workspace gone has nothing to pause or choose from: only its folder remains. */}
          {!gone && (
            <button
              type="button"
              aria-label={
                pair.paused
                  ? strings.status.resumeLabel(pair.workspaceName)
                  : strings.status.pauseLabel(pair.workspaceName)
              }
              onClick={() => toggle.mutate()}
              disabled={toggle.isPending}
            >
              {pair.paused ? strings.status.resume : strings.status.pause}
            </button>
          )}
          {/* Each card's buttons name their folder: a list of "Open folder" says nothing. */}
          <button
            type="button"
            aria-label={strings.status.openFolderLabel(pair.workspaceName)}
            onClick={() => open.mutate()}
            disabled={open.isPending}
          >
            {strings.status.openFolder}
          </button>
          {!gone && (
            <button
              ref={chooseButton}
              type="button"
              aria-label={strings.selection.openLabel(pair.workspaceName)}
              onClick={() => setChoosing(true)}
            >
              {strings.selection.open}
            </button>
          )}
          {/* Gone: offered below, with what happened, once. */}
          {!gone && removeOffer}
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
        {/* The engine's message often repeats the state ("Up to date"), or says it and more
            ("Offline: the service is not available; trying again in 8 s"): said once is
            enough; a gone workspace and a sign-out say theirs below, in full. */}
        <strong>{saysLabel ? message : label}</strong>
        {message && !gone && !signedOut && !saysLabel && (
          <span className="muted"> — {message}</span>
        )}
      </div>
      {failed && status.error && (
        <div className="state-failed">
          <p>{strings.status.failedWhy(strings.say(status.error.words, status.error.message))}</p>
          <div className="actions">
            <button
              type="button"
              aria-label={strings.status.retryLabel(pair.workspaceName)}
              onClick={() => retry.mutate()}
              disabled={retry.isPending}
            >
              {strings.status.retryNow}
            </button>
          </div>
        </div>
      )}
      {retry.isError && <ErrorMessage error={retry.error} />}
      {gone && (
        <div className="state-failed">
          <p>{strings.status.goneExplain(pair.dir)}</p>
          <div className="actions">{removeOffer}</div>
        </div>
      )}
      {signedOut && (
        <div className="state-failed">
          <p>{strings.status.signedOutExplain(owner?.email ?? account ?? '')}</p>
          {owner && (
            <div className="actions">
              <button type="button" className="primary" onClick={() => signInAgain(owner)}>
                {strings.nav.signInAgain}
              </button>
            </div>
          )}
        </div>
      )}
      {status.held && (
        // Nothing moves until the person answers; each answer loses nothing (docs/SYNC.md).
        <div className="actions">
          <button
            type="button"
            aria-label={
              status.held.side === 'local'
                ? strings.status.held.confirmLocalLabel(pair.workspaceName)
                : strings.status.held.confirmRemoteLabel(pair.workspaceName)
            }
            onClick={() => answer.mutate('confirm')}
            disabled={answer.isPending}
          >
            {status.held.side === 'local'
              ? strings.status.held.confirmLocal
              : strings.status.held.confirmRemote}
          </button>
          {status.held.side === 'remote' && (
            <button
              type="button"
              aria-label={strings.status.held.keepRemoteLabel(pair.workspaceName)}
              onClick={() => answer.mutate('keep')}
              disabled={answer.isPending}
            >
              {strings.status.held.keepRemote}
            </button>
          )}
        </div>
      )}
      {answer.isError && <ErrorMessage error={answer.error} />}
      {status.lastSyncAt != null ? (
        <p className="muted">
          <time
            dateTime={new Date(status.lastSyncAt).toISOString()}
            title={formatDate(status.lastSyncAt)}
          >
            {FAILED.has(status.state)
              ? strings.status.lastSuccess(formatRelative(status.lastSyncAt))
              : strings.status.lastSync(formatRelative(status.lastSyncAt))}
          </time>
        </p>
      ) : (
        FAILED.has(status.state) && <p className="muted">{strings.status.neverSynced}</p>
      )}
      <PairProgress status={status} />
      {!gone && <NewFilesSetting pair={pair} />}
      {toggle.isError && <ErrorMessage error={toggle.error} />}
      {open.isError && <ErrorMessage error={open.error} />}
      <Attention pair={pair} />
    </article>
  );
}
