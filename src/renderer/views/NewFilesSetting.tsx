import { useId, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OnDemandMode, SyncPair } from '../../shared/app-api';
import { useApi } from '../context';
import { strings } from '../strings';
import { ErrorMessage } from '../components/ErrorMessage';

/**
 * A pair's setting of files on demand: whether files new from the service arrive in full or online
 * only (placeholders, downloaded when opened). Saved as it is chosen; it applies to new files
 * only, which the hint says (files here, and those online only, stay as they are).
 */
export function NewFilesSetting({ pair }: { pair: SyncPair }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const id = useId();
  // The choice shows at once; the list's own value once it is read again.
  const [chosen, setChosen] = useState<OnDemandMode | null>(null);
  const save = useMutation({
    mutationFn: (mode: OnDemandMode) => api.call('pairs.setOnDemand', { pairId: pair.id, mode }),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: ['pairs'] });
      setChosen(null);
    },
  });
  const shown = chosen ?? pair.onDemand ?? 'full';
  return (
    <div className="field new-files">
      <label htmlFor={`${id}-mode`}>{strings.status.newFiles}</label>
      <select
        id={`${id}-mode`}
        value={shown}
        aria-label={strings.status.newFilesLabel(pair.workspaceName)}
        aria-describedby={`${id}-hint`}
        disabled={save.isPending}
        onChange={(e) => {
          const mode = e.target.value as OnDemandMode;
          setChosen(mode);
          save.mutate(mode);
        }}
      >
        <option value="full">{strings.status.newFilesFull}</option>
        <option value="online">{strings.status.newFilesOnline}</option>
      </select>
      <p className="hint" id={`${id}-hint`}>
        {strings.status.newFilesHint}
      </p>
      {save.isError && <ErrorMessage error={save.error} />}
    </div>
  );
}
