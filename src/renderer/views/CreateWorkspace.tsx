import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Workspace } from '../../shared/app-api';
import { useAccount, useApi } from '../context';
import { strings } from '../strings';
import { Field } from '../components/Field';
import { ErrorMessage } from '../components/ErrorMessage';

export function CreateWorkspace({ onCreated }: { onCreated: (w: Workspace) => void }) {
  const api = useApi();
  const account = useAccount();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [color, setColor] = useState('#2f6f9f');
  const create = useMutation({
    mutationFn: () =>
      api.call('workspaces.create', { accountId: account.id, name: name.trim(), color }),
    onSuccess: async (w) => {
      setName('');
      onCreated(w);
      await queryClient.invalidateQueries({ queryKey: ['workspaces', account.id] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim()) create.mutate();
  };
  return (
    <form className="card create-workspace" onSubmit={submit} aria-labelledby="create-ws-title">
      <h2 id="create-ws-title">{strings.workspaces.create}</h2>
      <div className="row">
        <Field
          label={strings.workspaces.name}
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
        />
        <Field
          label={strings.workspaces.color}
          type="color"
          value={color}
          onChange={(e) => setColor(e.target.value)}
        />
        <button type="submit" className="primary" disabled={create.isPending || !name.trim()}>
          {strings.workspaces.createSubmit}
        </button>
      </div>
      {create.isError && <ErrorMessage error={create.error} />}
    </form>
  );
}
