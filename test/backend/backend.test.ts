import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError, MethodName, ParamsOf, ResultOf } from '../../src/shared/app-api';
import { FileAccountStore } from '../../src/main/accounts/accounts';
import { AppBackend, type PushMessage } from '../../src/main/backend/backend';
import { AccountSessions } from '../../src/main/backend/accounts';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import type { UserRow } from '../../src/service/db';
import { createFolder } from '../../src/service/routes/folders';
import { clientFor, remoteTree, tokenOf } from '../sync/harness';
import { callOk } from './backend-calls';
import { tempDir } from '../cli/run-cli';
import { signInOnPage } from '../cli/oauth-page';
import { pairsOnDisk } from '../../src/main/links/pair-lookup';
import { silentLogger } from '../../src/main/sync/ports';
import { processTransfers } from '../../src/main/api/throttle';

// The window's typed API against a real sandbox over HTTP, real accounts and real sync folders.

let sb: RunningSandbox;
let tmp: { dir: string; remove(): Promise<void> };
let backend: AppBackend;
const pushes: PushMessage[] = [];
const waiters: { test: (p: PushMessage) => boolean; resolve: (p: PushMessage) => void }[] = [];
let stopListening: () => void;

/** The next push (or one already received) that passes `test`. */
function nextPush(test: (p: PushMessage) => boolean, since = 0): Promise<PushMessage> {
  const seen = pushes.slice(since).find(test);
  if (seen) return Promise.resolve(seen);
  return new Promise((resolve) => waiters.push({ test, resolve }));
}

const ok = <M extends MethodName>(method: M, params: ParamsOf<M>) =>
  callOk(backend, method, params);

async function refused(method: string, params: unknown): Promise<AppError> {
  const reply = await backend.call(method, params);
  if (reply.ok) throw new Error(`${method} succeeded: ${JSON.stringify(reply.result)}`);
  // Never a stack, never a token.
  expect(reply.error.message).not.toMatch(/\n\s+at /);
  for (const u of sb.users) expect(reply.error.message).not.toContain(u.token);
  return reply.error;
}

const user = (email: string) => sb.users.find((u) => u.email === email)!;
const accounts: Record<string, string> = {};
async function signIn(email: string): Promise<string> {
  if (accounts[email]) return accounts[email];
  const a = await ok('accounts.signIn', {
    server: sb.baseUrl,
    email,
    password: user(email).password,
  });
  accounts[email] = a.id;
  return a.id;
}

let rootFolderId: number;
async function entry(accountId: string, folderId: number, name: string) {
  const page = await ok('folders.contents', { accountId, folderId, limit: 500 });
  const found = page.items.find((e) => e.name === name);
  if (!found) throw new Error(`no ${name} in folder ${folderId}`);
  return found;
}

beforeAll(async () => {
  sb = await startSandbox({ seed: 'demo' });
  tmp = await tempDir('backend');
  const state = path.join(tmp.dir, 'state');
  backend = new AppBackend({
    stateDir: state,
    accounts: FileAccountStore.inStateDir(state),
    demo: { server: sb.baseUrl, email: 'ann@example.com', password: 'ann-sandbox-pass' },
    activityPollMs: 200,
    pollIntervalMs: 200,
    env: {},
  });
  stopListening = backend.on((p) => {
    pushes.push(p);
    for (const w of [...waiters]) {
      if (w.test(p)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(p);
      }
    }
  });
  const ann = await signIn('ann@example.com');
  rootFolderId = (await ok('workspaces.list', { accountId: ann })).items.find(
    (w) => w.id === sb.workspaceId,
  )!.rootFolderId;
});

afterAll(async () => {
  stopListening?.();
  await backend?.close();
  await sb?.close();
  await tmp?.remove();
});

