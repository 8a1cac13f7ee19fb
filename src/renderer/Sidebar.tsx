import { useId, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Account } from '../shared/app-api';
import { useAccount, useApi, useSignInAgain } from './context';
import type { View } from './navigation';
import { strings } from './strings';
import { SignOutDialog } from './views/SignOutDialog';

const views: View[] = ['status', 'browse', 'activity', 'workspaces', 'trash', 'settings', 'about'];

export function Sidebar({
  view,
  onSelect,
  onSignedOut,
  onAddAccount,
  onSwitchAccount,
}: {
  view: View;
  onSelect: (view: View) => void;
  /** The account shown was signed out (asked first, here). */
  onSignedOut: () => void;
  onAddAccount: () => void;
  onSwitchAccount: (accountId: string) => void;
}) {
  const switcherId = useId();
  const api = useApi();
  const account = useAccount();
  const queryClient = useQueryClient();
  const accounts = useQuery({
    queryKey: ['accounts'],
    queryFn: () => api.call('accounts.list', {}),
  });
  // Browse, Activity and Workspaces show one account, chosen here when there are several; every
  // account syncs its folders (Status), and the others can be signed out here (their pairs
  // stop, their folders stay).
  // Listed as people read them (the store's order is the order of signing in).
  const all = [...(accounts.data ?? [])].sort((a, b) =>
    (a.name || a.email).localeCompare(b.name || b.email),
  );
  const others = (accounts.data ?? []).filter((a) => a.id !== account.id);
  // As the backend knows it now: the service may have signed the account out since.
  const current = accounts.data?.find((a) => a.id === account.id) ?? account;
  const signInAgain = useSignInAgain();
  // The account whose sign-out is being asked (SignOutDialog names the folders that stop).
  const [asking, setAsking] = useState<Account | null>(null);
  return (
    <nav id="sidebar" className="sidebar" aria-label={strings.nav.label}>
      <p className="brand">{strings.appName}</p>
      <ul>
        {views.map((v) => (
          <li key={v}>
            <button
              type="button"
              className="nav-button"
              aria-current={v === view ? 'page' : undefined}
              onClick={() => onSelect(v)}
            >
              {strings.nav[v]}
            </button>
          </li>
        ))}
      </ul>
      <div className="account">
        {all.length > 1 && all.some((a) => a.id === account.id) ? (
          <div className="account-switch">
            <label htmlFor={switcherId}>{strings.nav.account}</label>
            <select
              id={switcherId}
              value={account.id}
              aria-describedby={`${switcherId}-hint`}
              onChange={(e) => onSwitchAccount(e.target.value)}
            >
              {all.map((a) => (
                <option key={a.id} value={a.id}>
                  {strings.nav.accountChoice(a.name, a.email, hostOf(a.server))}
                </option>
              ))}
            </select>
            {/* The whole of the choice, which the closed list cuts off in a narrow sidebar. */}
            <p id={`${switcherId}-hint`} className="account-name">
              {strings.nav.accountChoice(account.name, account.email, hostOf(account.server))}
            </p>
          </div>
        ) : current.signedOut ? null : (
          <p className="account-name">{strings.nav.signedInAs(account.name, account.email)}</p>
        )}
        {current.sessionOnly && <p className="hint">{strings.nav.sessionOnly}</p>}
        {current.signedOut && (
          // Not "Signed in as": the service no longer accepts it; its folders wait, kept.
          <div className="signed-out" role="status">
            <p className="account-name">
              <strong>{strings.nav.signedOut(current.email || current.name)}</strong>
            </p>
            <button type="button" className="primary" onClick={() => signInAgain(current)}>
              {strings.nav.signInAgain}
            </button>
          </div>
        )}
        {others.length > 0 && (
          <>
            <p className="account-name">{strings.accounts.others}</p>
            <ul className="other-accounts">
              {others.map((a) => (
                <li key={a.id}>
                  <span>{a.email}</span>
                  <button
                    type="button"
                    className="link-button"
                    aria-label={strings.accounts.signOutOf(a.email)}
                    onClick={() => setAsking(a)}
                  >
                    {strings.nav.signOut}
                  </button>
                </li>
              ))}
            </ul>
          </>
        )}
        <div className="actions">
          <button type="button" onClick={onAddAccount}>
            {strings.accounts.add}
          </button>
          {/* With several accounts, each sign-out says whose. */}
          <button type="button" onClick={() => setAsking(current)}>
            {others.length > 0 ? strings.accounts.signOutOf(account.email) : strings.nav.signOut}
          </button>
        </div>
      </div>
      {asking && (
        <SignOutDialog
          key={asking.id}
          account={asking}
          onClose={() => setAsking(null)}
          onSignedOut={async () => {
            setAsking(null);
            if (asking.id === account.id) return onSignedOut();
            await Promise.all([
              queryClient.invalidateQueries({ queryKey: ['accounts'] }),
              queryClient.invalidateQueries({ queryKey: ['pairs'] }),
            ]);
          }}
        />
      )}
    </nav>
  );
}

/** The server's host, as the switcher names it (the address itself when it is not a URL). */
function hostOf(server: string): string {
  try {
    return new URL(server).host;
  } catch {
    return server;
  }
}
