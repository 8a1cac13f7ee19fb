import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { PARTIAL_DIR } from '../../src/main/sync/paths';
import { startSandbox } from '../../src/service/sandbox';
import { TempDirs, clientFor, localTree, openPair, remoteTree, tokenOf } from './harness';
import { runCrashChild } from './run-crash-child';

// A mirror online only killed midway (docs/SYNC.md, Files on demand): the engine mirrors in a
// child process that kills itself (SIGKILL) as a placeholder is about to be written, many others
// written and recorded or not (the journal commits in groups, and several placeholders may be
// in the writing at once). Restarted, every file is a placeholder of ours, recorded online only:
// none is downloaded, none kept as a conflict copy or uploaded, no leftover in the cache.

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

const FOLDERS = ['A', 'B', 'C', 'D'];
const PER_FOLDER = 30;

describe('a mirror online only, killed midway', () => {
  for (const nth of [2, 70]) {
    it(`killed at placeholder ${nth}: restarted, each file a recorded placeholder, nothing fetched or sent`, async () => {
      const sb = await startSandbox({ seed: 'empty' });
      try {
        const owner = sb.users.find((u) => u.role === 'Administrator')!;
        const client = clientFor(sb.baseUrl, tokenOf(owner));
        const root = (await client.rootFolder(sb.workspaceId)).id;
        const files: string[] = [];
        for (const folder of FOLDERS) {
          const id = (await client.createFolder(sb.workspaceId, root, folder)).id;
          for (let i = 0; i < PER_FOLDER; i++) {
            const name = `f${i}.txt`;
            await client.uploadFile(id, name, () => Readable.from([Buffer.from(`${folder} ${i}`)]));
            files.push(`${folder}/${name}`);
          }
        }
        const first = await openPair(sb, client, dirs);
        first.journal.onDemand.setMode('online');
        await first.close();
        const before = remoteTree(sb);

        const crashed = await runCrashChild({
          baseUrl: sb.baseUrl,
          token: owner.token,
          workspaceId: sb.workspaceId,
          dir: first.dir,
          state: first.state,
          mirrorCrashAt: nth,
        });
        expect(crashed.killed, crashed.err).toBe(true);

        sb.resetStats();
        const pair = await openPair(sb, client, dirs, { dir: first.dir, state: first.state });
        try {
          await pair.engine.syncOnce();
          await pair.engine.syncOnce();
          const fetched = Object.entries(sb.stats()).filter(
            ([route, n]) => /download|archive|zip|upload|POST|PUT|PATCH|DELETE/i.test(route) && n,
          );
          expect(fetched).toEqual([]);
          expect(remoteTree(sb)).toEqual(before);
          const expected = [...FOLDERS, ...files.map((f) => `${f}.wsync`)].sort();
          expect([...localTree(pair.dir).keys()].sort()).toEqual(expected);
          for (const f of files) {
            const j = pair.journal.items.atPath(f);
            expect(j?.state, f).toBe('online');
            expect(readFileSync(path.join(pair.dir, `${f}.wsync`), 'utf8')).toContain(
              path.basename(f),
            );
          }
          expect(pair.engine.status().conflicts ?? []).toEqual([]);
          expect(readdirSync(path.join(pair.dir, PARTIAL_DIR))).toEqual([]);
        } finally {
          await pair.close();
        }
      } finally {
        await sb.close();
      }
    });
  }
});
