import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useApi } from '../context';
import { pickerKey } from '../roving';
import { strings } from '../strings';
import { ErrorMessage } from '../components/ErrorMessage';
import { Loading } from '../components/Loading';
import { DialogActions, ModalDialog } from '../components/ModalDialog';

/**
 * The folder picker of the browser window (the app uses the OS's dialog instead): a modal
 * <dialog> with the folders under the home folder that the backend lists. The list is one
 * listbox with an active option (aria-activedescendant): arrows move, Enter opens, Backspace
 * goes up; Choose takes the active folder, or the one shown when none is active.
 */
export function FolderPicker({
  startAt,
  onChoose,
  onClose,
}: {
  /** Where to open: a folder not made yet opens at its nearest existing parent. */
  startAt: string;
  onChoose: (dir: string) => void;
  onClose: () => void;
}) {
  const api = useApi();
  const list = useRef<HTMLUListElement>(null);
  const [at, setAt] = useState<{ dir: string; nearest: boolean }>({
    dir: startAt.trim() || '~',
    nearest: true,
  });
  const [active, setActive] = useState(-1);
  const ids = useId();
  const listing = useQuery({
    queryKey: ['local.listFolders', at.dir, at.nearest],
    queryFn: () => api.call('local.listFolders', { dir: at.dir, nearest: at.nearest }),
    retry: false,
    // The last folder stays in view (and focused) while the next one is read.
    placeholderData: keepPreviousData,
  });
  const data = listing.data;
  const folders = data?.folders ?? [];

  // A start outside home (or gone) opens at home instead of leaving the person stuck.
  useEffect(() => {
    if (listing.isError && at.dir !== '~') setAt({ dir: '~', nearest: true });
  }, [listing.isError, at.dir]);
  // The list has the focus once it is there (and after each move: the same element).
  const shownPath = data?.path;
  useEffect(() => {
    if (shownPath !== undefined) list.current?.focus();
  }, [shownPath]);
  useEffect(() => {
    if (active >= 0)
      document.getElementById(`${ids}-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [active, ids]);

  const open = (dir: string) => {
    setAt({ dir, nearest: false });
    setActive(-1);
  };
  const chosen = active >= 0 ? folders[active] : data ? { name: '', path: data.path } : undefined;
  const chosenName =
    active >= 0
      ? (folders[active]?.name ?? '')
      : data && data.crumbs.length > 1
        ? (data.crumbs[data.crumbs.length - 1]?.name ?? '')
        : strings.picker.home;

  const onKey = (e: KeyboardEvent<HTMLUListElement>) => {
    const parent = data?.parent;
    pickerKey(e, active, folders.length, {
      choose: setActive,
      open: (i) => open(folders[i]!.path),
      up: parent ? () => open(parent) : undefined,
    });
  };

  return (
    <ModalDialog title={strings.picker.title} className="picker" onCancel={onClose}>
      <div className="picker-bar">
        <button
          type="button"
          aria-label={strings.picker.upLabel}
          disabled={!data?.parent}
          onClick={() => data?.parent && open(data.parent)}
        >
          ↑ {strings.picker.up}
        </button>
        <nav aria-label={strings.picker.path} className="picker-crumbs">
          <ol>
            {data?.crumbs.map((c, i) => {
              const name = i === 0 ? strings.picker.home : c.name;
              const last = i === data.crumbs.length - 1;
              return (
                <li key={c.path}>
                  {last ? (
                    <span aria-current="location">{name}</span>
                  ) : (
                    <button type="button" className="link-button" onClick={() => open(c.path)}>
                      {name}
                    </button>
                  )}
                </li>
              );
            })}
          </ol>
        </nav>
      </div>
      {listing.isPending && <Loading />}
      {listing.isError && <ErrorMessage error={listing.error} />}
      {data && (
        <>
          <ul
            ref={list}
            className="picker-list"
            role="listbox"
            tabIndex={0}
            aria-label={strings.picker.folders(chosenNameOf(data))}
            aria-describedby={`${ids}-keys`}
            aria-activedescendant={active >= 0 ? `${ids}-${active}` : undefined}
            onKeyDown={onKey}
          >
            {folders.map((f, i) => (
              <li
                key={f.path}
                id={`${ids}-${i}`}
                role="option"
                aria-selected={i === active}
                onClick={() => setActive(i)}
                onDoubleClick={() => open(f.path)}
              >
                <FolderIcon />
                {f.name}
              </li>
            ))}
          </ul>
          {folders.length === 0 && <p className="empty">{strings.picker.none}</p>}
          {data.truncated && <p className="hint">{strings.picker.more}</p>}
        </>
      )}
      <p className="hint" id={`${ids}-keys`}>
        {strings.picker.keys}
      </p>
      <DialogActions
        onCancel={onClose}
        confirm={strings.picker.choose(chosenName)}
        disabled={!chosen}
        onConfirm={() => chosen && onChoose(chosen.path)}
      />
    </ModalDialog>
  );
}

/** The folder shown, as the list's name says it. */
function chosenNameOf(data: { crumbs: { name: string }[] }): string {
  return data.crumbs.length > 1
    ? (data.crumbs[data.crumbs.length - 1]?.name ?? '')
    : strings.picker.home;
}

/** A folder's outline, drawn (no emoji font is needed), for sighted people only. */
function FolderIcon() {
  return (
    <svg className="picker-icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
      <path
        d="M1.5 3.5h5l1.5 1.5h6.5v8h-13z"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.2"
        strokeLinejoin="round"
      />
    </svg>
  );
}
