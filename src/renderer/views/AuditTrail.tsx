import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Role } from '../../shared/app-api';
import { useAccount, useApi } from '../context';
import { strings } from '../strings';
import { Loading } from '../components/Loading';
import { ErrorMessage } from '../components/ErrorMessage';
import { Empty } from '../components/Empty';
import { EventLine } from './EventLine';

// The service shows a file's audit trail to Moderators and above (conventions, "Roles").
const mayAudit: readonly string[] = ['Moderator', 'Administrator'] satisfies Role[];

export function AuditTrail({ fileId, workspaceId }: { fileId: number; workspaceId: number }) {
  const api = useApi();
  const account = useAccount();
  const role = useQuery({
    queryKey: ['activity.role', account.id, workspaceId],
    queryFn: () => api.call('activity.role', { accountId: account.id, workspaceId }),
  });
  const allowed = role.data?.role != null && mayAudit.includes(role.data.role);
  // The person's own downloads and views (their syncs' reading) are folded, as in the feed.
  const [showOwnReads, setShowOwnReads] = useState(false);
  const trail = useQuery({
    queryKey: ['activity.auditTrail', account.id, fileId],
    queryFn: () => api.call('activity.auditTrail', { accountId: account.id, fileId }),
    enabled: allowed,
  });

  const events = trail.data?.items;
  const folded = showOwnReads ? 0 : (events?.filter((e) => e.ownRead).length ?? 0);
  const shown = showOwnReads ? events : events?.filter((e) => !e.ownRead);
  return (
    <section aria-labelledby="audit-title" className="panel-section">
      <h3 id="audit-title">{strings.item.audit}</h3>
      {role.isPending && <Loading />}
      {role.isError && <ErrorMessage error={role.error} />}
      {role.isSuccess && !allowed && <p className="muted">{strings.item.auditHidden}</p>}
      {allowed && trail.isPending && <Loading />}
      {allowed && trail.isError && <ErrorMessage error={trail.error} />}
      {allowed && events?.length === 0 && <Empty>{strings.item.auditEmpty}</Empty>}
      {allowed && trail.data?.cut && (
        <p className="muted">{strings.listCut(trail.data.items.length)}</p>
      )}
      {allowed && folded > 0 && (
        <p className="muted folded-note">
          {strings.feed.folded(folded)}{' '}
          <button type="button" className="link-button" onClick={() => setShowOwnReads(true)}>
            {strings.feed.showFolded}
          </button>
        </p>
      )}
      {allowed && shown && shown.length > 0 && (
        <ol className="audit" aria-label={strings.item.audit}>
          {shown.map((e) => (
            <li key={e.id}>
              <EventLine event={e} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
