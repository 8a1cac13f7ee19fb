import path from 'node:path';
import { registerSecret } from '../api/errors';
import { UserError } from '../errors/user-error';
import type { Words } from '../errors/user-error';
import { readStateFile, writeStateFile } from '../state/json-file';
import { withProcessLock } from './process-lock';

/** The tokens of one account on one server, and the OAuth client they were issued to. */
export interface Account {
  /** The server's base URL, normalized (see `normalizeServer`). */
  server: string;
  email: string;
  accessToken: string;
  refreshToken: string | null;
  /** The OAuth client the tokens belong to: a refresh must use the same one. */
  clientId?: string;
  clientSecret?: string;
  /** Epoch ms of the last save. */
  savedAt?: number;
}

/** What `list` shows: no tokens. */
export type AccountInfo = Pick<Account, 'server' | 'email' | 'savedAt'>;

/**
 * Where signed-in accounts live: the OS keychain, shared by the CLI and the app
 * (`openAccountStore` in keychain.ts); in memory for a throwaway sandbox.
 */
export interface AccountStore {
  /**
   * The account of `email` on `server`; without an email, the only account of that server
   * (AmbiguousAccountError when there are several). Null when there is none.
   */
  get(server: string, email?: string): Promise<Account | null>;
  /** Adds or replaces the account of (server, email). */
  put(account: Account): Promise<void>;
  /** Forgets an account; false when there was none. */
  remove(server: string, email: string): Promise<boolean>;
  list(): Promise<AccountInfo[]>;
  /**
   * Why a new account could not be remembered (no keychain, nothing to encrypt with), or null:
   * asked before a sign-in, so that nobody types a password for nothing.
   */
  cannotRemember?(): Promise<Words | null>;
  /**
   * Keeps `account` in a plain file that only this user may read, instead of the keychain: the
   * person's explicit choice on a machine without one (`login --store file`). Returns the file.
   */
  putInFile?(account: Account): Promise<string>;
  /** The file `putInFile` writes, to name it before the person chooses it. */
  plainFile?(): Promise<string>;
  /**
   * Runs a renewal of the account's tokens while no other process sharing this store renews
   * them (`process-lock.ts`); absent where no other process can share the store.
   */
  renewing?<T>(server: string, email: string, fn: () => Promise<T>): Promise<T>;
}

export class AmbiguousAccountError extends UserError {
  constructor(
    readonly server: string,
    readonly emails: string[],
  ) {
    super({ key: 'account.ambiguous', params: { server, emails: emails.join(', ') } });
    this.name = 'AmbiguousAccountError';
  }
}

/** One spelling per server: scheme and host lower-cased (by URL), no trailing slash, no query. */
export function normalizeServer(server: string): string {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new UserError({ key: 'account.notUrl', params: { server } });
  }
  return (url.origin + url.pathname).replace(/\/+$/, '');
}

const sameEmail = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Whether `a` is the account of (server, email): `server` normalized, emails in any case. */
export const isAccountOf = (a: AccountInfo, server: string, email: string): boolean =>
  a.server === server && sameEmail(a.email, email);

/**
 * `get`'s choice among `accounts`: the one of `email` on `server`, or without an email the only
 * one on `server` (AmbiguousAccountError when there are several).
 */
export function pickAccount(accounts: Account[], server: string, email?: string): Account | null {
  const key = normalizeServer(server);
  const onServer = accounts.filter((a) => a.server === key);
  if (email !== undefined) return onServer.find((a) => sameEmail(a.email, email)) ?? null;
  if (onServer.length > 1)
    throw new AmbiguousAccountError(
      key,
      onServer.map((a) => a.email),
    );
  return onServer[0] ?? null;
}

/** Every secret of an account goes into the redaction list as soon as it is in memory. */
export function registerAccountSecrets(a: Account): void {
  registerSecret(a.accessToken);
  registerSecret(a.refreshToken);
  registerSecret(a.clientSecret);
}

/** `account` as stored: server normalized, refresh token null when absent, saved now. */
export function toStored(account: Account, savedAt = Date.now()): Account {
  return {
    ...account,
    server: normalizeServer(account.server),
    refreshToken: account.refreshToken ?? null,
    savedAt,
  };
}

