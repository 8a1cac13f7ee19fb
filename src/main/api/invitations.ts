import type { ItemKind } from '../../shared/item-kind';
import { segment } from './client-types';
import { call } from './requests';
import { Share } from './schemas';
import type { Transport } from './transport';

// Invitations (conventions.md, "Invitations and role changes"): POST /:item/:id/invitations on a
// workspace, and on a folder or file (the real service documents `:item`; what an item's
// invitation grants is the service's: the sandbox makes a member of the item's workspace).

/** What is shared: a workspace, or one folder or file of it. */
export type InviteTarget = { kind: 'workspace'; id: number } | { kind: ItemKind; id: number };

export function invite(
  transport: Transport,
  target: InviteTarget,
  emails: string[],
  roleName?: string,
): Promise<Share> {
  const plural = target.kind === 'workspace' ? 'workspaces' : segment(target.kind);
  return call(
    transport,
    'POST',
    `/${plural}/${target.id}/invitations`,
    `/${plural}/:id/invitations`,
    Share,
    {
      json: {
        invitation: { emails: emails.join(', '), ...(roleName ? { role_name: roleName } : {}) },
      },
      wrapper: 'share',
    },
  );
}
