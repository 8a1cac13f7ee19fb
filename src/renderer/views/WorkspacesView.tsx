import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Workspace } from '../../shared/app-api';
import { useAccount, useApi } from '../context';
import type { Navigate } from '../navigation';
import { strings } from '../strings';
import { Loading } from '../components/Loading';
import { ErrorMessage } from '../components/ErrorMessage';
import { Empty } from '../components/Empty';
import { CreateWorkspace } from './CreateWorkspace';
import { WorkspaceRow } from './WorkspaceRow';
import { DeleteWorkspaceDialog } from './DeleteWorkspaceDialog';

export function WorkspacesView({ navigate }: { navigate: Navigate }) {
  const api = useApi();
  const account = useAccount();
  const [deleting, setDeleting] = useState<Workspace | null>(null);
  const [notice, setNotice] = useState('');
  const workspaces = useQuery({
    queryKey: ['workspaces', account.id],
    queryFn: () => api.call('workspaces.list', { accountId: account.id }),
  });

  return (
    <section aria-labelledby="workspaces-title">
      <h1 id="workspaces-title">{strings.workspaces.title}</h1>
      <p role="status" aria-live="polite" className="notice-line">
        {notice}
      </p>
      <CreateWorkspace onCreated={(w) => setNotice(strings.workspaces.created(w.name))} />
      {workspaces.isPending && <Loading />}
      {workspaces.isError && (
        <ErrorMessage error={workspaces.error} onRetry={() => void workspaces.refetch()} />
      )}
      {workspaces.data?.items.length === 0 && <Empty>{strings.workspaces.empty}</Empty>}
      {/* Above the list: below thousands of rows nobody would read it. */}
      {workspaces.data?.cut && (
        <p className="muted">{strings.listCut(workspaces.data.items.length)}</p>
      )}
      {workspaces.data && workspaces.data.items.length > 0 && (
        <ul className="workspaces" aria-label={strings.workspaces.title}>
          {workspaces.data.items.map((w) => (
            <WorkspaceRow
              key={w.id}
              workspace={w}
              onOpen={() =>
                navigate('browse', { workspaceId: w.id, folderId: null, selected: null })
              }
              onRenamed={(name) => setNotice(strings.workspaces.renamed(name))}
              onDelete={() => setDeleting(w)}
              onMembers={() => navigate('members', w.id)}
            />
          ))}
        </ul>
      )}
      {deleting && (
        <DeleteWorkspaceDialog
          workspace={deleting}
          onClose={(deleted) => {
            if (deleted) setNotice(strings.workspaces.deleted(deleting.name));
            setDeleting(null);
          }}
        />
      )}
    </section>
  );
}