describe('calls', () => {
  it('refuses unknown methods and invalid parameters with words a person understands', async () => {
    expect(await refused('nope.nothing', {})).toMatchObject({
      kind: 'invalid',
      message: 'There is no method "nope.nothing".',
    });
    const e = await refused('accounts.signIn', { server: sb.baseUrl, email: 'a@b.c' });
    expect(e.kind).toBe('invalid');
    expect(e.message).toMatch(/accounts\.signIn: password/);
    expect((await refused('workspaces.list', { accountId: 42 })).message).toMatch(/accountId/);
  });

  it('app.info says the demo is offered', async () => {
    const info = await ok('app.info', {});
    expect(info).toMatchObject({ name: 'Workspace Sync', platform: 'web', demo: true });
    expect(info.version).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('accounts', () => {
  it('refuses a wrong password with a clear message', async () => {
    const e = await refused('accounts.signIn', {
      server: sb.baseUrl,
      email: 'ann@example.com',
      password: 'not-her-password',
    });
    expect(e.kind).toBe('not-authenticated');
    expect(e.message).toBe(
      `${sb.baseUrl} refused the sign-in of ann@example.com: Wrong email or password.`,
    );
    expect(e.message).not.toContain('not-her-password');
  });

  it('says offline when the server cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const e = await refused('accounts.signIn', {
      server: `http://127.0.0.1:${port}`,
      email: 'ann@example.com',
      password: 'ann-sandbox-pass',
    });
    expect(e.kind).toBe('offline');
    // Said before any password is sent: the server, named, gave no answer at all.
    expect(e.message).toMatch(/^http:\/\/127\.0\.0\.1:\d+ cannot be reached \(ECONNREFUSED\)/);
  });

  it('refuses a server that is not a URL', async () => {
    const e = await refused('accounts.signIn', { server: 'files', email: 'a@b.c', password: 'x' });
    expect(e.kind).toBe('invalid');
    expect(e.message).toMatch(/not a server address/);
  });

  it('signs in with a password, lists, signs out', async () => {
    const a = await ok('accounts.signIn', {
      server: sb.baseUrl + '/',
      email: 'kenji@example.com',
      password: 'kenji-sandbox-pass',
    });
    expect(a).toEqual({
      id: `${sb.baseUrl}#kenji@example.com`,
      server: sb.baseUrl,
      email: 'kenji@example.com',
      // A Collaborator may not read the member list: the name comes from their own events.
      name: 'Kenji Sato',
    });
    const ann = (await ok('accounts.list', {})).find((x) => x.email === 'ann@example.com');
    expect(ann).toMatchObject({ name: 'Ann Lee', id: accounts['ann@example.com'] });
    expect((await ok('accounts.list', {})).map((x) => x.id)).toContain(a.id);
    expect(await ok('accounts.signOut', { accountId: a.id })).toBeNull();
    expect((await ok('accounts.list', {})).map((x) => x.id)).not.toContain(a.id);
    expect((await refused('workspaces.list', { accountId: a.id })).kind).toBe('not-authenticated');
  });

  it('signs in with a pasted token, and refuses a bad one without echoing it', async () => {
    const moritz = user('moritz@example.com');
    const a = await ok('accounts.signInWithToken', { server: sb.baseUrl, token: moritz.token });
    // A Moderator reads the member list: the email and name are found.
    expect(a).toMatchObject({ email: 'moritz@example.com', name: 'Moritz Schäfer' });
    const bad = 'wrong-token-0123456789';
    const e = await refused('accounts.signInWithToken', { server: sb.baseUrl, token: bad });
    expect(e.kind).toBe('not-authenticated');
    expect(e.message).not.toContain(bad);
    await ok('accounts.signOut', { accountId: a.id });
  });

  it('tryDemo signs in the demo user', async () => {
    const demo = await ok('accounts.tryDemo', {});
    expect(demo).toMatchObject({ email: 'ann@example.com', name: 'Ann Lee' });
  });
});

describe('accounts: sign in with the browser', () => {
  it('pushes open-url with the service sign-in page, and signs in once the person did', async () => {
    const since = pushes.length;
    const call = backend.call('accounts.signInWithBrowser', { server: sb.baseUrl });
    const push = await nextPush((p) => p.event === 'open-url', since);
    if (push.event !== 'open-url') throw new Error('not an open-url push');
    const url = new URL(push.data.url);
    expect(url.pathname).toMatch(/\/oauth\/authorize$/);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    await signInOnPage(push.data.url, 'moritz@example.com', 'moritz-sandbox-pass');
    const reply = await call;
    if (!reply.ok) throw new Error(`${reply.error.kind}: ${reply.error.message}`);
    expect(reply.result).toEqual({
      id: `${sb.baseUrl}#moritz@example.com`,
      server: sb.baseUrl,
      email: 'moritz@example.com',
      name: 'Moritz Schäfer',
    });
    // The account works, and stays signed in like a password sign-in's.
    const id = (reply.result as { id: string }).id;
    expect((await ok('workspaces.list', { accountId: id })).items.length).toBeGreaterThan(0);
    expect((await ok('accounts.list', {})).map((a) => a.id)).toContain(id);
    await ok('accounts.signOut', { accountId: id });
  });

  it('takes the opener as an option, and says so clearly when the person never finishes', async () => {
    const opened: string[] = [];
    const other = new AppBackend({
      stateDir: path.join(tmp.dir, 'state-browser'),
      accounts: FileAccountStore.inStateDir(path.join(tmp.dir, 'state-browser')),
      env: {},
      openUrl: (url) => void opened.push(url),
      browserSignInTimeoutMs: 1,
    });
    try {
      const reply = await other.call('accounts.signInWithBrowser', { server: sb.baseUrl });
      expect(reply).toMatchObject({
        ok: false,
        error: {
          kind: 'invalid',
          message: 'Signing in through the browser did not complete: try again.',
        },
      });
      expect(opened).toHaveLength(1);
      expect(opened[0]).toContain('/oauth/authorize?');
      expect(await other.call('accounts.list', {})).toEqual({ ok: true, result: [] });
    } finally {
      await other.close();
    }
  });
});

describe('workspaces', () => {
  const hostile = '<img src=x onerror=alert(1)>';

  it('lists with roles, creates a hostile name as plain text, updates, deletes only by name', async () => {
    const ann = await signIn('ann@example.com');
    const list = await ok('workspaces.list', { accountId: ann });
    expect(list.items.find((w) => w.id === sb.workspaceId)).toMatchObject({
      name: 'Q3 Planning',
      role: 'Administrator',
      isOwner: true,
      color: '#2f6f9f',
    });
    const w = await ok('workspaces.create', { accountId: ann, name: hostile, defaultView: 'grid' });
    expect(w.name).toBe(hostile);
    expect(w.defaultView).toBe('grid');
    const updated = await ok('workspaces.update', {
      accountId: ann,
      workspaceId: w.id,
      color: '#112233',
      defaultView: 'list',
    });
    expect(updated).toMatchObject({ name: hostile, color: '#112233', defaultView: 'list' });

    for (const confirmName of ['', hostile + ' ', hostile.toUpperCase(), 'Q3 Planning']) {
      const e = await refused('workspaces.delete', {
        accountId: ann,
        workspaceId: w.id,
        confirmName,
      });
      expect(e).toMatchObject({
        kind: 'invalid',
        message: "Type the workspace's name to confirm.",
      });
    }
    expect(
      await ok('workspaces.delete', { accountId: ann, workspaceId: w.id, confirmName: hostile }),
    ).toBeNull();
    expect((await ok('workspaces.list', { accountId: ann })).items.map((x) => x.id)).not.toContain(
      w.id,
    );
    expect((await refused('workspaces.create', { accountId: ann, name: '  ' })).kind).toBe(
      'invalid',
    );
  });

  it('a Viewer cannot update a workspace: forbidden', async () => {
    const vikram = await signIn('vikram@example.com');
    const e = await refused('workspaces.update', {
      accountId: vikram,
      workspaceId: sb.workspaceId,
      name: 'Mine now',
    });
    expect(e.kind).toBe('forbidden');
  });
});

describe('folders', () => {
  it('pages, filters and sorts the contents', async () => {
    const ann = await signIn('ann@example.com');
    const all = await ok('folders.contents', { accountId: ann, folderId: rootFolderId });
    expect(all.nextOffset).toBeNull();
    const names = all.items.map((e) => e.name);
    expect(names).toContain('Reports');
    expect(names).toContain('README.txt');
    expect(all.items.find((e) => e.name === 'Internal')?.hidden).toBe(true);
    const first = await ok('folders.contents', {
      accountId: ann,
      folderId: rootFolderId,
      limit: 3,
    });
    expect(first.items.map((e) => e.name)).toEqual(names.slice(0, 3));
    expect(first.nextOffset).toBe(3);
    const rest = await ok('folders.contents', {
      accountId: ann,
      folderId: rootFolderId,
      offset: 3,
      limit: 100,
    });
    expect(rest.items.map((e) => e.name)).toEqual(names.slice(3));
    expect(rest.nextOffset).toBeNull();
    const found = await ok('folders.contents', {
      accountId: ann,
      folderId: rootFolderId,
      query: 'READ',
      sort: 'size',
    });
    expect(found.items.map((e) => e.name)).toEqual(['README.txt']);
  });

  it('reads a page of a large folder from its offset, with the folder count', async () => {
    const ann = await signIn('ann@example.com');
    const owner = sb.sandbox.db
      .prepare('SELECT * FROM users WHERE email = ?')
      .get('ann@example.com') as UserRow;
    const many = createFolder(sb.sandbox, owner, rootFolderId, 'Many');
    const names = Array.from({ length: 130 }, (_, i) => `Item ${String(i).padStart(3, '0')}`);
    for (const name of names) createFolder(sb.sandbox, owner, many.id, name);

    const first = await ok('folders.contents', { accountId: ann, folderId: many.id, limit: 60 });
    expect(first.items.map((e) => e.name)).toEqual(names.slice(0, 60));
    expect(first).toMatchObject({ nextOffset: 60, total: 130 });
    // Across two of the service's pages (60 each).
    const across = await ok('folders.contents', {
      accountId: ann,
      folderId: many.id,
      offset: 50,
      limit: 20,
    });
    expect(across.items.map((e) => e.name)).toEqual(names.slice(50, 70));
    expect(across.nextOffset).toBe(70);
    // The end of the folder is one request, not a listing of everything before it.
    sb.resetStats();
    const last = await ok('folders.contents', {
      accountId: ann,
      folderId: many.id,
      offset: 120,
      limit: 60,
    });
    expect(last.items.map((e) => e.name)).toEqual(names.slice(120));
    expect(last).toMatchObject({ nextOffset: null, total: 130 });
    expect(sb.stats()['GET /folders/:id']).toBe(1);
    const found = await ok('folders.contents', {
      accountId: ann,
      folderId: many.id,
      query: 'Item 12',
    });
    expect(found.total).toBe(10);
  });

  it('gives the path from the workspace root, also to a folder it has not listed', async () => {
    const ann = await signIn('ann@example.com');
    const reports = await entry(ann, rootFolderId, 'Reports');
    const year = await entry(ann, reports.id, '2026');
    expect(await ok('folders.path', { accountId: ann, folderId: year.id })).toEqual([
      { id: rootFolderId, name: 'Q3 Planning' },
      { id: reports.id, name: 'Reports' },
      { id: year.id, name: '2026' },
    ]);
    // Another account knows nothing yet: found through the folder's children, and an empty one
    // by a search from the root.
    const moritz = await signIn('moritz@example.com');
    expect(await ok('folders.path', { accountId: moritz, folderId: year.id })).toEqual([
      { id: rootFolderId, name: 'Q3 Planning' },
      { id: reports.id, name: 'Reports' },
      { id: year.id, name: '2026' },
    ]);
    const photos = await entry(ann, rootFolderId, 'Team Photos 📷');
    const offsite = await entry(ann, photos.id, 'Offsite 2026');
    const kenji = await signIn('kenji@example.com');
    expect(
      (await ok('folders.path', { accountId: kenji, folderId: offsite.id })).map((f) => f.name),
    ).toEqual(['Q3 Planning', 'Team Photos 📷', 'Offsite 2026']);
    expect((await refused('folders.path', { accountId: ann, folderId: 999999 })).kind).toBe(
      'not-found',
    );
  });

  it('downloads a folder zip inside the chosen folder, never over a file', async () => {
    const ann = await signIn('ann@example.com');
    const reports = await entry(ann, rootFolderId, 'Reports');
    const out = path.join(tmp.dir, 'zips');
    await mkdir(out);
    const since = pushes.length;
    const zip = await ok('folders.downloadZip', { accountId: ann, folderId: reports.id, to: out });
    expect(zip.path).toBe(path.join(out, 'Reports.zip'));
    expect(zip.bytes).toBeGreaterThan(0);
    expect(readFileSync(zip.path).subarray(0, 2).toString()).toBe('PK');
    const progress = await nextPush(
      (p) =>
        p.event === 'zip-progress' && p.data.folderId === reports.id && p.data.bytes === zip.bytes,
      since,
    );
    expect(progress.event).toBe('zip-progress');
    // A second one beside it, never replacing the first.
    const again = await ok('folders.downloadZip', {
      accountId: ann,
      folderId: reports.id,
      to: out,
    });
    expect(again.path).toBe(path.join(out, 'Reports (2).zip'));
    const taken = path.join(out, 'taken.zip');
    writeFileSync(taken, 'mine');
    expect(
      (await refused('folders.downloadZip', { accountId: ann, folderId: reports.id, to: taken }))
        .kind,
    ).toBe('conflict');
    expect(readFileSync(taken, 'utf8')).toBe('mine');
    expect(
      (
        await refused('folders.downloadZip', {
          accountId: ann,
          folderId: reports.id,
          to: 'rel/x.zip',
        })
      ).kind,
    ).toBe('invalid');
    // A Viewer may not download.
    const vikram = await signIn('vikram@example.com');
    const e = await refused('folders.downloadZip', {
      accountId: vikram,
      folderId: reports.id,
      to: path.join(out, 'viewer.zip'),
    });
    expect(e.kind).toBe('forbidden');
    expect(existsSync(path.join(out, 'viewer.zip'))).toBe(false);
  });
});

describe('comments', () => {
  it('lists with mayDelete by author and role; a hostile body stays text', async () => {
    const ann = await signIn('ann@example.com');
    const chloe = await signIn('chloe@example.com');
    const moritz = await signIn('moritz@example.com');
    const vikram = await signIn('vikram@example.com');
    const reports = await entry(ann, rootFolderId, 'Reports');
    const item = { kind: 'folder' as const, itemId: reports.id };

    const body = '<img src=x onerror=alert(1)> & <b>bold</b>';
    const mine = await ok('comments.add', { accountId: chloe, ...item, body });
    expect(mine).toMatchObject({ body, author: 'Chloé Martin', mayDelete: true });

    const { items: asChloe } = await ok('comments.list', { accountId: chloe, ...item });
    expect(asChloe.find((c) => c.id === mine.id)?.mayDelete).toBe(true);
    expect(asChloe.find((c) => c.author === 'Ann Lee')?.mayDelete).toBe(false);
    const { items: asMoritz } = await ok('comments.list', { accountId: moritz, ...item });
    expect(asMoritz.every((c) => c.mayDelete)).toBe(true);
    const { items: asAnn } = await ok('comments.list', { accountId: ann, ...item });
    expect(asAnn.find((c) => c.id === mine.id)?.body).toBe(body);

    expect((await refused('comments.add', { accountId: vikram, ...item, body: 'hi' })).kind).toBe(
      'forbidden',
    );
    expect((await refused('comments.add', { accountId: ann, ...item, body: '  ' })).kind).toBe(
      'invalid',
    );
    const annsOwn = asAnn.find((c) => c.author === 'Ann Lee')!;
    expect(
      (await refused('comments.delete', { accountId: chloe, ...item, commentId: annsOwn.id })).kind,
    ).toBe('forbidden');
    expect(
      await ok('comments.delete', { accountId: moritz, ...item, commentId: mine.id }),
    ).toBeNull();
    expect(
      (await ok('comments.list', { accountId: ann, ...item })).items.map((c) => c.id),
    ).not.toContain(mine.id);
  });
});

describe('links', () => {
  it('reads, updates and copies; read-only below Moderator', async () => {
    const ann = await signIn('ann@example.com');
    const kenji = await signIn('kenji@example.com');
    const reports = await entry(ann, rootFolderId, 'Reports');
    const summary = await entry(ann, reports.id, 'Q3 summary.md');
    const item = { kind: 'file' as const, itemId: summary.id };

    const link = await ok('links.get', { accountId: ann, ...item });
    expect(link.url.startsWith(`${sb.baseUrl}/files/`)).toBe(true);
    expect(link).toMatchObject({
      tokenAccessible: true,
      requirePassword: true,
      readOnlyReason: null,
    });
    expect(await ok('links.copy', { accountId: ann, ...item })).toEqual({ text: link.url });

    const asKenji = await ok('links.get', { accountId: kenji, ...item });
    expect(asKenji.readOnlyReason).toBe("Only Moderators and above can change a link's settings.");
    expect(
      (await refused('links.update', { accountId: kenji, ...item, tokenAccessible: false })).kind,
    ).toBe('forbidden');

    const expiresAt = new Date(Date.now() + 7 * 24 * 3600_000).toISOString();
    const changed = await ok('links.update', {
      accountId: ann,
      ...item,
      requirePassword: false,
      expiresAt,
    });
    expect(changed.requirePassword).toBe(false);
    expect(Date.parse(changed.expiresAt!)).toBe(Math.floor(Date.parse(expiresAt) / 1000) * 1000);
    expect(
      (await refused('links.update', { accountId: ann, ...item, requirePassword: true })).kind,
    ).toBe('invalid');
    expect(
      (await refused('links.update', { accountId: ann, ...item, expiresAt: 'soon' })).kind,
    ).toBe('invalid');

    // The shared page is reachable at the copied URL.
    const res = await fetch(changed.url);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  });
});

describe('links on a service that requires a password for them', () => {
  it('asks for a password in words, and turns the link on with one', async () => {
    const ann = await signIn('ann@example.com');
    const reports = await entry(ann, rootFolderId, 'Reports');
    const item = { kind: 'folder' as const, itemId: reports.id };
    await ok('links.update', { accountId: ann, ...item, tokenAccessible: false });
    const policy = (required: boolean) =>
      fetch(`${sb.baseUrl}/_sandbox/policy`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ link_password_required: required }),
      }).then((r) => expect(r.status).toBe(200));
    await policy(true);
    try {
      const asked = await refused('links.update', {
        accountId: ann,
        ...item,
        tokenAccessible: true,
      });
      expect(asked).toMatchObject({
        kind: 'invalid',
        words: { key: 'backend.linkPasswordRequired' },
      });
      expect((await ok('links.get', { accountId: ann, ...item })).tokenAccessible).toBe(false);
      const on = await ok('links.update', {
        accountId: ann,
        ...item,
        tokenAccessible: true,
        requirePassword: true,
        password: 'a long passphrase',
      });
      expect(on).toMatchObject({ tokenAccessible: true, requirePassword: true });
      expect(JSON.stringify(on)).not.toContain('a long passphrase');
    } finally {
      await policy(false);
    }
  });
});

