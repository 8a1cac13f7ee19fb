import { useCallback, useMemo, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Entry } from '../../shared/app-api';
import { useAccount, useApi } from '../context';
import { DeleteDialog, MoveDialog, NameDialog } from './EditDialogs';
import { editStrings } from './edit-strings';
import { removeReason, rightsOf, type EditRights } from './edit-rights';
import { useEdit, type Upload } from './use-edit';
import { droppedTree } from './dropped-tree';
import { usePairs } from './pairs';

// Browse as a file manager (issue 42): the marked items (Ctrl/Shift click, Ctrl+Space,
// Shift+arrows), the toolbar's Upload and New folder, the bar of what is marked (Move to…,
// Delete…), the dialogs, drops from the computer and drags onto a folder. BrowseView holds one of
// these per folder shown; the rows get `RowEdit`, the item menu `menuEdit`.

/** The drag of items within Browse (a move); the computer's files come as 'Files'. */
export const ITEMS_TYPE = 'application/x-workspace-sync-items';

type Item = { kind: Entry['kind']; id: number; name: string; mine?: boolean };
const itemOf = (e: Entry): Item => ({
  kind: e.kind,
  id: e.id,
  name: e.name,
  ...(e.mine === undefined ? {} : { mine: e.mine }),
});
const keyOf = (i: { kind: string; id: number }) => `${i.kind}:${i.id}`;

/** What the rows are given: the marks, F2 and Delete, and drags and drops. */
export interface RowEdit {
  isMarked: (item: Entry) => boolean;
  /** `toggle` one; `range` from the last one toggled (or `from`) to `index`. */
  onMark: (
    how: 'toggle' | 'range',
    index: number,
    entry: (i: number) => Entry | undefined,
    from?: number,
  ) => void;
  onCommand: (command: 'rename' | 'delete', item: Entry) => void;
  /** Rows may be dragged onto a folder (a move): the role allows it. */
  canDrag: boolean;
  /** Whether a drag over a folder carries what the role lets it take (items, or files). */
  takes: (e: DragEvent) => boolean;
  /** The items a drag of `item` carries: the marked ones when it is one of them. */
  dragged: (item: Entry) => Item[];
  onDrop: (folder: Entry, e: DragEvent) => void;
}

type Dialog =
  | { kind: 'new' }
  | { kind: 'rename'; item: Item }
  | { kind: 'move'; items: Item[] }
  | { kind: 'delete'; items: Item[] };

/** Whether a drag carries something Browse takes: items of its own, or the computer's files. */
export const takesDrop = (e: DragEvent, rights: EditRights) =>
  (e.dataTransfer.types.includes(ITEMS_TYPE) && rights.change === null) ||
  (e.dataTransfer.types.includes('Files') && rights.create === null);

