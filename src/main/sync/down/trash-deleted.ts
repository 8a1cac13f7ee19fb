// Items deleted on the service, to the trash here: never unlinked, and never what holds local
// work (a file changed here stays; a folder with local work inside keeps that work, and only
// what was synced and unchanged in it goes to the trash).
import { mkdirSync, readdirSync, rmdirSync, type Stats } from 'node:fs';
import type { JournalItem } from '../../journal/journal';
import { MOVING_DIR, joinPath, parentOf } from '../paths';
import type { Execution } from './execution';
import { dropPlaceholder } from './online-moves';
import { isOurPlaceholder, PLACEHOLDER_SUFFIX, realNameOf } from '../placeholder';

/** Moves a deleted item (topmost of what was deleted) to the trash, keeping local work. */
export async function trashItem(x: Execution, found: JournalItem): Promise<void> {
  const { local, journal } = x.ctx;
  if (found.state === 'online') {
    // A placeholder holds no data: no trash for it (online-moves.ts).
    dropPlaceholder(x, found);
    journal.items.removeTree(found);
    return;
  }
  let j = found;
  const now = statHere(x, j.localPath) ? undefined : renamedAbove(x, j);
  if (now !== undefined) {
    // A folder above it was renamed here, not sent yet: the delete there is for the item at
    // its new name all the same (seed -1295854467: a parent renamed in case here hid it, its
    // records were dropped, and it went back up as new beside a colleague's copy of it).
    journal.items.moveTree(j, { localPath: now, localName: j.localName });
    j = journal.items.get(j.remoteId) ?? j;
  }
  // Where it was before the holding place, if it waits there: the trash records that path.
  const was = x.held.get(j.remoteId);
  const st = statHere(x, j.localPath);
  if (!st || st.isDirectory() !== (j.kind === 'folder')) {
    // Gone from here, or an item of the other kind took its name: that one is local work.
    journal.items.removeTree(j);
    return;
  }
  if (j.kind === 'file') {
    if (await local.unchanged(j, st)) {
      await toTrash(x, j, was, j.localPath);
      x.result.trashed++;
    } else {
      // Changed here, deleted there: the change wins; the file stays as local work.
      x.ctx.log.info('kept a locally changed file that was deleted on the service', {
        path: j.localPath,
      });
      x.ctx.events.note(j.localPath, { key: 'engine.deletedThereChangedHere' });
      x.result.conflicts++;
      keepName(x, j);
    }
    journal.items.removeTree(j);
    return;
  }
  if (await onlySyncedBelow(x, j)) {
    await toTrash(x, j, was, j.localPath);
    x.result.trashed++;
    journal.items.removeTree(j);
    return;
  }
  await trashAroundLocalWork(x, j, was);
}

/** A folder with local work inside: what was synced and unchanged goes, the rest stays put. */
async function trashAroundLocalWork(
  x: Execution,
  j: JournalItem,
  was: string | undefined,
): Promise<void> {
  const { local, journal } = x.ctx;
  const below = journal.items.descendants(j.localPath);
  for (const d of below) {
    // Online only: its placeholder (ours) goes, no trash; one written into stays, to be sent.
    if (d.state === 'online') {
      dropPlaceholder(x, d);
      continue;
    }
    const dst = statHere(x, d.localPath);
    if (d.kind === 'file' && dst && (await local.unchanged(d, dst))) {
      await toTrash(x, j, was, d.localPath);
      x.result.trashed++;
    } else keepName(x, d);
  }
  keepName(x, j);
  x.result.conflicts++;
  x.ctx.log.info('kept local work inside a folder deleted on the service', {
    path: j.localPath,
  });
  x.ctx.events.note(j.localPath, { key: 'engine.folderDeletedThere' });
  journal.items.removeTree(j);
}

/**
 * Puts `rel` (the deleted item `j`, or something in it; `was` where `j` was before the holding
 * place) in the trash. First into the holding
 * place through the folder opened from the root (no link followed; undone with a SwapError if a
 * folder on the way was swapped): the trash, which takes a path, is then handed our own item,
 * never one a swap put outside. A folder of its own keeps the item's name: the system trash
 * shows it under it.
 */
