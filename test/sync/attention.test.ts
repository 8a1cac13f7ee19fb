import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/main/api/client';
import { AttentionError } from '../../src/main/sync/errors';
import { englishOf, translator, type Words } from '../../src/shared/i18n';
import type { RunningSandbox } from '../../src/service/sandbox';
import {
  TempDirs,
  clientFor,
  localTree,
  openPair,
  remoteTree,
  sha,
  tokenOf,
  type Pair,
} from './harness';
import { closeBoth, pairWithSandbox } from './sandbox-pair';

// Conflicts and problems a person acts on (docs/SYNC.md, Conflicts): a real conflict made on
// both sides, each choice settled through the engine and synced to the real sandbox.

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

let sb: RunningSandbox;
let client: ServiceClient;
let pair: Pair;
let root: number;

beforeEach(async () => {
  ({ sb, client, pair } = await pairWithSandbox(dirs));
  root = (await client.rootFolder(sb.workspaceId)).id;
});
afterEach(() => closeBoth(pair, sb));

const disk = (rel: string) => path.join(pair.dir, rel);
const copies = (tree: Map<string, string>) =>
  [...tree.keys()].filter((k) => k.includes('(conflict '));
/** Every file's content in the pair's trash folder, as hashes. */
function trashed(): string[] {
  const dir = path.join(pair.state, 'trash');
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true }) as string[])
    .map((f) => path.join(dir, f))
    .filter((f) => statSync(f).isFile())
    .map((f) => sha(readFileSync(f)));
}

/** plan.txt changed here and on the service between two syncs: a conflict with a copy. */
async function conflict() {
  writeFileSync(disk('plan.txt'), 'original');
  await pair.engine.syncOnce();
  const id = pair.journal.items.atPath('plan.txt')!.remoteId;
  writeFileSync(disk('plan.txt'), 'mine');
  await client.uploadFile(root, 'plan.txt', () => Readable.from([Buffer.from('theirs')]));
  await pair.engine.syncOnce();
  const c = pair.engine.status().conflicts.find((x) => x.copy !== undefined)!;
  expect(c.path).toBe('plan.txt');
  expect(c.copy).toMatch(/^plan \(conflict .+\)\.txt$/);
  expect(readFileSync(disk(c.copy!), 'utf8')).toBe('mine');
  expect(remoteTree(sb).get(c.copy!)).toBe(sha('mine'));
  return { id: c.id!, copy: c.copy!, fileId: id };
}

