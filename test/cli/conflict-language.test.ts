import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { clientFor, remoteTree, sha, tokenOf } from '../sync/harness';
import { runCli, tempDir } from './run-cli';

// The CLI names conflict copies in the language it speaks (issue 39): LANG=de_DE.UTF-8 gives
// "Konfliktkopie", as its lines are German. A real child process against the sandbox over HTTP.

let sb: RunningSandbox;
let tmp: { dir: string; remove(): Promise<void> };

beforeAll(async () => {
  sb = await startSandbox({ seed: 'empty' });
  tmp = await tempDir('conflict-language');
});
afterAll(async () => {
  await sb?.close();
  await tmp?.remove();
});

const GERMAN = { LANG: 'de_DE.UTF-8', LC_ALL: '', LC_MESSAGES: '' };

describe('sync in German', { timeout: 120_000 }, () => {
  it('names the conflict copy "Konfliktkopie" and sends it as a file of its own', async () => {
    const admin = sb.users.find((u) => u.role === 'Administrator')!;
    const dir = path.join(tmp.dir, 'Q3');
    const syncOnce = () =>
      runCli(
        [
          'sync',
          '--once',
          '--server',
          sb.baseUrl,
          '--token-file',
          '-',
          '--workspace',
          String(sb.workspaceId),
          '--dir',
          dir,
          '--state',
          path.join(tmp.dir, 'state'),
        ],
        { stdin: `${admin.token}\n`, env: GERMAN },
      );
    const first = await syncOnce();
    expect(first.code, first.stderr).toBe(0);
    writeFileSync(path.join(dir, 'plan.txt'), 'original');
    expect((await syncOnce()).code).toBe(0);

    writeFileSync(path.join(dir, 'plan.txt'), 'mine');
    const client = clientFor(sb.baseUrl, tokenOf(admin));
    const root = (await client.rootFolder(sb.workspaceId)).id;
    await client.uploadFile(root, 'plan.txt', () => Readable.from([Buffer.from('theirs')]));
    const run = await syncOnce();
    expect(run.code, run.stderr).toBe(0);

    const copies = readdirSync(dir).filter((n) => n.startsWith('plan ('));
    expect(copies).toEqual([
      expect.stringMatching(/^plan \(Konfliktkopie \d{4}-\d\d-\d\d \d{6} .+\)\.txt$/),
    ]);
    expect(readFileSync(path.join(dir, copies[0]!), 'utf8')).toBe('mine');
    expect(remoteTree(sb).get(copies[0]!)).toBe(sha('mine'));
    expect(remoteTree(sb).get('plan.txt')).toBe(sha('theirs'));
  });
});
