import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AppCallError, type Link, type ParamsOf } from '../../shared/app-api';
import { useAccount, useApi } from '../context';
import type { SelectedItem } from '../navigation';
import { endOfDayIso, toDateInput } from '../format';
import { strings } from '../strings';
import { Loading } from '../components/Loading';
import { ErrorMessage } from '../components/ErrorMessage';
import { CopyLink } from './CopyLink';

type Change = Omit<ParamsOf<'links.update'>, 'accountId' | 'kind' | 'itemId'>;

export function ShareLink({ item }: { item: SelectedItem }) {
  const api = useApi();
  const account = useAccount();
  const queryClient = useQueryClient();
  const on = { accountId: account.id, kind: item.kind, itemId: item.id };
  const key = ['links', account.id, item.kind, item.id];
  const link = useQuery({ queryKey: key, queryFn: () => api.call('links.get', on) });
  // Turning the password on needs a password first: the box shows the field, not a request.
  const [wantsPassword, setWantsPassword] = useState(false);
  const [password, setPassword] = useState('');
  const update = useMutation({
    mutationFn: (change: Change) => api.call('links.update', { ...on, ...change }),
    onSuccess: (updated: Link) => {
      queryClient.setQueryData(key, updated);
      setPassword('');
      setWantsPassword(false);
    },
  });
  /**
   * A switch moves at once, as a person expects of a switch, and goes back if the service
   * refuses. Local state, not the query cache: the cache notifies on a later tick, and a
   * controlled checkbox left unchanged by its own click event flips back in between.
   */
  const [overrides, setOverrides] = useState<Partial<Link>>({});
  useEffect(() => setOverrides({}), [link.data]);
  const change = (c: Change) => {
    const { password: _password, ...visible } = c;
    setOverrides((o) => ({ ...o, ...visible }));
    update.mutate(c, { onError: () => setOverrides({}) });
  };

  if (link.isPending)
    return (
      <section className="panel-section share">
        <h3>{strings.item.share}</h3>
        <Loading />
      </section>
    );
  if (link.isError)
    return (
      <section className="panel-section share">
        <h3>{strings.item.share}</h3>
        {/* A role that may not read links is an answer, not a failure. */}
        {link.error instanceof AppCallError && link.error.error.kind === 'forbidden' ? (
          <p className="notice">{link.error.message}</p>
        ) : (
          <ErrorMessage error={link.error} />
        )}
      </section>
    );
  const l = { ...link.data, ...overrides };
  const readOnly = l.readOnlyReason != null;
  const disabled = readOnly || update.isPending;
  const showPassword = !readOnly && (wantsPassword || l.requirePassword);

  return (
    <section aria-labelledby="share-title" className="panel-section share">
      <h3 id="share-title">{strings.item.share}</h3>
      {readOnly && (
        <p className="notice" id="link-readonly">
          {l.readOnlyReason}
        </p>
      )}
      <fieldset disabled={disabled} aria-describedby={readOnly ? 'link-readonly' : undefined}>
        <legend className="visually-hidden">{strings.item.share}</legend>
        <label className="check">
          <input
            type="checkbox"
            checked={l.tokenAccessible}
            onChange={(e) => change({ tokenAccessible: e.target.checked })}
          />
          {strings.item.linkEnabled}
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={l.requirePassword || wantsPassword}
            onChange={(e) => {
              if (e.target.checked) setWantsPassword(true);
              else if (l.requirePassword) change({ requirePassword: false });
              else setWantsPassword(false);
            }}
          />
          {strings.item.requirePassword}
        </label>
        {showPassword && (
          <form
            className="inline-form"
            onSubmit={(e) => {
              e.preventDefault();
              if (password) change({ requirePassword: true, password });
            }}
          >
            <label htmlFor="link-password">{strings.item.linkPassword}</label>
            <input
              id="link-password"
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            <button type="submit" disabled={!password}>
              {strings.item.setPassword}
            </button>
          </form>
        )}
        <div className="field inline">
          <label htmlFor="link-expiry">{strings.item.expires}</label>
          <input
            id="link-expiry"
            type="date"
            value={toDateInput(l.expiresAt)}
            onChange={(e) =>
              change({ expiresAt: e.target.value ? endOfDayIso(e.target.value) : null })
            }
          />
          {l.expiresAt ? (
            <button
              type="button"
              className="link-button"
              onClick={() => change({ expiresAt: null })}
            >
              {strings.item.clearExpiry}
            </button>
          ) : (
            <span className="muted">{strings.item.noExpiry}</span>
          )}
        </div>
      </fieldset>
      {update.isError && <ErrorMessage error={update.error} />}
      {l.tokenAccessible ? (
        <CopyLink item={item} />
      ) : (
        <p className="muted">{strings.item.linkOff}</p>
      )}
    </section>
  );
}
