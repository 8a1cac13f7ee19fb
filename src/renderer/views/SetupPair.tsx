import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  AppCallError,
  type Account,
  type ExcludedFolder,
  type SyncPair,
} from '../../shared/app-api';
import { useAccount, useApi } from '../context';
import { strings } from '../strings';
import { ErrorMessage } from '../components/ErrorMessage';
import { Loading } from '../components/Loading';
import { FolderPicker } from './FolderPicker';
import { FolderSelection } from './FolderSelection';
import { safeFolderName } from './folder-name';
import { usePairs } from './pairs';

const s = strings.setup;

/** A first sync that would upload what the folder holds: the question, and what to add after. */
interface Ask {
  workspaceId: number;
  workspace: string;
  dir: string;
  uploads: { count: number; more: boolean };
}

/** The server part of an account id (`server#email`, accounts.ts): pairs name their account. */
const serverOf = (accountId: string) => accountId.slice(0, Math.max(0, accountId.indexOf('#')));

/**
 * Which workspace goes to which folder on this computer: the first run, and "Add folder" at
 * any time after, for any signed-in account. The folder starts as `~/Workspace Sync/<name>`
 * and follows the workspace until the person edits it; Choose… opens the OS's dialog in the
 * app and the backend's picker in a browser. The folder is checked (local.checkFolder) before
 * pairs.add, and what is wrong is said in one line.
 */
