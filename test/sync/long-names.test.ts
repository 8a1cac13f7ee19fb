import { closeSync, mkdirSync, openSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, syncArgs } from '../cli/run-cli';
import { cutDeepTree, deepTree, levelName, openDeep, remoteChain } from './deep-tree';
import { TempDirs, localTree, openPair, remoteTree, sha, type Pair } from './harness';
import { usingPair, withSandbox } from './sandbox-pair';

// One bad item never blocks the rest, whatever its name or path: names the engine makes from a
// person's name (conflict copies, the trash's) fit the file system's 255 bytes, and a path or
// name this computer cannot hold is a problem for that item alone (docs/SYNC.md, Names).

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
/** A file name of exactly 255 bytes of UTF-8 ending in `.txt`. */
const LONG = 'L'.repeat(251) + '.txt';

describe('a 255-byte name', () => {
  it('in a conflict: its copy gets a shortened name, and the rest of the pass syncs', async () => {
    await withSandbox(async ({ sb, client }) => {
      const root = (await client.rootFolder(sb.workspaceId)).id;
      await usingPair(await openPair(sb, client, dirs), async (pair) => {
        writeFileSync(path.join(pair.dir, LONG), 'original');
        writeFileSync(path.join(pair.dir, 'other.txt'), 'other');
        await pair.engine.syncOnce();
        expect(remoteTree(sb).get(LONG)).toBe(sha('original'));

        await client.uploadFile(root, LONG, () => Readable.from([Buffer.from('changed there')]));
        writeFileSync(path.join(pair.dir, LONG), 'changed here');
        writeFileSync(path.join(pair.dir, 'unrelated-new.txt'), 'new');
        await pair.engine.syncOnce();

        const remote = remoteTree(sb);
        expect(remote.get(LONG)).toBe(sha('changed there'));
        expect(remote.get('unrelated-new.txt')).toBe(sha('new'));
        const copies = [...remote.keys()].filter((k) => k.includes('(conflict '));
        expect(copies).toHaveLength(1);
        const copy = copies[0]!;
        expect(bytes(copy)).toBeLessThanOrEqual(255);
        expect(copy).toMatch(/^L+ \(conflict \d{4}-\d\d-\d\d \d{6} .+\)\.txt$/);
        expect(remote.get(copy)).toBe(sha('changed here'));
        expect(localTree(pair.dir)).toEqual(remote);
        expect(pair.engine.status().problems).toEqual([]);
      });
    });
  });

  it('is downloaded (its temporary file fits), and trashed twice beside itself', async () => {
    await withSandbox(async ({ sb, client }) => {
      const root = (await client.rootFolder(sb.workspaceId)).id;
      const upload = (data: string) =>
        client.uploadFile(root, LONG, () => Readable.from([Buffer.from(data)]));
      await usingPair(await openPair(sb, client, dirs), async (pair) => {
        const first = await upload('first');
        await pair.engine.syncOnce();
        expect(localTree(pair.dir).get(LONG)).toBe(sha('first'));

        // Deleted there twice within one run: the second goes beside the first in the trash.
        await client.deleteFile(first.id);
        await pair.engine.syncOnce();
        const second = await upload('second');
        await pair.engine.syncOnce();
        expect(localTree(pair.dir).get(LONG)).toBe(sha('second'));
        await client.deleteFile(second.id);
        await pair.engine.syncOnce();

        expect(localTree(pair.dir).has(LONG)).toBe(false);
        expect(pair.engine.status().problems).toEqual([]);
        const trash = path.join(pair.state, 'trash');
        const [batch] = readdirSync(trash);
        const names = readdirSync(path.join(trash, batch!)).sort();
        expect(names).toEqual(['L'.repeat(247) + ' (2).txt', LONG]);
      });
    });
  });
});

/**
 * Runs the engine continuously until `check` holds after a settled round; rejects at the first
 * failed pass (a pass that fails waits and tries again: without this the test would only time out).
 */
