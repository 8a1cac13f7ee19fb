import path from 'node:path';
import { registerSecret } from '../api/errors';
import { readStateFile, writeStateFile } from './json-file';

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
 * Where signed-in accounts live. The CLI keeps them in a 0600 JSON file in its state directory;
 * the desktop app can put a keychain-backed implementation behind the same interface.
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
}

export class AmbiguousAccountError extends Error {
  constructor(
    readonly server: string,
    readonly emails: string[],
  ) {
    super(
      `There are several accounts on ${server} (${emails.join(', ')}): choose one with --email.`,
    );
    this.name = 'AmbiguousAccountError';
  }
}

/** One spelling per server: scheme and host lower-cased (by URL), no trailing slash, no query. */
export function normalizeServer(server: string): string {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new Error(`"${server}" is not a URL`);
  }
  return (url.origin + url.pathname).replace(/\/+$/, '');
}

const sameEmail = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

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
 * Accounts in `<state>/accounts.json`: mode 0600, replaced atomically (a temporary file beside it,
 * then a rename) so that a crash never leaves half a file. Writes from this process are
 * serialized; the last writer wins between processes.
 */
export class FileAccountStore implements AccountStore {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly file: string) {}

  static inStateDir(stateDir: string): FileAccountStore {
    return new FileAccountStore(path.join(stateDir, 'accounts.json'));
  }

  async get(server: string, email?: string): Promise<Account | null> {
    const key = normalizeServer(server);
    const onServer = (await this.read()).filter((a) => a.server === key);
    if (email !== undefined) return onServer.find((a) => sameEmail(a.email, email)) ?? null;
    if (onServer.length > 1)
      throw new AmbiguousAccountError(
        key,
        onServer.map((a) => a.email),
      );
    return onServer[0] ?? null;
  }

  put(account: Account): Promise<void> {
    const entry: Account = {
      ...account,
      server: normalizeServer(account.server),
      refreshToken: account.refreshToken ?? null,
      savedAt: Date.now(),
    };
    registerSecret(entry.accessToken);
    registerSecret(entry.refreshToken);
    registerSecret(entry.clientSecret);
    return this.exclusive(async () => {
      const accounts = (await this.read()).filter(
        (a) => !(a.server === entry.server && sameEmail(a.email, entry.email)),
      );
      accounts.push(entry);
      await this.write(accounts);
    });
  }

  remove(server: string, email: string): Promise<boolean> {
    const key = normalizeServer(server);
    return this.exclusive(async () => {
      const accounts = await this.read();
      const kept = accounts.filter((a) => !(a.server === key && sameEmail(a.email, email)));
      if (kept.length === accounts.length) return false;
      await this.write(kept);
      return true;
    });
  }

  async list(): Promise<AccountInfo[]> {
    return (await this.read()).map(({ server, email, savedAt }) => ({ server, email, savedAt }));
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
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
      throw new Error(`${this.file} is not valid JSON: fix or delete it, then sign in again.`);
    }
    const list = (parsed as Partial<AccountsFile> | null)?.accounts;
    if (!Array.isArray(list)) {
      throw new Error(`${this.file} holds no account list: fix or delete it, then sign in again.`);
    }
    const accounts = list.filter(isAccount);
    for (const a of accounts) {
      registerSecret(a.accessToken);
      registerSecret(a.refreshToken);
      registerSecret(a.clientSecret);
    }
    return accounts;
  }

  private async write(accounts: Account[]): Promise<void> {
    const body: AccountsFile = { version: 1, accounts };
    await writeStateFile(this.file, body);
  }
}
