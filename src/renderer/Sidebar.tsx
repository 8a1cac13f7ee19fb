import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAccount, useApi } from './context';
import type { View } from './navigation';
import { strings } from './strings';
import { ErrorMessage } from './components/ErrorMessage';

const views: View[] = ['status', 'browse', 'activity', 'workspaces', 'settings', 'about'];

export function Sidebar({
  view,
  onSelect,
  onSignOut,
  signingOut,
  onAddAccount,
}: {
  view: View;
  onSelect: (view: View) => void;
  onSignOut: () => void;
  signingOut: boolean;
  onAddAccount: () => void;
}) {
  const api = useApi();
  const account = useAccount();
  const queryClient = useQueryClient();
  const accounts = useQuery({
    queryKey: ['accounts'],
    queryFn: () => api.call('accounts.list', {}),
  });
  // The window's views use its first account; the others sync their folders (Status) and can
  // be signed out here (their pairs stop, their folders stay).
  const others = (accounts.data ?? []).filter((a) => a.id !== account.id);
  const signOutOther = useMutation({
    mutationFn: (accountId: string) => api.call('accounts.signOut', { accountId }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['accounts'] }),
        queryClient.invalidateQueries({ queryKey: ['pairs'] }),
      ]),
  });
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
        <p className="account-name">{strings.nav.signedInAs(account.name, account.email)}</p>
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
                    disabled={signOutOther.isPending}
                    onClick={() => signOutOther.mutate(a.id)}
                  >
                    {strings.nav.signOut}
                  </button>
                </li>
              ))}
            </ul>
          </>
        )}
        {signOutOther.isError && <ErrorMessage error={signOutOther.error} />}
        <div className="actions">
          <button type="button" onClick={onAddAccount}>
            {strings.accounts.add}
          </button>
          <button type="button" onClick={onSignOut} disabled={signingOut}>
            {strings.nav.signOut}
          </button>
        </div>
      </div>
    </nav>
  );
}
