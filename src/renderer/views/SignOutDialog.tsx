import { useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useMutation } from '@tanstack/react-query';
import type { Account } from '../../shared/app-api';
import { useApi } from '../context';
import { strings } from '../strings';
import { ErrorMessage } from '../components/ErrorMessage';
import { usePairs } from './pairs';

/**
 * Sign out, asked first: a modal <dialog> naming the account and every folder that stops with
 * it (the backend removes the account's pairs; their folders stay on this computer). One click
 * on a sidebar button must not stop everything unseen (issue 39).
 */
export function SignOutDialog({
  account,
  onClose,
  onSignedOut,
}: {
  account: Pick<Account, 'id' | 'email' | 'name'>;
  onClose: () => void;
  onSignedOut: () => void | Promise<unknown>;
}) {
  const api = useApi();
  const pairs = usePairs();
  const dialog = useRef<HTMLDialogElement>(null);
  const signOut = useMutation({
    mutationFn: () => api.call('accounts.signOut', { accountId: account.id }),
    onSuccess: () => onSignedOut(),
  });
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);
  const mine = (pairs.data ?? []).filter((p) => p.accountId === account.id);
  const who = account.email || account.name;
  const titleId = `sign-out-title-${account.id}`;
  const explainId = `sign-out-explain-${account.id}`;
  // Into the body: the sidebar it is asked from is hidden in a narrow window when its menu
  // closes, and a dialog inside a hidden element is not drawn.
  return createPortal(
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby={titleId}
      aria-describedby={explainId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId}>{strings.signOut.title(who)}</h2>
      {pairs.isPending ? (
        <p id={explainId}>{strings.loading}</p>
      ) : mine.length === 0 ? (
        <p id={explainId}>{strings.signOut.noFolders}</p>
      ) : (
        <>
          <p id={explainId}>{strings.signOut.folders(mine.length)}</p>
          <ul className="sign-out-folders">
            {mine.map((p) => (
              <li key={p.id}>
                <strong>{p.workspaceName}</strong>
                <br />
                <span className="path">{p.dir}</span>
              </li>
            ))}
          </ul>
          <p>{strings.signOut.kept}</p>
        </>
      )}
      {pairs.isError && <ErrorMessage error={pairs.error} />}
      {signOut.isError && <ErrorMessage error={signOut.error} />}
      <div className="actions">
        <button type="button" autoFocus onClick={onClose}>
          {strings.cancel}
        </button>
        <button
          type="button"
          className="danger primary"
          // Not before the folders are known: the person must see what stops.
          disabled={pairs.isPending || signOut.isPending}
          onClick={() => signOut.mutate()}
        >
          {signOut.isPending ? strings.signOut.signingOut : strings.signOut.submit}
        </button>
      </div>
    </dialog>,
    document.body,
  );
}