/**
 * Accounts that die with the process: an embedded sandbox's tokens are worthless once it stops,
 * so they have no business in a keychain.
 */
export class MemoryAccountStore implements AccountStore {
  private accounts: Account[] = [];

  // async, also below: a bad server or an ambiguous choice rejects, as with every store.
  async get(server: string, email?: string): Promise<Account | null> {
    return pickAccount(this.accounts, server, email);
  }

  async put(account: Account): Promise<void> {
    const entry = toStored(account);
    registerAccountSecrets(entry);
    this.accounts = this.accounts.filter((a) => !isAccountOf(a, entry.server, entry.email));
    this.accounts.push(entry);
  }

  async remove(server: string, email: string): Promise<boolean> {
    const key = normalizeServer(server);
    const before = this.accounts.length;
    this.accounts = this.accounts.filter((a) => !isAccountOf(a, key, email));
    return this.accounts.length < before;
  }

  list(): Promise<AccountInfo[]> {
    return Promise.resolve(
      this.accounts.map(({ server, email, savedAt }) => ({ server, email, savedAt })),
    );
  }
}

interface AccountsFile {
  version: 1;
  accounts: Account[];
}

function isAccount(value: unknown): value is Account {
  if (!value || typeof value !== 'object') return false;
  const a = value as Record<string, unknown>;
  return (
    typeof a.server === 'string' &&
    typeof a.email === 'string' &&
    typeof a.accessToken === 'string' &&
    (a.refreshToken === null || a.refreshToken === undefined || typeof a.refreshToken === 'string')
  );
}

/**
 * Accounts in `<state>/accounts.json`, tokens in plain text (mode 0600): what versions before the
 * keychain wrote. `openAccountStore` moves them into the keychain and deletes the file; tests use
 * it as a store that needs no keychain. Replaced atomically (a temporary file beside it, then a
 * rename) so that a crash never leaves half a file. Writes are serialized, between processes too.
 */
export class FileAccountStore implements AccountStore {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly file: string) {}

  static inStateDir(stateDir: string): FileAccountStore {
    return new FileAccountStore(path.join(stateDir, 'accounts.json'));
  }

  async get(server: string, email?: string): Promise<Account | null> {
    return pickAccount(await this.read(), server, email);
  }

  put(account: Account): Promise<void> {
    const entry = toStored(account);
    registerAccountSecrets(entry);
    return this.exclusive(async () => {
      const accounts = (await this.read()).filter(
        (a) => !isAccountOf(a, entry.server, entry.email),
      );
      accounts.push(entry);
      await this.write(accounts);
    });
  }

  remove(server: string, email: string): Promise<boolean> {
    const key = normalizeServer(server);
    return this.exclusive(async () => {
      const accounts = await this.read();
      const kept = accounts.filter((a) => !isAccountOf(a, key, email));
      if (kept.length === accounts.length) return false;
      await this.write(kept);
      return true;
    });
  }

  async list(): Promise<AccountInfo[]> {
    return (await this.read()).map(({ server, email, savedAt }) => ({ server, email, savedAt }));
  }

  /** Every account, tokens included. */
  all(): Promise<Account[]> {
    return this.read();
  }

  /** One rewrite at a time in this process, and across processes (`process-lock.ts`). */
  private exclusive<T>(inner: () => Promise<T>): Promise<T> {
    const fn = () => withProcessLock(this.file, inner);
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async read(): Promise<Account[]> {
    const text = await readStateFile(this.file);
    if (text === null) return [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new UserError({ key: 'account.notJson', params: { file: this.file } });
    }
    const list = (parsed as Partial<AccountsFile> | null)?.accounts;
    if (!Array.isArray(list)) {
      throw new UserError({ key: 'account.noList', params: { file: this.file } });
    }
    const accounts = list.filter(isAccount);
    accounts.forEach(registerAccountSecrets);
    return accounts;
  }

  private async write(accounts: Account[]): Promise<void> {
    const body: AccountsFile = { version: 1, accounts };
    await writeStateFile(this.file, body);
  }
}
