import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAccount, useApi } from '../context';
import { strings } from '../strings';
import { Field } from '../components/Field';
import { ErrorMessage } from '../components/ErrorMessage';
import { Loading } from '../components/Loading';

/** The first run: which workspace goes to which folder on this computer. */
export function SetupPair() {
  const api = useApi();
  const account = useAccount();
  const queryClient = useQueryClient();
  const [workspaceId, setWorkspaceId] = useState<number | null>(null);
  const [dir, setDir] = useState('');
  const workspaces = useQuery({
    queryKey: ['workspaces', account.id],
    queryFn: () => api.call('workspaces.list', { accountId: account.id }),
  });
  const add = useMutation({
    mutationFn: (p: { workspaceId: number; dir: string }) =>
      api.call('pairs.add', { accountId: account.id, ...p }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['pairs'] }),
  });

  if (workspaces.isPending) return <Loading />;
  if (workspaces.isError) return <ErrorMessage error={workspaces.error} />;
  if (workspaces.data.length === 0) return <p className="empty">{strings.browse.noWorkspaces}</p>;
  const chosen = workspaceId ?? workspaces.data[0]!.id;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    add.mutate({ workspaceId: chosen, dir: dir.trim() });
  };

  return (
    <form className="card" onSubmit={submit} aria-labelledby="setup-title">
      <h2 id="setup-title">{strings.status.setupTitle}</h2>
      <div className="field">
        <label htmlFor="setup-workspace">{strings.status.workspace}</label>
        <select
          id="setup-workspace"
          value={chosen}
          onChange={(e) => setWorkspaceId(Number(e.target.value))}
        >
          {workspaces.data.map((w) => (
            <option key={w.id} value={w.id}>
              {w.name}
            </option>
          ))}
        </select>
      </div>
      <Field
        label={strings.status.folder}
        placeholder={strings.status.folderPlaceholder}
        value={dir}
        onChange={(e) => setDir(e.target.value)}
        required
      />
      {add.isError && <ErrorMessage error={add.error} />}
      <button type="submit" className="primary" disabled={add.isPending}>
        {add.isPending ? strings.status.starting : strings.status.start}
      </button>
    </form>
  );
}
