import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MethodName, ParamsOf, ResultOf } from '../../src/shared/app-api';
import type { AppBackend } from '../../src/main/backend/backend';
import type { RunningSandbox } from '../../src/service/sandbox';
import { localTree, remoteTree } from '../sync/harness';
import { backendWithSandbox, type BackendWithSandbox } from './with-backend';

// The window's way to answer the remote mass-delete guard (issue 24, row 11): the pair's status
// says what is held, `pairs.answerDeletes` answers it. A real sandbox, a real folder.

let t: BackendWithSandbox;
let sb: RunningSandbox;
let backend: AppBackend;

async function call<M extends MethodName>(method: M, params: ParamsOf<M>) {
  return backend.call(method, params) as Promise<
    { ok: true; result: ResultOf<M> } | { ok: false; error: { kind: string; message: string } }
  >;
}

beforeAll(async () => {
  t = await backendWithSandbox({
    seed: 'demo',
    prefix: 'backend-guard',
    user: 'ann@example.com',
    pair: 'pair',
  });
  ({ sb, backend } = t);
});

afterAll(() => t?.close());

describe('pairs.answerDeletes', () => {
  it('the status says what the service deleted; confirming moves it to the trash', async () => {
    const { pairId, dir, client } = t;
    await t.statusWhere((s) => s.state === 'idle');
    expect(await call('pairs.answerDeletes', { pairId, answer: 'confirm' })).toMatchObject({
      ok: false,
      error: { kind: 'conflict', message: 'No deletions are waiting for an answer.' },
    });
    const before = localTree(dir);

    // A colleague deletes every top folder. The pair is paused meanwhile: the deletions are one
    // request each, and a pass between two of them would rightly trash the first folder alone.
    expect(await call('pairs.pause', { pairId })).toMatchObject({ ok: true });
    await t.statusWhere((s) => s.state === 'paused');
    const root = (await client.rootFolder(sb.workspaceId)).id;
    for await (const entry of client.folderContents(root)) {
      if (entry.kind === 'folder') await client.deleteFolder(entry.folder.id);
    }
    expect(await call('pairs.resume', { pairId })).toMatchObject({ ok: true });
    const held = await t.statusWhere((s) => s.state === 'needs-attention');
    expect(held.held).toMatchObject({ side: 'remote' });
    expect(held.message).toMatch(
      /^The service lists \d+ of \d+ synced items as deleted: confirm to move them to the trash here, or keep them$/,
    );
    expect(localTree(dir)).toEqual(before);

    expect(await call('pairs.answerDeletes', { pairId, answer: 'confirm' })).toEqual({
      ok: true,
      result: null,
    });
    await t.statusWhere((s) => s.state === 'idle' && !s.held);
    expect(localTree(dir)).toEqual(remoteTree(sb));
    const trash = path.join(t.state, 'trash');
    expect(existsSync(trash) && readdirSync(trash).length).toBeGreaterThan(0);
  });
});