async function runUntil(pair: Pair, check: () => boolean, body: () => void): Promise<void> {
  const stop = new AbortController();
  let running: Promise<void> = Promise.resolve();
  try {
    await new Promise<void>((resolve, reject) => {
      let started = false;
      pair.engine.on('status', (st: { state: string; message?: string }) => {
        if (st.state === 'error') reject(new Error(`the pass failed: ${st.message ?? ''}`));
      });
      pair.engine.on('settled', () => {
        if (!started) {
          started = true;
          body();
        } else if (check()) resolve();
      });
      running = pair.engine.run(stop.signal);
      running.catch(reject);
    });
  } finally {
    stop.abort();
    await running;
  }
}

describe('a 255-character folder moved into a new folder of its own name in lower case', () => {
  it('steps aside on the service under a provisional name that fits, then moves in', async () => {
    await withSandbox(async ({ sb, client }) => {
      await usingPair(await openPair(sb, client, dirs), async (pair) => {
        const upper = 'D' + 'o'.repeat(254);
        const lower = upper.toLowerCase();
        mkdirSync(path.join(pair.dir, upper));
        writeFileSync(path.join(pair.dir, upper, 'a.txt'), 'a');
        await pair.engine.syncOnce();
        // `mkdir docs; mv Docs docs/`: the service takes both names for one.
        renameSync(path.join(pair.dir, upper), path.join(pair.dir, 'aside'));
        mkdirSync(path.join(pair.dir, lower));
        renameSync(path.join(pair.dir, 'aside'), path.join(pair.dir, lower, upper));
        await pair.engine.syncOnce();
        expect([...remoteTree(sb).keys()].sort()).toEqual([
          lower,
          `${lower}/${upper}`,
          `${lower}/${upper}/a.txt`,
        ]);
        expect(pair.engine.status().problems).toEqual([]);
      });
    });
  });
});

describe('a local name with a backslash', () => {
  it.runIf(process.platform !== 'win32')(
    'is a problem until renamed; the renamed file then syncs at once and the problem leaves',
    async () => {
      await withSandbox(async ({ sb, client }) => {
        await usingPair(await openPair(sb, client, dirs), async (pair) => {
          mkdirSync(path.join(pair.dir, 'Finance'));
          writeFileSync(path.join(pair.dir, 'Finance', 'budget\\v2.txt'), 'numbers');
          writeFileSync(path.join(pair.dir, 'Finance', 'notes.txt'), 'notes');
          await pair.engine.syncOnce();
          expect([...remoteTree(sb).keys()].sort()).toEqual(['Finance', 'Finance/notes.txt']);
          const problems = pair.engine.status().problems;
          expect(problems.map((p) => [p.path, p.reason])).toEqual([
            ['Finance/budget\\v2.txt', 'name'],
          ]);

          // Renamed as the card says, and a new file besides, seen by the watcher (no full scan
          // is due for minutes): both go up, and the problem leaves by itself.
          await runUntil(
            pair,
            () => {
              const remote = remoteTree(sb);
              return remote.has('Finance/budget v2.txt') && remote.has('new.txt');
            },
            () => {
              renameSync(
                path.join(pair.dir, 'Finance', 'budget\\v2.txt'),
                path.join(pair.dir, 'Finance', 'budget v2.txt'),
              );
              writeFileSync(path.join(pair.dir, 'new.txt'), 'new');
            },
          );
          const remote = remoteTree(sb);
          expect(remote.get('Finance/budget v2.txt')).toBe(sha('numbers'));
          expect(remote.get('new.txt')).toBe(sha('new'));
          expect(pair.engine.status().problems).toEqual([]);
        });
      });
    },
  );
});