describe('activity', () => {
  it('lists pages of parsed events with every filter', async () => {
    const ann = await signIn('ann@example.com');
    const first = await ok('activity.list', { accountId: ann, limit: 5 });
    expect(first.items).toHaveLength(5);
    expect(first.nextOffset).toBe(5);
    const second = await ok('activity.list', { accountId: ann, offset: 5, limit: 5 });
    expect(second.items[0]!.id).not.toBe(first.items[0]!.id);
    for (const e of first.items) {
      expect(e.text).not.toMatch(/<\/?(subject|predicate|object|complement|a)\b/);
      expect(e.subject).not.toBe('');
    }

    const annId = first.items.find((e) => e.subject === 'Ann Lee')?.actorId;
    expect(annId).toBeTypeOf('number');
    const others = await ok('activity.list', { accountId: ann, othersOnly: true, limit: 500 });
    expect(others.items.length).toBeGreaterThan(0);
    expect(others.items.every((e) => e.actorId !== annId)).toBe(true);
    const byAnn = await ok('activity.list', { accountId: ann, actor: annId!, limit: 500 });
    expect(byAnn.items.every((e) => e.actorId === annId)).toBe(true);
    const uploads = await ok('activity.list', { accountId: ann, verbs: ['upload'], limit: 500 });
    expect(uploads.items.length).toBeGreaterThan(0);
    expect(uploads.items.every((e) => e.predicate.includes('upload'))).toBe(true);
    const inWorkspace = await ok('activity.list', {
      accountId: ann,
      workspaces: [sb.workspaceId],
      limit: 500,
    });
    expect(inWorkspace.items.every((e) => e.workspaceId === sb.workspaceId)).toBe(true);
    const future = new Date(Date.now() + 3600_000).toISOString();
    const none = await ok('activity.list', { accountId: ann, from: future });
    expect(none).toEqual({ items: [], nextOffset: null });
    const past = await ok('activity.list', {
      accountId: ann,
      from: new Date(0).toISOString(),
      to: future,
      limit: 1,
    });
    expect(past.items).toHaveLength(1);
    expect((await refused('activity.list', { accountId: ann, from: 'yesterday' })).kind).toBe(
      'invalid',
    );
    expect((await refused('activity.list', { accountId: ann, verbs: ['smile'] })).kind).toBe(
      'invalid',
    );
  });

  it('names a hostile workspace as plain text in the event', async () => {
    const ann = await signIn('ann@example.com');
    const hostile = '<img src=x onerror=alert(1)>';
    const w = await ok('workspaces.create', { accountId: ann, name: hostile });
    const events = await ok('activity.list', { accountId: ann, workspaces: [w.id] });
    const created = events.items.find((e) => e.objects.some((o) => o.kind === 'workspace'));
    expect(created?.objects[0]).toMatchObject({ text: hostile, kind: 'workspace', id: w.id });
    expect(created?.text).toContain(hostile);
  });

  it('audit trail: forbidden for a Viewer, allowed for a Moderator', async () => {
    const ann = await signIn('ann@example.com');
    const reports = await entry(ann, rootFolderId, 'Reports');
    const summary = await entry(ann, reports.id, 'Q3 summary.md');
    const vikram = await signIn('vikram@example.com');
    expect(
      await refused('activity.auditTrail', { accountId: vikram, fileId: summary.id }),
    ).toMatchObject({
      kind: 'forbidden',
      message: "Only Moderators and above can see a file's audit trail.",
    });
    const moritz = await signIn('moritz@example.com');
    const { items: trail } = await ok('activity.auditTrail', {
      accountId: moritz,
      fileId: summary.id,
    });
    expect(trail.length).toBeGreaterThan(0);
    expect(trail.some((e) => e.objects.some((o) => o.id === summary.id))).toBe(true);
  });

  it('says the role in a workspace', async () => {
    expect(
      await ok('activity.role', {
        accountId: await signIn('vikram@example.com'),
        workspaceId: sb.workspaceId,
      }),
    ).toEqual({ role: 'Viewer' });
    expect(
      await ok('activity.role', {
        accountId: await signIn('ann@example.com'),
        workspaceId: sb.workspaceId,
      }),
    ).toEqual({ role: 'Administrator' });
  });

  it('pushes events newer than when listening began', async () => {
    const ann = await signIn('ann@example.com');
    await backend.pollActivity(); // every account's newest event is noted
    const since = pushes.length;
    const w = await ok('workspaces.create', { accountId: ann, name: 'Pushed workspace' });
    const push = await nextPush(
      (p) =>
        p.event === 'activity' && p.data.accountId === ann && p.data.event.workspaceId === w.id,
      since,
    );
    expect(push.event === 'activity' && push.data.event.text).toContain('Pushed workspace');
    // Nothing from before listening began is pushed.
    const old = pushes.slice(since).filter((p) => p.event === 'activity' && p.data.event.id <= 1);
    expect(old).toEqual([]);
  });
});

