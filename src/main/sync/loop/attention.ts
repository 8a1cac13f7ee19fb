import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  createReadStream,
  createWriteStream,
  openSync,
  rmdirSync,
  unlinkSync,
  type Stats,
} from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { Journal } from '../../journal/journal';
import type { StoredConflict } from '../../journal/problems';
import type { Words } from '../../../shared/i18n';
import { swapped, SwapError } from '../confined';
import { AttentionError } from '../errors';
import type { LocalRoot } from '../local';
import { CACHE_DIR, MOVING_DIR, parentOf } from '../paths';
import type { Trash } from '../ports';
import type { Refusals } from '../up/refusals';
import type { WalkReason } from '../walk-reason';
import { factsOf, type StatusModel } from './status';

/** Which version a person keeps of a conflict (docs/SYNC.md, Conflicts). */
export type KeepChoice = 'mine' | 'theirs' | 'both';

/** What the person's actions work with: the engine's own parts. */
export interface AttentionContext {
  status: StatusModel;
  journal: Journal;
  local: LocalRoot;
  trash: Trash;
  refusals: Refusals;
  /** Folders for the next local pass to look at, and the engine woken. */
  markDirty(dirs: Iterable<string>): void;
  /** A full walk now (an item's problem is tried again by it). */
  requestWalk(reason: WalkReason): void;
}

const nameOf = (rel: string) => rel.slice(rel.lastIndexOf('/') + 1);

/**
 * Carries out the person's choice for a conflict. The files are moved *here, in the sync root*, as the
 * person would move them: the next local pass sends them with its intents like any change, and
 * the entry leaves by itself once the copy is gone. Nothing is deleted: what is replaced goes
 * to the trash.
 *
 * - mine: the copy's bytes become the file at the original's name (a new version of the
 *   service's file, whose version it replaces stays its previous one there; the local bytes
 *   replaced go to the trash), and the copy goes to the trash (deleted on the service).
 * - theirs: the copy goes to the trash (deleted on the service).
 * - both: the entry is dismissed; both files stay.
 */
export async function chooseForConflict(
  ctx: AttentionContext,
  id: number,
  keep: KeepChoice,
): Promise<void> {
  const { status } = ctx;
  const c = status.attention.conflict(id);
  if (!c) throw new AttentionError('gone', { key: 'engine.conflictSettled' });
  if (keep === 'both') {
    status.attention.removeConflict(id);
    status.conflictsChanged();
    return;
  }
  try {
    const copy = checkCopy(ctx, c);
    if (keep === 'mine') await keepMine(ctx, c, copy);
    else await toTrash(ctx, c.copy, copy);
  } catch (err) {
    // A folder on the way replaced or moved meanwhile (perhaps by a link to elsewhere): what
    // was not done is undone, and the person is told so in one line (with the engine's words).
    if (err instanceof SwapError) {
      // Not the engine's "tried again later": a choice is the person's, made again by them.
      // Named by the person's path, never by the engine's holding place.
      const met = err.words?.params?.path;
      const path = typeof met === 'string' && !met.startsWith(CACHE_DIR) ? met : c.path;
      const words: Words = { key: 'engine.swappedChoice', params: { path } };
      throw new AttentionError('stale', words);
    }
    throw err;
  } finally {
    // Whatever was moved (all of it, or a part before a swap) is looked at by the next pass.
    ctx.markDirty([parentOf(c.copy), parentOf(c.path)]);
  }
  // The copy is gone from its path: the entry is over now, not only after the next pass.
  status.checkConflicts();
}

// Every look, read, move and write below goes through the folders opened from the root without
// following links (confined.ts), never by path: a racing local process that exchanges the
// conflict's folder or its copy with a link to elsewhere gets nothing outside read, written,
// moved or trashed (issue 38). Before each move the item is looked at again through its folder,
// whose path is checked right then (no cache) to lead to the folder that was opened; after it,
// checked again, and the move undone if not.