describe('conflicts a person settles', () => {
  it('are kept in the journal with the copy, across a restart', async () => {
    const { copy } = await conflict();
    const stored = pair.journal.problems.conflicts();
    expect(stored).toEqual([
      expect.objectContaining({
        path: 'plan.txt',
        copy,
        message: expect.stringMatching(/both kept/),
      }),
    ]);
    // A new engine over the same journal lists it.
    await pair.close();
    pair = await openPair(sb, client, dirs, { dir: pair.dir, state: pair.state });
    expect(pair.engine.status().conflicts).toEqual([
      expect.objectContaining({ path: 'plan.txt', copy }),
    ]);
  });

  it('Keep mine: the copy becomes a new version of the original, the replaced bytes in the trash', async () => {
    const { id, copy, fileId } = await conflict();
    await pair.engine.chooseForConflict(id, 'mine');
    expect(pair.engine.status().conflicts).toEqual([]);
    await pair.engine.syncOnce();
    const remote = remoteTree(sb);
    expect(remote.get('plan.txt')).toBe(sha('mine'));
    expect(copies(remote)).toEqual([]);
    expect(localTree(pair.dir)).toEqual(remote);
    // The same file on the service, its version replaced (the service's one stays its previous).
    expect(pair.journal.items.atPath('plan.txt')!.remoteId).toBe(fileId);
    const versions = sb.sandbox.db
      .prepare(`SELECT blob FROM file_versions WHERE file_id = ? ORDER BY id`)
      .pluck()
      .all(fileId);
    expect(versions).toContain(sha('theirs'));
    expect(versions.at(-1)).toBe(sha('mine'));
    // Nothing lost here: the service's bytes it replaced, and the copy, are in the trash.
    expect(trashed()).toEqual(expect.arrayContaining([sha('theirs'), sha('mine')]));
    expect(existsSync(disk(copy))).toBe(false);
    expect(pair.engine.status().conflicts).toEqual([]);
  });

  it('Keep theirs: the copy goes to the trash and from the service', async () => {
    const { id } = await conflict();
    await pair.engine.chooseForConflict(id, 'theirs');
    await pair.engine.syncOnce();
    const remote = remoteTree(sb);
    expect(remote.get('plan.txt')).toBe(sha('theirs'));
    expect(copies(remote)).toEqual([]);
    expect(localTree(pair.dir)).toEqual(remote);
    expect(trashed()).toEqual([sha('mine')]);
    expect(pair.engine.status().conflicts).toEqual([]);
  });

  it('Keep both: both stay, the entry goes', async () => {
    const { id, copy } = await conflict();
    await pair.engine.chooseForConflict(id, 'both');
    expect(pair.engine.status().conflicts).toEqual([]);
    await pair.engine.syncOnce();
    const remote = remoteTree(sb);
    expect(remote.get('plan.txt')).toBe(sha('theirs'));
    expect(remote.get(copy)).toBe(sha('mine'));
    expect(trashed()).toEqual([]);
    await expect(pair.engine.chooseForConflict(id, 'mine')).rejects.toThrow(/settled already/);
  });

  it('leaves by itself when the copy is deleted by hand, or the original', async () => {
    const { copy } = await conflict();
    rmSync(disk(copy));
    await pair.engine.syncOnce();
    expect(pair.engine.status().conflicts).toEqual([]);
    expect(copies(remoteTree(sb))).toEqual([]);

    // A second conflict; this time the original goes.
    writeFileSync(disk('plan.txt'), 'mine again');
    await client.uploadFile(root, 'plan.txt', () => Readable.from([Buffer.from('theirs again')]));
    await pair.engine.syncOnce();
    expect(pair.engine.status().conflicts).toHaveLength(1);
    rmSync(disk('plan.txt'));
    await pair.engine.syncOnce();
    expect(pair.engine.status().conflicts).toEqual([]);
  });

  it('refuses a choice on a copy changed since, in one line', async () => {
    const { id, copy } = await conflict();
    writeFileSync(disk(copy), 'mine, edited after');
    const err = await pair.engine.chooseForConflict(id, 'theirs').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AttentionError);
    expect((err as AttentionError).kind).toBe('stale');
    expect((err as Error).message).toMatch(/changed since the conflict/);
    expect(readFileSync(disk(copy), 'utf8')).toBe('mine, edited after');
    // And Keep mine over an original changed here since.
    const other = await (async () => {
      writeFileSync(disk(copy), 'mine');
      await pair.engine.chooseForConflict(id, 'both');
      return conflictAgain();
    })();
    writeFileSync(disk('plan.txt'), 'edited here after');
    await expect(pair.engine.chooseForConflict(other, 'mine')).rejects.toThrow(
      /plan\.txt changed since the conflict/,
    );
    expect(readFileSync(disk('plan.txt'), 'utf8')).toBe('edited here after');
  });
});

async function conflictAgain(): Promise<number> {
  await pair.engine.syncOnce();
  writeFileSync(disk('plan.txt'), 'mine 2');
  await client.uploadFile(root, 'plan.txt', () => Readable.from([Buffer.from('theirs 2')]));
  await pair.engine.syncOnce();
  return pair.engine.status().conflicts.findLast((c) => c.copy !== undefined)!.id!;
}

