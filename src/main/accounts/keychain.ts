// Where tokens live: the OS keychain through keytar (macOS Keychain, Windows Credential Manager,
// a Secret Service such as gnome-keyring), else a file encrypted by the desktop app's
// safeStorage, never a plain file. One keychain for every state directory, so that the CLI and
// the app see the same accounts.
import { randomBytes } from 'node:crypto';
import { unlink } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Logger } from '../core/logger';
import {
  FileAccountStore,
  isAccountOf,
  normalizeServer,
  pickAccount,
  registerAccountSecrets,
  toStored,
  type Account,
  type AccountInfo,
  type AccountStore,
} from './accounts';
import { readStateFile, writeStateFile } from '../state/json-file';
import { withRenewLock } from './process-lock';
import { UserError } from '../errors/user-error';
import type { Words } from '../errors/user-error';

/** Electron's safeStorage, reached from wherever the store runs (main answers over IPC). */
export interface SecretCipher {
  isAvailable(): Promise<boolean>;
  encrypt(plain: string): Promise<Buffer>;
  decrypt(data: Buffer): Promise<string>;
}

/** The part of keytar the store uses. */
export interface Keychain {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
  findCredentials(service: string): Promise<{ account: string; password: string }[]>;
}

export type AccountStoreKind = 'keychain' | 'encrypted-file' | 'none';

export interface OpenedAccountStore extends AccountStore {
  readonly kind: AccountStoreKind;
  /** Why the keychain is not used (null when it is). */
  readonly keychainProblem: string | null;
}

/** The keychain service every entry is filed under (what Seahorse or Keychain Access show). */
export const KEYCHAIN_SERVICE = 'Workspace Sync';

/**
 * The service name to use: WORKSPACE_SYNC_KEYCHAIN_SERVICE when set (tests give each file its
 * own, so that parallel test files do not see each other's accounts), else KEYCHAIN_SERVICE.
 */
export function keychainService(env: NodeJS.ProcessEnv): string {
  return env.WORKSPACE_SYNC_KEYCHAIN_SERVICE?.trim() || KEYCHAIN_SERVICE;
}