describe("a remote tree deeper than this computer's paths", () => {
  it('is one problem for the subtree; the files beside it are placed in the same pass', async () => {
    await withSandbox(async ({ sb, client }) => {
      const root = (await client.rootFolder(sb.workspaceId)).id;
      // 600 folders of 10 characters, one in the other: past PATH_MAX (4,096 bytes) at ~370.
      const parent = (await remoteChain(client, sb.workspaceId, root, 600)).at(-1)!;
      await client.uploadFile(parent, 'bottom.txt', () => Readable.from([Buffer.from('deep')]));
      const beside = await client.createFolder(sb.workspaceId, root, 'beside');
      for (let i = 0; i < 20; i++) {
        await client.uploadFile(beside.id, `f${i}.txt`, () =>
          Readable.from([Buffer.from(`file ${i}`)]),
        );
      }

      await usingPair(await openPair(sb, client, dirs), async (pair) => {
        const said: string[] = [];
        pair.engine.on('problem', (p: { path: string }) => said.push(p.path));
        const summary = await pair.engine.syncOnce();
        const tree = localTree(pair.dir);
        for (let i = 0; i < 20; i++) expect(tree.get(`beside/f${i}.txt`)).toBe(sha(`file ${i}`));
        expect(summary.filesDownloaded).toBe(20);
        const problems = pair.engine.status().problems;
        expect(problems).toHaveLength(1);
        const [problem] = problems;
        expect(problem!.reason).toBe('local');
        expect(problem!.message).toMatch(/too long/);
        expect(problem!.path.startsWith('level-0000/level-0001/')).toBe(true);
        // The deepest folder placed is the one above the problem's.
        const deepest = [...tree.keys()]
          .filter((k) => k.startsWith('level-'))
          .sort((a, b) => b.length - a.length)[0]!;
        expect(problem!.path.startsWith(`${deepest}/`)).toBe(true);
        expect(pair.engine.status().state).not.toBe('error');

        // The next pass says nothing new, and still places nothing below it.
        await pair.engine.syncOnce();
        expect(pair.engine.status().problems).toHaveLength(1);
        expect(said).toHaveLength(1);

        // A pass from the feed (a colleague's change beside it) sees only what changed: the
        // chain's problem stays, since nothing said its folder is gone (found by the soak).
        await client.uploadFile(beside.id, 'late.txt', () => Readable.from([Buffer.from('late')]));
        await pair.engine.syncOnce();
        expect(localTree(pair.dir).get('beside/late.txt')).toBe(sha('late'));
        expect(pair.engine.status().problems).toHaveLength(1);
      });

      // `sync --once` ends as a pass with a problem does: 0, the problem in its summary.
      const owner = sb.users.find((u) => u.role === 'Administrator')!;
      const run = await runCli(
        syncArgs(sb, path.join(dirs.make(), 'Workspace'), dirs.make('wsync-state-'), '--once'),
        { env: { WORKSPACE_SYNC_TOKEN: owner.token } },
      );
      expect(run.code, run.stderr + run.stdout).toBe(0);
      const lines = run.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.filter((l) => l.type === 'problem')).toHaveLength(1);
      // The 20 beside it and the late one.
      expect(lines.at(-1)).toMatchObject({ type: 'summary', filesDownloaded: 21, problems: 1 });
    });
  }, 120_000);
});

describe('a remote file whose own path passes PATH_MAX', () => {
  it.runIf(process.platform === 'linux')(
    'is a problem and is not placed, though its folder fits',
    async () => {
      await withSandbox(async ({ sb, client }) => {
        const root = (await client.rootFolder(sb.workspaceId)).id;
        const dir = path.join(dirs.make(), 'Workspace');
        // Folders of 10 characters down to where a file of 104 no longer fits, a file in each.
        const fits = Math.floor((4095 - dir.length) / 11);
        const long = 'n'.repeat(100) + '.txt';
        await remoteChain(client, sb.workspaceId, root, fits, levelName, async (id, i) => {
          if (i >= fits - 12) {
            await client.uploadFile(id, long, () => Readable.from([Buffer.from(levelName(i))]));
          }
        });
        await usingPair(await openPair(sb, client, dirs, { dir }), async (pair) => {
          await pair.engine.syncOnce();
          // Every folder is placed; the files are where their paths fit, problems where not.
          const tree = localTree(pair.dir);
          const placed = [...tree.keys()].filter((k) => k.endsWith(long));
          const problems = pair.engine.status().problems;
          expect(placed.length).toBeGreaterThan(0);
          expect(problems.length).toBeGreaterThan(0);
          expect(placed.length + problems.length).toBe(12);
          for (const p of placed) expect(bytes(path.join(dir, p))).toBeLessThan(4096);
          for (const p of problems) {
            expect(p.path.endsWith(long)).toBe(true);
            expect(bytes(path.join(dir, p.path))).toBeGreaterThanOrEqual(4096);
            expect(p.message).toMatch(/too long for this computer/);
          }
        });
      });
    },
    120_000,
  );
});

