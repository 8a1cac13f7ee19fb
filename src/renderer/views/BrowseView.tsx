import { useCallback, useDeferredValue, useEffect, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  AppCallError,
  type ContentSort,
  type OnDemandOp,
  type SearchHit,
} from '../../shared/app-api';
import { useAccount, useApi } from '../context';
import { useEvent } from '../hooks';
import type { BrowseTarget, SelectedItem } from '../navigation';
import { strings } from '../strings';
import { Loading } from '../components/Loading';
import { ErrorMessage } from '../components/ErrorMessage';
import { Empty } from '../components/Empty';
import { Breadcrumbs, useFolderPath } from './Breadcrumbs';
import { FolderContents } from './FolderContents';
import { ItemPanel } from './ItemPanel';
import { ItemMenu, type MenuRequest } from './ItemMenu';
import { useCopyLink } from './CopyLink';
import { IconSprite } from './ItemIcon';
import { OnDeviceSprite, onDemandOutcome, useOnDemand, useOnDevice } from './on-device';
import { WorkspaceSearch } from './WorkspaceSearch';
import { useBrowseSort } from './browse-sort';
import { useBrowseEdit } from './BrowseEdit';

const sorts: ContentSort[] = ['alphabetical', 'modified', 'size', 'type'];

const isOffline = (error: unknown) =>
  error instanceof AppCallError && error.error.kind === 'offline';

/** Whether a key press is typing (in a field), not a command for the list. */
const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

const MODAL = '[role="menu"], [role="dialog"], [role="alertdialog"]';

/** A workspace as Browse lists it: from the service, or offline from its pair's journal. */
interface Place {
  id: number;
  name: string;
  rootFolderId: number;
  /** Offline: the pair whose journal is read. */
  pairId: string | null;
}

type Action = 'open' | 'show' | 'browser';

/** The row to give the focus to once it is read: the folder left, or an item found. */
type FocusItem = { kind: 'file' | 'folder'; id: number };

