import { afterAll, describe, expect, it } from 'vitest';
import { AttentionError } from '../../src/main/sync/errors';
import { startSandbox } from '../../src/service/sandbox';
import { TempDirs, clientFor, localTree, openPair, remoteTree, tokenOf } from './harness';

// A person's actions enter the engine as messages (loop/inbox.ts): one that comes while a pass
// runs is applied when that pass has ended, never in the middle of it; its answer (here a
// refusal) still reaches the caller.

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

describe("a person's action during a pass", () => {
  it('waits for the pass to end, and its refusal reaches the caller', async () => {
    const sb = await startSandbox({ seed: 'demo' });
    const owner = sb.users.find((u) => u.role === 'Administrator')!;
    const pair = await openPair(sb, clientFor(sb.baseUrl, tokenOf(owner)), dirs);
    const everything = [...remoteTree(sb).keys()].sort();
    expect(everything.length).toBeGreaterThan(3);
    let asked = false;
    let threwAtOnce = false;
    let answer: Promise<{ error: unknown; onDisk: string[] }> | null = null;
    const onStatus = (s: { state: string }) => {
      // The first pass is bringing the workspace down: the person dismisses a problem now.
      if (asked || s.state !== 'syncing') return;
      asked = true;
      try {
        answer = pair.engine.dismissProblem('no-such-problem').then(
          () => ({ error: null, onDisk: [] }),
          (error: unknown) => ({ error, onDisk: [...localTree(pair.dir).keys()].sort() }),
        );
      } catch {
        threwAtOnce = true;
      }
    };
    pair.engine.on('status', onStatus);
    await pair.engine.syncOnce();
    pair.engine.off('status', onStatus);
    expect(asked).toBe(true);
    // Not applied in the middle of the pass...
    expect(threwAtOnce).toBe(false);
    const { error, onDisk } = await answer!;
    // ...but once it had ended: everything the pass brought down was there when it was answered.
    expect(error).toBeInstanceOf(AttentionError);
    expect(onDisk).toEqual(everything);
    await pair.close();
    await sb.close();
  });
});
