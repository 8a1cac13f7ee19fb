import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ExcludedFolder, SyncPair } from '../../shared/app-api';
import { useApi } from '../context';
import { strings } from '../strings';
import { ErrorMessage } from '../components/ErrorMessage';
import { Loading } from '../components/Loading';
import { DialogActions, ModalDialog } from '../components/ModalDialog';
import { FolderSelection } from './FolderSelection';

/**
 * "Choose folders…": a modal <dialog> with the pair's selection (FolderSelection), saved through
 * the backend, which applies it before the engine's next pass (docs/SYNC.md, Selective sync).
 */
export function ChooseFoldersDialog({ pair, onClose }: { pair: SyncPair; onClose: () => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const current = useQuery({
    queryKey: ['pairs.selection', pair.id],
    queryFn: () => api.call('pairs.selection', { pairId: pair.id }),
  });
  const [value, setValue] = useState<ExcludedFolder[] | null>(null);
  const save = useMutation({
    mutationFn: (excluded: ExcludedFolder[]) =>
      api.call('pairs.setSelection', { pairId: pair.id, excluded }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['pairs.selection', pair.id] });
      onClose();
    },
  });
  const explainId = `choose-explain-${pair.id}`;
  const shown = value ?? current.data?.excluded ?? null;
  return (
    <ModalDialog
      title={strings.selection.title(pair.workspaceName)}
      describedBy={explainId}
      className="choose-folders"
      onCancel={onClose}
    >
      <p id={explainId}>{strings.selection.explain}</p>
      {current.isError && <ErrorMessage error={current.error} />}
      {shown === null ? (
        !current.isError && <Loading />
      ) : (
        <FolderSelection
          accountId={pair.accountId}
          workspaceId={pair.workspaceId}
          value={shown}
          onChange={setValue}
        />
      )}
      {save.isError && <ErrorMessage error={save.error} />}
      <DialogActions
        onCancel={onClose}
        confirm={save.isPending ? strings.selection.saving : strings.save}
        disabled={shown === null || value === null || save.isPending}
        onConfirm={() => value && save.mutate(value)}
      />
    </ModalDialog>
  );
}