/** The copy is still the one the conflict left (else the person chose without seeing it). */
function checkCopy(ctx: AttentionContext, c: StoredConflict): Stats {
  const st = ctx.local.confined.lstat(c.copy);
  if (!st) {
    ctx.status.checkConflicts();
    throw new AttentionError('gone', {
      key: 'engine.choiceGone',
      params: { name: nameOf(c.copy) },
    });
  }
  if (c.copyFacts !== '' && factsOf(st) !== c.copyFacts) {
    throw new AttentionError('stale', {
      key: 'engine.choiceChanged',
      params: { name: nameOf(c.copy) },
    });
  }
  return st;
}

async function keepMine(ctx: AttentionContext, c: StoredConflict, copy: Stats): Promise<void> {
  const { local, journal } = ctx;
  const orig = local.confined.lstat(c.path);
  if (!orig) {
    ctx.status.checkConflicts();
    throw new AttentionError('gone', {
      key: 'engine.choiceGone',
      params: { name: nameOf(c.path) },
    });
  }
  if (!copy.isFile() || !orig.isFile()) {
    throw new AttentionError('invalid', { key: 'engine.keepMineFiles' });
  }
  // The original must be the service's version as synced: a change made to it since is work
  // the person has not seen in this choice.
  const j = journal.items.atPath(c.path);
  const synced =
    j?.kind === 'file' && j.ino === orig.ino && j.size === orig.size && j.mtimeMs === orig.mtimeMs;
  if (!synced) {
    throw new AttentionError('stale', {
      key: 'engine.choiceChanged',
      params: { name: nameOf(c.path) },
    });
  }
  // The copy's bytes are made ready in the engine's own folder (same volume, never scanned),
  // then put at the original's name once the original is out of the way: a new file at a synced
  // file's place is a new version of it, as an editor's save through a temporary file is.
  const temp = `${CACHE_DIR}/keep-${randomBytes(4).toString('hex')}`;
  local.ensureFolder(CACHE_DIR);
  await copyOut(ctx, c.copy, copy, temp);
  const box = `${MOVING_DIR}/keep-${c.id}-${randomBytes(4).toString('hex')}`;
  const staged = `${box}/${nameOf(c.path)}`;
  // Made through its opened parent, as every folder the engine makes (no link followed).
  local.ensureFolder(box);
  try {
    try {
      // The original aside first (into our own folder, not the trash yet): put back if its
      // replacement cannot be placed.
      moveChecked(ctx, c.path, orig, staged);
    } catch (err) {
      unlinkTemp(ctx, temp);
      throw err;
    }
    try {
      // Nothing took the name meanwhile: a rename would replace it.
      if (local.confined.lstat(c.path)) throw swapped(c.path);
      local.confined.rename(temp, c.path);
    } catch (err) {
      unlinkTemp(ctx, temp);
      await putBack(ctx, staged, c.path);
      throw err;
    }
    await handToTrash(ctx, staged, orig, c.path);
  } finally {
    removeBox(ctx, box);
  }
  await toTrash(ctx, c.copy, copy);
}

/**
 * The copy's bytes into a new file `temp` of the engine's cache folder. The copy is opened once
 * without following a link, and only if the descriptor's facts are those just checked
 * (`Confined.openFile`): a link or another file swapped in meanwhile is never read.
 */
async function copyOut(ctx: AttentionContext, rel: string, seen: Stats, temp: string) {
  const { confined } = ctx.local;
  const src = confined.openFile(rel, seen);
  let dst: number;
  try {
    const dir = confined.dir(parentOf(temp));
    try {
      dst = openSync(confined.at(dir, nameOf(temp)), WRITE_NEW, seen.mode & 0o7777);
      if (!confined.holds(dir)) {
        closeSync(dst);
        unlinkSync(confined.at(dir, nameOf(temp)));
        throw swapped(temp);
      }
    } finally {
      confined.drop(dir);
    }
  } catch (err) {
    closeSync(src);
    throw err;
  }
  try {
    // Not the sync calls: a large copy would hold up every other pair of the engine host.
    await pipeline(
      createReadStream('', { fd: src, autoClose: false }),
      createWriteStream('', { fd: dst, autoClose: false }),
    );
  } catch (err) {
    unlinkTemp(ctx, temp);
    throw err;
  } finally {
    closeSync(src);
    closeSync(dst);
  }
}

