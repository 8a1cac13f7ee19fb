// Selective sync: the folders of the workspace not synced on this computer. The selection is data
// in the journal (its `excluded` table, by remote folder id); the planners read it there (the walk
// neither stages nor lists such a folder, planItems gives nothing below one a place), and this
// module does the rest: it applies a folder newly left out to the disk, and tells the local pass
// which local paths are not its own (they are skipped like ignored names: never sent, and their
// absence never read as a delete).
import { lstatSync, readdirSync } from 'node:fs';
import { englishOf, type Words } from '../../../shared/i18n';
import { Journal, type ExcludedFolder, type JournalItem } from '../../journal/journal';
import type { LocalRoot } from '../local';
import { encodeName, foldName, type VolumeProfile } from '../names';
import { joinPath } from '../paths';
import { isOurPlaceholder, onlineItemAt } from '../placeholder';
import { askWalk, type LoopContext } from './context';
import { trashItem } from './trash-item';

// The problems this module reports (and clears, recognised by their English in the journal).
const KEPT_COPY = englishOf({ key: 'engine.keptUnchosen' });
const TAKEN_PLACE = englishOf({ key: 'engine.unchosenTaken' });
const said = (words: Words) => ({ message: englishOf(words), words });

/** A change of the selection: folders to leave out (with their place when known), to take back. */
export interface SelectionChange {
  exclude?: readonly { id: number; parentId?: number; name?: string }[];
  include?: readonly number[];
}

/**
 * Writes a change of the selection into the pair's journal (the CLI's `folders`, the window's
 * Choose folders, `sync --exclude`). A folder taken back comes down at the next pass, which is a
 * walk; a folder left out is applied by the engine before its next pass (`applySelection`).
 */
export function changeSelection(journal: Journal, change: SelectionChange): void {
  const before = journal.selection.ids();
  const include = (change.include ?? []).filter((id) => before.has(id));
  journal.transaction(() => {
    journal.selection.set(change.exclude ?? [], include);
    if (include.length > 0) askWalk(journal, { kind: 'chosen-again' });
  });
}

/** The local paths that are not synced: excluded folders' places and the copies kept of them. */
export class ExcludedPaths {
  static readonly none = new ExcludedPaths([], (p) => p);

  constructor(
    /** Folded by the volume's rules (journal.pathKey). */
    private readonly keys: readonly string[],
    private readonly fold: (p: string) => string,
  ) {}

  get size(): number {
    return this.keys.length;
  }

  /** Whether a local path is an excluded folder's, or below one. */
  covers(rel: string): boolean {
    if (this.keys.length === 0 || rel === '') return false;
    const key = this.fold(rel);
    return this.keys.some((k) => key === k || key.startsWith(k + '/'));
  }
}

/**
 * Where an excluded folder is here: its copy kept while it holds changes not sent (still recorded),
 * the copy kept when it was left out, and its place now.
 */
function placesOf(e: ExcludedFolder, ctx: LoopContext): string[] {
  const { journal } = ctx.opts;
  const places: string[] = [];
  const kept = journal.items.get(e.id);
  if (kept) places.push(kept.localPath);
  if (e.localPath !== null) places.push(e.localPath);
  if (e.parentId !== null && e.name !== null) {
    const parent = e.parentId === ctx.rootId ? '' : journal.items.get(e.parentId);
    // A parent not here (itself excluded, or not synced yet): its own place covers it.
    const parentPath = parent === '' ? '' : parent?.kind === 'folder' ? parent.localPath : null;
    if (parentPath !== null) places.push(joinPath(parentPath, encodeName(e.name, ctx.profile)));
  }
  return places;
}

/**
 * Applies the selection before a pass: each folder left out whose subtree is still recorded here
 * is forgotten by the journal and its local copy moved to the trash, unless something in it was
 * not sent (a new or changed file, a synced one gone from it: moved out, or deleted): then the
 * copy and its records stay as they are, frozen (the local pass skips the place, the remote pass
 * neither lists nor places anything of it), and a problem names it; it is tried again before the
 * next pass (a move out of it goes up meanwhile, matched by identity). Never a remote delete. Returns the paths the local pass must leave alone, and says
 * which of them hold something here (a kept copy, or a folder made where an excluded one is).
 * `baseIgnores` is the ignore rules without the selection.
 */
