import { useQuery } from '@tanstack/react-query';
import type { OnDemandOp, OnDevice, Role } from '../../shared/app-api';
import { useAccount, useApi } from '../context';
import type { SelectedItem } from '../navigation';
import { strings } from '../strings';
import { Comments } from './Comments';
import { ShareLink } from './ShareLink';
import { ShareWithPeople } from './ShareWithPeople';
import { AuditTrail } from './AuditTrail';
import { DownloadZip } from './DownloadZip';
import { ItemFacts } from './ItemFacts';
import { ItemIcon } from './ItemIcon';
import { OnDeviceSection } from './on-device';
import { ErrorMessage } from '../components/ErrorMessage';

const readOnlyRoles: readonly string[] = ['Viewer', 'Printer', 'Downloader'] satisfies Role[];

export function ItemPanel({
  item,
  workspaceId,
  onClose,
  device,
  onDemand,
  onDemandBusy = false,
  onDemandSaid = null,
  onDemandError = null,
}: {
  item: SelectedItem;
  workspaceId: number;
  onClose: () => void;
  /** Where it is on this device (files on demand), and its actions: absent if not synced here. */
  device?: OnDevice | undefined;
  onDemand?: (item: SelectedItem, op: OnDemandOp) => void;
  onDemandBusy?: boolean;
  /** What the last action did, and why one failed (Browse's, said here too: it may cover). */
  onDemandSaid?: string | null;
  onDemandError?: unknown;
}) {
  const api = useApi();
  const account = useAccount();
  const role = useQuery({
    queryKey: ['activity.role', account.id, workspaceId],
    queryFn: () => api.call('activity.role', { accountId: account.id, workspaceId }),
  });
  // Comments: Creator and above (conventions, "Roles"). Unknown yet: the form is offered and
  // the service has the last word.
  const mayComment = role.data?.role == null || !readOnlyRoles.includes(role.data.role);
  return (
    <aside
      className="item-panel"
      aria-labelledby="item-title"
      // Escape closes it from anywhere inside (a narrow window shows it over the list).
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || e.defaultPrevented) return;
        e.preventDefault();
        onClose();
      }}
    >
      <header className="panel-header">
        <h2 id="item-title">
          <span className="row-icon">
            <ItemIcon kind={item.kind} name={item.name} size={20} />
          </span>
          {item.name}
        </h2>
        <button
          type="button"
          className="icon-button"
          aria-label={strings.item.close}
          aria-keyshortcuts="Escape"
          onClick={onClose}
        >
          <span aria-hidden="true">×</span>
        </button>
      </header>
      {/* First: what may be done here, in view in a narrow window's short panel too. */}
      {device && onDemand && (
        <OnDeviceSection item={item} device={device} onDemand={onDemand} busy={onDemandBusy}>
          {onDemandSaid && <p className="muted">{onDemandSaid}</p>}
          {onDemandError != null && (
            <ErrorMessage error={onDemandError} title={strings.files.onDemandFailed} />
          )}
        </OnDeviceSection>
      )}
      <ItemFacts item={item} />
      <Comments item={item} mayComment={mayComment} />
      <ShareLink item={item} />
      <ShareWithPeople item={item} workspaceId={workspaceId} role={role.data?.role} />
      {item.kind === 'folder' && <DownloadZip key={item.id} folderId={item.id} name={item.name} />}
      {item.kind === 'file' && <AuditTrail fileId={item.id} workspaceId={workspaceId} />}
    </aside>
  );
}
