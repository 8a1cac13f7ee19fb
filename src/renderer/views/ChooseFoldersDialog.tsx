import { useEffect, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ExcludedFolder, SyncPair } from '../../shared/app-api';
import { useApi } from '../context';
import { strings } from '../strings';
import { ErrorMessage } from '../components/ErrorMessage';
import { Loading } from '../components/Loading';
import { FolderSelection } from './FolderSelection';

/**
 * "Choose folders…": a modal <dialog> with the pair's selection (FolderSelection), saved through
 * the backend, which applies it before the engine's next pass (docs/SYNC.md, Selective sync).
 */
export function ChooseFoldersDialog({ pair, onClose }: { pair: SyncPair; onClose: () => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const dialog = useRef<HTMLDialogElement>(null);
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
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);
  const titleId = `choose-title-${pair.id}`;
  const explainId = `choose-explain-${pair.id}`;
  const shown = value ?? current.data?.excluded ?? null;
  return (
    <dialog
      ref={dialog}
      className="dialog choose-folders"
      aria-labelledby={titleId}
      aria-describedby={explainId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId}>{strings.selection.title(pair.workspaceName)}</h2>
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
      <div className="actions">
        <button type="button" onClick={onClose}>
          {strings.cancel}
        </button>
        <button
          type="button"
          className="primary"
          disabled={shown === null || value === null || save.isPending}
          onClick={() => value && save.mutate(value)}
        >
          {save.isPending ? strings.selection.saving : strings.save}
        </button>
      </div>
    </dialog>
  );
}