export function useBrowseEdit({
  workspaceId,
  workspaceName,
  rootFolderId,
  folderId,
  folderName,
  offline,
}: {
  workspaceId: number;
  workspaceName: string;
  rootFolderId: number;
  folderId: number;
  folderName: string;
  offline: boolean;
}) {
  const api = useApi();
  const account = useAccount();
  const s = editStrings();
  const edit = useEdit(workspaceId);
  const role = useQuery({
    queryKey: ['activity.role', account.id, workspaceId],
    queryFn: () => api.call('activity.role', { accountId: account.id, workspaceId }),
    enabled: !offline && workspaceId > 0,
  });
  const rights = rightsOf(role.data?.role, offline);
  // Synced on this computer: a delete's copies go to the sync's trash here (the dialog says so).
  const synced = (usePairs().data ?? []).some(
    (p) => p.accountId === account.id && p.workspaceId === workspaceId,
  );
  const [marks, setMarks] = useState<Map<string, Item>>(new Map());
  const anchor = useRef<number | null>(null);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const files = useRef<HTMLInputElement>(null);
  const [dropping, setDropping] = useState(false);
  const back = useRef<HTMLElement | null>(null);

  const open = (d: Dialog) => {
    back.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    edit.clear();
    setDialog(d);
  };
  const close = () => {
    setDialog(null);
    back.current?.focus();
  };
  const clearMarks = useCallback(() => {
    setMarks(new Map());
    anchor.current = null;
  }, []);
  const marked = [...marks.values()];
  /** What an action on `item` acts on: the marked items when it is one of them. */
  const targets = useCallback(
    (item: Item): Item[] => (marks.has(keyOf(item)) ? [...marks.values()] : [item]),
    [marks],
  );

  const upload = (to: number, chosen: readonly Upload[]) => {
    if (chosen.length > 0) void edit.upload(to, chosen);
  };
  /** What a drop brings: files, and folders with everything in them. */
  const uploadDropped = (to: number, data: DataTransfer) => {
    const entries = [...data.items]
      .map((i) => i.webkitGetAsEntry?.())
      .filter((e): e is FileSystemEntry => e != null);
    // Read now: a drop's items are gone once its handler returns.
    if (entries.some((e) => e.isDirectory))
      void droppedTree(entries).then((found) => upload(to, found));
    else
      upload(
        to,
        [...data.files].map((file) => ({ file, dirs: [] })),
      );
  };
  /** A folder chosen with the picker: each file's place below it (`webkitRelativePath`). */
  const uploadChosen = (to: number, list: FileList) =>
    upload(
      to,
      [...list].map((file) => ({
        file,
        dirs: (file.webkitRelativePath || file.name).split('/').slice(0, -1),
      })),
    );

  const rows: RowEdit = useMemo(
    () => ({
      isMarked: (item) => marks.has(keyOf(item)),
      onMark: (how, index, entry, from) => {
        const next = new Map(marks);
        if (how === 'toggle') {
          const item = entry(index);
          if (!item) return;
          if (next.has(keyOf(item))) next.delete(keyOf(item));
          else next.set(keyOf(item), itemOf(item));
          anchor.current = index;
        } else {
          const start = anchor.current ?? from ?? index;
          anchor.current = start;
          next.clear();
          for (let i = Math.min(start, index); i <= Math.max(start, index); i++) {
            const e = entry(i);
            if (e) next.set(keyOf(e), itemOf(e));
          }
        }
        setMarks(next);
      },
      onCommand: (command, item) => {
        const it = itemOf(item);
        if (command === 'rename' && rights.change === null) open({ kind: 'rename', item: it });
        if (command === 'delete' && removeReason(rights, targets(it)) === null)
          open({ kind: 'delete', items: targets(it) });
      },
      canDrag: rights.change === null,
      takes: (e) => takesDrop(e, rights),
      dragged: (item) => targets(itemOf(item)),
      onDrop: (folder, e) => {
        const moved = e.dataTransfer.getData(ITEMS_TYPE);
        if (moved && rights.change === null) {
          const items = (JSON.parse(moved) as Item[]).filter(
            (i) => !(i.kind === 'folder' && i.id === folder.id),
          );
          if (items.length > 0) void edit.move(items, folder).then((ok) => ok && clearMarks());
        } else if (e.dataTransfer.files.length > 0 && rights.create === null) {
          uploadDropped(folder.id, e.dataTransfer);
        }
      },
    }),
    [marks, rights.change, rights.create, rights.remove, rights.removeOwn, targets],
  );

  /** The item menu's file operations for one item (each disabled with its reason). */
  const menuEdit = (item: Item) => ({
    rename: { reason: rights.change, run: () => open({ kind: 'rename', item }) },
    move: { reason: rights.change, run: () => open({ kind: 'move', items: targets(item) }) },
    remove: {
      reason: removeReason(rights, targets(item)),
      run: () => open({ kind: 'delete', items: targets(item) }),
    },
  });

  const button = (label: string, reason: string | null, onClick: () => void, extra = {}) => (
    <button
      type="button"
      aria-disabled={reason !== null || edit.busy || undefined}
      // The reason in words, for the pointer (title) and assistive technology (description).
      title={reason ?? undefined}
      aria-description={reason ?? undefined}
      onClick={() => reason === null && !edit.busy && onClick()}
      {...extra}
    >
      {label}
    </button>
  );

  const tools: ReactNode = (
    <div className="edit-tools">
      {button(s.upload, rights.create, () => files.current?.click(), {
        'aria-describedby': 'edit-upload-hint',
      })}
      {button(s.uploadFolder, rights.create, () =>
        document.querySelector<HTMLInputElement>('[data-testid="upload-folder-input"]')?.click(),
      )}
      {button(s.newFolder, rights.create, () => open({ kind: 'new' }))}
      <span id="edit-upload-hint" className="visually-hidden">
        {s.uploadHint}
      </span>
      <input
        ref={files}
        type="file"
        multiple
        hidden
        aria-hidden="true"
        tabIndex={-1}
        data-testid="upload-input"
        onChange={(e) => {
          if (e.target.files) uploadChosen(folderId, e.target.files);
          e.target.value = '';
        }}
      />
      <input
        ref={(input) => input?.setAttribute('webkitdirectory', '')}
        type="file"
        hidden
        aria-hidden="true"
        tabIndex={-1}
        data-testid="upload-folder-input"
        onChange={(e) => {
          if (e.target.files) uploadChosen(folderId, e.target.files);
          e.target.value = '';
        }}
      />
    </div>
  );

  const selection: ReactNode =
    marked.length > 0 ? (
      <div className="selection-bar" role="group" aria-label={s.selected(marked.length)}>
        <span>{s.selected(marked.length)}</span>
        {button(s.moveTo, rights.change, () => open({ kind: 'move', items: marked }))}
        {button(s.delete, removeReason(rights, marked), () =>
          open({ kind: 'delete', items: marked }),
        )}
        <button type="button" className="link-button" onClick={clearMarks}>
          {s.clearSelection}
        </button>
      </div>
    ) : null;

  const status: ReactNode = (
    <>
      <p role="status" aria-live="polite" className="edit-status">
        {edit.progressText ?? edit.said.done?.()}
      </p>
      {edit.progress && (
        <progress
          className="edit-progress"
          aria-label={edit.progressText ?? undefined}
          max={Math.max(1, edit.progress.size)}
          value={edit.progress.sent}
        />
      )}
      {edit.said.failed.length > 0 && (
        <div className="error" role="alert">
          <strong>{s.failed}: </strong>
          {edit.said.failed.length === 1 ? (
            <span>{edit.said.failed[0]?.()}</span>
          ) : (
            <ul>
              {edit.said.failed.map((line, i) => (
                <li key={i}>{line()}</li>
              ))}
            </ul>
          )}
        </div>
      )}
    </>
  );

  const dialogs: ReactNode = dialog && (
    <>
      {dialog.kind === 'new' && (
        <NameDialog
          title={s.newFolderTitle(folderName)}
          label={s.folderName}
          confirm={s.create}
          onCancel={close}
          onDone={(name) => {
            close();
            void edit.newFolder(folderId, name);
          }}
        />
      )}
      {dialog.kind === 'rename' && (
        <NameDialog
          title={s.renameTitle(dialog.item.name)}
          label={s.newName}
          confirm={s.renameAction}
          initial={dialog.item.name}
          onCancel={close}
          onDone={(name) => {
            close();
            if (name !== dialog.item.name) void edit.rename(dialog.item, name);
          }}
        />
      )}
      {dialog.kind === 'move' && (
        <MoveDialog
          workspaceId={workspaceId}
          workspaceName={workspaceName}
          rootFolderId={rootFolderId}
          items={dialog.items}
          onCancel={close}
          onChoose={(to) => {
            close();
            void edit.move(dialog.items, to).then((ok) => ok && clearMarks());
          }}
        />
      )}
      {dialog.kind === 'delete' && (
        <DeleteDialog
          items={dialog.items}
          synced={synced}
          onCancel={close}
          onConfirm={() => {
            close();
            void edit.remove(dialog.items).then((ok) => ok && clearMarks());
          }}
        />
      )}
    </>
  );

  /** The list's area takes the computer's files: uploaded into the folder shown. */
  const dropArea = {
    onDragOver: (e: DragEvent) => {
      if (!e.dataTransfer.types.includes('Files') || rights.create !== null) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
      setDropping(true);
    },
    onDragLeave: (e: DragEvent) => {
      if (!(e.relatedTarget instanceof Node && e.currentTarget.contains(e.relatedTarget)))
        setDropping(false);
    },
    onDrop: (e: DragEvent) => {
      setDropping(false);
      if (!e.dataTransfer.types.includes('Files') || rights.create !== null) return;
      e.preventDefault();
      uploadDropped(folderId, e.dataTransfer);
    },
  };
  const dropHint: ReactNode = dropping && (
    <p className="drop-hint" aria-hidden="true">
      {s.dropHere(folderName)}
    </p>
  );

  return {
    rights,
    rows,
    menuEdit,
    tools,
    selection,
    status,
    dialogs,
    dropArea,
    dropHint,
    clearMarks,
    keysHint: s.selectHint,
  };
}
