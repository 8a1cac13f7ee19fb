// A file of the service in its place here: downloaded (or found already in place), then renamed
// into its place, keeping whatever local work was there as a conflict copy beside it.
import { rmSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { ApiError } from '../../api/errors';
import { CutShortError, fetchToTemp, VerificationError, type Fetched } from '../download';
import { factsOf, hashFile } from '../local';
import { PARTIAL_DIR, parentOf } from '../paths';
import type { Execution } from './execution';
import { dropPlaceholder, placeholderGivesWay } from './online-moves';
import { ensureParent, hold, parentState, placeReady } from './places';
import type { Placement } from './plan-types';

/**
 * Adopts, without a download, this version already in its place: an earlier run placed it and
 * stopped before its record was committed (a stop loses the journal's last uncommitted writes).
 * It is known by its size and the service's time, which the engine gave it before the rename
 * (a file changed here since has a time of its own); its hash, for the record, is read here.
 */
async function adoptPlaced(x: Execution, p: Placement): Promise<boolean> {
  const { journal, local } = x.ctx;
  const remoteMs = Date.parse(p.item.updatedAt);
  if (!Number.isFinite(remoteMs)) return false;
  const st = local.stat(p.path);
  if (!st?.isFile() || st.size !== p.item.size || Math.abs(st.mtimeMs - remoteMs) >= 1) {
    return false;
  }
  // Only where no other record is: this item's record elsewhere is its file elsewhere.
  const j = journal.items.get(p.item.id);
  if (j && j.localPath !== p.path) return false;
  const other = journal.items.atPath(p.path);
  if (other && other.remoteId !== p.item.id) return false;
  // Recorded with this version already: nothing to adopt (the plan would not ask for it).
  if (j?.state === 'synced' && j.remoteUpdatedAt === p.item.updatedAt && j.size === st.size) {
    return false;
  }
  try {
    local.assertContained(p.path);
    x.record(p, await hashFile(local.abs(p.path)));
    if (j?.state === 'online') dropPlaceholder(x, j);
  } catch {
    // Not readable here, or its folder swapped: the download and its placement decide.
    return false;
  }
  journal.downloads.remove(p.item.id);
  // Its bytes are done as far as the progress goes, though none came over the wire.
  x.ctx.events.bytes(p.item.size);
  x.ctx.log.debug('adopted a file already in place', { path: p.path, size: p.item.size });
  return true;
}

/** Downloads a file on its own (not in an archive) and puts it in its place. */
export async function download(x: Execution, p: Placement): Promise<void> {
  if (await adoptPlaced(x, p)) return;
  const { client, journal, local } = x.ctx;
  let fetched: Fetched;
  try {
    fetched = await fetchToTemp(
      client,
      journal,
      local.abs(PARTIAL_DIR),
      p.item,
      (n) => x.countBytes(n),
      x.ctx.signal,
    );
  } catch (err) {
    if (err instanceof ApiError && err.kind === 'forbidden') {
      x.recordNotPermitted(p);
      return;
    }
    if (err instanceof ApiError && err.kind === 'not-found') return; // deleted meanwhile
    if (err instanceof VerificationError || err instanceof CutShortError) {
      x.problem(p, 'verification', err.words);
      return;
    }
    throw err;
  }
  await place(x, p, fetched);
}

/** Puts a fetched file in its place; a swap met on the way stops this item only. */
export async function place(x: Execution, p: Placement, fetched: Fetched): Promise<void> {
  if (x.isBlocked(p.path)) {
    rmSync(fetched.temp, { force: true });
    return;
  }
  try {
    await put(x, p, fetched);
  } catch (err) {
    // The download stays in the cache (undone, or never placed): the next pass resumes it.
    x.failedItem(p.path, p.item.id, err, false);
  }
}

/** Puts a fetched file in its place, keeping whatever local work was there. */
async function put(x: Execution, p: Placement, fetched: Fetched): Promise<void> {
  const { journal, local, log } = x.ctx;
  const parent = parentState(x, p);
  const j = journal.items.get(p.item.id);
  if (parent === null || !placeReady(x, p, j)) {
    rmSync(fetched.temp);
    return;
  }
  const remoteMs = Date.parse(p.item.updatedAt);
  if (Number.isFinite(remoteMs)) utimesSync(fetched.temp, new Date(), new Date(remoteMs));
  // Looked at through its folder as opened, not by a path a swap can send elsewhere (the
  // rename below checks that folder is still in its place).
  const st =
    parent === 'here' || local.stat(parentOf(p.path))?.isDirectory()
      ? local.confined.peek(p.path)
      : local.stat(p.path);
  const record = journal.items.atPath(p.path);
  if (!st && record && record.remoteId !== p.item.id) {
    // A record without a file holds the place: it waits, and a walk resolves it.
    hold(x, record, false);
    x.result.recheck = true;
  }
  if (st) {
    const ours = j !== undefined && j.state === 'synced' && j.localPath === p.path;
    if ((ours && (await local.unchanged(j, st))) || placeholderGivesWay(x, p.path, st)) {
      // The synced version, unchanged here (or another's placeholder): replaced by the new one.
    } else if (st.isFile() && (await sameContent(local.abs(p.path), fetched.hash))) {
      // Already there (an interrupted run, or the same file put here by hand): adopted.
      rmSync(fetched.temp);
      journal.downloads.remove(p.item.id);
      x.record(p, fetched.hash);
      if (j?.state === 'online') dropPlaceholder(x, j);
      return;
    } else {
      keepBoth(x, p, st.isDirectory());
    }
  }
  // A folder found here a moment ago is not looked at again (a mirror places 100,000 files):
  // if it went meanwhile, the rename through it fails as a swap and the item waits.
  if (parent === 'here') local.assertContained(p.path);
  else ensureParent(x, p.path);
  const placed = local.confined.renameAndStat(
    `${PARTIAL_DIR}/${path.basename(fetched.temp)}`,
    p.path,
  );
  journal.downloads.remove(p.item.id);
  x.record(p, fetched.hash, factsOf(placed));
  // Online only until now: the file is here, its placeholder goes.
  if (j?.state === 'online') dropPlaceholder(x, j);
  x.result.filesDownloaded++;
  log.debug('downloaded', { path: p.path, size: p.item.size });
}

/** Changed here and there, or local work in the way: both are kept, ours renamed aside. */
function keepBoth(x: Execution, p: Placement, isDirectory: boolean): void {
  const { journal, local, log } = x.ctx;
  const other = journal.items.atPath(p.path);
  const aside = local.moveAside(p.path, isDirectory);
  if (other && other.remoteId !== p.item.id) {
    journal.items.removeTree(other);
    x.result.recheck = true;
  }
  x.result.conflicts++;
  log.info('kept a local version that differs from the service', {
    path: p.path,
    keptAs: aside,
  });
  x.ctx.events.note(
    p.path,
    {
      key: 'engine.bothChanged',
      params: { theirs: p.name, yours: aside.slice(aside.lastIndexOf('/') + 1) },
    },
    aside,
  );
}

async function sameContent(abs: string, hash: string): Promise<boolean> {
  return (await hashFile(abs)) === hash;
}
