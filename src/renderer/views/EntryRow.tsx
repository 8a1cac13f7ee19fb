import type { Entry } from '../../shared/app-api';
import { formatBytes, formatDate } from '../format';
import type { SelectedItem } from '../navigation';
import { strings } from '../strings';

/** One folder or file. A folder's name opens it; the details button (or a file's name) selects. */
export function EntryRow({
  entry,
  selected,
  onOpenFolder,
  onSelect,
}: {
  entry: Entry;
  selected: boolean;
  onOpenFolder: (id: number) => void;
  onSelect: (item: SelectedItem) => void;
}) {
  const item = { kind: entry.kind, id: entry.id, name: entry.name };
  const isFolder = entry.kind === 'folder';
  return (
    <tr className={`${selected ? 'selected' : ''} ${entry.hidden ? 'is-hidden' : ''}`}>
      <td>
        <span className={`icon icon-${entry.kind}`} aria-hidden="true" />
        {isFolder ? (
          <button
            type="button"
            className="link-button name"
            onClick={() => onOpenFolder(entry.id)}
            aria-label={strings.browse.openFolder(entry.name)}
          >
            {entry.name}
          </button>
        ) : (
          <button
            type="button"
            className="link-button name"
            aria-pressed={selected}
            onClick={() => onSelect(item)}
          >
            {entry.name}
          </button>
        )}
        {entry.hidden && (
          <span className="badge" title={strings.browse.hiddenHint}>
            {strings.browse.hidden}
          </span>
        )}
        {isFolder && (
          <button
            type="button"
            className="icon-button"
            aria-pressed={selected}
            aria-label={strings.browse.details(entry.name)}
            onClick={() => onSelect(item)}
          >
            <span className="info-icon" aria-hidden="true">
              i
            </span>
          </button>
        )}
      </td>
      <td className="num">{entry.size == null ? '—' : formatBytes(entry.size)}</td>
      <td>
        <time dateTime={entry.updatedAt}>{formatDate(entry.updatedAt)}</time>
      </td>
    </tr>
  );
}
