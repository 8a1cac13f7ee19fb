import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/service/sandbox';
import { translator } from '../../src/shared/i18n';
import { TempDirs, remoteTree, type Pair } from './harness';
import { closeBoth, pairWithSandbox } from './sandbox-pair';

// Real failures over HTTP (the sandbox), read by a German reader: the status and its problems
// carry words, said in German; the server's own text (its language) stays as it wrote it.

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());
const de = translator('de');

let sb: RunningSandbox;
let pair: Pair;
afterEach(() => closeBoth(pair, sb));

async function open(options: { maxUploadBytes?: number } = {}) {
  ({ sb, pair } = await pairWithSandbox(dirs, { sandbox: options }));
}

describe('a German reader of real failures', () => {
  it('a file the service refuses (too large, a 413): the problem in German', async () => {
    await open({ maxUploadBytes: 1000 });
    writeFileSync(path.join(pair.dir, 'big.bin'), Buffer.alloc(5000, 1));
    writeFileSync(path.join(pair.dir, 'small.txt'), 'fits');
    await pair.engine.syncOnce();
    expect([...remoteTree(sb).keys()]).toEqual(['small.txt']);
    const problem = pair.engine.status().problems.find((p) => p.path === 'big.bin')!;
    expect(problem.message).toMatch(
      /^The service refused it \(The service refused the request: .+\): it is kept here only\.$/,
    );
    expect(problem.words?.key).toBe('engine.serviceRefused');
    expect(de.say(problem.words!)).toMatch(
      /^Der Dienst hat es abgelehnt \(Der Dienst hat die Anfrage abgelehnt: .+\): Es bleibt nur hier\.$/,
    );
  });
});
