import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AppCallError, type Link } from '../../shared/app-api';
import { useAccount, useApi } from '../context';
import type { SelectedItem } from '../navigation';
import { endOfDayIso, formatDay, toDateInput } from '../format';
import { strings } from '../strings';
import { Loading } from '../components/Loading';
import { ErrorMessage } from '../components/ErrorMessage';
import { CopyLink } from './CopyLink';
import { LinkPassword, type LinkChange } from './LinkPassword';

/** What a change made true, said once the service has answered with the link as it now is. */
function savedWords(change: LinkChange, link: Link): string {
  if (change.password !== undefined || change.requirePassword !== undefined)
    return link.requirePassword ? strings.item.savedPassword : strings.item.savedNoPassword;
  if (change.expiresAt !== undefined)
    return link.expiresAt
      ? strings.item.savedExpires(formatDay(link.expiresAt))
      : strings.item.savedNoExpiry;
  return link.tokenAccessible ? strings.item.savedOn : strings.item.savedOff;
}

/** The service asks for a password for every link (backend.linkPasswordRequired). */
function asksForPassword(error: unknown): boolean {
  return error instanceof AppCallError && error.words?.key === 'backend.linkPasswordRequired';
}

/**
 * An item's share link: on or off, whether a password is set (never the password), its expiry,
 * and copying it. Every control shows the link as the service last answered: a change is sent,
 * the controls wait, and what became true is said only then ("Saved: …").
 */
export function ShareLink({ item }: { item: SelectedItem }) {
  const api = useApi();
  const account = useAccount();
  const queryClient = useQueryClient();
  const on = { accountId: account.id, kind: item.kind, itemId: item.id };
  const key = ['links', account.id, item.kind, item.id];
  const link = useQuery({ queryKey: key, queryFn: () => api.call('links.get', on) });
  const [said, setSaid] = useState<string | null>(null);
  const update = useMutation({
    mutationFn: (change: LinkChange) => api.call('links.update', { ...on, ...change }),
    onMutate: () => setSaid(null),
    onSuccess: (updated: Link, change) => {
      queryClient.setQueryData(key, updated);
      setSaid(savedWords(change, updated));
    },
  });
  // The change a service refused for want of a password: sent again with the one typed.
  const asked = update.isError && asksForPassword(update.error) ? (update.variables ?? null) : null;

  if (link.isPending)
    return (
      <section className="panel-section share">
        <h3>{strings.item.share}</h3>
        <Loading />
      </section>
    );
  if (link.isError)
    return (
      <section aria-labelledby="share-title" className="panel-section share">
        <h3 id="share-title">{strings.item.share}</h3>
        {/* A role that may not read links is an answer, not a failure: the controls, disabled. */}
        {link.error instanceof AppCallError && link.error.error.kind === 'forbidden' ? (
          <>
            <p className="notice" id="link-hidden">
              {strings.item.linkHidden}
            </p>
            <button type="button" disabled aria-describedby="link-hidden">
              {strings.item.copy}
            </button>
          </>
        ) : (
          <ErrorMessage error={link.error} />
        )}
      </section>
    );
  const l = link.data;
  const readOnly = l.readOnlyReason != null;
  const busy = update.isPending;

  return (
    <section aria-labelledby="share-title" className="panel-section share">
      <h3 id="share-title">{strings.item.share}</h3>
      {readOnly && (
        <p className="notice" id="link-readonly">
          {strings.item.linkReadOnly}
        </p>
      )}
      <fieldset
        disabled={readOnly || busy}
        aria-describedby={readOnly ? 'link-readonly' : undefined}
      >
        <legend className="visually-hidden">{strings.item.share}</legend>
        <label className="check">
          <input
            type="checkbox"
            checked={l.tokenAccessible}
            onChange={(e) => update.mutate({ tokenAccessible: e.target.checked })}
          />
          {strings.item.linkEnabled}
        </label>
        <LinkPassword
          link={l}
          readOnly={readOnly}
          asked={asked}
          onChange={(change) => update.mutate(change)}
          onCancel={() => update.reset()}
        />
        <div className="field inline">
          <label htmlFor="link-expiry">{strings.item.expires}</label>
          <input
            id="link-expiry"
            type="date"
            value={toDateInput(l.expiresAt)}
            onChange={(e) =>
              update.mutate({ expiresAt: e.target.value ? endOfDayIso(e.target.value) : null })
            }
          />
          {l.expiresAt ? (
            <button
              type="button"
              className="link-button"
              onClick={() => update.mutate({ expiresAt: null })}
            >
              {strings.item.clearExpiry}
            </button>
          ) : (
            <span className="muted">{strings.item.noExpiry}</span>
          )}
        </div>
      </fieldset>
      <p role="status" aria-live="polite" className="saved">
        {busy ? strings.item.saving : said}
      </p>
      {update.isError && <ErrorMessage error={update.error} />}
      {l.tokenAccessible ? (
        <CopyLink item={item} />
      ) : (
        <p className="muted">{strings.item.linkOff}</p>
      )}
    </section>
  );
}