export async function applySelection(
  ctx: LoopContext,
  baseIgnores: (rel: string, isDir: boolean) => boolean,
): Promise<ExcludedPaths> {
  const { journal } = ctx.opts;
  for (const e of journal.selection.here()) {
    const j = journal.items.get(e.id);
    if (!j) continue;
    const unsent = j.kind === 'folder' ? await firstUnsent(ctx.local, journal, j, baseIgnores) : j;
    if (unsent !== null) {
      ctx.log.debug('a folder left out holds changes not sent: kept', {
        path: j.localPath,
        unsent: unsent.localPath,
      });
      continue;
    }
    // Forgotten first: from then on nothing below it is the journal's, so whatever happens to the
    // copy here (the trash, a crash before it) can never be read as a delete to send.
    journal.transaction(() => {
      journal.selection.setPath(e.id, j.localPath);
      journal.items.removeTree(j);
    });
    if (ctx.local.stat(j.localPath)) {
      try {
        await trashItem(ctx.local, ctx.opts.trash, j, 'excluded');
        ctx.log.info('left a folder out of sync: its copy here went to the trash', {
          path: j.localPath,
        });
      } catch (err) {
        ctx.log.warn('could not move an excluded folder to the trash', {
          path: j.localPath,
          error: String(err),
        });
      }
    }
  }
  const keys: string[] = [];
  const excluded = journal.selection.all();
  // A folder chosen again takes its problem along (its copy here is now the folder's).
  const ids = new Set(excluded.map((e) => e.id));
  for (const p of ctx.status.snapshot().problems) {
    const ours = p.message === KEPT_COPY || p.message === TAKEN_PLACE;
    if (ours && p.remoteId !== null && !ids.has(p.remoteId)) ctx.status.clearProblem(p.remoteId);
  }
  for (const e of excluded) {
    const places = placesOf(e, ctx);
    keys.push(...places.map((p) => journal.items.pathKey(p)));
    const here = places.find((p) => ctx.local.stat(p) !== undefined);
    if (here === undefined) ctx.status.clearProblem(e.id);
    else {
      ctx.status.addProblem({
        path: here,
        remoteId: e.id,
        reason: 'local',
        ...said(
          here === e.localPath || here === journal.items.get(e.id)?.localPath
            ? { key: 'engine.keptUnchosen' }
            : { key: 'engine.unchosenTaken' },
        ),
      });
    }
  }
  return new ExcludedPaths(keys, (p) => journal.items.pathKey(p));
}

/**
 * The first thing below a synced folder that the service does not have: a synced item gone from
 * it, an entry the journal does not know, or a file changed since it was synced (by identity,
 * else content). Null when everything here is as sent, which is when the copy may go to the trash.
 */
async function firstUnsent(
  local: LocalRoot,
  journal: Journal,
  folder: JournalItem,
  ignores: (rel: string, isDir: boolean) => boolean,
): Promise<{ localPath: string } | null> {
  // A synced item gone from it: a move out, or a delete, not sent yet.
  for (const j of journal.items.descendants(folder.localPath)) {
    if (j.state !== 'synced') continue; // Not here by design (a role that may not download).
    const st = local.stat(j.localPath);
    if (!st || st.isDirectory() !== (j.kind === 'folder')) return j;
  }
  const stack = [folder.localPath];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    let names: string[];
    try {
      names = readdirSync(local.abs(dir));
    } catch {
      continue; // Gone, or not a folder: nothing of it to keep.
    }
    for (const name of names) {
      const rel = `${dir}/${name}`;
      const st = lstatSync(local.abs(rel), { throwIfNoEntry: false });
      if (!st) continue;
      if (ignores(rel, st.isDirectory())) continue;
      const j = journal.items.atPath(rel);
      // A placeholder still as written holds nothing of the person's (files on demand).
      const online = j ? undefined : onlineItemAt(journal, rel);
      if (online && isOurPlaceholder(local, online, st)) continue;
      if (!j || j.state !== 'synced' || j.kind !== (st.isDirectory() ? 'folder' : 'file')) {
        return { localPath: rel };
      }
      if (st.isDirectory()) stack.push(rel);
      else if (!(await local.unchanged(j, st))) return { localPath: rel };
    }
  }
  return null;
}

/**
 * Opens the journal of a pair that this process does not run (the CLI's `folders`), to read and
 * change its selection: an engine running it elsewhere reads the change before its next pass.
 */
export function openPairJournal(file: string, profile: VolumeProfile): Journal {
  return new Journal(file, { fold: (p) => foldName(p, profile) });
}
