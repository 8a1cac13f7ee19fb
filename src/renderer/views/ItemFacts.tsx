import { useQuery } from '@tanstack/react-query';
import { useAccount, useApi } from '../context';
import { formatBytes, formatDate } from '../format';
import type { SelectedItem } from '../navigation';
import { strings } from '../strings';
import { ErrorMessage } from '../components/ErrorMessage';
import { categoryOf, extensionOf } from './file-types';

/** A file's type in words, from its extension ("PNG image"); a folder is a folder. */
export function typeWords(item: { kind: SelectedItem['kind']; name: string }): string {
  if (item.kind === 'folder') return strings.files.folderType;
  return strings.files.types[categoryOf(item.name)](extensionOf(item.name).toUpperCase());
}

/**
 * What the service says of an item: size, type, modified, created and by whom, and its version
 * where the service tells one (the contract's file has none, so it shows only if a server adds
 * it). A value the service does not give says so instead of a blank.
 */
export function ItemFacts({ item }: { item: SelectedItem }) {
  const api = useApi();
  const account = useAccount();
  const details = useQuery({
    queryKey: ['items.details', account.id, item.kind, item.id],
    queryFn: () =>
      api.call('items.details', { accountId: account.id, kind: item.kind, itemId: item.id }),
  });
  const d = details.data;
  const unknown = <span className="muted">{strings.files.unknown}</span>;
  const when = (iso: string | null | undefined) =>
    iso ? <time dateTime={iso}>{formatDate(iso)}</time> : unknown;
  return (
    <section className="panel-section" aria-labelledby="item-facts">
      <h3 id="item-facts">{strings.files.details}</h3>
      {details.isError && <ErrorMessage error={details.error} />}
      <dl className="facts" aria-busy={details.isPending}>
        <dt>{strings.files.type}</dt>
        <dd>{typeWords(item)}</dd>
        <dt>{strings.files.size}</dt>
        <dd>{d ? (d.size === null ? unknown : formatBytes(d.size)) : '…'}</dd>
        <dt>{strings.files.modified}</dt>
        <dd>{d ? when(d.updatedAt) : '…'}</dd>
        <dt>{strings.files.created}</dt>
        <dd>{d ? when(d.createdAt) : '…'}</dd>
        <dt>{strings.files.by}</dt>
        <dd>{d ? (d.by ?? unknown) : '…'}</dd>
        {d?.version != null && (
          <>
            <dt>{strings.files.version}</dt>
            <dd>{d.version}</dd>
          </>
        )}
      </dl>
    </section>
  );
}
