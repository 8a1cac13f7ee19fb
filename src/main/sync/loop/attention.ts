import { randomBytes } from 'node:crypto';
import { constants, mkdirSync, renameSync, unlinkSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import type { Journal } from '../../journal/journal';
import type { StoredConflict } from '../../journal/attention';
import { AttentionError } from '../errors';
import type { LocalRoot } from '../local';
import { CACHE_DIR, parentOf } from '../paths';
import type { Trash } from '../ports';
import type { Refusals } from '../up/refusals';
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
  requestWalk(reason: string): void;
}

const nameOf = (rel: string) => rel.slice(rel.lastIndexOf('/') + 1);

/**
 * Settles a conflict as the person chose. The files are moved *here, in the sync root*, as the
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
export async function settleConflict(
  ctx: AttentionContext,
  id: number,
  keep: KeepChoice,
): Promise<void> {
  const { status, local } = ctx;
  const c = status.attention.conflict(id);
  if (!c) throw new AttentionError('gone', 'This conflict is settled already.');
  if (keep === 'both') {
    status.attention.removeConflict(id);
    status.conflictsChanged();
    return;
  }
  checkCopy(ctx, c);
  if (keep === 'mine') await keepMine(ctx, c);
  else await ctx.trash.put(local.abs(c.copy), c.copy);
  ctx.markDirty([parentOf(c.copy), parentOf(c.path)]);
  // The copy is gone from its path: the entry is over now, not only after the next pass.
  status.checkConflicts();
}

/** The copy is still the one the conflict left (else the person chose without seeing it). */
function checkCopy(ctx: AttentionContext, c: StoredConflict): void {
  const st = ctx.local.stat(c.copy);
  if (!st) {
    ctx.status.checkConflicts();
    throw new AttentionError('gone', `${nameOf(c.copy)} is no longer there: nothing to settle.`);
  }
  if (c.copyFacts !== '' && factsOf(st) !== c.copyFacts) {
    throw new AttentionError(
      'stale',
      `${nameOf(c.copy)} changed since the conflict: look at it again, then choose.`,
    );
  }
}

async function keepMine(ctx: AttentionContext, c: StoredConflict): Promise<void> {
  const { local, journal } = ctx;
  const copy = local.stat(c.copy)!;
  const orig = local.stat(c.path);
  if (!orig) {
    ctx.status.checkConflicts();
    throw new AttentionError('gone', `${nameOf(c.path)} is no longer there: nothing to settle.`);
  }
  if (!copy.isFile() || !orig.isFile()) {
    throw new AttentionError(
      'invalid',
      'Keep mine works on files: for a folder, move what you want to keep into it by hand.',
    );
  }
  // The original must be the service's version as synced: a change made to it since is work
  // the person has not seen in this choice.
  const j = journal.atPath(c.path);
  const synced =
    j?.kind === 'file' && j.ino === orig.ino && j.size === orig.size && j.mtimeMs === orig.mtimeMs;
  if (!synced) {
    throw new AttentionError(
      'stale',
      `${nameOf(c.path)} changed since the conflict: look at it again, then choose.`,
    );
  }
  // The copy's bytes are made ready in the engine's own folder (same volume, never scanned),
  // then put at the original's name once the original is in the trash: a new file at a synced
  // file's place is a new version of it, as an editor's save through a temporary file is.
  const temp = `${CACHE_DIR}/keep-${randomBytes(4).toString('hex')}`;
  mkdirSync(local.abs(CACHE_DIR), { recursive: true });
  local.assertContained(c.path);
  // Not the sync call: a large copy would hold up every other pair of the engine host.
  await copyFile(local.abs(c.copy), local.abs(temp), constants.COPYFILE_EXCL);
  try {
    await ctx.trash.put(local.abs(c.path), c.path);
  } catch (err) {
    unlinkSync(local.abs(temp));
    throw err;
  }
  renameSync(local.abs(temp), local.abs(c.path));
  await ctx.trash.put(local.abs(c.copy), c.copy);
}

/**
 * Retry: the problem is forgotten with its refusal, and its item tried again now (a local path
 * by the next local pass; an item of the service by a walk, which retries what a role refused
 * and resumes cut downloads).
 */
export function retryProblem(ctx: AttentionContext, key: string): void {
  const p = ctx.status.forgetProblem(key);
  if (!p) throw new AttentionError('gone', 'This problem is over already.');
  if (p.path !== '') {
    ctx.refusals.clearPath(p.path);
    ctx.markDirty([parentOf(p.path)]);
  }
  if (p.remoteId !== null) ctx.requestWalk('a problem was retried');
}

export function dismissProblem(ctx: AttentionContext, key: string): void {
  if (!ctx.status.dismissProblem(key))
    throw new AttentionError('gone', 'This problem is over already.');
}
