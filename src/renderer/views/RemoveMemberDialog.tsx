import { useEffect, useId, useRef } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { Member } from '../../shared/app-api';
import { useAccount, useApi } from '../context';
import { strings } from '../strings';
import { ErrorMessage } from '../components/ErrorMessage';
import { memberLabel } from './MemberRow';

/**
 * Removing a member (or withdrawing an invitation) asks first: a modal <dialog> naming them and
 * the workspace, Cancel focused, Escape cancels.
 */
export function RemoveMemberDialog({
  member,
  workspace,
  onClose,
}: {
  member: Member;
  workspace: { id: number; name: string };
  /** `removed` true once the service has removed them. */
  onClose: (removed: boolean) => void;
}) {
  const api = useApi();
  const account = useAccount();
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const who = memberLabel(member);
  const email = member.email ?? who;
  const remove = useMutation({
    mutationFn: () =>
      api.call('members.remove', {
        accountId: account.id,
        workspaceId: workspace.id,
        memberId: member.id,
      }),
    onSuccess: () => onClose(true),
  });
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-explain`}
      onCancel={(e) => {
        e.preventDefault();
        onClose(false);
      }}
    >
      <h2 id={`${id}-title`}>
        {member.pending
          ? strings.members.withdrawTitle(email)
          : strings.members.removeTitle(who, workspace.name)}
      </h2>
      <p id={`${id}-explain`}>
        {member.pending
          ? strings.members.withdrawExplain(email)
          : strings.members.removeExplain(who)}
      </p>
      {remove.isError && <ErrorMessage error={remove.error} />}
      <div className="actions">
        <button type="button" autoFocus onClick={() => onClose(false)}>
          {strings.cancel}
        </button>
        <button
          type="button"
          className="danger primary"
          disabled={remove.isPending}
          onClick={() => remove.mutate()}
        >
          {remove.isPending
            ? strings.members.removing
            : member.pending
              ? strings.members.withdrawSubmit
              : strings.members.removeSubmit}
        </button>
      </div>
    </dialog>
  );
}
