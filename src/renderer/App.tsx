import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Account } from '../shared/app-api';
import { AccountContext, SignInAgainContext, useApi } from './context';
import { Loading } from './components/Loading';
import { ErrorMessage } from './components/ErrorMessage';
import { SignIn } from './views/SignIn';
import { Shell } from './Shell';
import type { View } from './navigation';
import { linkOptionsOf } from '../shared/link-options';
import { LinkOptionsPage } from './views/LinkOptionsPage';

/** Opened at one item's link options (a file manager's "Copy link with options…"), or not. */
const linkOptions = linkOptionsOf(location.search);

/**
 * The account the window shows, kept for the session (a reload keeps it; a new window starts
 * with the first account): sessionStorage, which a browser without storage simply lacks.
 */
const CHOICE = 'workspace-sync.account';
function storedChoice(): string | null {
  try {
    return sessionStorage.getItem(CHOICE);
  } catch {
    return null;
  }
}
function storeChoice(id: string | null): void {
  try {
    if (id === null) sessionStorage.removeItem(CHOICE);
    else sessionStorage.setItem(CHOICE, id);
  } catch {
    // Without storage the choice lasts as long as the page.
  }
}

/** The gate: the sign-in view until there is an account, then the app itself. */
export function App() {
  const api = useApi();
  const queryClient = useQueryClient();
  const [chosen, setChosenAccount] = useState<Account | null>(null);
  const [chosenId, setChosenId] = useState<string | null>(storedChoice);
  /** The view a switch of accounts happened on: the other account's is shown there. */
  const [switchedOn, setSwitchedOn] = useState<View | null>(null);
  const setChosen = (a: Account | null) => {
    setChosenAccount(a);
    setChosenId(a?.id ?? null);
    storeChoice(a?.id ?? null);
  };
  const [signedOut, setSignedOut] = useState(false);
  /** "Add account" shows the sign-in view over the window; then the new account's setup. */
  const [adding, setAdding] = useState(false);
  /** "Sign in again" for an account the service signed out: the sign-in view, filled in. */
  const [again, setAgain] = useState<Account | null>(null);
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

  // The chosen account (just signed in: before the refreshed list comes back); one signed out
  // meanwhile, or none chosen, gives way to the first.
  const listed = chosenId === null ? undefined : accounts.data.find((a) => a.id === chosenId);
  const account =
    listed ?? (chosen && chosen.id === chosenId ? chosen : null) ?? accounts.data[0] ?? null;
  const optionsOf = linkOptions && accounts.data.find((a) => a.id === linkOptions.accountId);
  if (linkOptions && optionsOf) {
    return (
      <AccountContext.Provider value={optionsOf}>
        <LinkOptionsPage target={linkOptions} />
      </AccountContext.Provider>
    );
  }
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
  if (again) {
    // Its pairs were kept: the backend starts them again; no setup form follows.
    return (
      <SignIn
        again={again}
        onCancel={() => setAgain(null)}
        onSignedIn={() => {
          setAgain(null);
          void queryClient.invalidateQueries({ queryKey: ['accounts'] });
          void queryClient.invalidateQueries({ queryKey: ['pairs'] });
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
      <SignInAgainContext.Provider value={setAgain}>
        <Shell
          key={account.id}
          setupFor={setupFor}
          switchedOn={switchedOn}
          onSwitchAccount={(id, view) => {
            const next = accounts.data.find((a) => a.id === id);
            if (!next || next.id === account.id) return;
            setSetupFor(null);
            setSwitchedOn(view);
            setChosen(next);
          }}
          onAddAccount={() => {
            setSetupFor(null);
            setAdding(true);
          }}
          onSignedOut={() => {
            // Another account signed in is shown next (the first of the list).
            setSwitchedOn(null);
            setChosen(null);
            setSignedOut(true);
          }}
        />
      </SignInAgainContext.Provider>
    </AccountContext.Provider>
  );
}