async function toTrash(
  x: Execution,
  j: JournalItem,
  was: string | undefined,
  rel: string,
): Promise<void> {
  const { local } = x.ctx;
  const box = `${MOVING_DIR}/trash-${j.remoteId}-${++x.trashed}`;
  const staged = `${box}/${rel.slice(rel.lastIndexOf('/') + 1)}`;
  mkdirSync(local.abs(box), { recursive: true });
  try {
    local.confined.rename(rel, staged);
    try {
      // Under the path the user knew, not the holding place's.
      await x.ctx.trash.put(local.abs(staged), was ? was + rel.slice(j.localPath.length) : rel);
    } catch (err) {
      local.confined.rename(staged, rel);
      throw err;
    }
  } finally {
    try {
      rmdirSync(local.abs(box));
    } catch {
      // Not empty (put back failed too): what is in it stays, nothing is lost.
    }
  }
}

/**
 * Where a synced item is now when a folder above it was renamed here and the rename is not sent
 * yet: that folder found by its inode in the folder it was in (a rename in place, the common
 * case; a move elsewhere is the local pass's to find), the item below it at its own name.
 */
function renamedAbove(x: Execution, j: JournalItem): string | undefined {
  const { journal, local } = x.ctx;
  for (let a = journal.items.get(j.remoteParentId); a?.kind === 'folder';) {
    const st = statHere(x, a.localPath);
    if (st) return undefined;
    const dir = parentOf(a.localPath);
    if (dir === '' || local.stat(dir)?.isDirectory()) {
      let entries: string[];
      try {
        entries = readdirSync(local.abs(dir));
      } catch {
        return undefined;
      }
      for (const name of entries) {
        const at = dir === '' ? name : `${dir}/${name}`;
        const e = local.stat(at);
        if (!e?.isDirectory() || e.ino !== a.ino || e.dev !== a.dev) continue;
        const path = at + j.localPath.slice(a.localPath.length);
        const here = statHere(x, path);
        const same = here && (j.kind === 'folder') === here.isDirectory() && here.ino === j.ino;
        return same ? path : undefined;
      }
      return undefined;
    }
    a = journal.items.get(a.remoteParentId);
  }
  return undefined;
}

/**
 * What is at `rel`; nothing past PATH_MAX, where the engine never places anything (local.ts
 * `abs`): a record there is of an item never placed here (the bottom of a chain too deep for
 * this disk). Asked as a path it would fail the whole folder's trash, and the folder would stay
 * here for good, its records with it (seed 20261302 history 879).
 */
function statHere(x: Execution, rel: string): Stats | undefined {
  try {
    return x.ctx.local.stat(rel);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENAMETOOLONG') return undefined;
    throw err;
  }
}

/** An item kept here after the service deleted it goes up again under its service name. */
function keepName(x: Execution, j: JournalItem): void {
  if (j.localName === j.remoteName) return;
  const st = statHere(x, j.localPath);
  if (st) x.ctx.journal.keptNames.keep(st, j.localName, j.remoteName);
}

/** 'ours' when `rel` is the placeholder, still as written, of an online item of `known`. */
function placeholderIn(
  x: Execution,
  known: ReadonlyMap<string, JournalItem>,
  rel: string,
): 'ours' | undefined {
  if (realNameOf(rel.slice(rel.lastIndexOf('/') + 1)) === undefined) return undefined;
  const j = known.get(rel.slice(0, -PLACEHOLDER_SUFFIX.length));
  return j?.state === 'online' && isOurPlaceholder(x.ctx.local, j) ? 'ours' : undefined;
}

/** Whether everything inside a folder on disk is synced and unchanged. */
async function onlySyncedBelow(x: Execution, folder: JournalItem): Promise<boolean> {
  const { local, journal } = x.ctx;
  const known = new Map(journal.items.descendants(folder.localPath).map((d) => [d.localPath, d]));
  const visit = async (rel: string): Promise<boolean> => {
    for (const entry of readdirSync(local.abs(rel), { withFileTypes: true })) {
      const child = joinPath(rel, entry.name);
      const j = known.get(child) ?? placeholderIn(x, known, child);
      if (j === 'ours') continue;
      if (!j) return false;
      if (!(await local.unchanged(j, local.stat(child)))) return false;
      if (entry.isDirectory() && !(await visit(child))) return false;
    }
    return true;
  };
  return visit(folder.localPath);
}
