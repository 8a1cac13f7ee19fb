import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError, Member, MethodName, ParamsOf } from '../../src/shared/app-api';
import type { AppBackend } from '../../src/main/backend/backend';
import { memberOf, splitEmails } from '../../src/main/backend/handlers/members';
import type { RunningSandbox } from '../../src/service/sandbox';
import { eventsOf, makeFile, makeFolder } from '../service/helpers-social';
import { backendWithSandbox, type BackendWithSandbox } from './with-backend';

// People through the window's API (app-api.ts, members.*): a real sandbox, each role's view of
// a workspace's members, an invitation, a role change and a removal, and every refusal in one
// line.

let t: BackendWithSandbox;
let sb: RunningSandbox;
let backend: AppBackend;
const accounts: Record<string, string> = {};

const ok: BackendWithSandbox['ok'] = (method, params) => t.ok(method, params);

/** One line (the shared check), and no one's token in it. */
async function refused<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<AppError> {
  const error = await t.refused(method, params);
  for (const u of sb.users) expect(error.message).not.toContain(u.token);
  return error;
}

const user = (role: string) => sb.users.find((u) => u.role === role)!;
/** The account of the sandbox's user with `role`, signed in through the backend. */
async function as(role: string): Promise<string> {
  const u = user(role);
  accounts[role] ??= (
    await ok('accounts.signIn', { server: sb.baseUrl, email: u.email, password: u.password })
  ).id;
  return accounts[role];
}
const byEmail = (members: Member[] | null, email: string) =>
  members?.find((m) => m.email === email);

beforeAll(async () => {
  t = await backendWithSandbox({ seed: 'empty', prefix: 'members', user: null });
  ({ sb, backend } = t);
});

afterAll(() => t?.close());

