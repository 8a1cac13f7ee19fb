import type { RowMark } from '../../shared/app-api';
import type { SyncEngine } from '../engine';

// Browse's state badges beside files on demand's (issue 42): what the live journal of a pair
// says of a folder's rows besides where they are on this device: a problem, a download under
// way, a folder left out here (selective sync), and whether the folder shown is synced here at
// all (an item of a synced folder that the journal does not hold yet is on its way).

type Journal = SyncEngine['opts']['journal'];

const parentOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

export interface FolderStates {
  marks: RowMark[];
  excluded: number[];
  here: 'synced' | 'excluded' | 'unknown';
}

export function folderStates(
  journal: Journal,
  folderId: number,
  above: readonly number[],
): FolderStates {
  const excluded = [...journal.selection.ids()];
  if ([folderId, ...above].some((id) => excluded.includes(id)))
    return { marks: [], excluded, here: 'excluded' };
  const root = Number(journal.meta.get('root_folder_id'));
  const folder = journal.items.get(folderId);
  if (folderId !== root && folder === undefined) return { marks: [], excluded, here: 'unknown' };
  const path = folder?.localPath ?? '';
  const marks: RowMark[] = [];
  const children = journal.items.children(folderId);
  for (const c of children)
    if (c.kind === 'file' && journal.downloads.get(c.remoteId))
      marks.push({ kind: 'file', id: c.remoteId, mark: 'syncing' });
  // A problem names its item by service id where it has one (a kind it does not keep), else by
  // path: an item recorded here at that path.
  const byPath = new Map(children.map((c) => [c.localPath, c]));
  for (const p of journal.problems.all()) {
    if (parentOf(p.path) !== path) continue;
    const known = p.remoteId === null ? byPath.get(p.path) : undefined;
    if (p.remoteId !== null) marks.push({ kind: null, id: p.remoteId, mark: 'problem' });
    else if (known) marks.push({ kind: known.kind, id: known.remoteId, mark: 'problem' });
  }
  return { marks, excluded, here: 'synced' };
}
