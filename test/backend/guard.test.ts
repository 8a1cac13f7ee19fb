import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MethodName, ParamsOf, ResultOf, SyncPairStatus } from '../../src/shared/app-api';
import { FileAccountStore } from '../../src/main/accounts/accounts';
import { AppBackend, type PushMessage } from '../../src/main/backend/backend';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { clientFor, localTree, remoteTree, tokenOf } from '../sync/harness';
import { tempDir } from '../cli/run-cli';

// The window's way to answer the remote mass-delete guard (issue 24, row 11): the pair's status
// says what is held, `pairs.answerDeletes` answers it. A real sandbox, a real folder.

let sb: RunningSandbox;
let tmp: { dir: string; remove(): Promise<void> };
let backend: AppBackend;
const statuses: { pairId: string; status: SyncPairStatus }[] = [];
const waiters: { test: (s: SyncPairStatus) => boolean; resolve: () => void }[] = [];
let stopListening: () => void;

function statusUntil(test: (s: SyncPairStatus) => boolean): Promise<void> {
  if (statuses.length > 0 && test(statuses.at(-1)!.status)) return Promise.resolve();
  return new Promise((resolve) => waiters.push({ test, resolve }));
}

async function call<M extends MethodName>(method: M, params: ParamsOf<M>) {
  return backend.call(method, params) as Promise<
    { ok: true; result: ResultOf<M> } | { ok: false; error: { kind: string; message: string } }
  >;
}

beforeAll(async () => {
  sb = await startSandbox({ seed: 'demo' });
  tmp = await tempDir('backend-guard');
  const state = path.join(tmp.dir, 'state');
  backend = new AppBackend({
    stateDir: state,
    accounts: FileAccountStore.inStateDir(state),
    pollIntervalMs: 100,
    env: {},
  });
  stopListening = backend.on((p: PushMessage) => {
    if (p.event !== 'pair-status') return;
    statuses.push(p.data);
    for (const w of [...waiters]) {
      if (w.test(p.data.status)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  });
});

afterAll(async () => {
  stopListening?.();
  await backend?.close();
  await sb?.close();
  await tmp?.remove();
});

describe('pairs.answerDeletes', () => {
  it('the status says what the service deleted; confirming moves it to the trash', async () => {
    const ann = sb.users.find((u) => u.email === 'ann@example.com')!;
    const signedIn = await call('accounts.signIn', {
      server: sb.baseUrl,
      email: ann.email,
      password: ann.password,
    });
    if (!signedIn.ok) throw new Error(signedIn.error.message);
    const dir = path.join(tmp.dir, 'pair');
    const added = await call('pairs.add', {
      accountId: signedIn.result.id,
      workspaceId: sb.workspaceId,
      dir,
    });
    if (!added.ok) throw new Error(added.error.message);
    const pairId = added.result.id;
    await statusUntil((s) => s.state === 'idle');
    expect(await call('pairs.answerDeletes', { pairId, answer: 'confirm' })).toMatchObject({
      ok: false,
      error: { kind: 'conflict', message: 'No deletions are waiting for an answer.' },
    });
    const before = localTree(dir);

    // A colleague deletes every top folder. The pair is paused meanwhile: the deletions are one
    // request each, and a pass between two of them would rightly trash the first folder alone.
    expect(await call('pairs.pause', { pairId })).toMatchObject({ ok: true });
    await statusUntil((s) => s.state === 'paused');
    const client = clientFor(sb.baseUrl, tokenOf(ann));
    const root = (await client.rootFolder(sb.workspaceId)).id;
    for await (const entry of client.folderContents(root)) {
      if (entry.kind === 'folder') await client.deleteFolder(entry.folder.id);
    }
    expect(await call('pairs.resume', { pairId })).toMatchObject({ ok: true });
    await statusUntil((s) => s.state === 'needs-attention');
    const held = statuses.at(-1)!.status;
    expect(held.held).toMatchObject({ side: 'remote' });
    expect(held.message).toMatch(
      /^The service lists \d+ of \d+ synced items as deleted: confirm to move them to the trash here, or keep them$/,
    );
    expect(localTree(dir)).toEqual(before);

    expect(await call('pairs.answerDeletes', { pairId, answer: 'confirm' })).toEqual({
      ok: true,
      result: null,
    });
    await statusUntil((s) => s.state === 'idle' && !s.held);
    expect(localTree(dir)).toEqual(remoteTree(sb));
    const trash = path.join(tmp.dir, 'state', 'trash');
    expect(existsSync(trash) && readdirSync(trash).length).toBeGreaterThan(0);
  });
});
