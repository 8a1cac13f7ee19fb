import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Workspace } from '../../shared/app-api';
import { useAccount, useApi } from '../context';
import { strings } from '../strings';
import { ErrorMessage } from '../components/ErrorMessage';

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
  const dialog = useRef<HTMLDialogElement>(null);
  const [typed, setTyped] = useState('');
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
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (typed === workspace.name) remove.mutate();
  };
  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby="delete-title"
      aria-describedby="delete-warning"
      onCancel={(e) => {
        e.preventDefault();
        onClose(false);
      }}
    >
      <form onSubmit={submit}>
        <h2 id="delete-title">{strings.workspaces.deleteTitle(workspace.name)}</h2>
        <p id="delete-warning">{strings.workspaces.deleteWarning}</p>
        <label htmlFor="delete-confirm">{strings.workspaces.deleteConfirm(workspace.name)}</label>
        <input
          id="delete-confirm"
          value={typed}
          autoComplete="off"
          autoFocus
          onChange={(e) => setTyped(e.target.value)}
        />
        {remove.isError && <ErrorMessage error={remove.error} />}
        <div className="actions">
          <button type="button" onClick={() => onClose(false)}>
            {strings.cancel}
          </button>
          <button
            type="submit"
            className="danger primary"
            disabled={typed !== workspace.name || remove.isPending}
          >
            {strings.workspaces.deleteSubmit}
          </button>
        </div>
      </form>
    </dialog>
  );
}
