// The desktop app's fallback where no keychain works: the accounts as one blob encrypted by
// Electron's safeStorage, in a file of the state directory. Never plain text.
import { z } from 'zod';
import { isAccountOf, registerAccountSecrets, type Account } from './accounts';
import { readStateFile, writeStateFile } from '../state/json-file';
import { UserError } from '../errors/user-error';
import type { Words } from '../errors/user-error';
import { StoredAccount, type Vault } from './vault';

/** Electron's safeStorage, reached from wherever the store runs (main answers over IPC). */
export interface SecretCipher {
  isAvailable(): Promise<boolean>;
  encrypt(plain: string): Promise<Buffer>;
  decrypt(data: Buffer): Promise<string>;
}

const EncryptedFile = z.object({
  version: z.literal(1),
  encryption: z.literal('safeStorage'),
  data: z.string(),
});

/**
 * The accounts as one blob encrypted by the cipher (base64 in a JSON file, 0600, written
 * atomically): no server, email or token readable on disk. Writes from this process are
 * serialized. A file it cannot decrypt is never overwritten: its accounts may come back.
 */
export class EncryptedFileVault implements Vault {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly file: string,
    private readonly cipher: SecretCipher,
  ) {}

  async get(server: string, email: string): Promise<Account | null> {
    return (await this.all()).find((a) => isAccountOf(a, server, email)) ?? null;
  }

  async all(): Promise<Account[]> {
    const text = await readStateFile(this.file);
    if (text === null) return [];
    const cannot = (why: string | Words) =>
      new UserError({ key: 'account.unreadable', params: { file: this.file, why } });
    let plain: string;
    try {
      const outer = EncryptedFile.parse(JSON.parse(text));
      plain = await this.cipher.decrypt(Buffer.from(outer.data, 'base64'));
    } catch (err) {
      throw cannot(err instanceof Error ? err.message : String(err));
    }
    let accounts: Account[];
    try {
      accounts = z.array(StoredAccount).parse(JSON.parse(plain));
    } catch {
      throw cannot({ key: 'account.notAList' });
    }
    accounts.forEach(registerAccountSecrets);
    return accounts;
  }

  set(account: Account): Promise<void> {
    return this.exclusive(async () => {
      const others = (await this.all()).filter(
        (a) => !isAccountOf(a, account.server, account.email),
      );
      await this.write([...others, account]);
    });
  }

  delete(server: string, email: string): Promise<boolean> {
    return this.exclusive(async () => {
      const accounts = await this.all();
      const kept = accounts.filter((a) => !isAccountOf(a, server, email));
      if (kept.length === accounts.length) return false;
      await this.write(kept);
      return true;
    });
  }

  private async write(accounts: Account[]): Promise<void> {
    const data = await this.cipher.encrypt(JSON.stringify(accounts));
    await writeStateFile(this.file, {
      version: 1,
      encryption: 'safeStorage',
      data: data.toString('base64'),
    } satisfies z.infer<typeof EncryptedFile>);
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
