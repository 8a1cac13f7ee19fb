import { translator } from '../../src/shared/i18n';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncPairStatus } from '../../src/shared/app-api';
import { AttentionNotices, summarizeCauses } from '../../src/main/platform/attention-notices';
import type { ServiceClient } from '../../src/main/api/client';
import type { RunningSandbox } from '../../src/service/sandbox';
import { remoteTree, sha } from '../sync/harness';
import type { PairStatuses } from './backend-calls';
import { backendWithSandbox, type BackendWithSandbox } from './with-backend';

// Conflicts and problems through the window's API (app-api.ts): a real pair on a real sandbox,
// a real conflict, each action taken through the backend and seen in the pushed status.

let t: BackendWithSandbox;
let sb: RunningSandbox;
let client: ServiceClient;
let pairId: string;
let dir: string;
let statuses: PairStatuses;
const opened: string[] = [];
const shown: string[] = [];

const ok: BackendWithSandbox['ok'] = (method, params) => t.ok(method, params);
const refused: BackendWithSandbox['refused'] = (method, params) => t.refused(method, params);
const statusWhere: BackendWithSandbox['statusWhere'] = (check) => t.statusWhere(check);

const disk = (rel: string) => path.join(dir, rel);
const copiesOf = (tree: Map<string, string>) =>
  [...tree.keys()].filter((k) => k.includes('(conflict '));
const settled = (s: SyncPairStatus) => s.items.total === 0 && s.current === null;

beforeAll(async () => {
  t = await backendWithSandbox({
    seed: 'empty',
    prefix: 'attention',
    pair: 'Q3',
    backend: {
      openPath: async (p) => void opened.push(p),
      showPath: async (p) => void shown.push(p),
    },
  });
  ({ sb, client, pairId, dir, statuses } = t);
  writeFileSync(disk('plan.txt'), 'original');
  await statusWhere(
    (s) => s.state === 'idle' && remoteTree(sb).get('plan.txt') === sha('original'),
  );
});

afterAll(() => t?.close());

/**
 * plan.txt changed on both sides while the pair was paused: a conflict with a copy. Copies of
 * earlier conflicts kept on the service are counted first: the new one is one more (waiting
 * for exactly one matched only a status pushed before the new copy was uploaded, a race).
 */
async function conflict(mine: string, theirs: string) {
  const before = copiesOf(remoteTree(sb)).length;
  await ok('pairs.pause', { pairId });
  await statusWhere((s) => s.state === 'paused');
  writeFileSync(disk('plan.txt'), mine);
  const root = (await client.rootFolder(sb.workspaceId)).id;
  await client.uploadFile(root, 'plan.txt', () => Readable.from([Buffer.from(theirs)]));
  await ok('pairs.resume', { pairId });
  const s = await statusWhere(
    (s) =>
      s.state === 'needs-attention' &&
      s.conflicts.some((c) => c.copy !== undefined) &&
      copiesOf(remoteTree(sb)).length === before + 1,
  );
  expect(s.message).toBe('1 conflict to look at');
  return s.conflicts.find((c) => c.copy !== undefined)!;
}

