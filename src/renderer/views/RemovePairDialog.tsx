import { useEffect, useRef } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SyncPair } from '../../shared/app-api';
import { useApi } from '../context';
import { strings } from '../strings';
import { ErrorMessage } from '../components/ErrorMessage';

/**
 * "Stop syncing": a modal <dialog> that names the workspace and the folder and says the files
 * stay on this computer (the backend stops the engine and never deletes the folder).
 */
export function RemovePairDialog({ pair, onClose }: { pair: SyncPair; onClose: () => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const dialog = useRef<HTMLDialogElement>(null);
  const remove = useMutation({
    mutationFn: () => api.call('pairs.remove', { pairId: pair.id }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['pairs'] });
      onClose();
    },
  });
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);
  const titleId = `remove-title-${pair.id}`;
  const explainId = `remove-explain-${pair.id}`;
  return (
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
      <h2 id={titleId}>{strings.status.removeTitle(pair.workspaceName)}</h2>
      <p id={explainId}>{strings.status.removeExplain(pair.workspaceName, pair.dir)}</p>
      {remove.isError && <ErrorMessage error={remove.error} />}
      <div className="actions">
        <button type="button" autoFocus onClick={onClose}>
          {strings.cancel}
        </button>
        <button
          type="button"
          className="danger primary"
          disabled={remove.isPending}
          onClick={() => remove.mutate()}
        >
          {remove.isPending ? strings.status.removing : strings.status.removeSubmit}
        </button>
      </div>
    </dialog>
  );
}
