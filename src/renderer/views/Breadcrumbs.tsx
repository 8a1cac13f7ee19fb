import { useQuery } from '@tanstack/react-query';
import { useAccount, useApi } from '../context';
import { strings } from '../strings';
import { ErrorMessage } from '../components/ErrorMessage';

/**
 * The folders from the root (or below it) down to `folderId`: the service's, or offline the
 * journal's (`pairId`). Browse reads it too, for the folder above (Backspace).
 */
export function useFolderPath(folderId: number, pairId: string | null) {
  const api = useApi();
  const account = useAccount();
  return useQuery({
    queryKey: pairId ? ['synced.path', pairId, folderId] : ['folders.path', account.id, folderId],
    queryFn: () =>
      pairId
        ? api.call('synced.path', { pairId, folderId })
        : api.call('folders.path', { accountId: account.id, folderId }),
  });
}

/** Where the folder is, from the workspace's root; every step but the last opens that folder. */
export function Breadcrumbs({
  folderId,
  rootId,
  rootName,
  pairId = null,
  onOpen,
}: {
  folderId: number;
  rootId: number;
  rootName: string;
  pairId?: string | null;
  /** `below`: the step after it, the folder left on the way up (its row takes the focus). */
  onOpen: (id: number, below: number | null) => void;
}) {
  const path = useFolderPath(folderId, pairId);
  if (path.isError) return <ErrorMessage error={path.error} />;
  // Until the path arrives, the root's name stands in (the usual case, and no layout jump).
  const root = { id: rootId, name: rootName };
  let steps = path.data ?? (folderId === rootId ? [root] : [root, { id: folderId, name: '…' }]);
  // Whether the backend's path starts at the root or below it, the trail starts at the root.
  if (steps[0]?.id !== rootId) steps = [root, ...steps];
  return (
    <nav aria-label={strings.browse.breadcrumbs} className="breadcrumbs">
      <ol>
        {steps.map((s, i) => (
          <li key={s.id}>
            {i === steps.length - 1 ? (
              <span aria-current="location">{i === 0 ? rootName : s.name}</span>
            ) : (
              <button
                type="button"
                className="link-button"
                onClick={() => onOpen(s.id, steps[i + 1]?.id ?? null)}
              >
                {i === 0 ? rootName : s.name}
              </button>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
