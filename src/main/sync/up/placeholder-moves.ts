// The local pass and placeholders (docs/SYNC.md, Files on demand): a placeholder renamed or moved
// here is its item's rename or move on the service; one gone is its item deleted there (through
// the same guards as any delete). A placeholder keeps its size and time through a rename, and its
// text names its file, so those facts, then its bytes, tell which item it is.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Journal, JournalItem } from '../../journal/journal';
import type { LocalEntry } from '../detect-local/scan';
import type { LocalRoot } from '../local';
import { joinPath, parentOf } from '../paths';
import { realNameOf } from '../placeholder';
import type { LocalPlan } from './local-plan';

/**
 * Matches `*.wsync` files the journal does not know (`strays`) to items online only whose
 * placeholder is gone (`missing`, and those a partial scan found missing before): each match a
 * move to the real name it now stands for. A stray matching nothing is a file like any other,
 * new. Returns the items matched (they are not deleted).
 */
export function matchPlaceholderMoves(
  journal: Journal,
  local: LocalRoot,
  plan: LocalPlan,
  strays: readonly LocalEntry[],
  missing: readonly JournalItem[],
  missingBefore: ReadonlySet<number>,
): Set<number> {
  const moved = new Set<number>();
  if (strays.length === 0) return moved;
  const candidates = new Map(missing.map((j) => [j.remoteId, j]));
  for (const id of missingBefore) {
    const j = journal.items.get(id);
    if (j?.state === 'online') candidates.set(id, j);
  }
  for (const e of strays) {
    const j = [...candidates.values()].find((c) => sameFacts(c, e) && sameBytes(local, c, e));
    const real = realNameOf(e.name);
    if (!j || real === undefined) {
      plan.fresh.dirs.add(parentOf(e.path));
      plan.fresh.files++;
      plan.fresh.bytes += e.size;
      continue;
    }
    candidates.delete(j.remoteId);
    moved.add(j.remoteId);
    const path = joinPath(parentOf(e.path), real);
    plan.moves.push({ type: 'move', item: j, entry: { ...e, path, name: real } });
  }
  return moved;
}

const sameFacts = (j: JournalItem, e: LocalEntry) => j.size === e.size && j.mtimeMs === e.mtimeMs;

function sameBytes(local: LocalRoot, j: JournalItem, e: LocalEntry): boolean {
  if (j.hash === null) return true;
  try {
    const bytes = readFileSync(local.abs(e.path));
    return createHash('sha256').update(bytes).digest('hex') === j.hash;
  } catch {
    return false;
  }
}
