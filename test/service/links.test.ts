import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/service/sandbox';
import {
  call,
  eventsOf,
  makeFile,
  makeFolder,
  startEmptySandbox,
  userWith,
} from './helpers-social';

let s: RunningSandbox;

beforeAll(async () => {
  s = await startEmptySandbox();
});

afterAll(async () => {
  await s?.close();
});

describe('links', () => {
  it('creates the link on first read, with the documented shape', async () => {
    const folderId = makeFolder(s, 'Shared');
    const collaborator = userWith(s, 'Collaborator');
    const res = await call(s, 'GET', `/folders/${folderId}/link`, collaborator.token);
    expect(res.status).toBe(200);
    const link = res.json.content_item_link;
    expect(link).toEqual({
      token: link.token,
      token_accessible: false,
      token_expires: false,
      token_expires_at: null,
      require_password: false,
      role_id: null,
      link: `/folders/${link.token}`,
      url: `/folders/${folderId}/link`,
    });
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(link.token).toMatch(/[A-Za-z]/);
    const again = await call(s, 'GET', `/folders/${folderId}/link`, collaborator.token);
    expect(again.json.content_item_link.token).toBe(link.token);
  });

  it('gives every item its own token', async () => {
    const admin = userWith(s, 'Administrator');
    const tokens = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const id = await makeFile(s, `f${i}.txt`, 'x');
      const res = await call(s, 'GET', `/files/${id}/link`, admin.token);
      expect(res.json.content_item_link.link).toBe(`/files/${res.json.content_item_link.token}`);
      expect(res.json.content_item_link.url).toBe(`/files/${id}/link`);
      tokens.add(res.json.content_item_link.token);
    }
    expect(tokens.size).toBe(5);
  });

  it('refuses to show links below Collaborator (403) and unknown items (404)', async () => {
    const id = makeFolder(s, 'Private');
    for (const role of ['Creator', 'Downloader', 'Viewer'] as const) {
      const res = await call(s, 'GET', `/folders/${id}/link`, userWith(s, role).token);
      expect(res.status, role).toBe(403);
    }
    const admin = userWith(s, 'Administrator');
    expect((await call(s, 'GET', `/folders/987654/link`, admin.token)).status).toBe(404);
  });

  it('updates the flags (Moderator and above), flat or wrapped, and records an update event', async () => {
    const id = await makeFile(s, 'report.pdf', 'pdf');
    const moderator = userWith(s, 'Moderator');
    const on = await call(s, 'PUT', `/files/${id}/link`, moderator.token, {
      token_accessible: true,
    });
    expect(on.status).toBe(200);
    expect(on.json.content_item_link.token_accessible).toBe(true);
    const off = await call(s, 'PUT', `/files/${id}/link`, moderator.token, {
      content_item_link: { token_accessible: false },
    });
    expect(off.json.content_item_link.token_accessible).toBe(false);
    expect(off.json.content_item_link.token).toBe(on.json.content_item_link.token);
    const event = eventsOf(s, 'update').at(-1)!;
    expect(event.item_id).toBe(id);
    expect(event.user_id).toBe(moderator.id);
    expect(event.detail).toContain('<predicate>updated the link of</predicate>');

    const collaborator = userWith(s, 'Collaborator');
    const refused = await call(s, 'PUT', `/files/${id}/link`, collaborator.token, {
      token_accessible: true,
    });
    expect(refused.status).toBe(403);
    const bad = await call(s, 'PUT', `/files/${id}/link`, moderator.token, {
      token_accessible: 'maybe',
    });
    expect(bad.status).toBe(422);
  });

  it('needs a password to require one, and never returns it', async () => {
    const id = makeFolder(s, 'Locked');
    const admin = userWith(s, 'Administrator');
    const noPassword = await call(s, 'PUT', `/folders/${id}/link`, admin.token, {
      require_password: true,
    });
    expect(noPassword.status).toBe(422);
    expect(noPassword.json.errors.password).toBeDefined();
    const empty = await call(s, 'PUT', `/folders/${id}/link`, admin.token, {
      require_password: true,
      password: '',
    });
    expect(empty.status).toBe(422);

    const secret = 'hunter2-very-secret';
    const set = await call(s, 'PUT', `/folders/${id}/link`, admin.token, {
      require_password: true,
      password: secret,
      token_accessible: true,
    });
    expect(set.status).toBe(200);
    expect(set.json.content_item_link.require_password).toBe(true);
    expect(set.text).not.toContain(secret);
    expect(set.text).not.toContain('password_hash');
    const read = await call(s, 'GET', `/folders/${id}/link`, admin.token);
    expect(read.text).not.toContain(secret);
    const stored = s.sandbox.db
      .prepare(`SELECT password_hash FROM links WHERE item_id = ?`)
      .get(id) as { password_hash: string };
    expect(stored.password_hash).toMatch(/^scrypt\$/);
    expect(stored.password_hash).not.toContain(secret);
    const details = eventsOf(s)
      .map((e) => e.detail)
      .join('\n');
    expect(details).not.toContain(secret);

    // With a password already set, require_password may be toggled without sending it again.
    const offAgain = await call(s, 'PUT', `/folders/${id}/link`, admin.token, {
      require_password: false,
    });
    expect(offAgain.json.content_item_link.require_password).toBe(false);
    const onAgain = await call(s, 'PUT', `/folders/${id}/link`, admin.token, {
      require_password: true,
    });
    expect(onAgain.status).toBe(200);
    expect(onAgain.json.content_item_link.require_password).toBe(true);
  });

  it('sets and clears an expiry (RFC 2822 or ISO 8601), shown in the user’s zone', async () => {
    const id = makeFolder(s, 'Expiring');
    const admin = userWith(s, 'Administrator'); // America/New_York
    const rfc = await call(s, 'PUT', `/folders/${id}/link`, admin.token, {
      token_expires_at: 'Sun, 22 Nov 2037 09:15:03 +0000',
    });
    expect(rfc.status).toBe(200);
    expect(rfc.json.content_item_link.token_expires).toBe(true);
    expect(rfc.json.content_item_link.token_expires_at).toBe('2037-11-22T04:15:03-05:00');
    const iso = await call(s, 'PUT', `/folders/${id}/link`, admin.token, {
      token_expires_at: '2037-07-01T12:00:00Z',
    });
    expect(iso.json.content_item_link.token_expires_at).toBe('2037-07-01T08:00:00-04:00');
    const cleared = await call(s, 'PUT', `/folders/${id}/link`, admin.token, {
      token_expires_at: null,
    });
    expect(cleared.json.content_item_link.token_expires).toBe(false);
    expect(cleared.json.content_item_link.token_expires_at).toBeNull();
    const bad = await call(s, 'PUT', `/folders/${id}/link`, admin.token, {
      token_expires_at: 'next tuesday',
    });
    expect(bad.status).toBe(422);
  });

  it('with passwords required (a policy set by hook), refuses a link on without one', async () => {
    const id = await makeFile(s, 'guarded.txt', 'guarded');
    const admin = userWith(s, 'Administrator');
    const policy = await call(s, 'POST', '/_sandbox/policy', undefined, {
      link_password_required: true,
    });
    expect(policy.status).toBe(200);
    try {
      const bare = await call(s, 'PUT', `/files/${id}/link`, admin.token, {
        token_accessible: true,
      });
      expect(bare.status).toBe(422);
      expect(bare.json.errors.password[0]).toMatch(/required/);
      const got = await call(s, 'GET', `/files/${id}/link`, admin.token);
      expect(got.json.content_item_link.token_accessible).toBe(false);
      const guarded = await call(s, 'PUT', `/files/${id}/link`, admin.token, {
        token_accessible: true,
        require_password: true,
        password: 'open sesame',
      });
      expect(guarded.status).toBe(200);
      expect(guarded.json.content_item_link).toMatchObject({
        token_accessible: true,
        require_password: true,
      });
      // Taking the password off an open link is the same refusal; turning it off is not.
      const unguard = await call(s, 'PUT', `/files/${id}/link`, admin.token, {
        require_password: false,
      });
      expect(unguard.status).toBe(422);
      const off = await call(s, 'PUT', `/files/${id}/link`, admin.token, {
        token_accessible: false,
        require_password: false,
      });
      expect(off.status).toBe(200);
    } finally {
      await call(s, 'POST', '/_sandbox/policy', undefined, { link_password_required: false });
    }
  });

  it('closes the shared page once the link expires', async () => {
    const id = await makeFile(s, 'soon.txt', 'soon gone');
    const admin = userWith(s, 'Administrator');
    const inAnHour = new Date(s.sandbox.clock.now() + 3600_000)
      .toUTCString()
      .replace('GMT', '+0000');
    const res = await call(s, 'PUT', `/files/${id}/link`, admin.token, {
      token_accessible: true,
      token_expires_at: inAnHour,
    });
    expect(res.status).toBe(200);
    const link = res.json.content_item_link.link as string;
    const before = await call(s, 'GET', link);
    expect(before.status).toBe(200);
    expect(before.text).toBe('soon gone');
    s.advanceClock(3601);
    const after = await call(s, 'GET', link);
    expect(after.status).toBe(404);
  });
});
