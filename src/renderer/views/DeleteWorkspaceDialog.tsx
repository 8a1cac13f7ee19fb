import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Workspace } from '../../shared/app-api';
import { useAccount, useApi } from '../context';
import { strings } from '../strings';
import { ErrorMessage } from '../components/ErrorMessage';
import { DialogActions, ModalDialog } from '../components/ModalDialog';
import { usePairs } from './pairs';

/**
 * A modal <dialog>: the browser traps focus, Escape cancels, and the typed name must match
 * before the delete is even offered (the backend checks it again).
 */
export function DeleteWorkspaceDialog({
  workspace,
  onClose,
}: {
  workspace: Workspace;
  onClose: (deleted: boolean) => void;
}) {
  const api = useApi();
  const account = useAccount();
  const queryClient = useQueryClient();
  const [typed, setTyped] = useState('');
  // Where it is synced here: the engine then finds it gone and leaves those files as they are
  // (docs/SYNC.md, the workspace itself gone), which the person should know before deleting.
  const pairs = usePairs();
  const here = (pairs.data ?? []).filter(
    (p) => p.accountId === account.id && p.workspaceId === workspace.id,
  );
  const remove = useMutation({
    mutationFn: () =>
      api.call('workspaces.delete', {
        accountId: account.id,
        workspaceId: workspace.id,
        confirmName: typed,
      }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['workspaces', account.id] });
      onClose(true);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (typed === workspace.name) remove.mutate();
  };
  return (
    <ModalDialog
      title={strings.workspaces.deleteTitle(workspace.name)}
      describedBy="delete-warning"
      onCancel={() => onClose(false)}
      onSubmit={submit}
    >
      <div id="delete-warning">
        <p>{strings.workspaces.deleteWarning}</p>
        {here.length === 0 ? (
          pairs.isSuccess && <p>{strings.workspaces.deleteNotSynced}</p>
        ) : (
          <>
            <p>{strings.workspaces.deleteSynced(here.length)}</p>
            <ul className="sign-out-folders">
              {here.map((p) => (
                <li key={p.id} className="path">
                  {p.dir}
                </li>
              ))}
            </ul>
            <p>{strings.workspaces.deleteLocal}</p>
          </>
        )}
      </div>
      <label htmlFor="delete-confirm">{strings.workspaces.deleteConfirm(workspace.name)}</label>
      <input
        id="delete-confirm"
        value={typed}
        autoComplete="off"
        autoFocus
        onChange={(e) => setTyped(e.target.value)}
      />
      {remove.isError && <ErrorMessage error={remove.error} />}
      <DialogActions
        onCancel={() => onClose(false)}
        confirm={strings.workspaces.deleteSubmit}
        danger
        disabled={typed !== workspace.name || remove.isPending}
      />
    </ModalDialog>
  );
}
