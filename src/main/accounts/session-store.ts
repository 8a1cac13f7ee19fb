import {
  isAccountOf,
  MemoryAccountStore,
  type Account,
  type AccountInfo,
  type AccountStore,
} from './accounts';
import { UserError } from '../errors/user-error';

/**
 * A store with a session's memory in front: accounts the person chose to keep for this session
 * only (a machine without a keychain, under `cli ui`) live in memory and are gone when the
 * process ends; every other account is the underlying store's. A renewal of a session account
 * is written back to memory, never to the store.
 */
export class SessionFirstStore implements AccountStore {
  private readonly memory = new MemoryAccountStore();

  constructor(private readonly kept: AccountStore) {}

  /** Keeps `account` in this process's memory only. */
  keepForSession(account: Account): Promise<void> {
    return this.memory.put(account);
  }

  /** Keeps `account` in the store (no longer this session's only). */
  async keepInStore(account: Account): Promise<void> {
    await this.kept.put(account);
    await this.memory.remove(account.server, account.email);
  }

  async get(server: string, email?: string): Promise<Account | null> {
    return (await this.memory.get(server, email)) ?? this.kept.get(server, email);
  }

  async put(account: Account): Promise<void> {
    if (await this.forSession(account.server, account.email)) return this.memory.put(account);
    return this.kept.put(account);
  }

  async remove(server: string, email: string): Promise<boolean> {
    const fromMemory = await this.memory.remove(server, email);
    const fromStore = await this.kept.remove(server, email);
    return fromMemory || fromStore;
  }

  async list(): Promise<AccountInfo[]> {
    const mine = await this.memory.list();
    const theirs = (await this.kept.list()).filter(
      (a) => !mine.some((m) => isAccountOf(m, a.server, a.email)),
    );
    return [...mine, ...theirs];
  }

  cannotRemember() {
    return this.kept.cannotRemember?.() ?? Promise.resolve(null);
  }

  /** Keeps `account` in the store's plain file (no longer this session's only). */
  async putInFile(account: Account): Promise<string> {
    if (!this.kept.putInFile) throw new UserError({ key: 'account.noFileStore' });
    const file = await this.kept.putInFile(account);
    await this.memory.remove(account.server, account.email);
    return file;
  }

  /** The store's plain file; UserError where the store keeps none. */
  async plainFile(): Promise<string> {
    if (!this.kept.plainFile) throw new UserError({ key: 'account.noFileStore' });
    return this.kept.plainFile();
  }

  renewing<T>(server: string, email: string, fn: () => Promise<T>): Promise<T> {
    // Nobody else sees a session's account: its renewals need no lock between processes.
    return this.forSession(server, email).then((mine) =>
      mine || !this.kept.renewing ? fn() : this.kept.renewing(server, email, fn),
    );
  }

  /** Whether the account of (server, email) is kept for this session only. */
  async forSession(server: string, email: string): Promise<boolean> {
    return (await this.memory.get(server, email)) !== null;
  }
}