describe('a conflict through the backend', () => {
  it('is listed with its copy, opens and shows only listed paths, and Keep theirs settles it', async () => {
    const c = await conflict('mine', 'theirs');
    expect(c).toMatchObject({ path: 'plan.txt', id: expect.any(Number) });
    expect(readFileSync(disk(c.copy!), 'utf8')).toBe('mine');

    await ok('pairs.openItem', { pairId, path: c.copy!, how: 'open' });
    await ok('pairs.openItem', { pairId, path: 'plan.txt', how: 'show' });
    expect(opened).toEqual([disk(c.copy!)]);
    expect(shown).toEqual([disk('plan.txt')]);
    expect(
      await refused('pairs.openItem', { pairId, path: '../outside', how: 'open' }),
    ).toMatchObject({ kind: 'invalid' });
    expect(
      await refused('pairs.openItem', { pairId, path: '/etc/passwd', how: 'show' }),
    ).toMatchObject({ kind: 'invalid' });

    await ok('pairs.settleConflict', { pairId, conflictId: c.id!, keep: 'theirs' });
    await statusWhere(
      (s) =>
        s.state === 'idle' &&
        s.conflicts.every((x) => x.copy === undefined) &&
        copiesOf(remoteTree(sb)).length === 0,
    );
    expect(existsSync(disk(c.copy!))).toBe(false);
    expect(readFileSync(disk('plan.txt'), 'utf8')).toBe('theirs');
    expect(
      await refused('pairs.settleConflict', { pairId, conflictId: c.id!, keep: 'mine' }),
    ).toMatchObject({ kind: 'not-found', message: 'This conflict is settled already.' });
    // Said in the reader's language too (the engine's refusals were English only).
    const settled = await refused('pairs.settleConflict', {
      pairId,
      conflictId: c.id!,
      keep: 'mine',
    });
    expect(settled.words && translator('de').say(settled.words)).toBe(
      'Dieser Konflikt ist bereits gelöst.',
    );
  });

  it('Keep mine puts the local bytes on the service at the original name; a stale choice is refused', async () => {
    const c = await conflict('mine 2', 'theirs 2');
    writeFileSync(disk(c.copy!), 'mine 2, edited');
    expect(
      await refused('pairs.settleConflict', { pairId, conflictId: c.id!, keep: 'mine' }),
    ).toEqual({
      kind: 'conflict',
      message: `${c.copy!} changed since the conflict: look at it again, then choose.`,
      words: { key: 'engine.choiceChanged', params: { name: c.copy! } },
    });
    // Both kept instead, then a fresh conflict settled the other way.
    await ok('pairs.settleConflict', { pairId, conflictId: c.id!, keep: 'both' });
    await statusWhere(
      (s) => s.state === 'idle' && remoteTree(sb).get(c.copy!) === sha('mine 2, edited'),
    );
    const again = await conflict('mine 3', 'theirs 3');
    await ok('pairs.settleConflict', { pairId, conflictId: again.id!, keep: 'mine' });
    await statusWhere(
      (s) =>
        settled(s) &&
        s.conflicts.every((x) => x.copy === undefined) &&
        remoteTree(sb).get('plan.txt') === sha('mine 3') &&
        !remoteTree(sb).has(again.copy!),
    );
    expect(readdirSync(dir).filter((n) => n.includes('(conflict '))).toEqual([c.copy!]);
  });
});

describe('a problem through the backend', () => {
  it('Dismiss hides it: the pair is up to date again; Retry tries it again', async () => {
    // A name that is not valid UTF-8 is never sent: a problem at once.
    writeFileSync(
      Buffer.concat([Buffer.from(dir + '/bad-'), Buffer.from([0xff]), Buffer.from('.txt')]),
      'x',
    );
    const s = await statusWhere((s) => s.state === 'needs-attention' && s.problems.length > 0);
    expect(s.message).toBe('1 problem to look at');
    const key = s.problems[0]!.key!;
    expect(key).toBe('path:bad-\uFFFD.txt');
    await ok('pairs.problem', { pairId, key, action: 'dismiss' });
    const after = await statusWhere((s) => s.state === 'idle');
    expect(after.problems).toEqual([expect.objectContaining({ key, dismissed: true })]);
    await ok('pairs.problem', { pairId, key, action: 'retry' });
    // Tried again: the name is still bad, so the problem is back (its dismissal went with it).
    await statusWhere(
      (s) => s.state === 'needs-attention' && s.problems.some((p) => p.key === key && !p.dismissed),
    );
    expect(
      await refused('pairs.problem', { pairId, key: 'path:nothing', action: 'retry' }),
    ).toEqual({
      kind: 'not-found',
      message: 'This problem is over already.',
      words: { key: 'engine.problemOver' },
    });
  });
});

describe('a sign-out through the backend', () => {
  it('the pair says so in its status, and it is announced once', async () => {
    const notices = new AttentionNotices();
    const pair = () => ({
      id: pairId,
      accountId: 'a',
      workspaceId: sb.workspaceId,
      workspaceName: 'W',
      dir,
      paused: false,
      status: statuses.latest!,
    });
    notices.update(pair());
    // The service forgets every session (a password changed elsewhere, an admin's revocation).
    sb.sandbox.db.prepare(`DELETE FROM tokens`).run();
    const s = await statusWhere((s) => s.error?.kind === 'signed-out');
    expect(s).toMatchObject({
      state: 'needs-attention',
      error: {
        kind: 'signed-out',
        message: 'You are signed out: sign in again to continue syncing.',
      },
    });
    const causes = notices.update(pair());
    expect(summarizeCauses(causes)).toEqual({
      title: 'W',
      body: 'You are signed out: sign in again to continue syncing.',
      target: { kind: 'pair', pairId },
    });
    expect(notices.update(pair())).toEqual([]);
  });
});
