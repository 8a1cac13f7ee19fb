import { useQuery } from '@tanstack/react-query';
import type { LinkOptionsTarget } from '../../shared/link-options';
import { useAccount, useApi } from '../context';
import { strings } from '../strings';
import { ShareLink } from './ShareLink';
import { ShareWithPeople } from './ShareWithPeople';

/**
 * One item's link options alone (issue 42): what "Copy link with options…" in a file manager
 * opens, the app's small window or `cli ui`'s page. The item panel's own sections, nothing else.
 */
export function LinkOptionsPage({ target }: { target: LinkOptionsTarget }) {
  const api = useApi();
  const account = useAccount();
  const { workspaceId } = target;
  const role = useQuery({
    queryKey: ['activity.role', account.id, workspaceId],
    queryFn: () => api.call('activity.role', { accountId: account.id, workspaceId }),
  });
  const item = { kind: target.kind, id: target.itemId, name: target.name };
  return (
    <main className="link-options" aria-labelledby="link-options-title">
      <h1 id="link-options-title">{strings.item.linkOptions(item.name)}</h1>
      <ShareLink item={item} />
      <ShareWithPeople item={item} workspaceId={workspaceId} role={role.data?.role} />
    </main>
  );
}
