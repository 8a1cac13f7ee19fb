import { useEffect, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Member, Role } from '../../shared/app-api';
import { useAccount, useApi } from '../context';
import { strings } from '../strings';
import { roleName } from './roles';

/** How a member is named: their name, else their address (an invitation not accepted yet). */
export function memberLabel(m: Member): string {
  return m.name ?? m.email ?? strings.members.unnamed;
}

/**
 * One member: a role to choose where this person may change it (the change is sent with its own
 * button, so arrowing through the choices sends nothing), and Remove where they may remove them.
 */
export function MemberRow({
  member: m,
  workspace,
  onNotice,
  onFailure,
  onRemove,
}: {
  member: Member;
  workspace: { id: number; name: string };
  onNotice: (text: string) => void;
  onFailure: (error: unknown) => void;
  onRemove: () => void;
}) {
  const api = useApi();
  const account = useAccount();
  const queryClient = useQueryClient();
  const [role, setRole] = useState(m.role);
  // The list read again (another change, another window) shows the role the service has.
  useEffect(() => setRole(m.role), [m.role]);
  const who = memberLabel(m);
  const change = useMutation({
    mutationFn: (next: Role) =>
      api.call('members.changeRole', {
        accountId: account.id,
        workspaceId: workspace.id,
        memberId: m.id,
        role: next,
      }),
    onSuccess: async (updated) => {
      onNotice(strings.members.changed(who, roleName(updated.role)));
      await queryClient.invalidateQueries({ queryKey: ['members', account.id, workspace.id] });
    },
    onError: (err) => {
      setRole(m.role);
      onFailure(err);
    },
  });
  const choices = [...m.roles].reverse();
  if (!choices.includes(m.role as Role) && m.roles.length > 0) choices.unshift(m.role as Role);
  return (
    <tr className={m.pending ? 'pending' : undefined}>
      <th scope="row" className="member-name">
        <span>{who}</span>
        {m.isYou && <span className="badge">{strings.members.you}</span>}
        {m.isOwner && <span className="badge">{strings.members.owner}</span>}
        {/* In a narrow window the email column gives way: the address shows under the name. */}
        {m.name !== null && m.email !== null && <span className="member-sub muted">{m.email}</span>}
        {m.pending && <span className="member-state muted">{strings.members.pending}</span>}
      </th>
      <td className="member-email">{m.email}</td>
      <td className="member-role">
        {m.roles.length > 0 ? (
          <span className="role-change">
            <select
              aria-label={strings.members.roleOf(who)}
              value={role}
              disabled={change.isPending}
              onChange={(e) => setRole(e.target.value)}
            >
              {choices.map((r) => (
                <option key={r} value={r}>
                  {roleName(r)}
                </option>
              ))}
            </select>
            {role !== m.role && (
              <button
                type="button"
                aria-label={strings.members.changeLabel(who, roleName(role))}
                disabled={change.isPending}
                onClick={() => change.mutate(role as Role)}
              >
                {strings.members.change}
              </button>
            )}
          </span>
        ) : (
          roleName(m.role)
        )}
      </td>
      <td className="member-actions">
        {m.mayRemove && (
          <button
            type="button"
            className="link-button danger"
            aria-label={
              m.pending
                ? strings.members.withdrawLabel(m.email ?? who)
                : strings.members.removeLabel(who, workspace.name)
            }
            onClick={onRemove}
          >
            {m.pending ? strings.members.withdrawSubmit : strings.members.remove}
          </button>
        )}
      </td>
    </tr>
  );
}
