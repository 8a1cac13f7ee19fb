import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import type { User } from '../../src/service/context';
import { readOrCreateLink, updateLink } from '../../src/service/routes/links';
import { call, eventsOf, makeFile, makeFolder, startEmptySandbox } from './helpers-social';

let s: RunningSandbox;
let admin: User;

beforeAll(async () => {
  s = await startEmptySandbox();
  admin = s.sandbox.db.prepare(`SELECT * FROM users WHERE id = ?`).get(s.users[0]!.id) as User;
});

afterAll(async () => {
  await s?.close();
});

async function share(
  kind: 'folder' | 'file',
  id: number,
  changes: Parameters<typeof updateLink>[4] = { token_accessible: true },
): Promise<string> {
  readOrCreateLink(s.sandbox, admin, kind, id);
  return (await updateLink(s.sandbox, admin, kind, id, changes)).link;
}

function cookieOf(setCookie: string | null): string {
  expect(setCookie).toBeTruthy();
  return setCookie!.split(';')[0]!;
}

describe('shared pages', () => {
  it('lists a folder with escaped names, strict headers and a read event', async () => {
    const top = makeFolder(s, 'Board pack');
    makeFolder(s, '<script>alert(1)</script>', top);
    await makeFile(s, 'minutes & notes.txt', 'minutes', top);
    const link = await share('folder', top);
    const res = await call(s, 'GET', link);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.text).not.toContain('<script>');
    expect(res.text).toContain('minutes &amp; notes.txt');
    expect(res.text).toContain('Board pack');
    const read = eventsOf(s, 'read').at(-1)!;
    expect(read.user_id).toBeNull();
    expect(read.item_id).toBe(top);
    expect(read.detail).toContain('<subject>Someone with the link</subject>');
    expect(read.detail).toContain('<predicate>viewed</predicate>');
  });

  it('walks into subfolders and downloads files below the linked folder only', async () => {
    const top = makeFolder(s, 'Top');
    const sub = makeFolder(s, 'Sub', top);
    const inner = await makeFile(s, 'inner.bin', Buffer.from([0, 1, 2, 250, 255]), sub);
    const outside = makeFolder(s, 'Outside');
    const outsideFile = await makeFile(s, 'outside.txt', 'nope', outside);
    const link = await share('folder', top);

    const page = await call(s, 'GET', link);
    expect(page.text).toContain(`${link}?folder=${sub}`);
    const subPage = await call(s, 'GET', `${link}?folder=${sub}`);
    expect(subPage.status).toBe(200);
    expect(subPage.text).toContain('inner.bin');
    expect(subPage.text).toContain(`${link}/files/${inner}`);

    const res = await fetch(`${s.baseUrl}${link}/files/${inner}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('attachment');
    expect([...new Uint8Array(await res.arrayBuffer())]).toEqual([0, 1, 2, 250, 255]);

    expect((await call(s, 'GET', `${link}?folder=${outside}`)).status).toBe(404);
    expect((await call(s, 'GET', `${link}/files/${outsideFile}`)).status).toBe(404);
    expect((await call(s, 'GET', `${link}?folder=abc`)).status).toBe(404);
  });

  it('downloads a shared file', async () => {
    const id = await makeFile(s, 'hello.txt', 'hello, world');
    const link = await share('file', id);
    const res = await call(s, 'GET', link);
    expect(res.status).toBe(200);
    expect(res.text).toBe('hello, world');
    expect(res.headers.get('content-length')).toBe('12');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(eventsOf(s, 'read').at(-1)!.item_id).toBe(id);
  });

  it('answers 404 while the link is not accessible, and for unknown tokens', async () => {
    const id = await makeFile(s, 'closed.txt', 'closed');
    readOrCreateLink(s.sandbox, admin, 'file', id);
    const link = (await updateLink(s.sandbox, admin, 'file', id, {})).link;
    expect((await call(s, 'GET', link)).status).toBe(404);
    await updateLink(s.sandbox, admin, 'file', id, { token_accessible: true });
    expect((await call(s, 'GET', link)).status).toBe(200);
    await updateLink(s.sandbox, admin, 'file', id, { token_accessible: false });
    expect((await call(s, 'GET', link)).status).toBe(404);
    expect((await call(s, 'GET', '/files/NoSuchTokenAtAll0000000')).status).toBe(404);
    // A file token does not open as a folder.
    expect((await call(s, 'GET', link.replace('/files/', '/folders/'))).status).toBe(404);
  });

  it('asks for the password first and remembers it in a cookie', async () => {
    const top = makeFolder(s, 'Vault');
    await makeFile(s, 'gold.txt', 'gold', top);
    const link = await share('folder', top, {
      token_accessible: true,
      require_password: true,
      password: 'open sesame',
    });
    const readsBefore = eventsOf(s, 'read').length;
    const form = await call(s, 'GET', link);
    expect(form.status).toBe(200);
    expect(form.text).toContain('<form method="post"');
    expect(form.text).toContain('name="password"');
    expect(form.text).not.toContain('gold.txt');
    expect(eventsOf(s, 'read').length).toBe(readsBefore);

    const form_ = { 'content-type': 'application/x-www-form-urlencoded' };
    const wrong = await call(s, 'POST', link, undefined, 'password=nope', form_);
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('The password is not correct');
    expect(wrong.headers.get('set-cookie')).toBeNull();

    const right = await call(
      s,
      'POST',
      link,
      undefined,
      `password=${encodeURIComponent('open sesame')}`,
      form_,
    );
    expect(right.status).toBe(303);
    expect(right.headers.get('location')).toBe(link);
    const setCookie = right.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    expect(setCookie).not.toContain('open sesame');
    const cookie = cookieOf(setCookie);

    const page = await call(s, 'GET', link, undefined, undefined, { cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain('gold.txt');
    expect(eventsOf(s, 'read').length).toBe(readsBefore + 1);

    // A forged cookie does not pass; a new password invalidates the old cookie.
    const forged = await call(s, 'GET', link, undefined, undefined, {
      cookie: 'share_access=AAAA',
    });
    expect(forged.text).not.toContain('gold.txt');
    await updateLink(s.sandbox, admin, 'folder', top, { password: 'another one' });
    const stale = await call(s, 'GET', link, undefined, undefined, { cookie });
    expect(stale.text).not.toContain('gold.txt');
    expect(stale.text).toContain('name="password"');
  });

  it('protects a shared file download with its password', async () => {
    const id = await makeFile(s, 'secret.txt', 'classified');
    const link = await share('file', id, {
      token_accessible: true,
      require_password: true,
      password: 'pw-123',
    });
    const form = await call(s, 'GET', link);
    expect(form.text).not.toContain('classified');
    const ok = await call(s, 'POST', link, undefined, 'password=pw-123', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(ok.status).toBe(303);
    const res = await call(s, 'GET', link, undefined, undefined, {
      cookie: cookieOf(ok.headers.get('set-cookie')),
    });
    expect(res.text).toBe('classified');
  });

  it('slows down password guessing', async () => {
    const id = await makeFile(s, 'guarded.txt', 'guarded');
    const link = await share('file', id, {
      token_accessible: true,
      require_password: true,
      password: 'right',
    });
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    for (let i = 0; i < 10; i++) {
      expect((await call(s, 'POST', link, undefined, 'password=wrong', form)).status).toBe(401);
    }
    const blocked = await call(s, 'POST', link, undefined, 'password=right', form);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toBeTruthy();
    expect(blocked.headers.get('set-cookie')).toBeNull();
    s.advanceClock(601);
    const ok = await call(s, 'POST', link, undefined, 'password=right', form);
    expect(ok.status).toBe(303);
  });

  it('builds its page links under the base path', async () => {
    const based = await startSandbox({ seed: 'empty', basePath: '/api/v1' });
    try {
      const owner = based.sandbox.db
        .prepare(`SELECT * FROM users WHERE id = ?`)
        .get(based.users[0]!.id) as User;
      const top = makeFolder(based, 'Based');
      const sub = makeFolder(based, 'Inner', top);
      readOrCreateLink(based.sandbox, owner, 'folder', top);
      const { link } = await updateLink(based.sandbox, owner, 'folder', top, {
        token_accessible: true,
        require_password: true,
        password: 'p',
      });
      expect(link).toMatch(/^\/folders\//);
      const ok = await call(based, 'POST', link, undefined, 'password=p', {
        'content-type': 'application/x-www-form-urlencoded',
      });
      expect(ok.headers.get('location')).toBe(`/api/v1${link}`);
      expect(ok.headers.get('set-cookie')).toContain(`Path=/api/v1${link}`);
      const page = await call(based, 'GET', link, undefined, undefined, {
        cookie: cookieOf(ok.headers.get('set-cookie')),
      });
      expect(page.text).toContain(`href="/api/v1${link}?folder=${sub}"`);
    } finally {
      await based.close();
    }
  });
});
