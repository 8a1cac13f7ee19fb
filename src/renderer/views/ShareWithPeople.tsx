import { useId, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Role as RoleSchema, type Role } from '../../shared/app-api';
import { useAccount, useApi } from '../context';
import type { SelectedItem } from '../navigation';
import { strings } from '../strings';
import { ErrorMessage } from '../components/ErrorMessage';
import { Outcome } from './InviteForm';
import { roleName } from './roles';

/** The service's default role when one is not chosen: the form starts there where it may. */
const DEFAULT_ROLE: Role = 'Downloader';
const RANK: readonly Role[] = RoleSchema.options;

/**
 * The roles a person with `role` may invite with, least to most powerful: a Moderator and above,
 * up to their own (conventions.md, Roles); none otherwise, or while the role is not known.
 */
export function grantableBy(role: string | null | undefined): Role[] {
  const at = RANK.indexOf(role as Role);
  return at >= RANK.indexOf('Moderator') ? RANK.slice(0, at + 1) : [];
}

/**
 * "Share with people": emails and a role, sent as an invitation on this folder or file
 * (POST /:item/:id/invitations); the answer said in words (invited, already members, refused).
 * Offered only where the person's role allows inviting, otherwise disabled with the reason.
 */
export function ShareWithPeople({
  item,
  workspaceId,
  role,
}: {
  item: SelectedItem;
  workspaceId: number;
  role: string | null | undefined;
}) {
  const api = useApi();
  const account = useAccount();
  const id = useId();
  const grantable = grantableBy(role);
  const allowed = grantable.length > 0;
  const [emails, setEmails] = useState('');
  const [chosen, setChosen] = useState<Role | null>(null);
  const roleNow =
    chosen ?? (grantable.includes(DEFAULT_ROLE) ? DEFAULT_ROLE : (grantable[0] ?? DEFAULT_ROLE));
  const invite = useMutation({
    mutationFn: (v: { emails: string; role: Role }) =>
      api.call('members.invite', {
        accountId: account.id,
        workspaceId,
        ...v,
        item: { kind: item.kind, itemId: item.id },
      }),
    // What was not invited stays in the field, to be corrected.
    onSuccess: (outcome) => setEmails([...outcome.alreadyMembers, ...outcome.refused].join(', ')),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (allowed && emails.trim()) invite.mutate({ emails, role: roleNow });
  };
  return (
    <section aria-labelledby={`${id}-title`} className="panel-section people">
      <h3 id={`${id}-title`}>{strings.item.people}</h3>
      {!allowed && (
        <p className="notice" id={`${id}-why`}>
          {strings.item.peopleNotAllowed}
        </p>
      )}
      <form onSubmit={submit}>
        <fieldset
          disabled={!allowed || invite.isPending}
          aria-describedby={allowed ? undefined : `${id}-why`}
        >
          <legend className="visually-hidden">{strings.item.people}</legend>
          <div className="field">
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
              {strings.item.peopleHint}
            </p>
          </div>
          <div className="inline-form">
            <label htmlFor={`${id}-role`}>{strings.members.inviteRole}</label>
            <select
              id={`${id}-role`}
              value={roleNow}
              onChange={(e) => setChosen(e.target.value as Role)}
            >
              {(allowed ? [...grantable].reverse() : [roleNow]).map((r) => (
                <option key={r} value={r}>
                  {roleName(r)}
                </option>
              ))}
            </select>
            <button type="submit" className="primary" disabled={!emails.trim()}>
              {invite.isPending ? strings.members.inviting : strings.members.inviteSubmit}
            </button>
          </div>
        </fieldset>
      </form>
      <div role="status" aria-live="polite" className="invite-outcome">
        {invite.data && !invite.isPending && (
          <Outcome outcome={invite.data} role={invite.variables.role} />
        )}
      </div>
      {invite.isError && <ErrorMessage error={invite.error} />}
    </section>
  );
}
