// The down side's structure steps: a folder made, an item moved or renamed as on the service, a
// record brought up to date. Each checks the place first (places.ts): nothing unsynced is
// overwritten, and an item moved or deleted here too, not sent yet, is left to the local pass.
import type { JournalItem } from '../../journal/journal';
import { holdsAny, unplacedPaths } from '../unplaced';
import { MOVING_DIR, parentOf } from '../paths';
import { remoteFields } from '../remote';
import type { Execution } from './execution';
import { clear, ensureParent, hold, parentReady } from './places';
import type { StructureOp } from './plan-types';
import { movePlaceholder } from './online-moves';

const depthOf = (p: string): number => p.split('/').length;
const bytesOf = (p: string): number => Buffer.byteLength(p);

/** One folder creation, move, rename or record update. */
export function structure(x: Execution, op: StructureOp): void {
  const { journal } = x.ctx;
  if (op.type === 'record') {
    const j = journal.items.get(op.item.id);
    if (j) journal.items.upsert({ ...j, ...remoteFields(op.item) });
    return;
  }
  if (!parentReady(x, op)) return;
  if (op.type === 'mkdir') makeFolder(x, op);
  else moveItem(x, op);
}

function makeFolder(x: Execution, op: StructureOp & { type: 'mkdir' }): void {
  const { local, journal } = x.ctx;
  const st = local.stat(op.path);
  // Another synced item still there (deleted or moved on the service, its turn comes
  // later in this pass) makes room; a local folder of that name is adopted instead.
  const occupant = journal.items.atPath(op.path);
  if (!st || !st.isDirectory() || (occupant && occupant.remoteId !== op.item.id)) {
    clear(x, op.path);
    ensureParent(x, op.path);
    local.confined.mkdir(op.path);
    x.result.foldersCreated++;
  }
  // An existing folder of that name is adopted: same-name folders merge.
  const facts = x.factsAt(op.path);
  journal.items.upsert({
    ...remoteFields(op.item),
    localPath: op.path,
    localName: op.name,
    ...facts,
    size: null,
    hash: null,
    state: 'synced',
  });
  x.ctx.events.placed(op.item.id);
}

/** A move or rename: the item is wherever the journal says it is now. */
function moveItem(x: Execution, op: StructureOp): void {
  const { local, journal } = x.ctx;
  const j = journal.items.get(op.item.id);
  if (!j) return;
  // The service's new place and name; its size and time are the file's, unchanged by a move.
  const updated = {
    ...j,
    ...remoteFields(op.item),
    remoteSize: j.remoteSize,
    remoteUpdatedAt: j.remoteUpdatedAt,
  };
  const to = { localPath: op.path, localName: op.name };
  const st = local.stat(j.localPath);
  const onDisk = st !== undefined && (j.kind === 'folder') === st.isDirectory();
  if (!onDisk) {
    notHere(x, op, j, updated, st !== undefined);
    return;
  }
  if (j.localPath !== op.path) {
    clear(x, op.path, st);
    local.assertContained(j.localPath);
    ensureParent(x, op.path);
    local.confined.rename(j.localPath, op.path);
    x.result.moved++;
  }
  journal.items.moveTree(updated, to);
  // A folder moved up a level, or renamed to a shorter name, may now hold room for what could
  // not be placed below it (a chain too deep for this disk, seeds 116634400 and 41041): no
  // event names those items, a walk does.
  if (
    j.kind === 'folder' &&
    (depthOf(op.path) < depthOf(j.localPath) || bytesOf(op.path) < bytesOf(j.localPath)) &&
    holdsAny(op.path, unplacedPaths(journal))
  ) {
    x.result.recheck = true;
  }
}

/**
 * A move of an item not at its recorded place here (`present`: something else is there, or
 * an item of the other kind): moved there the same way, a record without a file, deleted here,
 * or moved or deleted here too and not sent yet.
 */
function notHere(
  x: Execution,
  op: StructureOp,
  j: JournalItem,
  updated: JournalItem,
  present: boolean,
): void {
  const { local, journal } = x.ctx;
  const to = { localPath: op.path, localName: op.name };
  const there = j.localPath !== op.path ? local.stat(op.path) : undefined;
  if (there && there.ino === j.ino && there.dev === j.dev) {
    // Moved here the same way (or a change of ours the service reports back): recorded.
    // A record still at that place (deleted here, its delete not sent yet) waits aside.
    const other = journal.items.atPath(op.path);
    if (other && other.remoteId !== j.remoteId) hold(x, other, false);
    journal.items.moveTree(updated, to);
  } else if (!present && j.state !== 'synced') {
    // A record without a file (one the role may not download, one online only) just follows;
    // a placeholder follows it.
    if (j.localPath !== op.path) clear(x, op.path);
    if (j.state === 'online') movePlaceholder(x, j, op.path);
    journal.items.moveTree(updated, to);
  } else if (!present && x.ctx.deletedHere.has(j.remoteId)) {
    // Deleted here (the local pass saw it): the record follows the service, so that what
    // the service put into it comes back at its new place, and the rest is deleted there.
    if (j.localPath !== op.path) clear(x, op.path);
    journal.items.moveTree(updated, to);
    // The local pass looks there again, where the delete is now to be seen.
    x.result.rescan.add(parentOf(op.path));
  } else {
    // Moved or deleted here too, not yet sent: the local pass resolves it (a local rename
    // wins over the service's; a local delete deletes it there). Only the service's side is
    // noted.
    journal.items.upsert(updated);
    // Not moved there at all: only its record waits aside here (the local pass's move of an
    // item into a place another was leaving, cut short), for the local pass to finish.
    const same = j.remoteParentId === op.item.parentId && j.remoteName === op.item.name;
    if (same && parentOf(j.localPath) === MOVING_DIR) return;
    x.ctx.events.note(j.localPath, {
      key: 'engine.movedThereChangedHere',
      params: { name: op.item.name },
    });
  }
}
