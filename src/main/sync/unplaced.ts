import type { Journal } from '../journal/journal';

// What the down side could not place here, as the journal tells both sides (the engine's
// vocabulary: the down side looks for it when a folder moves up, the up side before a delete).
// A folder removed here is deleted on the service with everything in it there. What the down
// side could not place here (a path past PATH_MAX, a name the volume refuses) was never on this
// computer, so such a delete would lose it with no copy anywhere. As Nextcloud does ("Not
// allowed to remove, restoring"), the delete is not sent and the folder comes back. The down
// side tells the up side only through the journal: an item it could not place is a `local`
// problem with a remote id and no journal row (down/execute.ts, itemFailed).

/** The words key of the problem said on a folder whose delete was not sent. */
export const KEPT_WORDS_KEY = 'engine.keptUnplaced';

/** The local paths at which the down side could not place an item of the service. */
export function unplacedPaths(journal: Journal): string[] {
  return journal.problems
    .all()
    .filter(
      (p) =>
        p.reason === 'local' &&
        p.remoteId !== null &&
        p.words?.key !== KEPT_WORDS_KEY &&
        journal.items.get(p.remoteId) === undefined,
    )
    .map((p) => p.path);
}

/** Whether one of `paths` is below the folder at `folder`. */
export const holdsAny = (folder: string, paths: readonly string[]): boolean =>
  paths.some((p) => p.startsWith(folder + '/'));

/**
 * Whether a folder holds, on the service, a folder left out here (selective sync): that folder's
 * content is not on this computer either, and a delete of the folder holding it would take it
 * along (found by the soak, seed 20261130 history 506: a chain's bottom, below a folder left
 * out, lost with its parent deleted here). Looked up through the excluded folders' places.
 */
export function holdsExcluded(journal: Journal, folderId: number): boolean {
  for (const e of journal.selection.all()) {
    // Up from the excluded folder's parent; a cycle in a torn journal ends at the guard.
    let at = e.parentId;
    for (let guard = 0; at !== null && guard < 4096; guard++) {
      if (at === folderId) return true;
      at = journal.items.get(at)?.remoteParentId ?? null;
    }
  }
  return false;
}
