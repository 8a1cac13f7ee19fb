import { useId, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useAccount, useApi } from '../context';
import { useEvent } from '../hooks';
import { formatBytes } from '../format';
import { strings } from '../strings';
import { Field } from '../components/Field';
import { ErrorMessage } from '../components/ErrorMessage';

/**
 * A folder as one zip, saved where the person types (the web window has no native picker): a
 * folder or a file name, `~` for home, read by the backend (backend/zip.ts), which answers the
 * path it wrote once the file is whole. Progress is what the backend pushes: bytes so far.
 */
export function DownloadZip({ folderId }: { folderId: number }) {
  const api = useApi();
  const account = useAccount();
  const headingId = useId();
  const [to, setTo] = useState('');
  const [bytes, setBytes] = useState<number | null>(null);
  const download = useMutation({
    mutationFn: (dest: string) =>
      api.call('folders.downloadZip', { accountId: account.id, folderId, to: dest }),
    onMutate: () => setBytes(0),
  });
  useEvent('zip-progress', (p) => {
    if (p.folderId === folderId && download.isPending) setBytes(p.bytes);
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (to.trim()) download.mutate(to.trim());
  };
  return (
    <section className="zip" aria-labelledby={headingId}>
      <h3 id={headingId}>{strings.item.zip}</h3>
      <form onSubmit={submit}>
        <Field
          label={strings.item.zipTo}
          hint={strings.item.zipToHint}
          placeholder={strings.item.zipToPlaceholder}
          value={to}
          onChange={(e) => setTo(e.target.value)}
          autoComplete="off"
          required
        />
        <button type="submit" disabled={download.isPending}>
          {strings.item.zipSubmit}
        </button>
      </form>
      <p role="status" aria-live="polite">
        {download.isPending && bytes != null && strings.item.zipProgress(formatBytes(bytes))}
        {download.isSuccess && strings.item.zipSaved(download.data.path)}
      </p>
      {download.isError && <ErrorMessage error={download.error} title={strings.item.zipFailed} />}
    </section>
  );
}