describe('pairs', () => {
  it('adds a running pair, pushes its status, pauses, resumes, removes it leaving the folder', async () => {
    const ann = await signIn('ann@example.com');
    const dir = path.join(tmp.dir, 'pair');
    const since = pushes.length;
    const pair = await ok('pairs.add', { accountId: ann, workspaceId: sb.workspaceId, dir });
    expect(pair).toMatchObject({
      accountId: ann,
      workspaceId: sb.workspaceId,
      workspaceName: 'Q3 Planning',
      dir,
      paused: false,
    });
    await nextPush(
      (p) =>
        p.event === 'pair-status' && p.data.pairId === pair.id && p.data.status.state === 'idle',
      since,
    );
    expect(readFileSync(path.join(dir, 'README.txt'), 'utf8')).toMatch(/Welcome/);
    expect(
      (await ok('pairs.list', {})).find((p) => p.id === pair.id)?.status.lastSyncAt,
    ).toBeTypeOf('number');

    expect(
      (
        await refused('pairs.add', {
          accountId: ann,
          workspaceId: sb.workspaceId,
          dir: path.join(dir, 'Reports'),
        })
      ).kind,
    ).toBe('conflict');
    expect(
      (await refused('pairs.add', { accountId: ann, workspaceId: sb.workspaceId, dir: 'relative' }))
        .kind,
    ).toBe('invalid');
    expect(
      (
        await refused('pairs.add', {
          accountId: ann,
          workspaceId: 999999,
          dir: path.join(tmp.dir, 'x'),
        })
      ).kind,
    ).toBe('not-found');

    const beforePause = pushes.length;
    await ok('pairs.pause', { pairId: pair.id });
    await nextPush(
      (p) =>
        p.event === 'pair-status' && p.data.pairId === pair.id && p.data.status.state === 'paused',
      beforePause,
    );
    expect((await ok('pairs.list', {})).find((p) => p.id === pair.id)).toMatchObject({
      paused: true,
    });
    const beforeResume = pushes.length;
    await ok('pairs.resume', { pairId: pair.id });
    await nextPush(
      (p) =>
        p.event === 'pair-status' && p.data.pairId === pair.id && p.data.status.state === 'idle',
      beforeResume,
    );
    expect((await ok('pairs.list', {})).find((p) => p.id === pair.id)).toMatchObject({
      paused: false,
    });

    const journalOf = () =>
      pairsOnDisk(path.join(tmp.dir, 'state'), silentLogger).find((p) => p.root === dir);
    expect(journalOf()).toBeDefined();
    expect(await ok('pairs.remove', { pairId: pair.id })).toBeNull();
    expect((await ok('pairs.list', {})).map((p) => p.id)).not.toContain(pair.id);
    expect(existsSync(path.join(dir, 'README.txt'))).toBe(true);
    // The journal goes: the folder is no longer taken for synced (copy link says so).
    expect(journalOf()).toBeUndefined();
    expect((await refused('pairs.pause', { pairId: pair.id })).kind).toBe('not-found');
  });
});