/** A new file, never one there already, never through a link. */
const WRITE_NEW =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/** Removes the prepared file through its opened folder; what cannot be is left in the cache. */
function unlinkTemp(ctx: AttentionContext, temp: string): void {
  const { confined } = ctx.local;
  try {
    const dir = confined.dir(parentOf(temp));
    try {
      unlinkSync(confined.at(dir, nameOf(temp)));
    } finally {
      confined.drop(dir);
    }
  } catch {
    // Gone already, or its folder swapped: a file of the cache folder, harmless.
  }
}

/**
 * Moves the item at `rel` to `to` if it is still the one looked at (`seen`), looked at again
 * through its opened folder right before (no cache: the folder's path is checked to lead to it
 * now); the rename itself is undone if a folder's path no longer leads to it after.
 */
function moveChecked(ctx: AttentionContext, rel: string, seen: Stats, to: string): void {
  const now = ctx.local.confined.lstat(rel);
  if (!now || now.dev !== seen.dev || now.ino !== seen.ino) throw swapped(rel);
  ctx.local.confined.rename(rel, to);
}

/**
 * Puts an item set aside back at `rel`. A folder on the way swapped at that moment undoes the
 * rename; it is tried again at once a bounded number of times (a racing process holds the link
 * there only part of the time), since an original left in the trash would be sent as deleted.
 * If something took the name meanwhile, or the swaps go on, the item goes to the trash instead
 * of staying hidden in the holding place.
 */
async function putBack(ctx: AttentionContext, staged: string, rel: string): Promise<void> {
  const { confined } = ctx.local;
  for (let i = 0; i < PUT_BACK_TRIES; i++) {
    try {
      if (confined.lstat(rel)) break;
      confined.rename(staged, rel);
      return;
    } catch (err) {
      if (!(err instanceof SwapError)) throw err;
    }
  }
  await ctx.trash.put(ctx.local.abs(staged), rel);
}

const PUT_BACK_TRIES = 64;

/**
 * Hands an item set aside in the holding place to the trash, which takes a path (the system's
 * trash): looked at right before through the folders opened without following links, it must
 * be the item set aside, in the folder the holding place's path leads to now.
 */
async function handToTrash(ctx: AttentionContext, staged: string, seen: Stats, rel: string) {
  const now = ctx.local.confined.lstat(staged);
  if (!now || now.dev !== seen.dev || now.ino !== seen.ino) throw swapped(staged);
  await ctx.trash.put(ctx.local.abs(staged), rel);
}

function removeBox(ctx: AttentionContext, box: string): void {
  try {
    rmdirSync(ctx.local.abs(box));
  } catch {
    // Not empty (a put back failed too): what is in it stays, nothing is lost.
  }
}

/**
 * To the trash as the executor does it: first into a folder of its own in the holding place,
 * through the folders opened from the root (no link followed, undone after a swap), then handed
 * to the trash by path: the trash gets our own item, never one a swap put outside.
 */
async function toTrash(ctx: AttentionContext, rel: string, seen: Stats): Promise<void> {
  const { local } = ctx;
  const box = `${MOVING_DIR}/keep-${randomBytes(4).toString('hex')}`;
  const staged = `${box}/${nameOf(rel)}`;
  local.ensureFolder(box);
  try {
    moveChecked(ctx, rel, seen, staged);
    try {
      await handToTrash(ctx, staged, seen, rel);
    } catch (err) {
      await putBack(ctx, staged, rel);
      throw err;
    }
  } finally {
    removeBox(ctx, box);
  }
}

/**
 * Retry: the problem is forgotten with its refusal, and its item tried again now (a local path
 * by the next local pass; an item of the service by a walk, which retries what a role refused
 * and resumes cut downloads).
 */
export function retryProblem(ctx: AttentionContext, key: string): void {
  const p = ctx.status.forgetProblem(key);
  if (!p) throw new AttentionError('gone', { key: 'engine.problemOver' });
  if (p.path !== '') {
    ctx.refusals.clearPath(p.path);
    ctx.markDirty([parentOf(p.path)]);
  }
  if (p.remoteId !== null) ctx.requestWalk({ kind: 'problem-retried' });
}

export function dismissProblem(ctx: AttentionContext, key: string): void {
  if (!ctx.status.dismissProblem(key))
    throw new AttentionError('gone', { key: 'engine.problemOver' });
}
