import {
  Role as RoleSchema,
  type InviteOutcome,
  type Member,
  type Members,
  type Role,
} from '../../../shared/app-api';
import { ApiError } from '../../api/errors';
import type { Rolemap } from '../../api/schemas';
import type { SignedIn } from '../accounts';
import { fail } from '../errors';
import { wordsOf } from '../../../shared/i18n';
import { atLeast } from '../map';
import { gather } from '../bounded';
import type { HandlerContext, HandlersOf, Params } from './context';

// People: a workspace's members and invitations (conventions.md, "Invitations and role
// changes"), as the window's methods. The service decides who may do what; the window is told
// only what this user's role allows, so it offers nothing the service would refuse.

/** Least to most powerful: the contract's enum lists them in that order. */
const RANK: readonly Role[] = RoleSchema.options;

/** At most this many addresses at once: the sandbox's limit, and more than a person types. */
const MAX_EMAILS = 100;

/**
 * The roles a user with `role` may hand out: a Moderator and above invite and change roles, up
 * to their own (conventions.md, Roles).
 */
export function grantableBy(role: string | null | undefined): Role[] {
  if (!atLeast(role, 'Moderator')) return [];
  return RANK.slice(0, RANK.indexOf(role as Role) + 1);
}

/** The role names this window knows, in its order (least first); others are left out. */
function knownRoles(names: readonly string[]): Role[] {
  return RANK.filter((r) => names.includes(r));
}

/** Addresses from what the person typed: commas, semicolons, spaces or new lines between them. */
export function splitEmails(text: string): string[] {
  const seen = new Set<string>();
  return text
    .split(/[\s,;]+/)
    .filter((e) => e !== '' && !seen.has(e.toLowerCase()) && seen.add(e.toLowerCase()));
}

/**
 * The addresses of a share's error list. Its shape is not documented beyond a list: strings
 * are taken as they are, an object's keys as addresses (`{"a@x.org": ["is invalid"]}`).
 */
function addressesOf(list: unknown): string[] {
  const items = Array.isArray(list) ? list : list && typeof list === 'object' ? [list] : [];
  return items.flatMap((item: unknown) =>
    typeof item === 'string' ? [item] : item && typeof item === 'object' ? Object.keys(item) : [],
  );
}

interface Viewer {
  userId: number | null;
  email: string;
  role: string | null;
  ownerId: number | null;
}

export function memberOf(r: Rolemap, me: Viewer): Member {
  const user = r.user ?? null;
  const userId = r.user_id ?? user?.id ?? null;
  const email = user?.email ?? null;
  const name =
    [user?.first_name, user?.last_name]
      .filter((p): p is string => typeof p === 'string' && p.trim() !== '')
      .join(' ') || null;
  const isOwner = userId !== null && userId === me.ownerId;
  const isYou =
    (userId !== null && userId === me.userId) ||
    (email !== null && email.toLowerCase() === me.email.toLowerCase());
  const outranked = RANK.indexOf(r.role_name as Role) > RANK.indexOf(me.role as Role);
  // The service says which roles this user may give the member; where it does not, its rule:
  // a Moderator and above, up to their own role, never the owner's. Never one's own role here:
  // a person who lowers it may lock themselves out of the very page they would undo it from.
  const roles = isYou
    ? []
    : r.available_roles != null
      ? knownRoles(r.available_roles)
      : isOwner || outranked
        ? []
        : grantableBy(me.role);
  return {
    id: r.id,
    userId,
    name,
    email,
    role: r.role_name,
    pending: r.state === 'pending',
    isOwner,
    isYou,
    roles,
    // Whoever may change a member's role may remove them (the service's rule too).
    mayRemove: !isYou && !isOwner && roles.length > 0,
  };
}

/**
 * The window's methods on members (app-api.ts, People): list them with what this user may do,
 * invite, change a role, remove; refusals are the service's, in one line.
 */
export function memberHandlers(ctx: HandlerContext): HandlersOf<'members'> {
  /** Who is asking, and their role in the workspace: every member's offer depends on it. */
  const viewerIn = async (s: SignedIn, workspaceId: number) => {
    const w = await s.client.getWorkspace(workspaceId);
    const ownerId = w.owner_id ?? null;
    const viewer: Viewer = {
      userId: s.userId ?? (w.is_owner === true ? ownerId : null),
      email: s.email,
      role: w.effective_role ?? null,
      ownerId,
    };
    return { workspace: { id: w.id, name: w.name }, viewer };
  };

  return {
    'members.list': async (p: Params<'members.list'>): Promise<Members> => {
      const s = await ctx.account(p);
      const { workspace, viewer } = await viewerIn(s, p.workspaceId);
      const base = { workspace, role: viewer.role, grantable: grantableBy(viewer.role) };
      try {
        const got = await gather(s.client.listRolemaps(p.workspaceId), (r) => memberOf(r, viewer));
        return { ...base, members: got.items, refusal: null, ...(got.cut ? { cut: true } : {}) };
      } catch (err) {
        // A role that may not see the members: the service's refusal, shown in one line.
        if (err instanceof ApiError && err.kind === 'forbidden') {
          const words = wordsOf(err);
          return {
            ...base,
            members: null,
            refusal: err.message,
            ...(words ? { refusalWords: words } : {}),
          };
        }
        throw err;
      }
    },
    'members.invite': async (p: Params<'members.invite'>): Promise<InviteOutcome> => {
      const s = await ctx.account(p);
      const emails = splitEmails(p.emails);
      if (emails.length === 0) return fail('invalid', { key: 'backend.enterInvite' });
      if (emails.length > MAX_EMAILS)
        return fail('invalid', { key: 'backend.inviteMax', params: { n: MAX_EMAILS } });
      const share = p.item
        ? await s.client.inviteToItem(p.item.kind, p.item.itemId, emails, p.role)
        : await s.client.invite(p.workspaceId, emails, p.role);
      const invited = (share.invited_emails ?? []).flatMap((e) => Object.keys(e));
      const alreadyMembers = addressesOf(share.join_errors);
      const answered = new Set([...invited, ...alreadyMembers].map((e) => e.toLowerCase()));
      // An address the service neither invited nor named as a member was not invited.
      const refused = [...new Set([...addressesOf(share.email_errors), ...emails])].filter(
        (e) => !answered.has(e.toLowerCase()),
      );
      return { invited, alreadyMembers, refused };
    },
    'members.changeRole': async (p: Params<'members.changeRole'>): Promise<Member> => {
      const s = await ctx.account(p);
      await s.client.changeRole(p.memberId, p.role);
      // The service answers with an empty body: read the member again to show what it keeps.
      const [r, { viewer }] = await Promise.all([
        s.client.getRolemap(p.memberId),
        viewerIn(s, p.workspaceId),
      ]);
      if (r.role_name !== p.role)
        return fail('conflict', { key: 'backend.roleKept', params: { role: r.role_name } });
      return memberOf(r, viewer);
    },
    'members.remove': async (p: Params<'members.remove'>) => {
      const s = await ctx.account(p);
      await s.client.revokeRolemap(p.memberId);
      return null;
    },
  };
}
