import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useAccount, useApi } from '../context';
import { useEvent } from '../hooks';
import { formatBytes } from '../format';
import { strings } from '../strings';
import { Field } from '../components/Field';
import { ErrorMessage } from '../components/ErrorMessage';

/**
 * A folder as one zip: in the desktop app saved where the OS's save dialog says
 * (`local.chooseZipFile`); in a browser where the person types (no native picker there): a
 * folder or a file name, `~` for home. The backend (backend/zip.ts) answers the path it wrote
 * once the file is whole. Progress is what the backend pushes: bytes so far.
 */
export function DownloadZip({ folderId, name }: { folderId: number; name: string }) {
  const api = useApi();
  const info = useQuery({ queryKey: ['app.info'], queryFn: () => api.call('app.info', {}) });
  // The typed place once app.info said this is no desktop app (or could not say).
  const desktop = info.data?.desktop === true;
  const typed = info.isError || (info.isSuccess && !desktop);
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
  // Cancelled: nothing asked of the backend, nothing said.
  const choose = useMutation({
    mutationFn: () => api.call('local.chooseZipFile', { name }),
    onSuccess: (r) => r.path !== null && download.mutate(r.path),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (to.trim()) download.mutate(to.trim());
  };
  return (
    <section className="zip" aria-labelledby={headingId}>
      <h3 id={headingId}>{strings.item.zip}</h3>
      {desktop && (
        <button
          type="button"
          onClick={() => choose.mutate()}
          disabled={choose.isPending || download.isPending}
        >
          {strings.item.zipChoose}
        </button>
      )}
      {typed && (
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
      )}
      <p role="status" aria-live="polite">
        {download.isPending && bytes != null && strings.item.zipProgress(formatBytes(bytes))}
        {download.isSuccess && strings.item.zipSaved(download.data.path)}
      </p>
      {download.isError && <ErrorMessage error={download.error} title={strings.item.zipFailed} />}
      {choose.isError && <ErrorMessage error={choose.error} title={strings.item.zipFailed} />}
    </section>
  );
}
