import { useDeferredValue, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ContentSort } from '../../shared/app-api';
import { useAccount, useApi } from '../context';
import type { BrowseTarget } from '../navigation';
import { strings } from '../strings';
import { Loading } from '../components/Loading';
import { ErrorMessage } from '../components/ErrorMessage';
import { Empty } from '../components/Empty';
import { Breadcrumbs } from './Breadcrumbs';
import { FolderContents } from './FolderContents';
import { ItemPanel } from './ItemPanel';
import { ItemMenu, type MenuRequest } from './ItemMenu';
import { useCopyLink } from './CopyLink';

const sorts: ContentSort[] = ['alphabetical', 'modified', 'size', 'type'];

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
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<ContentSort>('alphabetical');
  // Typing stays responsive; the listing follows the deferred text.
  const deferredQuery = useDeferredValue(query.trim());
  const [menu, setMenu] = useState<MenuRequest | null>(null);
  // Here, not in the menu: the menu is gone before the copy finishes, its outcome is shown here.
  const copy = useCopyLink();
  const workspaces = useQuery({
    queryKey: ['workspaces', account.id],
    queryFn: () => api.call('workspaces.list', { accountId: account.id }),
  });

  if (workspaces.isPending) return <Loading />;
  if (workspaces.isError)
    return <ErrorMessage error={workspaces.error} onRetry={() => void workspaces.refetch()} />;
  const workspace = workspaces.data.find((w) => w.id === target.workspaceId) ?? workspaces.data[0];
  if (!workspace) {
    return (
      <section aria-labelledby="browse-title">
        <h1 id="browse-title">{strings.browse.title}</h1>
        <Empty>{strings.browse.noWorkspaces}</Empty>
      </section>
    );
  }
  const folderId = target.folderId ?? workspace.rootFolderId;
  const go = (next: Partial<BrowseTarget>) => {
    setQuery('');
    onTarget({ workspaceId: workspace.id, folderId, selected: null, ...next });
  };

  return (
    <section aria-labelledby="browse-title" className="browse">
      <div className="browse-main">
        <h1 id="browse-title">{strings.browse.title}</h1>
        <div className="toolbar">
          <div className="field inline">
            <label htmlFor="browse-workspace">{strings.browse.workspace}</label>
            <select
              id="browse-workspace"
              value={workspace.id}
              onChange={(e) =>
                go({ workspaceId: Number(e.target.value), folderId: null, selected: null })
              }
            >
              {workspaces.data.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name}
                </option>
              ))}
            </select>
            {onMembers && (
              <button
                type="button"
                aria-label={strings.members.openLabel(workspace.name)}
                onClick={() => onMembers(workspace.id)}
              >
                {strings.members.open}
              </button>
            )}
          </div>
          <div className="field inline" role="search">
            <label htmlFor="browse-search">{strings.browse.search}</label>
            <input
              id="browse-search"
              type="search"
              placeholder={strings.browse.searchPlaceholder}
              value={query}
              onChange={(e) => setQuery(e.target.value)}
            />
          </div>
          <div className="field inline">
            <label htmlFor="browse-sort">{strings.browse.sort}</label>
            <select
              id="browse-sort"
              value={sort}
              onChange={(e) => setSort(e.target.value as ContentSort)}
            >
              {sorts.map((s) => (
                <option key={s} value={s}>
                  {strings.browse.sorts[s]}
                </option>
              ))}
            </select>
          </div>
        </div>
        <p role="status" aria-live="polite" className="copied menu-status">
          {copy.isSuccess && strings.menu.copied}
        </p>
        {copy.isError && <ErrorMessage error={copy.error} title={strings.item.copyFailed} />}
        <Breadcrumbs
          folderId={folderId}
          rootId={workspace.rootFolderId}
          rootName={workspace.name}
          onOpen={(id) => go({ folderId: id })}
        />
        <FolderContents
          folderId={folderId}
          query={deferredQuery}
          sort={sort}
          selected={target.selected}
          onOpenFolder={(id) => go({ folderId: id })}
          onSelect={(item) => onTarget({ workspaceId: workspace.id, folderId, selected: item })}
          onMenu={(request) => {
            copy.reset();
            setMenu(request);
          }}
        />
      </div>
      {menu && (
        <ItemMenu
          key={`${menu.item.kind}-${menu.item.id}-${menu.x}-${menu.y}`}
          request={menu}
          onClose={() => setMenu(null)}
          onCopy={(item) => copy.mutate(item)}
          onDetails={(item) => onTarget({ workspaceId: workspace.id, folderId, selected: item })}
        />
      )}
      {target.selected && (
        <ItemPanel
          key={`${target.selected.kind}-${target.selected.id}`}
          item={target.selected}
          workspaceId={workspace.id}
          onClose={() => onTarget({ workspaceId: workspace.id, folderId, selected: null })}
        />
      )}
    </section>
  );
}
