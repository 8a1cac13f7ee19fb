import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MethodName, ParamsOf, SyncPairStatus } from '../../src/shared/app-api';
import { FileAccountStore } from '../../src/main/accounts/accounts';
import { AppBackend } from '../../src/main/backend/backend';
import type { ServiceClient } from '../../src/main/api/client';
import { isConflictCopy } from '../../src/main/sync/conflict-copy';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { clientFor, remoteTree, sha, tokenOf } from '../sync/harness';
import { callOk, PairStatuses } from './backend-calls';
import { tempDir } from '../cli/run-cli';

// The app's language names its pairs' conflict copies (issue 39): a system in German (the app's
// locale) names them "Konfliktkopie", the setting changed to English names the next one in
// English, and the German copy keeps its name and its conflict.

let sb: RunningSandbox;
let tmp: { dir: string; remove(): Promise<void> };
let backend: AppBackend;
let client: ServiceClient;
let pairId: string;
let dir: string;
let statuses: PairStatuses;

const ok = <M extends MethodName>(method: M, params: ParamsOf<M>) =>
  callOk(backend, method, params);
const disk = (rel: string) => path.join(dir, rel);
const copiesOf = (tree: Map<string, string>) => [...tree.keys()].filter(isConflictCopy);

beforeAll(async () => {
  sb = await startSandbox({ seed: 'empty' });
  tmp = await tempDir('conflict-language');
  const state = path.join(tmp.dir, 'state');
  backend = new AppBackend({
    stateDir: state,
    accounts: FileAccountStore.inStateDir(state),
    pollIntervalMs: 100,
    // An English environment: the app's locale, not LANG, is the system's language.
    env: { LANG: 'en_US.UTF-8' },
    locale: 'de-DE',
  });
  statuses = new PairStatuses(backend, () => pairId);
  const admin = sb.users.find((u) => u.role === 'Administrator')!;
  client = clientFor(sb.baseUrl, tokenOf(admin));
  const account = await ok('accounts.signIn', {
    server: sb.baseUrl,
    email: admin.email,
    password: admin.password,
  });
  dir = path.join(tmp.dir, 'Q3');
  pairId = (await ok('pairs.add', { accountId: account.id, workspaceId: sb.workspaceId, dir })).id;
  for (const name of ['plan.txt', 'notes.md']) writeFileSync(disk(name), 'original');
  await statuses.where(
    (s) =>
      s.state === 'idle' &&
      remoteTree(sb).get('plan.txt') === sha('original') &&
      remoteTree(sb).get('notes.md') === sha('original'),
  );
});

afterAll(async () => {
  await backend?.close();
  await sb?.close();
  await tmp?.remove();
});

/** `name` changed on both sides while the pair was paused: the new conflict, with its copy. */
async function conflict(name: string) {
  const before = copiesOf(remoteTree(sb)).length;
  await ok('pairs.pause', { pairId });
  await statuses.where((s) => s.state === 'paused');
  writeFileSync(disk(name), `mine of ${name}`);
  const root = (await client.rootFolder(sb.workspaceId)).id;
  await client.uploadFile(root, name, () => Readable.from([Buffer.from(`theirs of ${name}`)]));
  await ok('pairs.resume', { pairId });
  const s: SyncPairStatus = await statuses.where(
    (s) =>
      s.state === 'needs-attention' &&
      s.conflicts.some((c) => c.path === name && c.copy !== undefined) &&
      copiesOf(remoteTree(sb)).length === before + 1,
  );
  return s.conflicts.find((c) => c.path === name && c.copy !== undefined)!;
}

describe("conflict copies in the app's language", () => {
  it('System on a German computer: "Konfliktkopie"; English once set, the German copy kept', async () => {
    const german = await conflict('plan.txt');
    expect(german.copy).toMatch(/^plan \(Konfliktkopie \d{4}-\d\d-\d\d \d{6} .+\)\.txt$/);
    expect(readFileSync(disk(german.copy!), 'utf8')).toBe('mine of plan.txt');

    await ok('settings.update', { language: 'en' });
    const english = await conflict('notes.md');
    expect(english.copy).toMatch(/^notes \(conflict \d{4}-\d\d-\d\d \d{6} .+\)\.md$/);

    const s = await statuses.where((s) => s.state === 'needs-attention');
    expect(s.conflicts.map((c) => c.copy).filter(Boolean)).toEqual([german.copy, english.copy]);
    expect(copiesOf(remoteTree(sb)).sort()).toEqual([german.copy, english.copy].sort());
    expect(readFileSync(disk(german.copy!), 'utf8')).toBe('mine of plan.txt');
  });
});