describe('opening a sync folder', () => {
  it("starts the desktop's file manager on the pair's folder, found on the PATH", async () => {
    // A file manager of our own on the PATH: a real program, started the way xdg-open is.
    const bin = path.join(tmp.dir, 'bin');
    mkdirSync(bin, { recursive: true });
    const opener = path.join(bin, process.platform === 'darwin' ? 'open' : 'xdg-open');
    // Shell built-ins only: its PATH holds nothing else.
    writeFileSync(opener, '#!/bin/sh\nprintf \'%s\' "$1" > "${0%/*}/opened"\n');
    chmodSync(opener, 0o755);
    const state = path.join(tmp.dir, 'state-open');
    const withOpener = new AppBackend({
      stateDir: state,
      accounts: FileAccountStore.inStateDir(state),
      pollIntervalMs: 200,
      env: { PATH: bin },
    });
    const dir = path.join(tmp.dir, 'pair-open');
    try {
      const a = await withOpener.call('accounts.signIn', {
        server: sb.baseUrl,
        email: 'dana@example.com',
        password: 'dana-sandbox-pass',
      });
      if (!a.ok) throw new Error(a.error.message);
      const added = await withOpener.call('pairs.add', {
        accountId: (a.result as { id: string }).id,
        workspaceId: sb.workspaceId,
        dir,
      });
      if (!added.ok) throw new Error(added.error.message);
      const pairId = (added.result as { id: string }).id;
      expect(await withOpener.call('pairs.openFolder', { pairId })).toEqual({
        ok: true,
        result: null,
      });
      const opened = path.join(bin, 'opened');
      await expect.poll(() => existsSync(opened) && readFileSync(opened, 'utf8')).toBe(dir);
    } finally {
      await withOpener.close();
    }

    // No file manager at all (a headless machine): said plainly, with the folder's path.
    const none = path.join(tmp.dir, 'empty-bin');
    mkdirSync(none, { recursive: true });
    const headless = new AppBackend({
      stateDir: state,
      accounts: FileAccountStore.inStateDir(state),
      pollIntervalMs: 200,
      env: { PATH: none },
    });
    try {
      await headless.restorePairs();
      const list = await headless.call('pairs.list', {});
      const pairId = list.ok ? (list.result as { id: string }[])[0]!.id : '';
      expect(await headless.call('pairs.openFolder', { pairId })).toMatchObject({
        ok: false,
        error: {
          kind: 'unsupported',
          message: `No program to open folders was found on this computer: the folder is ${dir}; open it in your file manager.`,
        },
      });
    } finally {
      await headless.close();
    }
  });
});

