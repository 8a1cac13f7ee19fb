import { useId } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { Member } from '../../shared/app-api';
import { useAccount, useApi } from '../context';
import { strings } from '../strings';
import { ErrorMessage } from '../components/ErrorMessage';
import { DialogActions, ModalDialog } from '../components/ModalDialog';
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
  return (
    <ModalDialog
      title={
        member.pending
          ? strings.members.withdrawTitle(email)
          : strings.members.removeTitle(who, workspace.name)
      }
      describedBy={`${id}-explain`}
      onCancel={() => onClose(false)}
    >
      <p id={`${id}-explain`}>
        {member.pending
          ? strings.members.withdrawExplain(email)
          : strings.members.removeExplain(who)}
      </p>
      {remove.isError && <ErrorMessage error={remove.error} />}
      <DialogActions
        onCancel={() => onClose(false)}
        cancelFocused
        confirm={
          remove.isPending
            ? strings.members.removing
            : member.pending
              ? strings.members.withdrawSubmit
              : strings.members.removeSubmit
        }
        danger
        disabled={remove.isPending}
        onConfirm={() => remove.mutate()}
      />
    </ModalDialog>
  );
}
