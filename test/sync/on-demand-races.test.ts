import { lstatSync, readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/service/sandbox';
import { TempDirs, clientFor, openPair, range, tokenOf } from './harness';
import { startSwapper } from './swapper';

// Placeholders written while a local process exchanges their folder with a symlink to a folder
// outside the sync folder (renameat2 RENAME_EXCHANGE in a tight loop; swapper.py). A mirror
// places a folder's placeholders one after the other and looks at the folder once for them
// (down/place-online.ts, OnlineRun), so a swap between two of them is met only where each is
// renamed into the folder it opened: nothing is ever written outside. A bounded stress loop, no
// timing assertion.

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

/** Everything below `dir` (relative paths), through no symlink. */
function everything(dir: string): string[] {
  return readdirSync(dir, { recursive: true }).map(String);
}

describe('placeholders written while their folder is exchanged with a symlink to outside', () => {
  it('never places a placeholder outside; the pass goes on', async () => {
    const sb = await startSandbox({ seed: 'empty' });
    try {
      const owner = sb.users.find((u) => u.role === 'Administrator')!;
      const client = clientFor(sb.baseUrl, tokenOf(owner));
      const docs = await client.createFolder(sb.workspaceId, null, 'Docs');
      const pair = await openPair(sb, client, dirs);
      try {
        pair.journal.onDemand.setMode('online');
        await pair.engine.syncOnce();
        const outside = dirs.make('wsync-outside-');
        const link = path.join(dirs.make('wsync-link-'), 'link');
        symlinkSync(outside, link);
        const failures: string[] = [];
        for (const round of range(6)) {
          for (const i of range(40)) {
            await client.uploadFile(docs.id, `r${round}-${i}.txt`, () =>
              Readable.from([Buffer.from(`round ${round} file ${i}`)]),
            );
          }
          const swapper = await startSwapper(path.join(pair.dir, 'Docs'), link);
          let gone = false;
          try {
            await pair.engine.syncOnce().catch((err: Error) => failures.push(err.message));
          } finally {
            gone = (await swapper.stop()).gone;
          }
          expect(everything(outside)).toEqual([]);
          if (gone || !lstatSync(link).isSymbolicLink()) break;
        }
        expect(failures.filter((m) => /TypeError|reading '/.test(m))).toEqual([]);
        expect(everything(outside)).toEqual([]);
      } finally {
        await pair.close();
      }
    } finally {
      await sb.close();
    }
  }, 120_000);
});