describe('pairs across runs', () => {
  it('a later run with the same state starts the remembered pairs, paused as they were', async () => {
    const state = path.join(tmp.dir, 'state-runs');
    const open = () =>
      new AppBackend({
        stateDir: state,
        accounts: FileAccountStore.inStateDir(state),
        pollIntervalMs: 200,
        env: {},
      });
    const first = open();
    const dir = path.join(tmp.dir, 'pair-runs');
    let pairId: string;
    try {
      const a = await first.call('accounts.signIn', {
        server: sb.baseUrl,
        email: 'dana@example.com',
        password: 'dana-sandbox-pass',
      });
      if (!a.ok) throw new Error(a.error.message);
      const added = await first.call('pairs.add', {
        accountId: (a.result as { id: string }).id,
        workspaceId: sb.workspaceId,
        dir,
      });
      if (!added.ok) throw new Error(added.error.message);
      pairId = (added.result as { id: string }).id;
      expect((await first.call('pairs.pause', { pairId })).ok).toBe(true);
    } finally {
      await first.close();
    }

    const second = open();
    try {
      await second.restorePairs();
      const list = await second.call('pairs.list', {});
      expect(list.ok && list.result).toMatchObject([
        { id: pairId, dir, workspaceName: 'Q3 Planning', paused: true },
      ]);
      expect((await second.call('pairs.remove', { pairId })).ok).toBe(true);
    } finally {
      await second.close();
    }
    expect(existsSync(dir)).toBe(true);

    const third = open();
    try {
      await third.restorePairs();
      expect(await third.call('pairs.list', {})).toEqual({ ok: true, result: [] });
    } finally {
      await third.close();
    }
  });
});

