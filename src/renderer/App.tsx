import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Account } from '../shared/app-api';
import { AccountContext, useApi } from './context';
import { Loading } from './components/Loading';
import { ErrorMessage } from './components/ErrorMessage';
import { SignIn } from './views/SignIn';
import { Shell } from './Shell';

/** The gate: the sign-in view until there is an account, then the app itself. */
export function App() {
  const api = useApi();
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<Account | null>(null);
  const [signedOut, setSignedOut] = useState(false);
  /** "Add account" shows the sign-in view over the window; then the new account's setup. */
  const [adding, setAdding] = useState(false);
  const [setupFor, setSetupFor] = useState<string | null>(null);
  const accounts = useQuery({
    queryKey: ['accounts'],
    queryFn: () => api.call('accounts.list', {}),
  });
  // After a sign-out, once the shell is gone (so its queries cannot ask again for the old
  // account): drop everything cached and learn the accounts anew.
  useEffect(() => {
    if (!signedOut) return;
    void queryClient.resetQueries().finally(() => setSignedOut(false));
  }, [signedOut, queryClient]);

  if (accounts.isPending || signedOut) return <Loading />;
  if (accounts.isError)
    return <ErrorMessage error={accounts.error} onRetry={() => void accounts.refetch()} />;

  // Just signed in: the new account is used before the refreshed list comes back.
  const account =
    (chosen && (accounts.data.find((a) => a.id === chosen.id) ?? chosen)) ??
    accounts.data[0] ??
    null;
  if (!account) {
    return (
      <SignIn
        onSignedIn={(a) => {
          setChosen(a);
          void queryClient.invalidateQueries({ queryKey: ['accounts'] });
        }}
      />
    );
  }
  if (adding) {
    // The window's account stays the same; the new one is offered in the setup form at once.
    return (
      <SignIn
        onCancel={() => setAdding(false)}
        onSignedIn={(a) => {
          setChosen(account);
          setSetupFor(a.id);
          setAdding(false);
          void queryClient.invalidateQueries({ queryKey: ['accounts'] });
        }}
      />
    );
  }
  return (
    <AccountContext.Provider value={account}>
      <Shell
        key={account.id}
        setupFor={setupFor}
        onAddAccount={() => {
          setSetupFor(null);
          setAdding(true);
        }}
        onSignedOut={() => {
          setChosen(null);
          setSignedOut(true);
        }}
      />
    </AccountContext.Provider>
  );
}
