import { useState } from 'react';
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
  const accounts = useQuery({
    queryKey: ['accounts'],
    queryFn: () => api.call('accounts.list', {}),
  });

  if (accounts.isPending) return <Loading />;
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
  return (
    <AccountContext.Provider value={account}>
      <Shell
        key={account.id}
        onSignedOut={() => {
          setChosen(null);
          // What the previous account saw must not show for the next one; the account list
          // goes back to loading, so the signed-out shell is gone until it is known again.
          void queryClient.resetQueries();
        }}
      />
    </AccountContext.Provider>
  );
}