export function SetupPair({
  accountId: initialAccount,
  onDone,
  onCancel,
}: {
  /** The account to start with (default: the window's). */
  accountId?: string;
  onDone?: (pair: SyncPair) => void;
  onCancel?: () => void;
}) {
  const api = useApi();
  const current = useAccount();
  const queryClient = useQueryClient();
  const ids = useId();
  const [accountId, setAccountId] = useState(initialAccount ?? current.id);
  const [workspaceId, setWorkspaceId] = useState<number | null>(null);
  /** What the person typed or chose; null while the default applies. */
  const [edited, setEdited] = useState<string | null>(null);
  const [picking, setPicking] = useState(false);
  /** Selective sync's choice, for the workspace it was made in (another workspace: all of it). */
  const [excluded, setExcluded] = useState<{ key: string; folders: ExcludedFolder[] }>({
    key: '',
    folders: [],
  });
  const chooseButton = useRef<HTMLButtonElement>(null);
  const first = useRef<HTMLSelectElement>(null);
  const mergeButton = useRef<HTMLButtonElement>(null);

  const accounts = useQuery({
    queryKey: ['accounts'],
    queryFn: () => api.call('accounts.list', {}),
  });
  const info = useQuery({ queryKey: ['app.info'], queryFn: () => api.call('app.info', {}) });
  const pairs = usePairs();
  const workspaces = useQuery({
    queryKey: ['workspaces', accountId],
    queryFn: () => api.call('workspaces.list', { accountId }),
    select: (listed) => listed.items,
  });

  // A form opened on demand starts at its first control, once (the button that opened it is
  // disabled); later renders (status pushes) leave the focus where the person put it.
  const focused = useRef(false);
  const onDemand = onCancel !== undefined;
  useEffect(() => {
    if (!onDemand || focused.current || !first.current) return;
    focused.current = true;
    first.current.focus();
  }, [onDemand, workspaces.isSuccess]);

  /** Where each workspace of this account's server syncs already. */
  const syncedTo = new Map<number, string>();
  for (const p of pairs.data ?? [])
    if (serverOf(p.accountId) === serverOf(accountId)) syncedTo.set(p.workspaceId, p.dir);

  const list = workspaces.data ?? [];
  const chosen =
    list.find((w) => w.id === workspaceId) ?? list.find((w) => !syncedTo.has(w.id)) ?? list[0];
  const dir = edited ?? (chosen ? s.defaultFolder(safeFolderName(chosen.name)) : '');
  const choiceKey = chosen ? `${accountId} ${chosen.id}` : '';
  const left = excluded.key === choiceKey ? excluded.folders : [];

  const check = useMutation({
    mutationFn: (d: string) => api.call('local.checkFolder', { dir: d }),
  });
  /** A folder holding files: what it would upload, asked about before it is merged. */
  const [asking, setAsking] = useState<Ask | null>(null);
  const add = useMutation({
    mutationFn: async (p: {
      workspaceId: number;
      workspace: string;
      dir: string;
      merge?: boolean;
    }): Promise<SyncPair | Ask> => {
      const checked = await api.call('local.checkFolder', { dir: p.dir });
      if (checked.problem)
        throw new AppCallError({
          kind: 'invalid',
          message: checked.problem,
          ...(checked.words ? { words: checked.words } : {}),
        });
      // Never merged without a word (issue 39): the person says Merge, or chooses another.
      if (!p.merge && checked.uploads && checked.uploads.count > 0)
        return { ...p, dir: checked.dir, uploads: checked.uploads };
      return api.call('pairs.add', {
        accountId,
        workspaceId: p.workspaceId,
        dir: p.dir,
        excluded: left,
      });
    },
    onSuccess: async (result) => {
      if ('uploads' in result) return setAsking(result);
      setAsking(null);
      await queryClient.invalidateQueries({ queryKey: ['pairs'] });
      onDone?.(result);
    },
  });
  const desktopDialog = useMutation({
    mutationFn: () => api.call('local.chooseFolder', { startAt: dir }),
    onSuccess: (r) => r.dir !== null && chooseFolder(r.dir),
  });

  const chooseFolder = (d: string) => {
    setEdited(d);
    setAsking(null);
    add.reset();
    check.mutate(d);
  };
  const openChooser = () => {
    if (info.data?.desktop) desktopDialog.mutate();
    else setPicking(true);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (chosen) add.mutate({ workspaceId: chosen.id, workspace: chosen.name, dir: dir.trim() });
  };

  // The question replaces Start syncing, which had the focus: Merge takes it.
  useEffect(() => {
    if (asking) mergeButton.current?.focus();
  }, [asking]);

  const titleId = `${ids}-title`;
  const askId = `${ids}-ask`;
  const folderId = `${ids}-folder`;
  const hintId = `${ids}-folder-hint`;
  const several = (accounts.data?.length ?? 0) > 1;
  // Cancel, where the setup was opened on demand: after the merge question or the start button.
  const cancel = onCancel && (
    <button type="button" onClick={onCancel}>
      {strings.cancel}
    </button>
  );
  return (
    <form className="card setup" onSubmit={submit} aria-labelledby={titleId}>
      <h2 id={titleId}>{strings.status.setupTitle}</h2>
      {several && (
        <div className="field">
          <label htmlFor={`${ids}-account`}>{s.account}</label>
          <select
            id={`${ids}-account`}
            ref={first}
            value={accountId}
            onChange={(e) => {
              setAccountId(e.target.value);
              setWorkspaceId(null);
              add.reset();
            }}
          >
            {(accounts.data ?? []).map((a: Account) => (
              <option key={a.id} value={a.id}>
                {s.accountOption(a.email, a.server)}
              </option>
            ))}
          </select>
        </div>
      )}
      {workspaces.isPending && <Loading />}
      {workspaces.isError && <ErrorMessage error={workspaces.error} />}
      {workspaces.isSuccess && list.length === 0 && (
        <p className="empty">{strings.browse.noWorkspaces}</p>
      )}
      {chosen && (
        <>
          <div className="field">
            <label htmlFor={`${ids}-workspace`}>{strings.status.workspace}</label>
            <select
              id={`${ids}-workspace`}
              ref={several ? undefined : first}
              value={chosen.id}
              aria-describedby={syncedTo.has(chosen.id) ? `${ids}-synced` : undefined}
              onChange={(e) => {
                setWorkspaceId(Number(e.target.value));
                add.reset();
              }}
            >
              {list.map((w) => (
                <option key={w.id} value={w.id}>
                  {syncedTo.has(w.id) ? s.alreadySynced(w.name) : w.name}
                </option>
              ))}
            </select>
            {syncedTo.has(chosen.id) && (
              <p className="hint" id={`${ids}-synced`}>
                {s.alreadySyncedHint}
              </p>
            )}
          </div>
          <div className="field">
            <label htmlFor={folderId}>{strings.status.folder}</label>
            <div className="folder-row">
              <input
                id={folderId}
                value={dir}
                spellCheck={false}
                aria-describedby={hintId}
                aria-invalid={check.data?.problem ? true : undefined}
                onChange={(e) => {
                  setEdited(e.target.value);
                  setAsking(null);
                  check.reset();
                  add.reset();
                }}
                required
              />
              <button
                ref={chooseButton}
                type="button"
                onClick={openChooser}
                disabled={desktopDialog.isPending}
              >
                {s.choose}
              </button>
            </div>
            <p className="hint" id={hintId}>
              {s.folderHint}
            </p>
            <div aria-live="polite">
              {check.isPending && <p className="muted">{s.checking}</p>}
              {check.data?.problem && (
                <p className="error" role="alert">
                  {strings.say(check.data.words, check.data.problem)}
                </p>
              )}
              {check.isError && <ErrorMessage error={check.error} />}
              {desktopDialog.isError && <ErrorMessage error={desktopDialog.error} />}
            </div>
          </div>
          {chosen && (
            // Closed by default: all of a workspace syncs, as people expect; its folders are
            // listed only when someone opens this.
            <details className="setup-selection">
              <summary>{strings.selection.open}</summary>
              <FolderSelection
                accountId={accountId}
                workspaceId={chosen.id}
                value={left}
                onChange={(folders) => setExcluded({ key: choiceKey, folders })}
              />
            </details>
          )}
        </>
      )}
      {add.isError && <ErrorMessage error={add.error} />}
      {asking && (
        <div className="merge-ask" role="group" aria-labelledby={askId}>
          <p id={askId} role="status">
            {s.mergeAsk(asking.dir, asking.uploads.count, asking.uploads.more, asking.workspace)}
          </p>
          <div className="actions">
            <button
              type="button"
              className="primary"
              ref={mergeButton}
              disabled={add.isPending}
              onClick={() => add.mutate({ ...asking, merge: true })}
            >
              {s.merge}
            </button>
            <button
              type="button"
              onClick={() => {
                setAsking(null);
                openChooser();
              }}
            >
              {s.chooseOther}
            </button>
            {cancel}
          </div>
        </div>
      )}
      {!asking && (
        <div className="actions">
          <button type="submit" className="primary" disabled={add.isPending || !chosen}>
            {add.isPending ? strings.status.starting : strings.status.start}
          </button>
          {cancel}
        </div>
      )}
      {picking && (
        <FolderPicker
          startAt={dir}
          onChoose={(d) => {
            setPicking(false);
            chooseFolder(d);
            chooseButton.current?.focus();
          }}
          onClose={() => {
            setPicking(false);
            chooseButton.current?.focus();
          }}
        />
      )}
    </form>
  );
}
