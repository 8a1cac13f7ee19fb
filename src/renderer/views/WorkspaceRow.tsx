import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Workspace } from '../../shared/app-api';
import { useAccount, useApi } from '../context';
import { strings } from '../strings';
import { ErrorMessage } from '../components/ErrorMessage';

export function WorkspaceRow({
  workspace: w,
  onOpen,
  onRenamed,
  onDelete,
  onMembers,
}: {
  workspace: Workspace;
  onOpen: () => void;
  onRenamed: (name: string) => void;
  onDelete: () => void;
  /** Opens the workspace's members (People). */
  onMembers: () => void;
}) {
  const api = useApi();
  const account = useAccount();
  const queryClient = useQueryClient();
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(w.name);
  const update = useMutation({
    mutationFn: (change: { name?: string; color?: string }) =>
      api.call('workspaces.update', { accountId: account.id, workspaceId: w.id, ...change }),
    onSuccess: async (updated) => {
      if (renaming) onRenamed(updated.name);
      setRenaming(false);
      await queryClient.invalidateQueries({ queryKey: ['workspaces', account.id] });
    },
  });
  const rename = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim() && name.trim() !== w.name) update.mutate({ name: name.trim() });
    else setRenaming(false);
  };
  const colorId = `ws-color-${w.id}`;
  const nameId = `ws-name-${w.id}`;

  return (
    <li className="workspace card">
      <span
        className="swatch"
        aria-hidden="true"
        style={{ background: w.color ?? 'transparent' }}
      />
      {renaming ? (
        <form onSubmit={rename} className="inline-form">
          <label htmlFor={nameId} className="visually-hidden">
            {strings.workspaces.newName(w.name)}
          </label>
          <input
            id={nameId}
            value={name}
            autoFocus
            onChange={(e) => setName(e.target.value)}
            onKeyDown={(e) => e.key === 'Escape' && setRenaming(false)}
          />
          <button type="submit" disabled={update.isPending}>
            {strings.save}
          </button>
          <button type="button" onClick={() => setRenaming(false)}>
            {strings.cancel}
          </button>
        </form>
      ) : (
        <button type="button" className="link-button ws-name" onClick={onOpen}>
          {w.name}
        </button>
      )}
      <span className="muted">{w.isOwner ? strings.workspaces.owner : (w.role ?? '')}</span>
      <span className="actions">
        <label htmlFor={colorId} className="visually-hidden">
          {strings.workspaces.colorLabel(w.name)}
        </label>
        <input
          id={colorId}
          type="color"
          value={w.color ?? '#888888'}
          disabled={update.isPending}
          onChange={(e) => update.mutate({ color: e.target.value })}
        />
        <button type="button" aria-label={strings.members.openLabel(w.name)} onClick={onMembers}>
          {strings.members.open}
        </button>
        {!renaming && (
          <button
            type="button"
            aria-label={strings.workspaces.renameLabel(w.name)}
            onClick={() => {
              setName(w.name);
              setRenaming(true);
            }}
          >
            {strings.workspaces.rename}
          </button>
        )}
        {w.isOwner && (
          <button
            type="button"
            className="danger"
            aria-label={strings.workspaces.deleteLabel(w.name)}
            onClick={onDelete}
          >
            {strings.workspaces.delete}
          </button>
        )}
      </span>
      {update.isError && <ErrorMessage error={update.error} />}
    </li>
  );
}