describe('problems a person acts on', () => {
  /** The pair's user made a Downloader: an upload of `name` is refused (a problem). */
  async function refused(name: string) {
    const kenji = sb.users.find((u) => u.role === 'Collaborator')!;
    let rolemap: number | undefined;
    for await (const r of client.listRolemaps(sb.workspaceId)) {
      if (r.user_id === kenji.id || r.user?.id === kenji.id) rolemap = r.id;
    }
    await pair.close();
    pair = await openPair(sb, clientFor(sb.baseUrl, tokenOf(kenji)), dirs);
    await pair.engine.syncOnce();
    await client.changeRole(rolemap!, 'Downloader');
    writeFileSync(disk(name), 'a note');
    await pair.engine.syncOnce();
    const [p] = pair.engine.status().problems;
    expect(p).toMatchObject({ path: name, reason: 'not-permitted', key: `path:${name}` });
    restore = () => client.changeRole(rolemap!, 'Collaborator');
    return { key: p!.key!, restore };
  }
  let restore: () => Promise<unknown> = () => Promise.resolve();
  const collaborator = () => sb.users.find((u) => u.role === 'Collaborator')!;

  it('Retry forgets the refusal: the next pass tries the item again', async () => {
    const { key, restore } = await refused('note.txt');
    await restore();
    // Unchanged here, the refused change is not sent again by itself...
    await pair.engine.syncOnce();
    expect(remoteTree(sb).has('note.txt')).toBe(false);
    // ...until Retry.
    await pair.engine.retryProblem(key);
    expect(pair.engine.status().problems).toEqual([]);
    await pair.engine.syncOnce();
    expect(remoteTree(sb).get('note.txt')).toBe(sha('a note'));
    expect(pair.engine.status().problems).toEqual([]);
    await expect(pair.engine.retryProblem(key)).rejects.toThrow(/over already/);
  });

  it('Dismiss hides it (in the journal) until it comes with another message', async () => {
    const { key } = await refused('note.txt');
    await pair.engine.dismissProblem(key);
    expect(pair.engine.status().problems).toEqual([
      expect.objectContaining({ key, dismissed: true }),
    ]);
    await pair.engine.syncOnce();
    await pair.close();
    pair = await openPair(
      sb,
      clientFor(sb.baseUrl, tokenOf(sb.users.find((u) => u.role === 'Collaborator')!)),
      dirs,
      { dir: pair.dir, state: pair.state },
    );
    expect(pair.engine.status().problems[0]).toMatchObject({ key, dismissed: true });
    // The same key with another message (a new cause): shown again.
    const table = pair.journal.problems;
    table.dismissProblem(key, 'an older message');
    await pair.close();
    pair = await openPair(sb, client, dirs, { dir: pair.dir, state: pair.state });
    expect(pair.engine.status().problems[0]!.dismissed).toBeUndefined();
  });

  it('keep their words in the journal: after a restart, a problem and a conflict say German', async () => {
    await refused('note.txt');
    await restore();
    const { copy } = await conflict();
    await pair.close();
    pair = await openPair(sb, clientFor(sb.baseUrl, tokenOf(collaborator())), dirs, {
      dir: pair.dir,
      state: pair.state,
    });
    const { problems, conflicts } = pair.engine.status();
    const de = translator('de');
    expect(problems[0]).toMatchObject({ path: 'note.txt', words: { key: 'engine.changeRefused' } });
    expect(de.say(problems[0]!.words!)).toBe(
      'Ihre Rolle in diesem Arbeitsbereich erlaubt diese Änderung nicht: Sie bleibt nur hier.',
    );
    const kept = conflicts.find((c) => c.copy === copy)!;
    expect(kept.words).toMatchObject({ key: 'engine.bothChanged' });
    expect(de.say(kept.words!)).toMatch(/^Hier und im Dienst geändert: Beide bleiben erhalten/);
    // The English is as it was written.
    expect(englishOf(kept.words as Words)).toBe(kept.message);
  });

  it('a path problem leaves when its file goes (a partial pass, not a full one)', async () => {
    await refused('note.txt');
    await whileRunning(
      () => pair.engine.status().problems.length === 0,
      () => rmSync(disk('note.txt')),
    );
  });
});

describe('a conflict in continuous mode', () => {
  it('leaves when its copy is deleted by hand (a partial pass)', async () => {
    const { copy } = await conflict();
    await whileRunning(
      () => pair.engine.status().conflicts.length === 0,
      () => rmSync(disk(copy)),
    );
  });
});

/**
 * Runs the engine continuously (watching the folder); once its first round settled, `act`, then
 * waits for a status where `done` holds: the watcher's partial pass, not the start's full scan.
 */
async function whileRunning(done: () => boolean, act: () => void): Promise<void> {
  const controller = new AbortController();
  const first = new Promise((resolve) => pair.engine.once('settled', resolve));
  const running = pair.engine.run(controller.signal);
  try {
    await first;
    expect(done()).toBe(false);
    const over = new Promise<void>((resolve) => {
      const on = () => {
        if (!done()) return;
        pair.engine.off('status', on);
        resolve();
      };
      pair.engine.on('status', on);
    });
    act();
    await over;
  } finally {
    controller.abort();
    await running;
  }
}
