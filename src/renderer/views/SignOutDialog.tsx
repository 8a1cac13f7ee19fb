import { createPortal } from 'react-dom';
import { useMutation } from '@tanstack/react-query';
import type { Account } from '../../shared/app-api';
import { useApi } from '../context';
import { strings } from '../strings';
import { ErrorMessage } from '../components/ErrorMessage';
import { DialogActions, ModalDialog } from '../components/ModalDialog';
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
  const signOut = useMutation({
    mutationFn: () => api.call('accounts.signOut', { accountId: account.id }),
    onSuccess: () => onSignedOut(),
  });
  const mine = (pairs.data ?? []).filter((p) => p.accountId === account.id);
  const who = account.email || account.name;
  const explainId = `sign-out-explain-${account.id}`;
  // Into the body: the sidebar it is asked from is hidden in a narrow window when its menu
  // closes, and a dialog inside a hidden element is not drawn.
  return createPortal(
    <ModalDialog title={strings.signOut.title(who)} describedBy={explainId} onCancel={onClose}>
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
      <DialogActions
        onCancel={onClose}
        cancelFocused
        confirm={signOut.isPending ? strings.signOut.signingOut : strings.signOut.submit}
        danger
        // Not before the folders are known: the person must see what stops.
        disabled={pairs.isPending || signOut.isPending}
        onConfirm={() => signOut.mutate()}
      />
    </ModalDialog>,
    document.body,
  );
}
