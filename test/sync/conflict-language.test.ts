import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/main/api/client';
import { isConflictCopy } from '../../src/main/sync/conflict-copy';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { TempDirs, localTree, openPair, remoteTree, sha, type Pair } from './harness';
import { clientAs, closeBoth } from './sandbox-pair';

// Conflict copies named in the app's language (issue 39): "Konfliktkopie" under German, made
// in the language of the moment, never renamed after, and handled as an English copy is, over
// the real sandbox.

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

let sb: RunningSandbox;
let client: ServiceClient;
let pair: Pair;
let root: number;

beforeEach(async () => {
  sb = await startSandbox({ seed: 'empty' });
  client = clientAs(sb);
  root = (await client.rootFolder(sb.workspaceId)).id;
});
afterEach(() => closeBoth(pair, sb));

const disk = (rel: string) => path.join(pair.dir, rel);
const GERMAN = /^plan \(Konfliktkopie \d{4}-\d\d-\d\d \d{6} .+\)\.txt$/;
const ENGLISH = /^notes \(conflict \d{4}-\d\d-\d\d \d{6} .+\)\.md$/;

/** `name` changed here and on the service between two syncs: the conflict's copy's name. */
async function conflict(name: string) {
  writeFileSync(disk(name), 'original');
  await pair.engine.syncOnce();
  writeFileSync(disk(name), `mine of ${name}`);
  await client.uploadFile(root, name, () => Readable.from([Buffer.from(`theirs of ${name}`)]));
  await pair.engine.syncOnce();
  const c = pair.engine.status().conflicts.find((x) => x.path === name && x.copy !== undefined)!;
  expect(c).toBeDefined();
  return { id: c.id!, copy: c.copy! };
}

async function syncedBothWays(): Promise<void> {
  await pair.engine.syncOnce();
  expect(localTree(pair.dir)).toEqual(remoteTree(sb));
}

describe('conflict copies in the language of the app', () => {
  it('in German: "Konfliktkopie" on disk and on the service, kept and settled as an English one', async () => {
    pair = await openPair(sb, client, dirs, { language: 'de' });
    const { id, copy } = await conflict('plan.txt');
    expect(copy).toMatch(GERMAN);
    expect(isConflictCopy(copy)).toBe(true);
    // The local version beside the service's, sent as a file of its own.
    expect(readFileSync(disk(copy), 'utf8')).toBe('mine of plan.txt');
    expect(readFileSync(disk('plan.txt'), 'utf8')).toBe('theirs of plan.txt');
    expect(remoteTree(sb).get(copy)).toBe(sha('mine of plan.txt'));
    await syncedBothWays();
    // Kept in the journal with its copy, for the person to settle.
    expect(pair.journal.problems.conflicts()).toEqual([
      expect.objectContaining({ path: 'plan.txt', copy }),
    ]);

    await pair.engine.chooseForConflict(id, 'mine');
    await syncedBothWays();
    expect(readFileSync(disk('plan.txt'), 'utf8')).toBe('mine of plan.txt');
    expect(existsSync(disk(copy))).toBe(false);
    expect([...remoteTree(sb).keys()]).toEqual(['plan.txt']);
    expect(pair.engine.status().conflicts.filter((c) => c.copy)).toEqual([]);
  });

  it('the language changed: a copy keeps its name, the next takes the new words, both sync', async () => {
    pair = await openPair(sb, client, dirs, { language: 'de' });
    const german = await conflict('plan.txt');
    expect(german.copy).toMatch(GERMAN);

    pair.engine.setLanguage('en');
    const english = await conflict('notes.md');
    expect(english.copy).toMatch(ENGLISH);
    await syncedBothWays();
    // The German copy is neither renamed nor sent again.
    expect([...remoteTree(sb).keys()].sort()).toEqual(
      [english.copy, 'notes.md', german.copy, 'plan.txt'].sort(),
    );
    expect(pair.engine.status().conflicts.map((c) => c.copy)).toEqual([german.copy, english.copy]);

    // A restart in English still knows the German copy's conflict, and Keep theirs settles it
    // as it settles an English one.
    await pair.close();
    pair = await openPair(sb, client, dirs, { dir: pair.dir, state: pair.state, language: 'en' });
    await syncedBothWays();
    expect(pair.engine.status().conflicts.map((c) => c.copy)).toEqual([german.copy, english.copy]);
    await pair.engine.chooseForConflict(german.id, 'theirs');
    await syncedBothWays();
    expect(existsSync(disk(german.copy))).toBe(false);
    expect(pair.engine.status().conflicts.map((c) => c.copy)).toEqual([english.copy]);
  });
});
