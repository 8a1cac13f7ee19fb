import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SyncPair } from '../../shared/app-api';
import { useApi } from '../context';
import { strings } from '../strings';
import { ErrorMessage } from '../components/ErrorMessage';
import { DialogActions, ModalDialog } from '../components/ModalDialog';

/**
 * "Stop syncing": a modal <dialog> that names the workspace and the folder and says the files
 * stay on this computer (the backend stops the engine and never deletes the folder).
 */
export function RemovePairDialog({ pair, onClose }: { pair: SyncPair; onClose: () => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => api.call('pairs.remove', { pairId: pair.id }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['pairs'] });
      onClose();
    },
  });
  const explainId = `remove-explain-${pair.id}`;
  return (
    <ModalDialog
      title={strings.status.removeTitle(pair.workspaceName)}
      describedBy={explainId}
      onCancel={onClose}
    >
      <p id={explainId}>{strings.status.removeExplain(pair.workspaceName, pair.dir)}</p>
      {remove.isError && <ErrorMessage error={remove.error} />}
      <DialogActions
        onCancel={onClose}
        cancelFocused
        confirm={remove.isPending ? strings.status.removing : strings.status.removeSubmit}
        danger
        disabled={remove.isPending}
        onConfirm={() => remove.mutate()}
      />
    </ModalDialog>
  );
}
