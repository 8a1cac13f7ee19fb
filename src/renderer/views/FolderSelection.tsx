import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ExcludedFolder, FolderChoice } from '../../shared/app-api';
import { useApi } from '../context';
import { strings } from '../strings';
import { ErrorMessage } from '../components/ErrorMessage';
import { Loading } from '../components/Loading';

export interface FolderSelectionProps {
  accountId: string;
  workspaceId: number;
  /** The folders not synced on this computer (a folder's subtree goes with it). */
  value: readonly ExcludedFolder[];
  onChange: (next: ExcludedFolder[]) => void;
}

/**
 * Selective sync's choice: the workspace's folders as checkboxes (ticked: synced here), each
 * folder's own folders listed when asked (one request per folder opened). Unticking a folder
 * leaves out everything below it, so what is below shows unticked and cannot be changed. Used by
 * the pair card's Choose folders dialog, and made to be dropped into the setup form as it is.
 */
export function FolderSelection(props: FolderSelectionProps) {
  const legendId = useId();
  const topIds = useTopIds(props);
  // Excluded folders deeper than the top level: shown apart, so none is hidden in a closed folder.
  const deeper = props.value.filter((e) => e.parentId !== null && !topIds.has(e.id));
  return (
    <fieldset className="folder-selection" aria-labelledby={legendId}>
      <legend id={legendId}>{strings.selection.legend}</legend>
      <FolderList {...props} folderId={null} path="" excludedAbove={false} />
      {deeper.length > 0 && (
        <>
          <p className="muted">{strings.selection.deeper}</p>
          <ul className="folder-tree">
            {deeper.map((e) => (
              <li key={e.id}>
                <label>
                  <input
                    type="checkbox"
                    checked={false}
                    onChange={() => props.onChange(props.value.filter((x) => x.id !== e.id))}
                  />
                  <span className="path">{e.path}</span>
                </label>
              </li>
            ))}
          </ul>
        </>
      )}
    </fieldset>
  );
}

function useFolders(p: FolderSelectionProps, folderId: number | null) {
  const api = useApi();
  return useQuery({
    queryKey: ['selection.folders', p.accountId, p.workspaceId, folderId],
    queryFn: () =>
      api.call('selection.folders', {
        accountId: p.accountId,
        workspaceId: p.workspaceId,
        ...(folderId === null ? {} : { folderId }),
      }),
  });
}

function useTopIds(p: FolderSelectionProps): Set<number> {
  const top = useFolders(p, null);
  return new Set((top.data?.items ?? []).map((f) => f.id));
}

function FolderList(
  props: FolderSelectionProps & { folderId: number | null; path: string; excludedAbove: boolean },
) {
  const folders = useFolders(props, props.folderId);
  if (folders.isPending) return <Loading />;
  if (folders.isError)
    return <ErrorMessage error={folders.error} onRetry={() => void folders.refetch()} />;
  const { items, cut } = folders.data;
  if (items.length === 0 && !cut) {
    return props.folderId === null ? <p className="muted">{strings.selection.none}</p> : null;
  }
  return (
    <>
      <ul className="folder-tree">
        {items.map((f) => (
          <FolderRow key={f.id} {...props} folder={f} />
        ))}
      </ul>
      {cut && <p className="muted">{strings.listCut(items.length)}</p>}
    </>
  );
}

function FolderRow(
  props: FolderSelectionProps & { folder: FolderChoice; path: string; excludedAbove: boolean },
) {
  const { folder, value, onChange, excludedAbove } = props;
  const [open, setOpen] = useState(false);
  const listId = useId();
  const path = props.path === '' ? folder.name : `${props.path}/${folder.name}`;
  const excludedHere = value.some((e) => e.id === folder.id);
  const toggle = () => {
    if (excludedHere) onChange(value.filter((e) => e.id !== folder.id));
    else {
      // Left out with its subtree: exclusions below it are implied by it now.
      const below = (e: ExcludedFolder) => e.path.startsWith(path + '/');
      onChange([
        ...value.filter((e) => !below(e)),
        { id: folder.id, path, parentId: folder.parentId },
      ]);
    }
  };
  return (
    <li>
      <div className="choice-row">
        <button
          type="button"
          className="disclosure"
          aria-expanded={open}
          aria-controls={open ? listId : undefined}
          aria-label={open ? strings.selection.collapse(path) : strings.selection.expand(path)}
          onClick={() => setOpen(!open)}
        >
          {open ? '▾' : '▸'}
        </button>
        <label>
          <input
            type="checkbox"
            checked={!excludedHere && !excludedAbove}
            disabled={excludedAbove}
            onChange={toggle}
          />
          {folder.name}
        </label>
      </div>
      {open && (
        <div id={listId}>
          <FolderList
            {...props}
            folderId={folder.id}
            path={path}
            excludedAbove={excludedAbove || excludedHere}
          />
        </div>
      )}
    </li>
  );
}
