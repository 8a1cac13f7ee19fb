import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InviteOutcome, Role } from '../../shared/app-api';
import { useAccount, useApi } from '../context';
import { strings } from '../strings';
import { ErrorMessage } from '../components/ErrorMessage';
import { roleName } from './roles';

/** The service's default role when one is not chosen: the form starts there where it may. */
const DEFAULT_ROLE: Role = 'Downloader';

/** Invite by email with a role: only the roles this person may grant are offered. */
export function InviteForm({
  workspaceId,
  grantable,
}: {
  workspaceId: number;
  /** Least to most powerful, never empty. */
  grantable: Role[];
}) {
  const api = useApi();
  const account = useAccount();
  const queryClient = useQueryClient();
  const id = useId();
  const [emails, setEmails] = useState('');
  const [role, setRole] = useState<Role>(
    grantable.includes(DEFAULT_ROLE) ? DEFAULT_ROLE : grantable[0]!,
  );
  const invite = useMutation({
    mutationFn: (v: { emails: string; role: Role }) =>
      api.call('members.invite', { accountId: account.id, workspaceId, ...v }),
    onSuccess: async (outcome) => {
      // What was not invited stays in the field, to be corrected.
      setEmails([...outcome.alreadyMembers, ...outcome.refused].join(', '));
      await queryClient.invalidateQueries({ queryKey: ['members', account.id, workspaceId] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (emails.trim()) invite.mutate({ emails, role });
  };
  return (
    <form className="card invite" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{strings.members.inviteTitle}</h2>
      <div className="row">
        <div className="field grow">
          <label htmlFor={`${id}-emails`}>{strings.members.inviteEmails}</label>
          <input
            id={`${id}-emails`}
            type="text"
            inputMode="email"
            autoComplete="off"
            placeholder={strings.members.inviteEmailsPlaceholder}
            aria-describedby={`${id}-hint`}
            value={emails}
            onChange={(e) => setEmails(e.target.value)}
          />
          <p className="hint" id={`${id}-hint`}>
            {strings.members.inviteEmailsHint}
          </p>
        </div>
        <div className="field">
          <label htmlFor={`${id}-role`}>{strings.members.inviteRole}</label>
          <select id={`${id}-role`} value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {[...grantable].reverse().map((r) => (
              <option key={r} value={r}>
                {roleName(r)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="primary" disabled={invite.isPending || !emails.trim()}>
          {invite.isPending ? strings.members.inviting : strings.members.inviteSubmit}
        </button>
      </div>
      <div role="status" aria-live="polite" className="invite-outcome">
        {invite.data && !invite.isPending && (
          <Outcome outcome={invite.data} role={invite.variables.role} />
        )}
      </div>
      {invite.isError && <ErrorMessage error={invite.error} />}
    </form>
  );
}

export function Outcome({ outcome, role }: { outcome: InviteOutcome; role: Role }) {
  const { invited, alreadyMembers, refused } = outcome;
  return (
    <>
      {invited.length > 0 && (
        <p className="ok-line">{strings.members.invited(invited.length, roleName(role))}</p>
      )}
      {alreadyMembers.length > 0 && (
        <p>{strings.members.alreadyMembers(alreadyMembers.length, alreadyMembers.join(', '))}</p>
      )}
      {refused.length > 0 && (
        <p className="warn-line">{strings.members.refused(refused.length, refused.join(', '))}</p>
      )}
    </>
  );
}