describe("a local tree deeper than this computer's paths", () => {
  it.runIf(process.platform === 'linux')(
    'moved up where its paths fit: it goes up, and its problem leaves by itself',
    async () => {
      await withSandbox(async ({ sb, client }) => {
        const dir = path.join(dirs.make(), 'Workspace');
        mkdirSync(dir);
        deepTree(dir, 450, 'bottom.txt');
        await usingPair(
          await openPair(sb, client, dirs, { dir }),
          async (pair) => {
            await pair.engine.syncOnce();
            const [problem] = pair.engine.status().problems;
            expect(problem?.message).toMatch(/too long/);
            const top = problem!.path.split('/').length - 1;
            await runUntil(
              pair,
              () => remoteTree(sb).has('moved-up') && pair.engine.status().problems.length === 0,
              () => {
                // The folder past PATH_MAX, moved to the top through its opened parent.
                const root = openSync(dir, 'r');
                const fd = openDeep(dir, top);
                renameSync(
                  `/proc/self/fd/${fd}/${levelName(top)}`,
                  `/proc/self/fd/${root}/moved-up`,
                );
                closeSync(fd);
                closeSync(root);
              },
            );
            const remote = remoteTree(sb);
            const bottom = [...remote.keys()].find((k) => k.endsWith('/bottom.txt'));
            expect(bottom?.startsWith('moved-up/')).toBe(true);
            expect(remote.get(bottom!)).toBe(sha('deep'));
          },
          () => cutDeepTree(dir),
        );
      });
    },
    120_000,
  );
  it.runIf(process.platform === 'linux')(
    'is watched as far as its paths go: what changes past them does not stop the run',
    async () => {
      await withSandbox(async ({ sb, client }) => {
        const dir = path.join(dirs.make(), 'Workspace');
        mkdirSync(dir);
        deepTree(dir, 400, 'bottom.txt');
        // The deepest folder whose own path fits, with a few bytes to spare: a name of 100
        // characters in it is past PATH_MAX.
        const depth = Math.floor((4095 - dir.length - 20) / 11);
        await usingPair(
          await openPair(sb, client, dirs, { dir }),
          async (pair) => {
            const warnings: unknown[] = [];
            pair.engine.on('status', (st: { notices?: unknown[] }) => {
              if (st.notices?.length) warnings.push(...st.notices);
            });
            await runUntil(
              pair,
              () => remoteTree(sb).has('later.txt'),
              () => {
                const fd = openDeep(dir, depth);
                writeFileSync(`/proc/self/fd/${fd}/${'n'.repeat(100)}.txt`, 'past PATH_MAX');
                closeSync(fd);
                writeFileSync(path.join(dir, 'later.txt'), 'seen by the watcher');
              },
            );
            expect(remoteTree(sb).get('later.txt')).toBe(sha('seen by the watcher'));
            expect(warnings).toEqual([]);
          },
          () => cutDeepTree(dir),
        );
      });
    },
    120_000,
  );
  it.runIf(process.platform === 'linux')(
    'is one problem where the paths end; the files beside it go up in the same pass',
    async () => {
      await withSandbox(async ({ sb, client }) => {
        const dir = path.join(dirs.make(), 'Workspace');
        mkdirSync(path.join(dir, 'beside'), { recursive: true });
        for (let i = 0; i < 20; i++)
          writeFileSync(path.join(dir, 'beside', `f${i}.txt`), `file ${i}`);
        deepTree(dir, 600, 'bottom.txt');
        await usingPair(
          await openPair(sb, client, dirs, { dir }),
          async (pair) => {
            const said: string[] = [];
            pair.engine.on('problem', (p: { path: string }) => said.push(p.path));
            await pair.engine.syncOnce();
            const remote = remoteTree(sb);
            for (let i = 0; i < 20; i++)
              expect(remote.get(`beside/f${i}.txt`)).toBe(sha(`file ${i}`));
            const problems = pair.engine.status().problems;
            expect(problems).toHaveLength(1);
            expect(problems[0]!.message).toMatch(/too long/);
            expect(problems[0]!.path.startsWith('level-0000/level-0001/')).toBe(true);

            await pair.engine.syncOnce();
            expect(pair.engine.status().problems).toHaveLength(1);
            expect(said).toHaveLength(1);
          },
          () => cutDeepTree(dir),
        );
      });
    },
    120_000,
  );
});
