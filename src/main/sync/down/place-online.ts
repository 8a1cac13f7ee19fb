// A file kept online only, in its place here: its placeholder written or brought up to date
// (docs/SYNC.md, Files on demand). No request is made: the plan's facts are the service's.
import type { Stats } from 'node:fs';
import { factsOf } from '../local';
import {
  isOurPlaceholder,
  isStalePlaceholder,
  onlineItemAt,
  placeholderOf,
  writePlaceholder,
} from '../placeholder';
import { remoteFields } from '../remote';
import type { Execution } from './execution';
import { parentOf } from '../paths';
import { ensureParent, parentState } from './places';
import type { Placement } from './plan-types';

/**
 * Whether what is at placeholder name `ph` is a placeholder of ours that no record knows: one a
 * pass killed midway wrote before its record was committed (the journal commits in groups). It
 * holds only our text, no data of anyone's, so it is written over; without this, every file of a
 * mirror cut short came down in full, its placeholder kept beside it as a conflict copy.
 */
function isLeftOver(x: Execution, ph: string, st: Stats): boolean {
  const { journal, local } = x.ctx;
  if (!st.isFile() || journal.items.atPath(ph) || onlineItemAt(journal, ph)) return false;
  const name = ph.slice(ph.lastIndexOf('/') + 1);
  return isStalePlaceholder(local, { path: ph, name, size: st.size });
}

/**
 * Placeholders placed in turn (content.ts): the folder the last one went into, found in place.
 * The next ones into it skip that look (its record and a stat): a mirror places a folder's
 * files one after the other, and the look cost as much as the rest of the checks. Nothing it
 * spares is a guard: a folder moved or swapped since is still caught where the placeholder is
 * renamed into it (confined.ts, a problem for the item and a walk). The caller forgets it after
 * a failure.
 */
export interface OnlineRun {
  here: { id: number; dir: string } | null;
}

/**
 * Places `p`'s placeholder. 'full' when it cannot be one: its name has no room for the suffix,
 * something not ours is at the placeholder's name (a placeholder of ours no record knows is written
 * over: `isLeftOver`), or a file is at the real name (local work: the download keeps it beside);
 * the file then comes in full, as any other.
 */
export function placeOnline(
  x: Execution,
  p: Placement,
  run: OnlineRun = { here: null },
): 'placed' | 'full' | 'waits' {
  const { journal, local } = x.ctx;
  const dir = parentOf(p.path);
  const known = run.here?.id === p.item.parentId && run.here.dir === dir;
  const parent = known ? 'here' : parentState(x, p);
  run.here = parent === 'here' ? { id: p.item.parentId, dir } : null;
  if (parent === null) return 'waits';
  const j = journal.items.get(p.item.id);
  const ph = placeholderOf(p.path);
  // A name with no room for the suffix (255 bytes) has no placeholder: the file comes in full.
  if (Buffer.byteLength(placeholderOf(p.name)) > 255) return 'full';
  const st = local.stat(ph);
  const mine = j?.state === 'online';
  if (st && !(mine && j.localPath === p.path && isOurPlaceholder(local, j, st))) {
    if (!isLeftOver(x, ph, st)) return 'full';
  }
  if (local.stat(p.path)) return 'full';
  if (parent === 'here') local.assertContained(ph);
  else ensureParent(x, ph);
  const written = writePlaceholder(local, p.path, p.item, local.language);
  // The item's facts are the service's; the placeholder's size and time are what tells it ours.
  const facts = factsOf(written.st);
  journal.items.upsert({
    ...remoteFields(p.item),
    localPath: p.path,
    localName: p.name,
    dev: null,
    ino: null,
    size: facts.size,
    mtimeMs: facts.mtimeMs,
    hash: written.hash,
    state: 'online',
  });
  x.ctx.events.solved(p.item.id);
  x.ctx.log.debug('placeholder placed', { path: p.path, size: p.item.size });
  return 'placed';
}