export function BrowseView({
  target,
  onTarget,
  onMembers,
}: {
  target: BrowseTarget;
  onTarget: (t: BrowseTarget) => void;
  /** Opens a workspace's members (People). */
  onMembers?: (workspaceId: number) => void;
}) {
  const api = useApi();
  const account = useAccount();
  const queryClient = useQueryClient();
  const [query, setQuery] = useState('');
  // Typing stays responsive; the listing follows the deferred text.
  const deferredQuery = useDeferredValue(query.trim());
  const [menu, setMenu] = useState<MenuRequest | null>(null);
  const search = useRef<HTMLInputElement>(null);
  // Here, not in the menu: the menu is gone before the copy finishes, its outcome is shown here.
  const copy = useCopyLink();
  // The service could not be reached while listing: the synced tree is shown until asked again.
  const [offlineSeen, setOfflineSeen] = useState(false);
  const workspaces = useQuery({
    queryKey: ['workspaces', account.id],
    queryFn: () => api.call('workspaces.list', { accountId: account.id }),
    select: (listed) => listed.items,
    enabled: !offlineSeen,
  });
  const offline = offlineSeen || (workspaces.isError && isOffline(workspaces.error));
  const synced = useQuery({
    queryKey: ['synced.workspaces', account.id],
    queryFn: () => api.call('synced.workspaces', { accountId: account.id }),
    enabled: offline,
  });
  // The web window opens the page the backend names while it opens one (the app's backend opens
  // the system browser itself); only a web address, never javascript: or file:.
  const openingPage = useRef(0);
  useEvent('open-url', ({ url }) => {
    if (openingPage.current > 0 && /^https?:\/\//i.test(url))
      window.open(url, '_blank', 'noopener');
  });
  const act = useMutation({
    mutationFn: async ({ action, item }: { action: Action; item: SelectedItem }) => {
      const on = { accountId: account.id, kind: item.kind, itemId: item.id };
      if (action === 'browser') {
        openingPage.current++;
        await api.call('links.open', on).finally(() => openingPage.current--);
      } else {
        await api.call('items.openSynced', { ...on, workspaceId: place?.id ?? 0, how: action });
      }
      return { action, item };
    },
  });
  const onOffline = useCallback(() => setOfflineSeen(true), []);

  const places: Place[] | undefined = offline
    ? synced.data?.map((w) => ({
        id: w.workspaceId,
        name: w.name,
        rootFolderId: w.rootFolderId,
        pairId: w.pairId,
      }))
    : workspaces.data?.map((w) => ({ ...w, pairId: null }));
  const place = places?.find((w) => w.id === target.workspaceId) ?? places?.[0];
  const folderId = target.folderId ?? place?.rootFolderId ?? 0;
  const pairId = place?.pairId ?? null;
  const path = useFolderPath(folderId, pairId);
  // The column order, kept per workspace (the settings).
  const [order, setOrder] = useBrowseSort(place?.id ?? null);
  const sort = order.sort;
  // Files on demand: each item's state here, and the actions on one (its menu, its panel); the
  // rows' badges (the folders above say whether it is inside one left out).
  const { device, badge } = useOnDevice(
    place?.id ?? 0,
    folderId,
    place !== undefined,
    path.isError ? [] : path.data?.map((f) => f.id),
  );
  // File operations (issue 42): on the service, so not offline; marks are the folder's.
  const editing = useBrowseEdit({
    workspaceId: place?.id ?? 0,
    workspaceName: place?.name ?? '',
    rootFolderId: place?.rootFolderId ?? 0,
    folderId,
    folderName: path.data?.[path.data.length - 1]?.name ?? place?.name ?? '',
    offline,
  });
  const onDemand = useOnDemand(place?.id ?? 0);
  const { mutate } = onDemand;
  const demand = useCallback(
    (item: SelectedItem, op: OnDemandOp) => mutate({ item, op }),
    [mutate],
  );

  // The folder left by Backspace: its row in the folder above takes the focus, which would
  // otherwise fall to the page with the rows of the folder left.
  // An item found by the search takes it too, in its folder.
  const [cameFrom, setCameFrom] = useState<FocusItem | null>(null);
  const onFocused = useCallback(() => setCameFrom(null), []);
  const go = (next: Partial<BrowseTarget>, left: number | FocusItem | null = null) => {
    setCameFrom(typeof left === 'number' ? { kind: 'folder', id: left } : left);
    setQuery('');
    editing.clearMarks();
    // What the last action said was about the folder left.
    act.reset();
    copy.reset();
    onDemand.reset();
    onTarget({ workspaceId: place?.id ?? null, folderId, selected: null, ...next });
  };
  const goRef = useRef(go);
  goRef.current = go;
  // The folder above: the trail starts at the root whether or not the path names it.
  let parent: number | null = null;
  if (place && path.data && folderId !== place.rootFolderId) {
    const root = { id: place.rootFolderId, name: place.name };
    const trail = path.data[0]?.id === root.id ? path.data : [root, ...path.data];
    parent = trail[trail.length - 2]?.id ?? null;
  }
  const parentRef = useRef(parent);
  parentRef.current = parent;
  const folderRef = useRef(folderId);
  folderRef.current = folderId;
  // Escape closes the item panel wherever the focus is but a menu or a field that uses it.
  const closePanel = useRef<(() => void) | null>(null);
  closePanel.current = target.selected
    ? () => onTarget({ workspaceId: place?.id ?? null, folderId, selected: null })
    : null;

  // The file manager's keys, wherever the focus is in Browse but a field: / or Ctrl+F search,
  // Backspace or Alt+Up go up a folder (arrows and Enter are the rows', FolderRows).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // A menu or a dialog has its own keys.
      if (e.defaultPrevented || (e.target instanceof Element && e.target.closest(MODAL))) return;
      if (e.key === 'Escape' && closePanel.current) {
        e.preventDefault();
        closePanel.current();
        return;
      }
      const find = (e.key === 'f' || e.key === 'F') && (e.ctrlKey || e.metaKey) && !e.altKey;
      if (find || (e.key === '/' && !typing(e.target))) {
        e.preventDefault();
        search.current?.focus();
        search.current?.select();
        return;
      }
      const up =
        (e.key === 'Backspace' && !typing(e.target) && !e.altKey && !e.ctrlKey) ||
        (e.key === 'ArrowUp' && e.altKey);
      if (up && parentRef.current !== null) {
        e.preventDefault();
        goRef.current({ folderId: parentRef.current }, folderRef.current);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  // Retry now: the listing asked again, and each synced pair's pass started now rather than at
  // the end of its wait (a paused pair refuses, and is meant to stay as it is).
  const goOnline = () => {
    for (const w of synced.data ?? [])
      void api.call('pairs.retry', { pairId: w.pairId }).catch(() => undefined);
    setOfflineSeen(false);
    void queryClient.invalidateQueries({ queryKey: ['folders.contents', account.id] });
    void workspaces.refetch();
  };
  const offlineMark = offline && (
    <div className="offline-mark" role="status">
      <strong>{strings.files.offline}</strong>
      <span>{strings.files.offlineHint}</span>
      <button type="button" className="link-button" onClick={goOnline}>
        {strings.files.goOnline}
      </button>
    </div>
  );

  if (offline ? synced.isPending : workspaces.isPending) return <Loading />;
  if (!offline && workspaces.isError)
    return <ErrorMessage error={workspaces.error} onRetry={() => void workspaces.refetch()} />;
  if (offline && synced.isError)
    return <ErrorMessage error={synced.error} onRetry={() => void synced.refetch()} />;
  if (!place) {
    return (
      <section aria-labelledby="browse-title">
        <h1 id="browse-title">{strings.browse.title}</h1>
        {offlineMark}
        <Empty>{offline ? strings.files.offlineNone : strings.browse.noWorkspaces}</Empty>
      </section>
    );
  }

  // An item found: its folder opened, with it selected (and focused once its row is read).
  const openFound = (hit: SearchHit) =>
    go(
      {
        workspaceId: place.id,
        folderId: hit.folderId,
        selected: offline ? null : { kind: hit.kind, id: hit.id, name: hit.name },
      },
      { kind: hit.kind, id: hit.id },
    );
  const openItem = (item: SelectedItem) => {
    if (item.kind === 'folder') go({ folderId: item.id });
    else act.mutate({ action: 'open', item });
  };
  const select = offline
    ? undefined
    : (item: SelectedItem) => onTarget({ workspaceId: place.id, folderId, selected: item });
  const outcome =
    act.isSuccess &&
    (act.data.action === 'open'
      ? strings.files.opened(act.data.item.name)
      : act.data.action === 'show'
        ? strings.files.shown(act.data.item.name)
        : strings.files.openedInBrowser(act.data.item.name));

  return (
    <section aria-labelledby="browse-title" className="browse">
      <IconSprite />
      <OnDeviceSprite />
      <div className="browse-main" {...editing.dropArea}>
        <h1 id="browse-title">{strings.browse.title}</h1>
        {offlineMark}
        <div className="toolbar">
          <div className="field inline">
            <label htmlFor="browse-workspace">{strings.browse.workspace}</label>
            <select
              id="browse-workspace"
              value={place.id}
              onChange={(e) =>
                go({ workspaceId: Number(e.target.value), folderId: null, selected: null })
              }
            >
              {places?.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name}
                </option>
              ))}
            </select>
            {onMembers && !offline && (
              <button
                type="button"
                aria-label={strings.members.openLabel(place.name)}
                onClick={() => onMembers(place.id)}
              >
                {strings.members.open}
              </button>
            )}
          </div>
          <div className="field inline" role="search">
            <label htmlFor="browse-search">{strings.browse.search}</label>
            <input
              ref={search}
              id="browse-search"
              type="search"
              placeholder={strings.browse.searchPlaceholder}
              aria-keyshortcuts="/ Control+F"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
            />
          </div>
          <div className="field inline">
            <label htmlFor="browse-sort">{strings.browse.sort}</label>
            <select
              id="browse-sort"
              value={sort}
              onChange={(e) => setOrder({ sort: e.target.value as ContentSort, reversed: false })}
            >
              {sorts.map((s) => (
                <option key={s} value={s}>
                  {strings.browse.sorts[s]}
                </option>
              ))}
            </select>
          </div>
          {editing.tools}
        </div>
        {editing.selection}
        {editing.status}
        <p role="status" aria-live="polite" className="copied menu-status">
          {copy.isSuccess && strings.menu.copied}
          {outcome}
          {onDemandOutcome(onDemand)}
        </p>
        {copy.isError && <ErrorMessage error={copy.error} title={strings.item.copyFailed} />}
        {act.isError && <ErrorMessage error={act.error} title={strings.files.openFailed} />}
        {onDemand.isError && (
          <ErrorMessage error={onDemand.error} title={strings.files.onDemandFailed} />
        )}
        <Breadcrumbs
          folderId={folderId}
          rootId={place.rootFolderId}
          rootName={place.name}
          pairId={pairId}
          // The step clicked is gone with its button: the focus goes to the folder left.
          onOpen={(id, below) => go({ folderId: id }, below)}
        />
        <p className="keys-hint">
          {strings.files.keys} {!offline && editing.keysHint}
        </p>
        {editing.dropHint}
        {deferredQuery !== '' ? (
          <WorkspaceSearch
            workspaceId={place.id}
            workspaceName={place.name}
            rootFolderId={place.rootFolderId}
            query={deferredQuery}
            onOpen={openFound}
          />
        ) : (
          <FolderContents
            folderId={folderId}
            query=""
            sort={order}
            onSort={setOrder}
            badge={badge}
            selected={offline ? null : target.selected}
            pairId={pairId}
            onOpenFolder={(id) => go({ folderId: id })}
            onOpenFile={openItem}
            onSelect={select}
            onMenu={(request) => {
              copy.reset();
              act.reset();
              if (!onDemand.isPending) onDemand.reset();
              setMenu(request);
            }}
            device={device}
            onOffline={onOffline}
            focusItem={cameFrom}
            onFocused={onFocused}
            edit={offline ? undefined : editing.rows}
          />
        )}
      </div>
      {menu && (
        <ItemMenu
          key={`${menu.item.kind}-${menu.item.id}-${menu.x}-${menu.y}`}
          request={menu}
          onClose={() => setMenu(null)}
          onOpen={openItem}
          onShow={(item) => act.mutate({ action: 'show', item })}
          onBrowser={offline ? undefined : (item) => act.mutate({ action: 'browser', item })}
          onCopy={offline ? undefined : (item) => copy.mutate(item)}
          onDetails={select}
          device={device(menu.item)}
          onDemand={demand}
          edit={offline ? undefined : editing.menuEdit({ ...menu.item, mine: menu.mine })}
        />
      )}
      {editing.dialogs}
      {!offline && target.selected && (
        <ItemPanel
          key={`${target.selected.kind}-${target.selected.id}`}
          item={target.selected}
          workspaceId={place.id}
          onClose={() => onTarget({ workspaceId: place.id, folderId, selected: null })}
          device={device(target.selected)}
          onDemand={demand}
          onDemandBusy={onDemand.isPending}
          onDemandSaid={onDemandOutcome(onDemand)}
          onDemandError={onDemand.error}
        />
      )}
    </section>
  );
}
