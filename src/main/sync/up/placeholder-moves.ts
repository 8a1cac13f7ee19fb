// The local pass and placeholders (docs/SYNC.md, Files on demand): a placeholder renamed or moved
// here is its item's rename or move on the service; one gone is its item deleted there (through
// the same guards as any delete). A placeholder keeps its size and time through a rename, and its
// text names its file, so those facts, then its bytes, tell which item it is.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ChildFacts, Journal, JournalItem } from '../../journal/journal';
import type { LocalEntry } from '../detect-local/scan';
import type { LocalRoot } from '../local';
import { joinPath, parentOf } from '../paths';
import { isStalePlaceholder, placeholderCopyOf, realNameOf } from '../placeholder';
import type { LocalPlan } from './local-plan';

type Kid = Pick<ChildFacts, 'remoteId' | 'state' | 'size' | 'mtimeMs'>;

/**
 * The placeholders a scan meets: one of an item online only is that item's (claimed, nothing to
 * send; written into, noted for the loop); a `*.wsync` file no record has is kept for the end
 * (`strays`: a placeholder moved here, or a file of that name).
 */
export class ScannedPlaceholders {
  readonly strays: LocalEntry[] = [];

  constructor(
    private readonly journal: Journal,
    private readonly plan: LocalPlan,
    private readonly key: (name: string) => string,
  ) {}

  /** True when `e` (in the folder whose children are `kids`) was taken as a placeholder. */
  offer(e: LocalEntry, kids: ReadonlyMap<string, Kid>, claims: Set<number>): boolean {
    const real = e.kind === 'file' ? realNameOf(e.name) : undefined;
    // A record at its own place (a file of the service named so) is that file.
    if (real === undefined || kids.has(this.key(e.name))) return false;
    const j = kids.get(this.key(real));
    if (j?.state === 'online') {
      claims.add(j.remoteId);
      // Not the size and time written: perhaps written into (the loop looks at its bytes).
      const changed = j.size !== e.size || j.mtimeMs !== e.mtimeMs;
      if (changed && !e.stillWriting) (this.plan.written ??= []).push(e);
      return true;
    }
    if (e.stillWriting) return false;
    if (this.journal.items.byInode(e.dev, e.ino).length > 0) return false;
    this.strays.push(e);
    return true;
  }

  /**
   * A file at the place of an item online only (`j`): the person's version of it, sent as its
   * new version (the service's checks of a changed file apply); its placeholder goes (the loop).
   */
  arrived(e: LocalEntry, j: Kid, claims: Set<number>): boolean {
    if (e.kind !== 'file' || e.stillWriting) return false;
    const item = this.journal.items.get(j.remoteId);
    if (!item) return false;
    claims.add(j.remoteId);
    this.plan.uploads.push({ type: 'upload', entry: e, item });
    (this.plan.arrived ??= []).push(item);
    return true;
  }
}

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
      // A placeholder whose item stays elsewhere (a copy, a move that cannot be sent): kept
      // here as it is, never sent as a file.
      if (placeholderCopyOf(journal, local, e)) continue;
      // Only our text, its item gone there (deleted while it was moved here): it goes, unsent.
      if (isStalePlaceholder(local, e)) {
        (plan.stale ??= []).push(e);
        continue;
      }
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
