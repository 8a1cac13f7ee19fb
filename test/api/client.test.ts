import { Readable } from 'node:stream';
import { buffer, text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { ServiceClient, collect, rfc2822 } from '../../src/main/api/client';
import { ForbiddenError, NotFoundError, ValidationError } from '../../src/main/api/errors';
import { Moves } from '../../src/main/api/moves';
import { openSession } from '../../src/main/api/oauth';

// Every typed operation against a real sandbox, at the root and under a base path, with and
// without the move extensions.

const setups = [
  { name: 'at the root', basePath: undefined, extensions: true },
  { name: 'under /api/v1', basePath: '/api/v1', extensions: true },
  { name: 'without the move extensions', basePath: undefined, extensions: false },
];

for (const setup of setups) {
  describe(`ServiceClient ${setup.name}`, () => {
    let sb: RunningSandbox;
    let client: ServiceClient;
    let viewer: ServiceClient;
    const as = (role: string) => {
      const u = sb.users.find((x) => x.role === role)!;
      const { transport } = openSession({
        baseUrl: sb.baseUrl,
        clientId: sb.clientId,
        clientSecret: sb.clientSecret,
        tokens: { accessToken: u.token },
      });
      return new ServiceClient(transport);
    };

    beforeAll(async () => {
      sb = await startSandbox({
        seed: 'empty',
        basePath: setup.basePath,
        extensions: setup.extensions,
      });
      client = as('Administrator');
      viewer = as('Viewer');
    });
    afterAll(async () => {
      await sb?.close();
    });

    it('works with workspaces, folders, files, comments, links, events and roles', async () => {
      const [ws] = await collect(client.listWorkspaces());
      expect(ws!.id).toBe(sb.workspaceId);
      const root = await client.rootFolder(sb.workspaceId);
      expect(root.id).toBe(ws!.root_folder_id);

      const reports = await client.createFolder(sb.workspaceId, null, 'Reports');
      const sub = await client.createFolder(sb.workspaceId, reports.id, 'a/b');
      expect(sub.filename).toBe('a-b'); // the server repairs the name; the client adopts it
      await expect(client.createFolder(sb.workspaceId, null, 'reports')).rejects.toBeInstanceOf(
        ValidationError,
      );
      for (let i = 0; i < 65; i++) await client.createFolder(sb.workspaceId, sub.id, `f${i}`);
      expect(await collect(client.folderContents(sub.id))).toHaveLength(65); // two pages

      const bytes = Buffer.from('hello, wörld '.repeat(1000));
      const file = await client.uploadFile(
        reports.id,
        'notes 📝.txt',
        () => Readable.from([bytes]),
        bytes.length,
      );
      expect(file.size).toBe(bytes.length);
      const again = await client.uploadFile(reports.id, 'notes 📝.txt', () =>
        Readable.from([Buffer.from('v2')]),
      );
      expect(again.id).toBe(file.id);
      const whole = await client.download(file.id);
      expect(await text(whole.body)).toBe('v2');
      const big = await client.uploadFile(
        reports.id,
        'big.bin',
        () => Readable.from([bytes]),
        bytes.length,
      );
      const tail = await client.download(big.id, { offset: 100 });
      expect(tail.partial).toBe(true);
      expect(await buffer(tail.body)).toEqual(bytes.subarray(100));
      const zip = await client.folderArchive(reports.id);
      let zipBytes = 0;
      for await (const chunk of zip) zipBytes += (chunk as Buffer).length;
      expect(zipBytes).toBeGreaterThan(bytes.length);

      expect((await client.renameFile(file.id, 'renamed.txt')).filename).toBe('renamed.txt');
      expect((await client.getFile(file.id)).filename).toBe('renamed.txt');
      expect((await client.renameFolder(sub.id, 'Sub')).filename).toBe('Sub');

      const comment = await client.addComment('file', file.id, 'Looks good');
      expect((await collect(client.listComments('file', file.id))).map((c) => c.body)).toEqual([
        'Looks good',
      ]);
      await client.deleteComment('file', file.id, comment.id);
      await expect(viewer.addComment('file', file.id, 'no')).rejects.toBeInstanceOf(ForbiddenError);

      const link = await client.getLink('folder', reports.id);
      expect(link.link).toMatch(/^\/folders\//);
      const updated = await client.updateLink('folder', reports.id, {
        token_accessible: true,
        expiresAt: Date.now() + 86_400_000,
      });
      expect(updated.token_accessible).toBe(true);
      expect(updated.token_expires).toBe(true);

      const events = await collect(
        client.listEvents({ workspaces: [sb.workspaceId], verbs: ['upload'] }),
      );
      expect(events.length).toBeGreaterThanOrEqual(3);
      expect(events.every((e) => e.detail.includes('uploaded'))).toBe(true);
      // Starting at an offset skips exactly that many, across the service's pages of 30.
      const all = await collect(client.listEvents());
      expect(all.length).toBeGreaterThan(31);
      const later = await collect(client.listEvents({ offset: 31 }));
      expect(later.map((e) => e.id)).toEqual(all.slice(31).map((e) => e.id));
      const none = await collect(client.listEvents({ startTime: Date.now() + 3_600_000 }));
      expect(none).toEqual([]);
      expect((await collect(client.fileAuditTrail(file.id))).length).toBeGreaterThan(0);

      const share = await client.invite(sb.workspaceId, ['new.person@example.org'], 'Creator');
      expect(share.invited_emails?.length).toBe(1);
      const maps = await collect(client.listRolemaps(sb.workspaceId));
      const viewerMap = maps.find(
        (m) => m.user?.email === sb.users.find((u) => u.role === 'Viewer')!.email,
      )!;
      await client.changeRole(viewerMap.id, 'Downloader');
      expect((await viewer.getWorkspace(sb.workspaceId)).effective_role).toBe('Downloader');

      const other = await client.createWorkspace({ name: 'Scratch' });
      expect(
        (await client.updateWorkspace(other.id, { background_color: '#112233' })).background_color,
      ).toBe('#112233');
      await client.deleteWorkspace(other.id);
      await expect(client.getWorkspace(other.id)).rejects.toBeInstanceOf(NotFoundError);
      await client.deleteFile(big.id);
      await client.deleteFolder(sub.id);
      await expect(client.getFile(big.id)).rejects.toBeInstanceOf(NotFoundError);
    });

    it('invites, lists, reads, changes and revokes members; each refusal by role', async () => {
      const moderator = as('Moderator');
      const dana = sb.users.find((u) => u.role === 'Downloader')!;
      const share = await moderator.invite(
        sb.workspaceId,
        ['invitee@example.org', 'not-an-address', dana.email],
        'Creator',
      );
      expect(share.invited_emails?.map((e) => Object.keys(e)[0])).toEqual(['invitee@example.org']);
      expect(share.email_errors).toEqual(['not-an-address']);
      expect(share.join_errors).toEqual([dana.email]);
      const maps = await collect(moderator.listRolemaps(sb.workspaceId));
      const pending = maps.find((m) => m.user?.email === 'invitee@example.org')!;
      expect(pending).toMatchObject({ role_name: 'Creator', state: 'pending', user_id: null });
      const danaMap = maps.find((m) => m.user?.email === dana.email)!;
      expect(danaMap.user).toMatchObject({ first_name: expect.any(String) });
      // A Moderator may give a Downloader any role up to its own, never Administrator.
      expect(danaMap.available_roles).toContain('Moderator');
      expect(danaMap.available_roles).not.toContain('Administrator');
      const owner = maps.find((m) => m.user_id === sb.users[0]!.id)!;
      expect(owner.available_roles).toEqual([]);

      await moderator.changeRole(danaMap.id, 'Collaborator');
      expect((await moderator.getRolemap(danaMap.id)).role_name).toBe('Collaborator');
      await expect(moderator.changeRole(danaMap.id, 'Administrator')).rejects.toBeInstanceOf(
        ForbiddenError,
      );
      await expect(moderator.changeRole(owner.id, 'Viewer')).rejects.toBeInstanceOf(ForbiddenError);
      await expect(viewer.listRolemaps(sb.workspaceId).next()).rejects.toBeInstanceOf(
        ForbiddenError,
      );
      await expect(viewer.invite(sb.workspaceId, ['x@example.org'])).rejects.toBeInstanceOf(
        ForbiddenError,
      );
      await moderator.revokeRolemap(pending.id);
      await expect(moderator.getRolemap(pending.id)).rejects.toBeInstanceOf(NotFoundError);
      await moderator.changeRole(danaMap.id, 'Downloader');
    });

    it(`moves ${setup.extensions ? 'in one call' : 'as "unsupported", with no error storm'}`, async () => {
      const moves = new Moves(client);
      const a = await client.createFolder(sb.workspaceId, null, 'Move source');
      const b = await client.createFolder(sb.workspaceId, null, 'Move target');
      const result = await moves.moveFolder(a.id, b.id);
      const again = await moves.moveFolder(a.id, b.id);
      expect(result.supported).toBe(setup.extensions);
      expect(again.supported).toBe(setup.extensions);
      expect(moves.supported).toBe(setup.extensions);
      if (result.supported) expect(result.item.ancestor_ids?.at(-1)).toBe(b.id);
      if (setup.extensions) {
        await expect(moves.moveFolder(999_999, b.id)).rejects.toBeInstanceOf(NotFoundError);
      } else {
        // Once known, the unsupported move costs no request at all.
        const before = sb.stats()['PUT /folders/:id'] ?? 0;
        expect((await moves.moveFolder(b.id, a.id)).supported).toBe(false);
        expect(sb.stats()['PUT /folders/:id'] ?? 0).toBe(before);
      }
    });
  });
}

describe('rfc2822', () => {
  it('formats with an explicit +0000 zone', () => {
    expect(rfc2822(Date.UTC(2026, 10, 22, 9, 15, 3))).toBe('Sun, 22 Nov 2026 09:15:03 +0000');
  });
});
