import { createContext, useContext } from 'react';
import type { Account, WorkspaceSyncApi } from '../shared/app-api';

export const ApiContext = createContext<WorkspaceSyncApi | null>(null);

export function useApi(): WorkspaceSyncApi {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi outside <ApiContext.Provider>');
  return api;
}

export const AccountContext = createContext<Account | null>(null);

/** The signed-in account; the views below the sign-in gate always have one. */
export function useAccount(): Account {
  const account = useContext(AccountContext);
  if (!account) throw new Error('useAccount outside <AccountContext.Provider>');
  return account;
}

/**
 * Opens the sign-in view for an account the service signed out (its pairs wait, kept); the
 * backend starts them again once it is signed in. Provided by App, asked by the sidebar and cards.
 */
export const SignInAgainContext = createContext<(account: Account) => void>(() => undefined);

export const useSignInAgain = (): ((account: Account) => void) => useContext(SignInAgainContext);
