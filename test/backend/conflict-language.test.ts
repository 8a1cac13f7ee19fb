import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncPairStatus } from '../../src/shared/app-api';
import type { ServiceClient } from '../../src/main/api/client';
import { isConflictCopy } from '../../src/main/sync/conflict-copy';
import type { RunningSandbox } from '../../src/service/sandbox';
import { remoteTree, sha } from '../sync/harness';
import type { PairStatuses } from './backend-calls';
import { backendWithSandbox, type BackendWithSandbox } from './with-backend';

// The app's language names its pairs' conflict copies (issue 39): a system in German (the app's
// locale) names them "Konfliktkopie", the setting changed to English names the next one in
// English, and the German copy keeps its name and its conflict.

let t: BackendWithSandbox;
let sb: RunningSandbox;
let client: ServiceClient;
let pairId: string;
let dir: string;
let statuses: PairStatuses;

const ok: BackendWithSandbox['ok'] = (method, params) => t.ok(method, params);
const disk = (rel: string) => path.join(dir, rel);
const copiesOf = (tree: Map<string, string>) => [...tree.keys()].filter(isConflictCopy);

beforeAll(async () => {
  t = await backendWithSandbox({
    seed: 'empty',
    prefix: 'conflict-language',
    pair: 'Q3',
    // An English environment: the app's locale, not LANG, is the system's language.
    backend: { env: { LANG: 'en_US.UTF-8' }, locale: 'de-DE' },
  });
  ({ sb, client, pairId, dir, statuses } = t);
  for (const name of ['plan.txt', 'notes.md']) writeFileSync(disk(name), 'original');
  await statuses.where(
    (s) =>
      s.state === 'idle' &&
      remoteTree(sb).get('plan.txt') === sha('original') &&
      remoteTree(sb).get('notes.md') === sha('original'),
  );
});

afterAll(() => t?.close());

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
