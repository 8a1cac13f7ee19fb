import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useAccount, useApi } from '../context';
import { ErrorMessage } from '../components/ErrorMessage';
import { Loading } from '../components/Loading';
import { DialogActions, ModalDialog } from '../components/ModalDialog';
import { editStrings } from './edit-strings';

// The dialogs of Browse's file operations (issue 42): a name (new folder, rename), the
// confirmation of a delete that says what the service does with it, and the workspace's folders
// to move into. Each is a ModalDialog: Escape cancels, focus comes back to where it was.

/** A name to type: checked here for what the service would change (it replaces / and \). */
export function NameDialog({
  title,
  label,
  confirm,
  initial = '',
  onCancel,
  onDone,
}: {
  title: string;
  label: string;
  confirm: string;
  initial?: string;
  onCancel: () => void;
  onDone: (name: string) => void;
}) {
  const s = editStrings();
  const [name, setName] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const field = useRef<HTMLInputElement>(null);
  const ids = useId();
  useEffect(() => {
    const input = field.current;
    if (!input) return;
    input.focus();
    // The name without its extension selected, as file managers do on rename.
    const dot = initial.lastIndexOf('.');
    input.setSelectionRange(0, dot > 0 ? dot : initial.length);
  }, [initial]);
  return (
    <ModalDialog
      title={title}
      className="name-dialog"
      onCancel={onCancel}
      onSubmit={(e) => {
        e.preventDefault();
        const trimmed = name.trim();
        const wrong = !trimmed ? s.nameEmpty : /[/\\]/.test(trimmed) ? s.nameSlash : null;
        setProblem(wrong);
        if (!wrong) onDone(trimmed);
      }}
    >
      <div className="field">
        <label htmlFor={`${ids}-name`}>{label}</label>
        <input
          ref={field}
          id={`${ids}-name`}
          value={name}
          maxLength={255}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${ids}-problem` : undefined}
          onChange={(e) => setName(e.target.value)}
        />
        {problem && (
          <p id={`${ids}-problem`} className="field-error" role="alert">
            {problem}
          </p>
        )}
      </div>
      <DialogActions onCancel={onCancel} confirm={confirm} />
    </ModalDialog>
  );
}

/** Asks before a delete, saying what the service does with it and what happens here. */
export function DeleteDialog({
  items,
  synced,
  onCancel,
  onConfirm,
}: {
  items: { name: string }[];
  /** The workspace is synced on this computer: its copies go to the sync's trash. */
  synced: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const s = editStrings();
  const ids = useId();
  const n = items.length;
  return (
    <ModalDialog
      title={s.deleteTitle(n, items[0]?.name ?? '')}
      describedBy={`${ids}-says`}
      className="delete-dialog"
      onCancel={onCancel}
    >
      <div id={`${ids}-says`}>
        <p>{s.deleteSays(n)}</p>
        {synced && <p>{s.deleteSynced}</p>}
      </div>
      {n > 1 && (
        <ul className="delete-names">
          {items.slice(0, 8).map((i, at) => (
            <li key={at}>{i.name}</li>
          ))}
          {n > 8 && <li>…</li>}
        </ul>
      )}
      <DialogActions
        onCancel={onCancel}
        cancelFocused
        danger
        confirm={s.deleteAction}
        onConfirm={onConfirm}
      />
    </ModalDialog>
  );
}

interface Crumb {
  id: number;
  name: string;
}

/**
 * The workspace's folders, one level at a time from its root (`selection.folders`): a listbox
 * with an active option (arrows move, Enter opens, Backspace goes up); Move takes the active
 * folder, or the one shown when none is. The folders being moved are not offered (a folder
 * cannot go inside itself).
 */
export function MoveDialog({
  workspaceId,
  workspaceName,
  rootFolderId,
  items,
  onCancel,
  onChoose,
}: {
  workspaceId: number;
  workspaceName: string;
  rootFolderId: number;
  items: { kind: string; id: number; name: string }[];
  onCancel: () => void;
  onChoose: (to: { id: number; name: string }) => void;
}) {
  const s = editStrings();
  const api = useApi();
  const account = useAccount();
  const ids = useId();
  const list = useRef<HTMLUListElement>(null);
  const [trail, setTrail] = useState<Crumb[]>([{ id: rootFolderId, name: workspaceName }]);
  const [active, setActive] = useState(-1);
  const here = trail[trail.length - 1]!;
  const listing = useQuery({
    queryKey: ['selection.folders', account.id, workspaceId, here.id],
    queryFn: () =>
      api.call('selection.folders', {
        accountId: account.id,
        workspaceId,
        folderId: here.id,
      }),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const moving = new Set(items.filter((i) => i.kind === 'folder').map((i) => i.id));
  const folders = (listing.data?.items ?? []).filter((f) => !moving.has(f.id));
  useEffect(() => {
    if (listing.data) list.current?.focus();
  }, [listing.data]);

  const open = (f: Crumb) => {
    setTrail((t) => [...t, f]);
    setActive(-1);
  };
  const up = () => {
    if (trail.length < 2) return;
    setTrail((t) => t.slice(0, -1));
    setActive(-1);
  };
  const chosen = active >= 0 ? folders[active] : here;
  const chosenId = chosen?.id ?? null;

  const onKey = (e: KeyboardEvent<HTMLUListElement>) => {
    const last = folders.length - 1;
    const move = (i: number) => {
      e.preventDefault();
      if (last >= 0) setActive(Math.max(0, Math.min(last, i)));
    };
    switch (e.key) {
      case 'ArrowDown':
        return move(active + 1);
      case 'ArrowUp':
        return move(active <= 0 ? 0 : active - 1);
      case 'Home':
        return move(0);
      case 'End':
        return move(last);
      case 'Enter': {
        const f = folders[active];
        if (f) {
          e.preventDefault();
          open(f);
        }
        return;
      }
      case 'Backspace':
        if (trail.length > 1) {
          e.preventDefault();
          up();
        }
        return;
    }
  };

  const parent = trail[trail.length - 2];
  return (
    <ModalDialog
      title={s.moveTitle(items.length, items[0]?.name ?? '')}
      className="picker move-dialog"
      onCancel={onCancel}
    >
      <div className="picker-bar">
        <button
          type="button"
          aria-label={s.moveUp(parent?.name ?? workspaceName)}
          disabled={!parent}
          onClick={up}
        >
          ↑
        </button>
        <span className="picker-crumbs" aria-hidden="true">
          {trail.map((c) => c.name).join(' › ')}
        </span>
      </div>
      {listing.isPending && <Loading />}
      {listing.isError && <ErrorMessage error={listing.error} />}
      {listing.data && (
        <ul
          ref={list}
          className="picker-list"
          role="listbox"
          tabIndex={0}
          aria-label={s.moveFolders(here.name)}
          aria-describedby={`${ids}-keys`}
          aria-activedescendant={active >= 0 ? `${ids}-${active}` : undefined}
          onKeyDown={onKey}
        >
          {folders.map((f, i) => (
            <li
              key={f.id}
              id={`${ids}-${i}`}
              role="option"
              aria-selected={i === active}
              onClick={() => setActive(i)}
              onDoubleClick={() => open(f)}
            >
              {f.name}
            </li>
          ))}
        </ul>
      )}
      <p className="hint" id={`${ids}-keys`}>
        {s.moveKeys}
      </p>
      <DialogActions
        onCancel={onCancel}
        confirm={s.moveHere(chosen?.name ?? here.name)}
        disabled={chosenId === null}
        onConfirm={() =>
          chosenId !== null && onChoose({ id: chosenId, name: chosen?.name ?? here.name })
        }
      />
    </ModalDialog>
  );
}
