// What the down side does to a placeholder when its item moves, is deleted there, or arrives in
// full (docs/SYNC.md, Files on demand). A placeholder holds no data: ours is removed outright,
// never trashed; one whose text is no longer ours is a person's data and stays, a file of its
// own for the local pass to send.
import { rmSync, type Stats } from 'node:fs';
import type { JournalItem } from '../../journal/journal';
import { parentOf } from '../paths';
import { isOurPlaceholder, onlineItemAt, placeholderOf } from '../placeholder';
import type { Execution } from './execution';
import { ensureParent } from './places';

/** The item `j` (online only) moves to `to` on the service: its placeholder follows. */
export function movePlaceholder(x: Execution, j: JournalItem, to: string): void {
  const { local } = x.ctx;
  const from = placeholderOf(j.localPath);
  const dest = placeholderOf(to);
  if (from === dest || !isOurPlaceholder(local, j) || local.stat(dest)) {
    x.result.rescan.add(parentOf(from));
    return;
  }
  ensureParent(x, dest);
  local.assertContained(from);
  local.confined.rename(from, dest);
  x.result.moved++;
}

/**
 * A file of the service takes the name of another item's placeholder (`a.txt.wsync` beside
 * `a.txt`, online only): ours holds no data and gives way; that item then comes in full (no
 * service time kept: the planner's sign) at the walk this asks for. False when `rel` is no
 * placeholder of ours.
 */
export function placeholderGivesWay(x: Execution, rel: string, st: Stats): boolean {
  const { journal, local } = x.ctx;
  const j = onlineItemAt(journal, rel);
  if (!j || !isOurPlaceholder(local, j, st)) return false;
  journal.items.upsert({ ...j, remoteUpdatedAt: null });
  x.result.recheck = true;
  return true;
}

/** The placeholder of `j` is no longer needed (deleted there, or the file is here now). */
export function dropPlaceholder(x: Execution, j: JournalItem): void {
  const { local } = x.ctx;
  const ph = placeholderOf(j.localPath);
  if (isOurPlaceholder(local, j)) {
    local.assertContained(ph);
    rmSync(local.abs(ph));
  } else if (local.stat(ph)) {
    // Written into: the local pass finds it unknown and sends it as a file of its own.
    x.result.rescan.add(parentOf(ph));
  }
}
