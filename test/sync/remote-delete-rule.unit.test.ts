import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DELETE_GUARD,
  remoteDeletesLookWrong,
  type RemoteDeletions,
} from '../../src/main/sync/loop/options';
import { withRecent, type RecentDeletions } from '../../src/main/sync/loop/delete-budget';

// The remote-deletion guard's rule (issue 37), by the shape of one pass's deletions: a person's
// work is applied; only a vanished workspace or a mass deletion across the tree waits.

const asks = (d: RemoteDeletions) => remoteDeletesLookWrong(d, DEFAULT_DELETE_GUARD);

describe('remoteDeletesLookWrong', () => {
  it('one deleted folder is applied, however big, unless it was everything', () => {
    expect(asks({ count: 100, total: 101, topmost: 1, places: 1 })).toBe(false);
    expect(asks({ count: 50_000, total: 60_000, topmost: 1, places: 1 })).toBe(false);
    expect(asks({ count: 101, total: 101, topmost: 1, places: 1 })).toBe(true);
  });

  it('several deletions leaving nearly nothing: a vanished workspace', () => {
    expect(asks({ count: 19, total: 20, topmost: 7, places: 1 })).toBe(true);
    expect(asks({ count: 90, total: 100, topmost: 3, places: 1 })).toBe(true);
    expect(asks({ count: 89, total: 100, topmost: 3, places: 1 })).toBe(false);
    // A big folder and a file beside it, leaving a few items (soak seed 1648454123): a clean-up.
    expect(asks({ count: 87, total: 90, topmost: 2, places: 1 })).toBe(false);
  });

  it('a large share in many places: a mass deletion across the tree', () => {
    expect(asks({ count: 20, total: 37, topmost: 20, places: 3 })).toBe(true);
    expect(asks({ count: 20, total: 37, topmost: 20, places: 2 })).toBe(false);
    expect(asks({ count: 18, total: 37, topmost: 18, places: 5 })).toBe(false);
    // One big folder and a couple of files elsewhere: a clean-up, not a mass deletion.
    expect(asks({ count: 102, total: 150, topmost: 3, places: 3 })).toBe(false);
  });

  it('a few items never ask', () => {
    expect(asks({ count: 9, total: 9, topmost: 9, places: 4 })).toBe(false);
  });
});

// Issue 38, row 6: the deletions applied in the last hour are added to a pass's before the rule.
describe('remoteDeletesLookWrong over the last hour', () => {
  const recent = (count: number, places: string[]): RecentDeletions => ({
    count,
    topmost: count,
    places: new Set(places),
  });
  const pass = { count: 9, total: 13, topmost: 9, places: 1 };

  it('9 files per pass in one folder: held at the pass that leaves a tenth or less', () => {
    expect(
      asks(
        withRecent({ count: 9, total: 40, topmost: 9, places: 1 }, new Set(['']), recent(0, [])),
      ),
    ).toBe(false);
    expect(asks(withRecent({ ...pass, total: 22 }, new Set(['']), recent(18, [''])))).toBe(false);
    expect(asks(withRecent(pass, new Set(['']), recent(27, [''])))).toBe(true);
  });

  it('counts a folder once across passes', () => {
    expect(withRecent(pass, new Set(['a']), recent(27, ['a', 'b'])).places).toBe(2);
  });

  it('a colleague deleting one folder after a small clean-up is still applied', () => {
    // 5 files deleted earlier, now one folder of 50 of the 95 left: 45 of 100 remain.
    const folder = { count: 50, total: 95, topmost: 1, places: 1 };
    expect(asks(withRecent(folder, new Set(['']), recent(5, ['x'])))).toBe(false);
    // After 30 files in three folders, the same folder takes 80 of 100 within the hour, across
    // the tree: the rule's mass deletion, held.
    const big = { count: 50, total: 70, topmost: 1, places: 1 };
    expect(asks(withRecent(big, new Set(['']), recent(30, ['x', 'y', 'z'])))).toBe(true);
  });
});
