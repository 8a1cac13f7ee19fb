// A vault: where the accounts' secrets rest (the OS keychain, a file encrypted by the app's
// safeStorage, or none), and what one holds per account. The stores themselves are each in a
// module of their own (keychain-vault.ts, encrypted-vault.ts); this holds what they share.
import { z } from 'zod';
import type { Account } from './accounts';
import { UserError } from '../errors/user-error';
import type { Words } from '../errors/user-error';

/** Nowhere safe to keep a token: the account cannot be remembered. */
export class NoKeychainError extends UserError {
  constructor(message: string | Words) {
    super(message);
    this.name = 'NoKeychainError';
  }
}

/** One account as a vault keeps it. */
export const StoredAccount = z.object({
  server: z.string().min(1),
  email: z.string(),
  accessToken: z.string().min(1),
  refreshToken: z.string().nullable(),
  clientId: z.string().optional(),
  clientSecret: z.string().optional(),
  savedAt: z.number().optional(),
});

/** Secrets at rest, whatever holds them. */
export interface Vault {
  get(server: string, email: string): Promise<Account | null>;
  all(): Promise<Account[]>;
  /** Stores `account` as given (savedAt included). */
  set(account: Account): Promise<void>;
  delete(server: string, email: string): Promise<boolean>;
}

/** No vault: nothing is found, nothing can be stored. */
export class NoVault implements Vault {
  constructor(readonly message: Words) {}
  get(): Promise<Account | null> {
    return Promise.resolve(null);
  }
  all(): Promise<Account[]> {
    return Promise.resolve([]);
  }
  set(): Promise<void> {
    return Promise.reject(new NoKeychainError(this.message));
  }
  delete(): Promise<boolean> {
    return Promise.resolve(false);
  }
}

/** Why no account can be remembered here, and the remedy. */
export function noVaultMessage(problem: string, withCipher: boolean): Words {
  // The remedy: a Secret Service on Linux, an unlocked keychain elsewhere.
  const params = { problem, os: process.platform === 'linux' ? 'linux' : 'other' };
  return { key: withCipher ? 'account.noKeychainNoCipher' : 'account.noKeychain', params };
}