describe('members of a workspace', () => {
  it('the owner sees everyone, may give every role, and is not offered their own', async () => {
    const got = await ok('members.list', {
      accountId: await as('Administrator'),
      workspaceId: sb.workspaceId,
    });
    expect(got.role).toBe('Administrator');
    expect(got.grantable).toEqual([
      'Viewer',
      'Printer',
      'Downloader',
      'Creator',
      'Collaborator',
      'Moderator',
      'Administrator',
    ]);
    expect(got.refusal).toBeNull();
    expect(got.members).toHaveLength(sb.users.length);
    const me = byEmail(got.members, user('Administrator').email)!;
    expect(me).toMatchObject({ isOwner: true, isYou: true, roles: [], mayRemove: false });
    const kenji = byEmail(got.members, user('Collaborator').email)!;
    expect(kenji).toMatchObject({
      name: user('Collaborator').name,
      role: 'Collaborator',
      pending: false,
      isYou: false,
      mayRemove: true,
    });
    expect(kenji.roles).toHaveLength(7);
  });

  it('a Moderator invites, changes a role up to their own, and removes', async () => {
    const accountId = await as('Moderator');
    const workspaceId = sb.workspaceId;
    const before = await ok('members.list', { accountId, workspaceId });
    expect(before.grantable.at(-1)).toBe('Moderator');
    expect(byEmail(before.members, user('Administrator').email)).toMatchObject({
      isOwner: true,
      roles: [],
      mayRemove: false,
    });
    expect(byEmail(before.members, user('Moderator').email)).toMatchObject({
      isYou: true,
      roles: [],
    });
    const dana = byEmail(before.members, user('Downloader').email)!;
    expect(dana.roles.at(-1)).toBe('Moderator');

    const outcome = await ok('members.invite', {
      accountId,
      workspaceId,
      emails: `new.person@example.org, not-an-address; ${user('Downloader').email}`,
      role: 'Creator',
    });
    expect(outcome).toEqual({
      invited: ['new.person@example.org'],
      alreadyMembers: [user('Downloader').email],
      refused: ['not-an-address'],
    });
    const after = await ok('members.list', { accountId, workspaceId });
    const invited = byEmail(after.members, 'new.person@example.org')!;
    expect(invited).toMatchObject({ role: 'Creator', pending: true, name: null, mayRemove: true });

    const changed = await ok('members.changeRole', {
      accountId,
      workspaceId,
      memberId: dana.id,
      role: 'Collaborator',
    });
    expect(changed).toMatchObject({ id: dana.id, role: 'Collaborator', isYou: false });
    const tooHigh = await refused('members.changeRole', {
      accountId,
      workspaceId,
      memberId: dana.id,
      role: 'Administrator',
    });
    // The service's reason travels as a parameter of our words: a German window says
    // „Nicht erlaubt: …“ around the service's own sentence.
    expect(tooHigh).toEqual({
      kind: 'forbidden',
      message: 'Not permitted: A Moderator may not grant the Administrator role.',
      words: {
        key: 'service.forbidden',
        params: { reason: 'A Moderator may not grant the Administrator role' },
      },
    });
    expect(
      (
        await refused('members.invite', {
          accountId,
          workspaceId,
          emails: 'boss@example.org',
          role: 'Administrator',
        })
      ).kind,
    ).toBe('forbidden');

    await ok('members.remove', { accountId, workspaceId, memberId: invited.id });
    const last = await ok('members.list', { accountId, workspaceId });
    expect(byEmail(last.members, 'new.person@example.org')).toBeUndefined();
    await ok('members.changeRole', {
      accountId,
      workspaceId,
      memberId: dana.id,
      role: 'Downloader',
    });
  });

  it('shares a folder and a file with people: the item’s invitation, and its outcome', async () => {
    const accountId = await as('Administrator');
    const workspaceId = sb.workspaceId;
    const folderId = makeFolder(sb, 'Plans to share');
    const fileId = await makeFile(sb, 'plan.txt', 'the plan', folderId);
    const outcome = await ok('members.invite', {
      accountId,
      workspaceId,
      emails: `folder.guest@example.org, not-an-address, ${user('Viewer').email}`,
      role: 'Collaborator',
      item: { kind: 'folder', itemId: folderId },
    });
    expect(outcome).toEqual({
      invited: ['folder.guest@example.org'],
      alreadyMembers: [user('Viewer').email],
      refused: ['not-an-address'],
    });
    const onFile = await ok('members.invite', {
      accountId,
      workspaceId,
      emails: 'file.guest@example.org',
      role: 'Viewer',
      item: { kind: 'file', itemId: fileId },
    });
    expect(onFile.invited).toEqual(['file.guest@example.org']);
    // The service was asked on the item's own route, not the workspace's.
    const invites = eventsOf(sb, 'invite').slice(-2);
    expect(invites[0]!.detail).toContain('>Plans to share</a>');
    expect(invites[1]!.detail).toContain('>plan.txt</a>');
    const members = await ok('members.list', { accountId, workspaceId });
    expect(byEmail(members.members, 'file.guest@example.org')).toMatchObject({ role: 'Viewer' });
    const collaborator = await refused('members.invite', {
      accountId: await as('Collaborator'),
      workspaceId,
      emails: 'x@example.org',
      role: 'Viewer',
      item: { kind: 'file', itemId: fileId },
    });
    expect(collaborator.kind).toBe('forbidden');
  });

  it('a Viewer is told, in one line, that the service does not show them the members', async () => {
    const accountId = await as('Viewer');
    const got = await ok('members.list', { accountId, workspaceId: sb.workspaceId });
    expect(got).toMatchObject({ role: 'Viewer', grantable: [], members: null });
    expect(got.refusal).toBe('Not permitted: Only a Moderator or above may list the members.');
    const e = await refused('members.invite', {
      accountId,
      workspaceId: sb.workspaceId,
      emails: 'friend@example.org',
      role: 'Viewer',
    });
    expect(e.kind).toBe('forbidden');
  });

  it('refuses an empty invitation and a role that is not one before asking the service', async () => {
    const accountId = await as('Administrator');
    const empty = await refused('members.invite', {
      accountId,
      workspaceId: sb.workspaceId,
      emails: ' , ',
      role: 'Viewer',
    });
    expect(empty).toMatchObject({ kind: 'invalid', message: 'Enter an email address to invite.' });
    const reply = await backend.call('members.invite', {
      accountId,
      workspaceId: sb.workspaceId,
      emails: 'a@example.org',
      role: 'Owner',
    });
    expect(reply.ok).toBe(false);
    expect(splitEmails('a@x.org;b@y.org\nA@x.org  c@z.org,')).toEqual([
      'a@x.org',
      'b@y.org',
      'c@z.org',
    ]);
  });

  it('works out what a Moderator may do where the service does not list available_roles', () => {
    const me = { userId: 2, email: 'mo@example.org', role: 'Moderator', ownerId: 1 };
    const map = (id: number, role_name: string, email: string) => ({
      id,
      role_name,
      user_id: id,
      user: { id, email, first_name: null, last_name: null },
    });
    expect(memberOf(map(1, 'Administrator', 'owner@example.org'), me)).toMatchObject({
      isOwner: true,
      roles: [],
      mayRemove: false,
    });
    expect(memberOf(map(2, 'Moderator', 'MO@example.org'), me)).toMatchObject({
      isYou: true,
      roles: [],
      mayRemove: false,
      name: null,
    });
    expect(memberOf(map(3, 'Administrator', 'admin@example.org'), me).roles).toEqual([]);
    expect(memberOf(map(4, 'Printer', 'p@example.org'), me)).toMatchObject({
      roles: ['Viewer', 'Printer', 'Downloader', 'Creator', 'Collaborator', 'Moderator'],
      mayRemove: true,
    });
    // A Viewer who may see the members is offered nothing to change.
    expect(memberOf(map(4, 'Printer', 'p@example.org'), { ...me, role: 'Viewer' })).toMatchObject({
      roles: [],
      mayRemove: false,
    });
  });
});
