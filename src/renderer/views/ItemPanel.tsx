import type { SelectedItem } from '../navigation';
import { strings } from '../strings';
import { Comments } from './Comments';
import { ShareLink } from './ShareLink';
import { AuditTrail } from './AuditTrail';

export function ItemPanel({
  item,
  workspaceId,
  onClose,
}: {
  item: SelectedItem;
  workspaceId: number;
  onClose: () => void;
}) {
  return (
    <aside className="item-panel" aria-labelledby="item-title">
      <header className="panel-header">
        <h2 id="item-title">
          <span className={`icon icon-${item.kind}`} aria-hidden="true" />
          {item.name}
        </h2>
        <button
          type="button"
          className="icon-button"
          aria-label={strings.item.close}
          onClick={onClose}
        >
          <span aria-hidden="true">×</span>
        </button>
      </header>
      <Comments item={item} />
      <ShareLink item={item} />
      {item.kind === 'file' && <AuditTrail fileId={item.id} workspaceId={workspaceId} />}
    </aside>
  );
}
