import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SyncPairStatus } from '../../src/shared/app-api';
import { clientFor, localTree, tokenOf } from '../sync/harness';
import { callOk } from './backend-calls';
import { backendWithSandbox, type BackendWithSandbox } from './with-backend';

// Issue 37, the window's backend: a workspace gone is its own state (files kept, Stop syncing
// keeps them too); a failed pass says why and Retry now starts one; a token the service no longer
// accepts is "signed out" on the account, and signing in again resumes its pairs.

let t: BackendWithSandbox | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

async function synced(name: string) {
  const made = await backendWithSandbox({
    seed: 'demo',
    prefix: name,
    pair: 'pair',
    backend: { pollIntervalMs: 50 },
  });
  t = made;
  const { backend: b, sb, user: owner, accountId, pairId, statuses, dir, state } = made;
  await statuses.where((s) => s.state === 'idle');
  return { b, sb, owner, account: { id: accountId }, pairId, statuses, dir, state };
}

const trashOf = (state: string) => {
  const trash = path.join(state, 'trash');
  return existsSync(trash) ? readdirSync(trash) : [];
};

describe('a workspace deleted on the service', () => {
  it('is gone, never up to date; Stop syncing keeps every file', async () => {
    const { b, sb, owner, pairId, statuses, dir, state } = await synced('backend-gone');
    const before = localTree(dir);
    await clientFor(sb.baseUrl, tokenOf(owner)).deleteWorkspace(sb.workspaceId);
    writeFileSync(path.join(dir, 'after.txt'), 'mine');
    // What is pushed from now on (the current status, idle from before, is looked at first).
    const seen: SyncPairStatus[] = [];
    void statuses.where((s) => (seen.push(s), false));
    seen.length = 0;
    const gone = await statuses.where((s) => s.state === 'gone');
    expect(gone.error).toMatchObject({ kind: 'workspace-gone' });
    expect(gone.message).toMatch(/was deleted or is no longer shared with you/);
    expect(seen.some((s) => s.state === 'idle')).toBe(false);
    expect(trashOf(state)).toEqual([]);

    // Stop syncing: the pair goes, the folder stays as it was (the new file too).
    await callOk(b, 'pairs.remove', { pairId });
    expect(await callOk(b, 'pairs.list', {})).toEqual([]);
    const after = localTree(dir);
    for (const [p, hash] of before) expect(after.get(p)).toBe(hash);
    expect(after.has('after.txt')).toBe(true);
    expect(trashOf(state)).toEqual([]);
  });
});

describe('a failed pass', () => {
  it('says why with the last success kept, and Retry now syncs', async () => {
    const { b, sb, pairId, statuses } = await synced('backend-failed');
    const lastSuccess = statuses.latest!.lastSyncAt;
    expect(lastSuccess).not.toBeNull();
    sb.sandbox.faults.set({ ...sb.sandbox.faults.current, fail: 1 });
    const failed = await statuses.where((s) => s.state === 'offline');
    expect(failed.error?.kind).toBe('offline');
    expect(failed.error?.words).toBeDefined();
    // Kept: the last success's time, not cleared by the failure. The pair polls every 50 ms, so
    // a round may have succeeded between the idle seen above and the fault: it is that one's.
    expect(failed.lastSyncAt).not.toBeNull();
    expect(failed.lastSyncAt!).toBeGreaterThanOrEqual(lastSuccess!);

    sb.sandbox.faults.set({ ...sb.sandbox.faults.current, fail: 0 });
    await callOk(b, 'pairs.retry', { pairId });
    const back = await statuses.where((s) => s.state === 'idle');
    expect(back.lastSyncAt).toBeGreaterThan(failed.lastSyncAt!);

    // A paused pair is not retried: it says so.
    await callOk(b, 'pairs.pause', { pairId });
    expect(await b.call('pairs.retry', { pairId })).toMatchObject({
      ok: false,
      error: { kind: 'conflict', message: 'This folder is paused: resume it to sync.' },
    });
  });
});

describe('a sign-in the service no longer accepts', () => {
  it('is signed out (pair kept); signing in again resumes it', async () => {
    const { b, sb, owner, account, pairId, statuses, dir } = await synced('backend-signed-out');
    const revoked = await fetch(`${sb.baseUrl}/_sandbox/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: owner.email }),
    });
    expect(revoked.status).toBe(200);
    await callOk(b, 'pairs.retry', { pairId });
    const out = await statuses.where((s) => s.error?.kind === 'signed-out');
    expect(out.state).toBe('needs-attention');
    const listed = await callOk(b, 'accounts.list', {});
    expect(listed).toEqual([expect.objectContaining({ id: account.id, signedOut: true })]);
    // The pair is kept while signed out.
    expect((await callOk(b, 'pairs.list', {})).map((p) => p.id)).toEqual([pairId]);

    // Signing in again (the window's sign-in form) resumes it: a new folder comes down.
    await callOk(b, 'accounts.signIn', {
      server: sb.baseUrl,
      email: owner.email,
      password: owner.password,
    });
    expect((await callOk(b, 'accounts.list', {}))[0]!.signedOut).toBeUndefined();
    const client = clientFor(sb.baseUrl, {
      accessToken: await signInToken(sb.baseUrl, owner.email, owner.password),
    });
    await client.createFolder(sb.workspaceId, null, 'Made after signing in again');
    await statuses.where(
      (s) => s.state === 'idle' && existsSync(path.join(dir, 'Made after signing in again')),
    );
  });
});

/** A fresh access token by the password grant (the revoked one is gone). */
async function signInToken(base: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'password',
      username: email,
      password,
      client_id: 'workspace-sync',
      client_secret: 'sandbox-secret',
    }),
  });
  const json = (await res.json()) as { access_token: string };
  return json.access_token;
}