/** Nowhere safe to keep a token: the account cannot be remembered. */
export class NoKeychainError extends UserError {
  constructor(message: string | Words) {
    super(message);
    this.name = 'NoKeychainError';
  }
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

const StoredAccount = z.object({
  server: z.string().min(1),
  email: z.string(),
  accessToken: z.string().min(1),
  refreshToken: z.string().nullable(),
  clientId: z.string().optional(),
  clientSecret: z.string().optional(),
  savedAt: z.number().optional(),
});

/** A keychain entry's value: the account and its secrets as JSON. */
const KeychainEntry = StoredAccount.extend({ version: z.literal(1) });

/** One entry per account; the email in lower case, as accounts are told apart. */
const entryName = (server: string, email: string) => `${email.toLowerCase()} on ${server}`;
const PROBE_PREFIX = 'probe ';

/** Secrets at rest, whatever holds them. */
interface Vault {
  get(server: string, email: string): Promise<Account | null>;
  all(): Promise<Account[]>;
  /** Stores `account` as given (savedAt included). */
  set(account: Account): Promise<void>;
  delete(server: string, email: string): Promise<boolean>;
}

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

class KeychainVault implements Vault {
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
class EncryptedFileVault implements Vault {
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

/** No vault: nothing is found, nothing can be stored. */
class NoVault implements Vault {
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

/**
 * The store over a vault. `legacy` is a plain-text accounts.json still on disk (the vault is
 * 'none', or moving it failed): read, and emptied by `remove`, never written to otherwise.
 */
class VaultAccountStore implements OpenedAccountStore {
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

const describe = (err: unknown) =>
  (err instanceof Error ? err.message : String(err)).replace(/\s*\n\s*/g, ' ').trim();

function isKeychain(value: unknown): value is Keychain {
  if (!value || typeof value !== 'object') return false;
  const k = value as Record<string, unknown>;
  return ['getPassword', 'setPassword', 'deletePassword', 'findCredentials'].every(
    (f) => typeof k[f] === 'function',
  );
}

// A name in a variable: keytar is optional (it may not have built), so neither TypeScript nor a
// bundler should insist on finding it.
const KEYTAR: string = 'keytar';

/** keytar, or why it is not there. */
let keytar: Promise<Keychain | string> | null = null;

/** keytar, loaded once per process, its calls one at a time (see `oneAtATime`). */
function loadKeytar(): Promise<Keychain | string> {
  keytar ??= (async () => {
    try {
      const mod: unknown = await import(KEYTAR);
      const k = (mod as { default?: unknown }).default ?? mod;
      return isKeychain(k) ? oneAtATime(k) : 'keytar did not load as expected';
    } catch (err) {
      return `keytar is not installed or did not load: ${describe(err)}`;
    }
  })();
  return keytar;
}

/**
 * keytar runs each call on a thread of its own, and a listing that meets a deletion under way
 * (an item gone between libsecret's search and its read) crashes the process inside libsecret:
 * the engine host died of it when a sign-out and the activity poll met. One call at a time.
 */
function oneAtATime(k: Keychain): Keychain {
  let queue: Promise<unknown> = Promise.resolve();
  const run = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = queue.then(fn, fn);
    queue = next.catch(() => undefined);
    return next;
  };
  return {
    getPassword: (s, a) => run(() => k.getPassword(s, a)),
    setPassword: (s, a, p) => run(() => k.setPassword(s, a, p)),
    deletePassword: (s, a) => run(() => k.deletePassword(s, a)),
    findCredentials: (s) => run(() => k.findCredentials(s)),
  };
}

/**
 * The probe's entries are filed under a service of their own: another process listing the
 * accounts while a probe entry comes and goes would fail (a Secret Service lists, then reads
 * each item; one deleted between the two fails the listing).
 */
export const probeService = (service: string) => `${service} (probe)`;

/**
 * Whether the keychain can keep a secret: a Secret Service may answer lookups and still refuse to
 * store (no keyring, or a locked one with nobody to unlock it), so it stores, reads and deletes a
 * throwaway entry of a name of its own. Null when it works, else the reason.
 */
async function probe(keychain: Keychain, accountsService: string): Promise<string | null> {
  const service = probeService(accountsService);
  const name = `${PROBE_PREFIX}${process.pid} ${randomBytes(6).toString('hex')}`;
  const value = randomBytes(12).toString('hex');
  try {
    await keychain.setPassword(service, name, value);
    const back = await keychain.getPassword(service, name);
    return back === value ? null : 'the keychain did not give back what was stored';
  } catch (err) {
    return describe(err);
  } finally {
    await keychain.deletePassword(service, name).catch(() => false);
  }
}

function noVaultMessage(problem: string, withCipher: boolean): Words {
  // The remedy: a Secret Service on Linux, an unlocked keychain elsewhere.
  const params = { problem, os: process.platform === 'linux' ? 'linux' : 'other' };
  return { key: withCipher ? 'account.noKeychainNoCipher' : 'account.noKeychain', params };
}

/**
 * Moves the accounts of `from` into `vault` (unless the vault holds a newer save of one), reads
 * each back, and only then deletes the file. False, with the file left as it was, when any step
 * fails: nothing is lost, and the next start tries again.
 */
async function moveAccounts(
  from: { file: string; all(): Promise<Account[]> },
  vault: Vault,
  where: string,
  log: Logger,
): Promise<boolean> {
  try {
    const accounts = await from.all();
    for (const a of accounts) {
      const entry = {
        ...a,
        server: normalizeServer(a.server),
        refreshToken: a.refreshToken ?? null,
      };
      const there = await vault.get(entry.server, entry.email);
      if (there && (there.savedAt ?? 0) >= (entry.savedAt ?? 0)) continue;
      await vault.set(entry);
      const back = await vault.get(entry.server, entry.email);
      if (back?.accessToken !== entry.accessToken)
        throw new Error(`the ${where} did not keep the account of ${entry.email}`);
    }
    await unlink(from.file).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err; // another process moved it first
    });
    log.info(`accounts moved into the ${where}`, {
      from: from.file,
      accounts: accounts.map((a) => `${a.email} on ${a.server}`),
    });
    return true;
  } catch (err) {
    log.warn(`accounts could not be moved into the ${where}; the file is left as it was`, {
      from: from.file,
      err,
    });
    return false;
  }
}

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