describe('settings', () => {
  it('app.info says this is not the desktop app unless told so', async () => {
    expect(await ok('app.info', {})).toMatchObject({ desktop: false, platform: 'web' });
    const state = path.join(tmp.dir, 'state-desktop');
    const desktop = new AppBackend({
      stateDir: state,
      accounts: FileAccountStore.inStateDir(state),
      desktop: { version: '9.8.7' },
      env: {},
    });
    try {
      expect(await desktop.call('app.info', {})).toMatchObject({
        ok: true,
        result: { desktop: true, version: '9.8.7', platform: process.platform },
      });
    } finally {
      await desktop.close();
    }
  });

  it('gets the defaults, updates, pushes the new settings, refuses bad values, remembers across runs', async () => {
    expect(await ok('settings.get', {})).toEqual({
      notifications: true,
      startAtLogin: false,
      pollIntervalSeconds: 30,
      ignorePatterns: [],
      uploadLimitKBps: 0,
      downloadLimitKBps: 0,
      proxy: '',
      language: 'system',
      browseSorts: {},
    });
    const since = pushes.length;
    const updated = await ok('settings.update', {
      notifications: false,
      ignorePatterns: ['*.iso'],
    });
    expect(updated).toEqual({
      notifications: false,
      startAtLogin: false,
      pollIntervalSeconds: 30,
      ignorePatterns: ['*.iso'],
      uploadLimitKBps: 0,
      downloadLimitKBps: 0,
      proxy: '',
      language: 'system',
      browseSorts: {},
    });
    expect((await nextPush((p) => p.event === 'settings', since)).data).toEqual(updated);
    expect(await ok('settings.get', {})).toEqual(updated);

    const tooOften = await refused('settings.update', { pollIntervalSeconds: 1 });
    expect(tooOften).toMatchObject({
      kind: 'invalid',
      message:
        'Invalid request to settings.update: pollIntervalSeconds: Choose a whole number of seconds from 5 to 3600.',
    });
    const twoLines = await refused('settings.update', { ignorePatterns: ['ok', 'a\nb'] });
    expect(twoLines).toEqual({
      kind: 'invalid',
      message: 'One pattern per line: “a b” spans several.',
    });
    expect((await refused('settings.update', { theme: 'dark' })).message).toMatch(/theme/);
    expect(await refused('settings.update', { proxy: 'socks5://127.0.0.1:1080' })).toMatchObject({
      kind: 'invalid',
      message:
        'Invalid request to settings.update: proxy: only http:// (or https://) proxies can be used, not socks5://: write it like http://proxy.example.com:3128.',
    });
    expect(await ok('settings.get', {})).toEqual(updated);

    // The same state directory, a later run.
    const state = path.join(tmp.dir, 'state');
    const later = new AppBackend({ stateDir: state, accounts: FileAccountStore.inStateDir(state) });
    try {
      expect(await later.call('settings.get', {})).toEqual({ ok: true, result: updated });
    } finally {
      await later.close();
    }
    await ok('settings.update', { notifications: true, ignorePatterns: [] });
  });

  it("sets the process's transfer limits from the settings, at once", async () => {
    await ok('settings.update', { uploadLimitKBps: 250, downloadLimitKBps: 1000 });
    expect(processTransfers.up.bytesPerSecond).toBe(250_000);
    expect(processTransfers.down.bytesPerSecond).toBe(1_000_000);
    const bad = await refused('settings.update', { downloadLimitKBps: -1 });
    expect(bad.message).toMatch(/downloadLimitKBps: Choose a whole number of KB\/s from 0/);
    await ok('settings.update', { uploadLimitKBps: 0, downloadLimitKBps: 0 });
    expect(processTransfers.up.bytesPerSecond).toBe(0);
    expect(processTransfers.down.bytesPerSecond).toBe(0);
  });

  it('reach the engines: patterns for pairs started after and running ones, the poll interval for the wait under way', async () => {
    const state = path.join(tmp.dir, 'state-settings');
    // No pollIntervalMs: the engines follow the settings.
    const b = new AppBackend({
      stateDir: state,
      accounts: FileAccountStore.inStateDir(state),
      env: {},
    });
    const call = async <M extends MethodName>(m: M, p: ParamsOf<M>): Promise<ResultOf<M>> => {
      const reply = await b.call(m, p);
      if (!reply.ok) throw new Error(`${m}: ${reply.error.message}`);
      return reply.result as ResultOf<M>;
    };
    const statuses: PushMessage[] = [];
    const waiting: { test: () => boolean; resolve: () => void }[] = [];
    const stopListening = b.on((p) => {
      statuses.push(p);
      for (const w of [...waiting])
        if (w.test()) {
          waiting.splice(waiting.indexOf(w), 1);
          w.resolve();
        }
    });
    /** Resolves once `test` holds after a push (or now). */
    const until = (test: () => boolean) =>
      test() ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ test, resolve }));
    try {
      const kenji = (
        await call('accounts.signIn', {
          server: sb.baseUrl,
          email: 'kenji@example.com',
          password: 'kenji-sandbox-pass',
        })
      ).id;
      const ws = await call('workspaces.create', { accountId: kenji, name: 'Settings reach' });
      const remote = () => remoteTree(sb, ws.id);

      // Set before the pair exists: an hour between polls, and *.log ignored.
      await call('settings.update', { pollIntervalSeconds: 3600, ignorePatterns: ['*.log'] });
      const dir = path.join(tmp.dir, 'pair-settings');
      await mkdir(dir, { recursive: true });
      writeFileSync(path.join(dir, 'before.log'), 'ignored from the start');
      writeFileSync(path.join(dir, 'before.txt'), 'sent');
      await call('pairs.add', { accountId: kenji, workspaceId: ws.id, dir });
      await until(() => remote().has('before.txt'));
      expect(remote().has('before.log')).toBe(false);

      // A pattern added while it runs: a new matching file stays here, the marker after it goes.
      await call('settings.update', { ignorePatterns: ['*.log', '*.iso'] });
      writeFileSync(path.join(dir, 'disk.iso'), 'ignored from now on');
      writeFileSync(path.join(dir, 'marker.txt'), 'sent');
      await until(() => remote().has('marker.txt'));
      expect(remote().has('disk.iso')).toBe(false);

      // Someone else's upload: with an hour between polls it would not come; the new interval
      // ends the wait under way.
      const kenjiUser = sb.users.find((u) => u.email === 'kenji@example.com')!;
      const client = clientFor(sb.baseUrl, tokenOf(kenjiUser));
      await client.uploadFile(ws.rootFolderId, 'theirs.txt', () =>
        Readable.from([Buffer.from('from the service')]),
      );
      await call('settings.update', { pollIntervalSeconds: 5 });
      await until(() => existsSync(path.join(dir, 'theirs.txt')));
      expect(statuses.some((p) => p.event === 'settings')).toBe(true);
    } finally {
      stopListening();
      for (const w of waiting.splice(0)) w.resolve();
      await b.close();
    }
  });
});

describe('accounts: sign out while another call opens the account', () => {
  it('keeps the account signed out (the activity poller lists accounts at any time)', async () => {
    const state = path.join(tmp.dir, 'state-signout-race');
    const sessions = new AccountSessions({
      store: FileAccountStore.inStateDir(state),
      env: {},
      log: silentLogger,
    });
    const { info } = await sessions.signInWithPassword(
      sb.baseUrl,
      'kenji@example.com',
      'kenji-sandbox-pass',
    );
    const out = sessions.signOut(info.id);
    const racing = sessions.get(info.id).catch(() => null);
    await out;
    await racing;
    await expect(sessions.get(info.id)).rejects.toMatchObject({
      error: { kind: 'not-authenticated' },
    });
    expect(await sessions.list()).toEqual([]);
  });
});
