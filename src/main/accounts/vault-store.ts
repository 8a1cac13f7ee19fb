// The account store over a vault: the vault's accounts, those kept in a plain file by choice,
// and those a legacy plain-text file still holds, as one store.
import type { Logger } from '../core/logger';
import type { FileAccountStore } from './accounts';
import {
  isAccountOf,
  normalizeServer,
  pickAccount,
  registerAccountSecrets,
  toStored,
  type Account,
  type AccountInfo,
  type AccountStore,
} from './accounts';
import { withRenewLock } from './process-lock';
import type { Words } from '../errors/user-error';
import { NoVault, type Vault } from './vault';

export type AccountStoreKind = 'keychain' | 'encrypted-file' | 'none';

export interface OpenedAccountStore extends AccountStore {
  readonly kind: AccountStoreKind;
  /** Why the keychain is not used (null when it is). */
  readonly keychainProblem: string | null;
}

/**
 * The store over a vault. `legacy` is a plain-text accounts.json still on disk (the vault is
 * 'none', or moving it failed): read, and emptied by `remove`, never written to otherwise.
 */
export class VaultAccountStore implements OpenedAccountStore {
  private warned = false;

  constructor(
    readonly kind: AccountStoreKind,
    readonly keychainProblem: string | null,
    private readonly vault: Vault,
    private readonly legacy: FileAccountStore | null,
    private readonly log: Logger,
    /** Accounts kept in a plain file by choice (`PLAIN_ACCOUNTS_FILE`). */
    private readonly plain: FileAccountStore,
    /** Where the locks of renewals shared with other processes are. */
    private readonly stateDir: string,
  ) {}

  renewing<T>(server: string, email: string, fn: () => Promise<T>): Promise<T> {
    return withRenewLock(this.stateDir, normalizeServer(server), email, fn);
  }

  async get(server: string, email?: string): Promise<Account | null> {
    const key = normalizeServer(server);
    if (email === undefined) return pickAccount(await this.all(), key);
    const inFile = await this.plain.get(key, email);
    const found = await this.vault.get(key, email);
    if (found || inFile) return newest(found, inFile);
    return (await this.legacyAccounts()).find((a) => isAccountOf(a, key, email)) ?? null;
  }

  async put(account: Account): Promise<void> {
    const entry = toStored(account);
    registerAccountSecrets(entry);
    // An account kept in the file by choice stays there: its renewed tokens too.
    if (await this.plain.get(entry.server, entry.email)) await this.plain.put(entry);
    else await this.vault.set(entry);
  }

  async putInFile(account: Account): Promise<string> {
    const entry = toStored(account);
    registerAccountSecrets(entry);
    await this.plain.put(entry);
    // One copy only: an older one in the keychain would be a second, stale place to look.
    await this.vault.delete(entry.server, entry.email).catch((err: unknown) => {
      this.log.warn('the keychain copy of an account moved to the file could not be removed', {
        err,
      });
    });
    return this.plain.file;
  }

  plainFile(): Promise<string> {
    return Promise.resolve(this.plain.file);
  }

  cannotRemember(): Promise<Words | null> {
    return Promise.resolve(this.vault instanceof NoVault ? this.vault.message : null);
  }

  async remove(server: string, email: string): Promise<boolean> {
    const key = normalizeServer(server);
    const fromVault = await this.vault.delete(key, email);
    // Deleting from the plain-text file only ever takes a token off the disk.
    const fromLegacy = this.legacy ? await this.legacy.remove(key, email) : false;
    const fromFile = await this.plain.remove(key, email);
    return fromVault || fromLegacy || fromFile;
  }

  async list(): Promise<AccountInfo[]> {
    return (await this.all()).map(({ server, email, savedAt }) => ({ server, email, savedAt }));
  }

  /**
   * The vault's accounts and the plain file's (the newer save of one in both), then those only
   * the legacy file has.
   */
  private async all(): Promise<Account[]> {
    const inFile = await this.plain.all();
    const inVault = (await this.vault.all()).map(
      (a) => newest(a, inFile.find((f) => isAccountOf(f, a.server, a.email)) ?? null) ?? a,
    );
    const onlyInFile = inFile.filter(
      (f) => !inVault.some((a) => isAccountOf(a, f.server, f.email)),
    );
    const known = [...inVault, ...onlyInFile];
    const onlyLegacy = (await this.legacyAccounts()).filter(
      (l) => !known.some((a) => isAccountOf(a, l.server, l.email)),
    );
    return [...known, ...onlyLegacy];
  }

  /**
   * The legacy file's accounts; none when it cannot be read (then it never could be moved
   * either: the log says why, and the keychain's accounts must not be held hostage by it).
   */
  private async legacyAccounts(): Promise<Account[]> {
    if (!this.legacy) return [];
    try {
      return await this.legacy.all();
    } catch (err) {
      if (!this.warned) this.log.warn('the plain-text accounts file is unreadable', { err });
      this.warned = true;
      return [];
    }
  }
}

/** Of two saves of one account, the later. */
function newest(a: Account | null, b: Account | null): Account | null {
  if (!a || !b) return a ?? b;
  return (b.savedAt ?? 0) > (a.savedAt ?? 0) ? b : a;
}
