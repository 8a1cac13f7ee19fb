// The OS keychain as a vault (through keytar: macOS Keychain, Windows Credential Manager, a
// Secret Service such as gnome-keyring): one entry per account, its value the account as JSON,
// in parts where it is longer than one entry takes.
import { z } from 'zod';
import type { Logger } from '../core/logger';
import { registerAccountSecrets, type Account } from './accounts';
import { describe, PROBE_PREFIX, type Keychain } from './keychain-probe';
import { StoredAccount, type Vault } from './vault';

/** A keychain entry's value: the account and its secrets as JSON. */
const KeychainEntry = StoredAccount.extend({ version: z.literal(1) });

/** One entry per account; the email in lower case, as accounts are told apart. */
const entryName = (server: string, email: string) => `${email.toLowerCase()} on ${server}`;

function parseEntry(text: string): Account | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = KeychainEntry.safeParse(json);
  if (!parsed.success) return null;
  const { version: _version, ...account } = parsed.data;
  registerAccountSecrets(account);
  return account;
}

/**
 * The longest value one keychain entry takes: Windows' Credential Manager refuses a secret over
 * 2560 bytes (CRED_MAX_CREDENTIAL_BLOB_SIZE), and an account with long JWTs is more. A longer
 * value is kept in parts, each an entry of its own (`<name> #1`…), the first entry saying how
 * many.
 */
export const KEYCHAIN_VALUE_MAX = 2400;

const partName = (name: string, k: number) => `${name} #${k}`;
const PART = / #\d+$/;
const Parted = z.object({ version: z.literal(1), parts: z.number().int().min(2).max(64) });

/** `text` cut into pieces of at most `max` UTF-8 bytes, never inside a character. */
function slices(text: string, max: number): string[] {
  const out: string[] = [];
  let piece = '';
  let bytes = 0;
  for (const ch of text) {
    const size = Buffer.byteLength(ch);
    if (bytes + size > max) {
      out.push(piece);
      piece = '';
      bytes = 0;
    }
    piece += ch;
    bytes += size;
  }
  if (piece) out.push(piece);
  return out;
}

export class KeychainVault implements Vault {
  constructor(
    private readonly keychain: Keychain,
    private readonly service: string,
    private readonly log: Logger,
  ) {}

  async get(server: string, email: string): Promise<Account | null> {
    const name = entryName(server, email);
    const text = await this.keychain.getPassword(this.service, name);
    if (text === null) return null;
    const whole = await this.joined(name, text, (k) =>
      this.keychain.getPassword(this.service, partName(name, k)),
    );
    const account = whole === null ? null : parseEntry(whole);
    if (!account) this.unreadable(name);
    return account;
  }

  async all(): Promise<Account[]> {
    const out: Account[] = [];
    const entries = await this.credentials();
    const byName = new Map(entries.map((e) => [e.account, e.password]));
    for (const { account: name, password } of entries) {
      if (name.startsWith(PROBE_PREFIX)) continue; // an older version's probe
      if (PART.test(name)) continue; // read with its first entry
      const whole = await this.joined(
        name,
        password,
        async (k) => byName.get(partName(name, k)) ?? null,
      );
      const account = whole === null ? null : parseEntry(whole);
      if (account) out.push(account);
      else this.unreadable(name);
    }
    return out;
  }

  /** An entry's whole value: itself, or its parts put together (null when one is missing). */
  private async joined(
    name: string,
    first: string,
    part: (k: number) => Promise<string | null>,
  ): Promise<string | null> {
    let head: unknown;
    try {
      head = JSON.parse(first);
    } catch {
      return first;
    }
    const parted = Parted.safeParse(head);
    if (!parted.success) return first;
    const pieces: string[] = [];
    for (let k = 1; k <= parted.data.parts; k++) {
      const piece = await part(k);
      if (piece === null) {
        this.log.warn('a keychain entry misses a part', { service: this.service, name, part: k });
        return null;
      }
      pieces.push(piece);
    }
    return pieces.join('');
  }

  /**
   * Every entry of the service. An entry another process deletes while the Secret Service lists
   * them fails the whole listing ("No such secret item"): the listing is taken again.
   */
  private async credentials(): Promise<{ account: string; password: string }[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.keychain.findCredentials(this.service);
      } catch (err) {
        if (attempt >= 3 || !/no such secret item/i.test(describe(err))) throw err;
        this.log.debug('an entry went while the keychain was listed: listing again', { attempt });
      }
    }
  }

  async set(account: Account): Promise<void> {
    const name = entryName(account.server, account.email);
    const value = JSON.stringify({ version: 1, ...account });
    const old = await this.partsOf(name);
    if (Buffer.byteLength(value) <= KEYCHAIN_VALUE_MAX) {
      await this.keychain.setPassword(this.service, name, value);
    } else {
      // The parts first, then the entry that names them: a reader never finds it half written.
      const pieces = slices(value, KEYCHAIN_VALUE_MAX);
      for (const [i, piece] of pieces.entries())
        await this.keychain.setPassword(this.service, partName(name, i + 1), piece);
      await this.keychain.setPassword(
        this.service,
        name,
        JSON.stringify({ version: 1, parts: pieces.length }),
      );
      for (let k = pieces.length + 1; k <= old; k++)
        await this.keychain.deletePassword(this.service, partName(name, k));
      return;
    }
    for (let k = 1; k <= old; k++)
      await this.keychain.deletePassword(this.service, partName(name, k));
  }

  async delete(server: string, email: string): Promise<boolean> {
    const name = entryName(server, email);
    const parts = await this.partsOf(name);
    const deleted = await this.keychain.deletePassword(this.service, name);
    for (let k = 1; k <= parts; k++)
      await this.keychain.deletePassword(this.service, partName(name, k));
    return deleted;
  }

  /** How many parts the entry `name` has now (0 when it is whole or absent). */
  private async partsOf(name: string): Promise<number> {
    const text = await this.keychain.getPassword(this.service, name);
    if (text === null) return 0;
    try {
      const parted = Parted.safeParse(JSON.parse(text));
      return parted.success ? parted.data.parts : 0;
    } catch {
      return 0;
    }
  }

  private unreadable(name: string): void {
    // The name holds an email and a server, never a token.
    this.log.warn('an unreadable keychain entry was ignored', { service: this.service, name });
  }
}
