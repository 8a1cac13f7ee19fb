// The checks of the disk before the down side writes at a place: whether the folder an item goes
// into is where the plan put it, and making room at a place without losing what is there
// (unsynced local work is renamed aside as a conflict copy, a synced item waits in the holding
// place for its own turn). Every write of the down side goes through these, so none skips them.
import { mkdirSync } from 'node:fs';
import type { JournalItem } from '../../journal/journal';
import { defaultProfile, disambiguate } from '../names';
import { MOVING_DIR, joinPath, parentOf } from '../paths';
import type { Execution } from './execution';
import type { Placement } from './plan-types';

/** Moves a synced item (and its record) to the holding place until its own turn comes. */
export function hold(x: Execution, j: JournalItem, onDisk: boolean, from = j.localPath): void {
  const { local, journal } = x.ctx;
  const hold = `${MOVING_DIR}/${j.remoteId}`;
  x.held.set(j.remoteId, x.held.get(j.remoteId) ?? j.localPath);
  if (onDisk) {
    mkdirSync(local.abs(MOVING_DIR), { recursive: true });
    local.confined.rename(from, hold);
  }
  journal.items.moveTree(j, { localPath: hold, localName: String(j.remoteId) });
}

/** Makes room at `rel`: a journaled item that is to move later goes to a holding place, and
 * anything else (local work) is renamed aside as a conflict copy. */
export function clear(x: Execution, rel: string, except?: { dev: number; ino: number }): void {
  const { local, journal } = x.ctx;
  const st = local.stat(rel);
  const j = journal.items.atPath(rel);
  if (!st) {
    // Only a record holds the place (a file the role may not download): it waits too.
    if (j) hold(x, j, false);
    return;
  }
  // Case-only renames on a case-insensitive volume: the "occupant" is the item itself.
  if (except && st.ino === except.ino && st.dev === except.dev) return;
  if (j) {
    // Moved from where it was found: on a case-insensitive volume that name may differ in case
    // from the recorded one.
    hold(x, j, true, rel);
    return;
  }
  const aside = local.moveAside(rel, st.isDirectory());
  x.result.conflicts++;
  x.ctx.log.info('kept a local item that was in the way', { path: rel, keptAs: aside });
  x.ctx.events.note(rel, { key: 'engine.nameTakenThere', params: { aside } }, aside);
}

/**
 * Makes sure the folder that will hold `rel` is there (and inside the root). A synced folder
 * deleted here that the service just put something into comes back: the change wins.
 */
export function ensureParent(x: Execution, rel: string): void {
  const { local } = x.ctx;
  const slash = rel.lastIndexOf('/');
  for (const made of local.ensureFolder(slash < 0 ? '' : rel.slice(0, slash))) {
    // The folder made again is the synced one: its new identity is recorded, or the local
    // pass would take it for a new folder and the old one for deleted.
    const j = x.ctx.journal.items.atPath(made);
    if (j?.kind === 'folder') {
      x.ctx.journal.items.upsert({ ...j, ...x.factsAt(made), size: null, hash: null });
      x.result.rescan.add(made);
    }
    x.result.conflicts++;
    x.ctx.events.note(made, { key: 'engine.deletedHereChangedThere' });
  }
  local.assertContained(rel);
}

/**
 * A synced folder (this one or one above) replaced here by a file of its name, while the
 * service put something into it: the folder cannot come back under that name, so its record
 * takes a numbered one beside the file, and the walk that follows brings it back there.
 */
function makeRoomAbove(x: Execution, folder: JournalItem): boolean {
  const { journal, local } = x.ctx;
  for (let a: JournalItem | undefined = folder; a; a = journal.items.get(a.remoteParentId)) {
    const st = local.stat(a.localPath);
    if (a.kind !== 'folder' || !st || st.isDirectory()) continue;
    const dir = parentOf(a.localPath);
    for (let n = 2; ; n++) {
      const name = disambiguate(a.localName, 'folder', n, defaultProfile());
      const to = joinPath(dir, name);
      if (local.stat(to) || journal.items.atPath(to)) continue;
      journal.items.moveTree(a, { localPath: to, localName: name });
      x.ctx.log.info('a folder replaced here by a file comes back beside it', {
        path: a.localPath,
        as: to,
      });
      return true;
    }
  }
  return false;
}

/**
 * Whether the folder `p` goes into is where the plan put it. A synced folder missing here (or,
 * after a rename there lost to a change here, not at its new name) was moved or deleted here and
 * the local pass has not sent that yet: making it again would leave the item twice once the
 * move is sent. It waits for a walk after the local pass, unless that pass has looked already.
 */
export function parentReady(x: Execution, p: Placement): boolean {
  return parentState(x, p) !== null;
}

/**
 * `parentReady`, saying also whether the folder was found here as a folder (`'here'`: the
 * placement then needs no second look at it) or comes back with the item (`'anew'`).
 */
export function parentState(x: Execution, p: Placement): 'here' | 'anew' | null {
  const { journal, local } = x.ctx;
  const dir = parentOf(p.path);
  if (dir === '') return 'here';
  const parent = journal.items.get(p.item.parentId);
  const inPlace = parent?.kind === 'folder' && parent.localPath === dir;
  if (inPlace && local.stat(dir)?.isDirectory()) return 'here';
  if (parent && makeRoomAbove(x, parent)) {
    x.result.recheck = true;
    return null;
  }
  if (parent && inPlace) {
    for (let a: JournalItem | undefined = parent; a; a = journal.items.get(a.remoteParentId)) {
      if (x.ctx.deletedHere.has(a.remoteId)) return 'anew';
    }
  } else if (parent && x.ctx.deletedHere.has(parent.remoteId)) {
    return 'anew';
  }
  x.result.waiting.add(p.item.parentId);
  x.result.recheck = true;
  x.ctx.log.info('waits for the local pass: its folder was moved or deleted here', {
    path: p.path,
  });
  return null;
}

/**
 * Whether a new version may come down for a synced file. Missing from its place here, it was
 * moved or deleted here and the local pass has not sent that yet: it waits, so that a rename
 * here is sent first and the new version then comes down under the new name. Once that pass
 * has seen it deleted, the change there wins and it comes back.
 */
export function placeReady(
  x: Execution,
  p: Placement,
  j = x.ctx.journal.items.get(p.item.id),
): boolean {
  const { local } = x.ctx;
  if (!j || j.kind !== 'file' || j.state !== 'synced' || local.stat(j.localPath)) return true;
  if (x.ctx.deletedHere.has(j.remoteId)) return true;
  x.result.waiting.add(j.remoteId);
  x.result.recheck = true;
  x.ctx.log.info('waits for the local pass: it was moved or deleted here', { path: p.path });
  return false;
}
