import { describe, expect, it } from 'vitest';
import type { JournalItem } from '../../src/main/journal/journal';
import { guardLocalDeletes } from '../../src/main/sync/loop/local-guard';
import { DEFAULT_DELETE_GUARD } from '../../src/main/sync/loop/options';
import type { LocalPlan } from '../../src/main/sync/up/reconcile';

// The local side's mass-delete guard is a pure decision of the same shape as the remote side's
// (remote-guard.ts): it returns the plan to send and what to hold, and changes nothing it was
// given; the local pass keeps the hold. Before, the pass emptied the plan's deletes in place.

const item = (n: number): JournalItem => ({
  remoteId: n,
  kind: 'folder',
  remoteParentId: 1,
  remoteName: `d${n}`,
  localPath: `d${n}`,
  localName: `d${n}`,
  dev: 1,
  ino: n,
  size: null,
  mtimeMs: null,
  hash: null,
  remoteSize: null,
  remoteUpdatedAt: null,
  state: 'synced',
});

/** A plan deleting `folders` folders of `each` items, in a journal of `total` items. */
function planOf(folders: number, each: number): Pick<LocalPlan, 'deletes'> {
  return {
    deletes: Array.from({ length: folders }, (_, i) => ({
      type: 'delete' as const,
      item: item(i + 2),
      count: each,
    })),
  };
}
const journalOf = (total: number) => ({ items: { count: () => total } });

describe('guardLocalDeletes', () => {
  it('lets a few deletes go: the plan sent as given, nothing held', () => {
    const plan = planOf(2, 3);
    const guarded = guardLocalDeletes(plan, journalOf(100), DEFAULT_DELETE_GUARD, false);
    expect(guarded.plan).toBe(plan);
    expect(guarded.held).toBeNull();
  });

  it('holds too many: none sent, the hold said, the plan given left as it was', () => {
    const plan = planOf(3, 40);
    const guarded = guardLocalDeletes(plan, journalOf(130), DEFAULT_DELETE_GUARD, false);
    expect(guarded.plan.deletes).toEqual([]);
    expect(guarded.held).toEqual({ count: 120, total: 130 });
    expect(plan.deletes).toHaveLength(3);
  });

  it('sends them all once the person confirmed deletes', () => {
    const plan = planOf(3, 40);
    const guarded = guardLocalDeletes(plan, journalOf(130), DEFAULT_DELETE_GUARD, true);
    expect(guarded.plan).toBe(plan);
    expect(guarded.held).toBeNull();
  });
});
