import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setWalkDue } from '../../src/main/sync/loop/context';
import type { RunningSandbox } from '../../src/service/sandbox';
import type { SyncStatus } from '../../src/shared/sync-status';
import { TempDirs, requestsOf, type Pair } from './harness';
import { closeBoth, pairWithSandbox } from './sandbox-pair';

// Why a walk is due is kept in the journal (meta `walk_due`) as a typed value, read back by its
// kind: the status says the feed's count from the value, not from an English sentence parsed
// with a regex. A journal an earlier version wrote holds that sentence: it still asks for a walk.

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

let sb: RunningSandbox;
let pair: Pair;

beforeEach(async () => {
  ({ sb, pair } = await pairWithSandbox(dirs, { sandbox: { seed: 'demo' } }));
  await pair.engine.syncOnce();
});
afterEach(() => closeBoth(pair, sb));

/** What the status said while the next pass walked, and the pass's requests. */
async function nextPass(): Promise<{ scanning: SyncStatus[]; stats: Record<string, number> }> {
  const seen: SyncStatus[] = [];
  const record = (s: SyncStatus) => seen.push(s);
  pair.engine.on('status', record);
  try {
    const stats = await requestsOf(sb, () => pair.engine.syncOnce());
    return { scanning: seen.filter((s) => s.state === 'scanning'), stats };
  } finally {
    pair.engine.off('status', record);
  }
}

describe('a walk due, as the journal keeps it', () => {
  it('is stored as a value, not as a sentence', () => {
    pair.engine.requestFullWalk();
    expect(JSON.parse(pair.journal.meta.get('walk_due')!)).toEqual({ kind: 'asked' });
  });

  it("the feed's count is said from the value kept, and the walk clears it", async () => {
    setWalkDue(pair.journal, { kind: 'catch-up', changes: 1500 });
    const { scanning, stats } = await nextPass();
    expect(stats['GET /folders/:id'] ?? 0).toBeGreaterThan(0);
    expect(scanning.at(-1)?.words).toEqual({ key: 'engine.walkCatchUp', params: { n: 1500 } });
    expect(scanning.at(-1)?.message).toBe(
      'Catching up with 1,500 changes on the service: listing every folder once',
    );
    expect(pair.journal.meta.get('walk_due')).toBeUndefined();
  });

  it("an earlier version's English reason still walks, said as a search for changes", async () => {
    pair.journal.meta.set('walk_due', '1,500 changes on the service');
    const { scanning, stats } = await nextPass();
    expect(stats['GET /folders/:id'] ?? 0).toBeGreaterThan(0);
    expect(scanning.at(-1)?.words).toEqual({ key: 'engine.walkChanges' });
    expect(pair.journal.meta.get('walk_due')).toBeUndefined();
    // Done: the next pass only polls the feed.
    expect(await requestsOf(sb, () => pair.engine.syncOnce())).toEqual({ 'GET /activity': 1 });
  });
});
