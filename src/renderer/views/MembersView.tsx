import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Member } from '../../shared/app-api';
import { useAccount, useApi } from '../context';
import { strings } from '../strings';
import { Loading } from '../components/Loading';
import { ErrorMessage } from '../components/ErrorMessage';
import { InviteForm } from './InviteForm';
import { MemberRow, memberLabel } from './MemberRow';
import { RemoveMemberDialog } from './RemoveMemberDialog';
import { RolesTable } from './RolesTable';
import { roleName } from './roles';

/**
 * A workspace's members (People): who is in it with which role, and what this person's own role
 * lets them do about it. Only what the backend says they may do is offered: invite with the
 * roles they may grant, change a role, remove; a role that may not see the members gets the
 * service's refusal in one line, and every role the table of what each role may do.
 */
export function MembersView({ workspaceId }: { workspaceId: number }) {
  const api = useApi();
  const account = useAccount();
  const queryClient = useQueryClient();
  const [notice, setNotice] = useState('');
  const [failure, setFailure] = useState<unknown>(null);
  const [removing, setRemoving] = useState<Member | null>(null);
  const members = useQuery({
    queryKey: ['members', account.id, workspaceId],
    queryFn: () => api.call('members.list', { accountId: account.id, workspaceId }),
  });

  if (members.isPending) return <Loading />;
  if (members.isError)
    return <ErrorMessage error={members.error} onRetry={() => void members.refetch()} />;
  const { workspace, role, grantable, refusal, refusalWords } = members.data;
  const list = members.data.members;
  // Below Moderator nothing here can be changed (a Moderator alone with the owner still may invite).
  const readOnly = grantable.length === 0;

  return (
    <section aria-labelledby="members-title" className="members">
      <h1 id="members-title">{strings.members.title(workspace.name)}</h1>
      <p className="muted">
        {role ? strings.members.yourRole(roleName(role)) : strings.members.noRole}
      </p>
      <p role="status" aria-live="polite" className="notice-line">
        {notice}
      </p>
      {failure !== null && <ErrorMessage error={failure} />}
      {grantable.length > 0 && <InviteForm workspaceId={workspace.id} grantable={grantable} />}
      {list === null ? (
        <p className="notice refusal">{strings.say(refusalWords, refusal ?? '')}</p>
      ) : (
        <section className="card" aria-labelledby="members-list-title">
          <h2 id="members-list-title">{strings.members.list}</h2>
          {readOnly && <p className="hint">{strings.members.readOnly}</p>}
          {members.data.cut && <p className="muted">{strings.listCut(list.length)}</p>}
          <table className="plain-table members-table" aria-labelledby="members-list-title">
            <thead>
              <tr>
                <th scope="col">{strings.members.name}</th>
                <th scope="col" className="member-email">
                  {strings.members.email}
                </th>
                <th scope="col">{strings.members.role}</th>
                <th scope="col">
                  <span className="visually-hidden">{strings.members.actions}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((m) => (
                <MemberRow
                  key={m.id}
                  member={m}
                  workspace={workspace}
                  onNotice={(text) => {
                    setFailure(null);
                    setNotice(text);
                  }}
                  onFailure={(err) => {
                    setNotice('');
                    setFailure(err);
                  }}
                  onRemove={() => setRemoving(m)}
                />
              ))}
            </tbody>
          </table>
        </section>
      )}
      <RolesTable yours={role} />
      {removing && (
        <RemoveMemberDialog
          member={removing}
          workspace={workspace}
          onClose={(removed) => {
            if (removed) {
              setFailure(null);
              setNotice(
                removing.pending
                  ? strings.members.withdrawn(removing.email ?? memberLabel(removing))
                  : strings.members.removed(memberLabel(removing), workspace.name),
              );
              void queryClient.invalidateQueries({
                queryKey: ['members', account.id, workspace.id],
              });
            }
            setRemoving(null);
          }}
        />
      )}
    </section>
  );
}
