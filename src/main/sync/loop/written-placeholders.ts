// Content written into a placeholder (docs/SYNC.md, Files on demand): it is a person's data, not
// the file's new version (the placeholder never held the file). It is kept as a file of its own
// beside it, under a conflict copy's name of the real file, for the next local pass to upload as
// new; the placeholder is put back. Never the other way: a placeholder's text is never uploaded.
import { rmSync } from 'node:fs';
import type { JournalItem } from '../../journal/journal';
import type { LocalEntry } from '../detect-local/scan';
import { conflictName } from '../conflict-copy';
import { joinPath, parentOf } from '../paths';
import {
  isOurPlaceholder,
  isStalePlaceholder,
  placeholderCopyOf,
  placeholderOf,
  writePlaceholder,
} from '../placeholder';
import type { LoopContext } from './context';

/** Keeps what was written into placeholders; true when something was kept (a round follows). */
export function keepWrittenPlaceholders(ctx: LoopContext, written: readonly LocalEntry[]): boolean {
  let kept = false;
  for (const e of written) {
    try {
      kept = keepOne(ctx, e) || kept;
    } catch (err) {
      // One placeholder that cannot be handled stays as it is; the rest go on.
      ctx.log.warn('could not keep what was written into a placeholder', {
        path: e.path,
        error: String(err),
      });
    }
  }
  return kept;
}

/**
 * A file arrived at the place of an item online only (sent as its new version): its placeholder,
 * if still ours, goes; one written into stays, a file of its own.
 */
export function dropArrivedPlaceholders(ctx: LoopContext, items: readonly JournalItem[]): void {
  for (const j of items) {
    try {
      if (!isOurPlaceholder(ctx.local, j)) continue;
      ctx.local.assertContained(placeholderOf(j.localPath));
      rmSync(ctx.local.abs(placeholderOf(j.localPath)));
    } catch (err) {
      ctx.log.warn('could not remove a placeholder', { path: j.localPath, error: String(err) });
    }
  }
}

function keepOne(ctx: LoopContext, e: LocalEntry): boolean {
  const { local, status, state } = ctx;
  const { journal } = ctx.opts;
  const real = e.path.slice(0, -'.wsync'.length);
  const j = journal.items.atPath(real);
  if (j?.state !== 'online' || placeholderOf(j.localPath) !== e.path) return false;
  if (isOurPlaceholder(local, j)) {
    // Only touched: still our text; its new time noted so it is not read again.
    journal.items.upsert({ ...j, mtimeMs: e.mtimeMs, size: e.size });
    return false;
  }
  if (placeholderCopyOf(journal, local, e)) {
    // Another item's placeholder put here by hand (its size, time and text): it holds no data,
    // and a placeholder's text is never uploaded. This item's own placeholder is put back.
    putBack(ctx, j, real);
    return false;
  }
  const dir = parentOf(real);
  const name = real.slice(dir === '' ? 0 : dir.length + 1);
  const now = new Date();
  let copy = joinPath(dir, conflictName(name, false, now, 1, local.language));
  for (let n = 2; local.stat(copy); n++) {
    copy = joinPath(dir, conflictName(name, false, now, n, local.language));
  }
  local.assertContained(copy);
  local.confined.rename(e.path, copy);
  putBack(ctx, j, real);
  state.markDirty([dir]);
  const copyName = copy.slice(copy.lastIndexOf('/') + 1);
  status.note(real, { key: 'engine.placeholderWritten', params: { name, copy: copyName } }, copy);
  ctx.log.info('kept what was written into a placeholder', { path: e.path, keptAs: copy });
  return true;
}

/** Writes `j`'s placeholder at its place again (over what is there) and notes its facts. */
function putBack(ctx: LoopContext, j: JournalItem, real: string): void {
  const facts = { name: j.remoteName, size: j.remoteSize ?? 0, updatedAt: j.remoteUpdatedAt ?? '' };
  const back = writePlaceholder(ctx.local, real, facts, ctx.local.language);
  ctx.opts.journal.items.upsert({
    ...j,
    size: back.st.size,
    mtimeMs: back.st.mtimeMs,
    hash: back.hash,
  });
}

/**
 * Placeholders whose item is gone there (deleted while the placeholder was moved here): only our
 * text, no data of anyone's, so they go as a remote delete takes a placeholder (no trash), looked
 * at again first (written into meanwhile, it is a file like any other: sent next pass).
 */
export function dropStalePlaceholders(ctx: LoopContext, stale: readonly LocalEntry[]): void {
  for (const e of stale) {
    try {
      if (!isStalePlaceholder(ctx.local, e)) continue;
      ctx.local.assertContained(e.path);
      rmSync(ctx.local.abs(e.path));
      ctx.log.info('removed a placeholder whose file is gone there', { path: e.path });
    } catch (err) {
      ctx.log.warn('could not remove a placeholder', { path: e.path, error: String(err) });
    }
  }
}
