// Where tokens live: the OS keychain through keytar (macOS Keychain, Windows Credential Manager,
// a Secret Service such as gnome-keyring), else a file encrypted by the desktop app's
// safeStorage, never a plain file. One keychain for every state directory, so that the CLI and
// the app see the same accounts.
//
// Opening the store: which vault (keychain-probe.ts finds a keychain that works; the vaults are
// keychain-vault.ts, encrypted-vault.ts and vault.ts), and moving older files' accounts into it
// (move-accounts.ts).
import path from 'node:path';
import type { Logger } from '../core/logger';
import { FileAccountStore, type AccountStore } from './accounts';
import { readStateFile } from '../state/json-file';
import { UserError } from '../errors/user-error';
import { EncryptedFileVault, type SecretCipher } from './encrypted-vault';
import { loadKeytar, probe, type Keychain } from './keychain-probe';
import { KeychainVault } from './keychain-vault';
import { moveAccounts } from './move-accounts';
import { NoVault, noVaultMessage, type Vault } from './vault';
import { VaultAccountStore, type AccountStoreKind, type OpenedAccountStore } from './vault-store';

export type { SecretCipher } from './encrypted-vault';
export { probeService, type Keychain } from './keychain-probe';
export { KEYCHAIN_VALUE_MAX } from './keychain-vault';
export { NoKeychainError } from './vault';
export type { AccountStoreKind, OpenedAccountStore } from './vault-store';

/** The keychain service every entry is filed under (what Seahorse or Keychain Access show). */
export const KEYCHAIN_SERVICE = 'Workspace Sync';

/**
 * The service name to use: WORKSPACE_SYNC_KEYCHAIN_SERVICE when set (tests give each file its
 * own, so that parallel test files do not see each other's accounts), else KEYCHAIN_SERVICE.
 */
export function keychainService(env: NodeJS.ProcessEnv): string {
  return env.WORKSPACE_SYNC_KEYCHAIN_SERVICE?.trim() || KEYCHAIN_SERVICE;
}

/** The plain-text file of versions before the keychain. */
export const LEGACY_ACCOUNTS_FILE = 'accounts.json';
/**
 * Accounts the person chose to keep out of the keychain (`login --store file`, for a server
 * without one, like the GitHub CLI's insecure storage): plain text, readable by this user only.
 * Never moved into the keychain: renewed tokens are written back here.
 */
export const PLAIN_ACCOUNTS_FILE = 'accounts.plain.json';
/** The desktop app's fallback where no keychain works: safeStorage-encrypted. */
export const ENCRYPTED_ACCOUNTS_FILE = 'accounts.enc.json';

async function exists(file: string): Promise<boolean> {
  return (await readStateFile(file)) !== null;
}

/**
 * The account store: the OS keychain when keytar loads and the keychain can keep a secret; else,
 * given a cipher that is available, a file in `stateDir` encrypted by it; else 'none', which
 * finds nothing and refuses to store, saying why. Never plain text.
 *
 * On open, accounts that earlier versions kept in `<stateDir>/accounts.json` move into the vault
 * and the file is deleted. Where there is no vault, the file is left alone and its accounts stay
 * usable read-only (they are already on disk; nothing new is written there). A file encrypted by
 * the app's fallback moves into the keychain when one works again and the cipher can read it.
 */
export async function openAccountStore(opts: {
  stateDir: string;
  log: Logger;
  cipher?: SecretCipher;
  /** The keychain service name (default KEYCHAIN_SERVICE; see `keychainService`). */
  service?: string;
  /** Instead of keytar (null: no keychain), for tests and embedders. */
  keychain?: Keychain | null;
}): Promise<OpenedAccountStore> {
  const { stateDir, log, cipher } = opts;
  const service = opts.service ?? KEYCHAIN_SERVICE;
  const legacyFile = path.join(stateDir, LEGACY_ACCOUNTS_FILE);
  const encryptedFile = path.join(stateDir, ENCRYPTED_ACCOUNTS_FILE);

  let problem: string | null;
  let keychain: Keychain | null = null;
  const loaded =
    opts.keychain === undefined
      ? await loadKeytar()
      : (opts.keychain ?? 'no keychain was given to the account store');
  if (typeof loaded === 'string') {
    problem = loaded;
  } else {
    problem = await probe(loaded, service);
    if (problem === null) keychain = loaded;
  }
  const cipherWorks = cipher ? await cipher.isAvailable().catch(() => false) : false;

  let kind: AccountStoreKind;
  let vault: Vault;
  if (keychain) {
    kind = 'keychain';
    vault = new KeychainVault(keychain, service, log);
    if (cipher && cipherWorks && (await exists(encryptedFile))) {
      await moveAccounts(new EncryptedFileVault(encryptedFile, cipher), vault, 'keychain', log);
    }
  } else if (cipher && cipherWorks) {
    kind = 'encrypted-file';
    vault = new EncryptedFileVault(encryptedFile, cipher);
  } else {
    kind = 'none';
    vault = new NoVault(noVaultMessage(problem ?? 'unknown', cipher !== undefined));
  }
  if (problem !== null) log.info('no keychain', { problem, store: kind });

  let legacy: FileAccountStore | null = new FileAccountStore(legacyFile);
  if (!(await exists(legacyFile))) {
    legacy = null;
  } else if (kind !== 'none') {
    const where = kind === 'keychain' ? 'keychain' : 'encrypted file';
    if (await moveAccounts(legacy, vault, where, log)) legacy = null;
  }
  const plain = new FileAccountStore(path.join(stateDir, PLAIN_ACCOUNTS_FILE));
  return new VaultAccountStore(kind, problem, vault, legacy, log, plain, stateDir);
}

/**
 * A store opened on first use: commands that never need an account (help, a pasted token, the
 * embedded sandbox) never touch the keychain. A failed open is tried again on the next call.
 */
export function deferredAccountStore(open: () => Promise<AccountStore>): AccountStore {
  let opening: Promise<AccountStore> | null = null;
  const store = () =>
    (opening ??= open().catch((err: unknown) => {
      opening = null;
      throw err;
    }));
  return {
    get: async (server, email) => (await store()).get(server, email),
    put: async (account) => (await store()).put(account),
    remove: async (server, email) => (await store()).remove(server, email),
    list: async () => (await store()).list(),
    cannotRemember: async () => (await store()).cannotRemember?.() ?? null,
    renewing: async (server, email, fn) => {
      const opened = await store();
      return opened.renewing ? opened.renewing(server, email, fn) : fn();
    },
    putInFile: async (account) => {
      const opened = await store();
      if (!opened.putInFile) throw new UserError({ key: 'account.noFileStore' });
      return opened.putInFile(account);
    },
    plainFile: async () => {
      const opened = await store();
      if (!opened.plainFile) throw new UserError({ key: 'account.noFileStore' });
      return opened.plainFile();
    },
  };
}
