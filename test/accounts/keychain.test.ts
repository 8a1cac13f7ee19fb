import { spawn } from 'node:child_process';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { redact } from '../../src/main/api/errors';
import {
  AmbiguousAccountError,
  FileAccountStore,
  type Account,
  type AccountStore,
} from '../../src/main/accounts/accounts';
import {
  deferredAccountStore,
  ENCRYPTED_ACCOUNTS_FILE,
  KEYCHAIN_VALUE_MAX,
  NoKeychainError,
  openAccountStore,
  type Keychain,
  type SecretCipher,
} from '../../src/main/accounts/keychain';
import type { Logger } from '../../src/main/sync/ports';
import {
  KEYCHAIN_TEST_SERVICE,
  requirePrivateKeyring,
  tempDir,
  requireKeytar,
} from '../cli/run-cli';

// Where keytar did not build, every test here fails with one line saying what to install.
const keytar = await requireKeytar();

// The account store against a real gnome-keyring (a private one: scripts/with-keyring.mjs), the
// encrypted-file fallback with a real AES cipher, and the move out of the plain-text file.

const service = KEYCHAIN_TEST_SERVICE;

let root: string;
let stateDir: string;
let tmp: { dir: string; remove(): Promise<void> } | undefined;
beforeEach(async () => {
  // Each test fails (none is skipped) outside a private keyring.
  requirePrivateKeyring();
  tmp = await tempDir('keychain');
  root = tmp.dir;
  stateDir = path.join(root, 'state');
});
afterEach(async () => {
  if (!tmp) return;
  // Each test starts with an empty keychain service.
  for (const { account } of await keytar.findCredentials(service)) {
    await keytar.deletePassword(service, account);
  }
  await tmp.remove();
  tmp = undefined;
});

/** A logger that keeps what it was told. */
function recordingLog(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const put =
    (level: string) =>
    (message: string, fields?: Record<string, unknown>): void => {
      const plain = (_k: string, v: unknown) => (v instanceof Error ? v.message : v);
      lines.push(`${level} ${message} ${JSON.stringify(fields ?? {}, plain)}`);
    };
  return { lines, debug: put('debug'), info: put('info'), warn: put('warn'), error: put('error') };
}

/** Electron's safeStorage, played by AES-256-GCM with a key of the test's. */
function aesCipher(key = randomBytes(32), available = true): SecretCipher {
  return {
    isAvailable: () => Promise.resolve(available),
    encrypt(plain) {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return Promise.resolve(Buffer.concat([iv, c.getAuthTag(), body]));
    },
    decrypt(data) {
      const d = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
      d.setAuthTag(data.subarray(12, 28));
      return Promise.resolve(Buffer.concat([d.update(data.subarray(28)), d.final()]).toString());
    },
  };
}

let n = 0;
/** An account with tokens no other test has. */
const account = (server: string, email: string): Account => {
  const tag = `${++n}-${randomBytes(8).toString('hex')}`;
  return {
    server,
    email,
    accessToken: `access-${tag}`,
    refreshToken: `refresh-${tag}`,
    clientId: 'workspace-sync',
    clientSecret: `client-secret-${tag}`,
  };
};
const secretsOf = (a: Account) => [a.accessToken, a.refreshToken!, a.clientSecret!];

/** Every file under `dir`, with its content. */
async function filesUnder(dir: string): Promise<{ file: string; text: string }[]> {
  const out: { file: string; text: string }[] = [];
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    if (!e.isFile()) continue;
    const file = path.join(e.parentPath, e.name);
    out.push({ file, text: await readFile(file, 'latin1') });
  }
  return out;
}

async function expectNoTokenOnDisk(dir: string, accounts: Account[]): Promise<void> {
  for (const { file, text } of await filesUnder(dir)) {
    for (const secret of accounts.flatMap(secretsOf)) expect(text, file).not.toContain(secret);
  }
}

const open = (opts: { cipher?: SecretCipher; keychain?: Keychain | null; log?: Logger } = {}) =>
  openAccountStore({ stateDir, log: opts.log ?? recordingLog(), service, ...opts });

describe('the keychain (gnome-keyring over the Secret Service)', () => {
  it('stores, reads and deletes an account: one entry of JSON per account, nothing on disk', async () => {
    const log = recordingLog();
    const store = await open({ log });
    expect(store.kind).toBe('keychain');
    expect(store.keychainProblem).toBeNull();
    const ann = account('https://files.example.com/api/v1/', 'Ann@Example.com');

    await store.put(ann);
    const got = await store.get('https://FILES.example.com/api/v1', 'ann@example.com');
    expect(got).toMatchObject({
      server: 'https://files.example.com/api/v1',
      email: 'Ann@Example.com',
      accessToken: ann.accessToken,
      refreshToken: ann.refreshToken,
      clientId: 'workspace-sync',
      clientSecret: ann.clientSecret,
    });
    expect(got?.savedAt).toEqual(expect.any(Number));

    // Really in the keyring, under the service, named for people.
    const entries = await keytar.findCredentials(service);
    expect(entries.map((e) => e.account)).toEqual([
      'ann@example.com on https://files.example.com/api/v1',
    ]);
    expect(JSON.parse(entries[0]!.password)).toMatchObject({
      version: 1,
      accessToken: ann.accessToken,
    });
    // No probe entry is left behind.
    await expectNoTokenOnDisk(root, [ann]);
    expect(log.lines.join('\n')).not.toContain(ann.accessToken);

    expect(await store.remove('https://files.example.com/api/v1', 'ANN@example.com')).toBe(true);
    expect(await store.get('https://files.example.com/api/v1', 'ann@example.com')).toBeNull();
    expect(await store.remove('https://files.example.com/api/v1', 'ann@example.com')).toBe(false);
    expect(await keytar.findCredentials(service)).toEqual([]);
  });

  it('lists without tokens, replaces an account on a second put, and needs an email when a server has several', async () => {
    const store = await open();
    const a1 = account('https://a.example', 'ann@example.com');
    const b = account('https://a.example', 'bob@example.com');
    const other = account('https://b.example', 'ann@example.com');
    for (const a of [a1, b, other]) await store.put(a);
    const a2 = account('https://a.example', 'ANN@example.com');
    await store.put(a2);

    const list = await store.list();
    expect(list.map((a) => `${a.email} ${a.server}`).sort()).toEqual([
      'ANN@example.com https://a.example',
      'ann@example.com https://b.example',
      'bob@example.com https://a.example',
    ]);
    expect(JSON.stringify(list)).not.toMatch(/access-|refresh-|client-secret-/);
    expect((await store.get('https://a.example', 'ann@example.com'))?.accessToken).toBe(
      a2.accessToken,
    );

    await expect(store.get('https://a.example')).rejects.toBeInstanceOf(AmbiguousAccountError);
    await expect(store.get('https://a.example')).rejects.toThrow(/ann@example.com.*--email/i);
    expect((await store.get('https://b.example'))?.accessToken).toBe(other.accessToken);
    expect(await store.get('https://c.example')).toBeNull();
    expect(await store.remove('https://a.example', 'bob@example.com')).toBe(true);
    expect((await store.get('https://a.example'))?.email).toBe('ANN@example.com');
  });

  it('lists its accounts while the same process signs another in and out', async () => {
    // The app's engine does both at once: the activity poll lists, the window signs out.
    const store = await open();
    const ann = account('https://a.example', 'ann@example.com');
    await store.put(ann);
    let done = false;
    const churn = (async () => {
      try {
        for (let i = 0; i < 30; i++) {
          await store.put(account('https://b.example', 'bob@example.com'));
          await store.remove('https://b.example', 'bob@example.com');
        }
      } finally {
        done = true;
      }
    })();
    let lists = 0;
    while (!done) {
      expect((await store.list()).map((a) => a.email)).toContain('ann@example.com');
      lists++;
    }
    await churn;
    expect(lists).toBeGreaterThan(0);
    expect((await store.list()).map((a) => a.email)).toEqual(['ann@example.com']);
  });

  it('lists its accounts while another process opens the store (and probes the keychain)', async () => {
    const store = await open();
    const ann = account('https://a.example', 'ann@example.com');
    await store.put(ann);
    // A probe's entry coming and going among the accounts failed the listing of a running app.
    const prober = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'keychain-prober.ts'), service, '40'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    prober.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => prober.on('exit', resolve));
    let done = false;
    void exited.then(() => (done = true));
    let lists = 0;
    while (!done) {
      expect((await store.list()).map((a) => a.email)).toEqual(['ann@example.com']);
      lists++;
    }
    expect(stderr).toBe('');
    expect(await exited).toBe(0);
    expect(lists).toBeGreaterThan(0);
    expect(await keytar.findCredentials(service)).toHaveLength(1);
  });

  it('keeps an account longer than an entry may be in parts, and cleans them up', async () => {
    // Windows' Credential Manager: a secret of at most 2560 bytes. A map with that rule.
    const entries = new Map<string, string>();
    const limited: Keychain = {
      getPassword: async (_s, a) => entries.get(a) ?? null,
      setPassword: async (_s, a, p) => {
        if (Buffer.byteLength(p) > 2560) throw new Error('The stub received bad data.');
        entries.set(a, p);
      },
      deletePassword: async (_s, a) => entries.delete(a),
      findCredentials: async () =>
        [...entries].map(([account, password]) => ({ account, password })),
    };
    const store = await open({ keychain: limited });
    const long = account('https://a.example', 'ann@example.com');
    // JWTs of a real service, with a character of several bytes at the cuts.
    long.accessToken = `${'é'.repeat(1199)}${long.accessToken}${'x'.repeat(1500)}`;
    long.refreshToken = `${'ü'.repeat(1500)}${long.refreshToken}`;
    await store.put(long);
    const parts = [...entries.keys()].filter((k) => / #\d+$/.test(k));
    expect(parts.length).toBeGreaterThan(1);
    expect(Math.max(...[...entries.values()].map((v) => Buffer.byteLength(v)))).toBeLessThanOrEqual(
      KEYCHAIN_VALUE_MAX,
    );
    expect(await store.get('https://a.example', 'ann@example.com')).toMatchObject({
      accessToken: long.accessToken,
      refreshToken: long.refreshToken,
    });
    expect((await store.list()).map((a) => a.email)).toEqual(['ann@example.com']);

    // A short one replaces it whole: no part is left behind.
    const short = account('https://a.example', 'ann@example.com');
    await store.put(short);
    expect([...entries.keys()]).toEqual(['ann@example.com on https://a.example']);
    expect((await store.get('https://a.example', 'ann@example.com'))?.accessToken).toBe(
      short.accessToken,
    );
    await store.put(long);
    expect(await store.remove('https://a.example', 'ann@example.com')).toBe(true);
    expect(entries.size).toBe(0);
  });

  it('keeps long tokens in the real keyring too', async () => {
    const store = await open();
    const long = account('https://long.example', 'ann@example.com');
    long.accessToken = `${long.accessToken}${'a'.repeat(6000)}`;
    await store.put(long);
    expect((await store.get('https://long.example', 'ann@example.com'))?.accessToken).toBe(
      long.accessToken,
    );
    expect((await store.list()).map((a) => a.server)).toEqual(['https://long.example']);
    expect((await keytar.findCredentials(service)).length).toBeGreaterThan(2);
    await store.remove('https://long.example', 'ann@example.com');
    expect(await keytar.findCredentials(service)).toEqual([]);
  });

  it('is one for every state directory (the CLI and the app), and registers what it reads as secrets', async () => {
    const app = await open();
    const cli = await openAccountStore({
      stateDir: path.join(root, 'another-state'),
      log: recordingLog(),
      service,
    });
    const ann = account('https://a.example', 'ann@example.com');
    await app.put(ann);
    expect((await cli.get('https://a.example'))?.accessToken).toBe(ann.accessToken);
    expect((await cli.list()).map((a) => a.email)).toEqual(['ann@example.com']);

    // An entry another process wrote, read here for the first time, is redacted from then on.
    const theirs = account('https://a.example', 'bob@example.com');
    await keytar.setPassword(
      service,
      'bob@example.com on https://a.example',
      JSON.stringify({ version: 1, ...theirs, savedAt: 1 }),
    );
    expect(redact(theirs.accessToken)).toBe(theirs.accessToken);
    await cli.get('https://a.example', 'bob@example.com');
    expect(redact(`${theirs.accessToken} ${theirs.refreshToken} ${theirs.clientSecret}`)).toBe(
      '[redacted] [redacted] [redacted]',
    );
  });

  it('ignores an entry of its service that is not an account, saying so without its value', async () => {
    await keytar.setPassword(service, 'garbage on https://a.example', 'not-json-secret-value');
    const log = recordingLog();
    const store = await open({ log });
    expect(await store.list()).toEqual([]);
    expect(log.lines.join('\n')).toContain('unreadable keychain entry');
    expect(log.lines.join('\n')).not.toContain('not-json-secret-value');
  });

  it('is not used when it cannot keep a secret (a Secret Service without a usable keyring)', async () => {
    // gnome-keyring answering lookups but refusing to store, as it does without a keyring.
    const refusing: Keychain = {
      getPassword: (s, a) => keytar.getPassword(s, a),
      findCredentials: (s) => keytar.findCredentials(s),
      deletePassword: (s, a) => keytar.deletePassword(s, a),
      setPassword: () =>
        Promise.reject(new Error('Object does not exist at path “/org/freedesktop/secrets/x”')),
    };
    const store = await open({ keychain: refusing });
    expect(store.kind).toBe('none');
    expect(store.keychainProblem).toContain('Object does not exist');
    await expect(store.put(account('https://a.example', 'ann@example.com'))).rejects.toThrow(
      /No keychain is available to remember the account \(Object does not exist.*\)\. Use --token or WORKSPACE_SYNC_TOKEN, or start a Secret Service such as gnome-keyring\./,
    );
  });
});

describe('without a keychain', () => {
  it('keeps the accounts in a file encrypted by the cipher: no token, no email on disk', async () => {
    const cipher = aesCipher();
    const store = await open({ keychain: null, cipher });
    expect(store.kind).toBe('encrypted-file');
    expect(store.keychainProblem).toMatch(/no keychain/);
    const ann = account('https://a.example', 'ann@example.com');
    const bob = account('https://a.example', 'bob@example.com');
    await Promise.all([store.put(ann), store.put(bob)]); // serialized, neither lost

    expect((await store.get('https://a.example', 'ann@example.com'))?.accessToken).toBe(
      ann.accessToken,
    );
    await expect(store.get('https://a.example')).rejects.toBeInstanceOf(AmbiguousAccountError);
    expect((await store.list()).map((a) => a.email).sort()).toEqual([
      'ann@example.com',
      'bob@example.com',
    ]);

    const file = path.join(stateDir, ENCRYPTED_ACCOUNTS_FILE);
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);
    const onDisk = await readFile(file, 'utf8');
    expect(onDisk).not.toContain('example.com');
    await expectNoTokenOnDisk(root, [ann, bob]);
    expect(await keytar.findCredentials(service)).toEqual([]);

    // The same cipher reads it again; a removal is kept.
    const again = await open({ keychain: null, cipher });
    expect(await again.remove('https://a.example', 'bob@example.com')).toBe(true);
    expect((await store.list()).map((a) => a.email)).toEqual(['ann@example.com']);
  });

  it('never overwrites a file it cannot decrypt', async () => {
    const store = await open({ keychain: null, cipher: aesCipher() });
    await store.put(account('https://a.example', 'ann@example.com'));
    const file = path.join(stateDir, ENCRYPTED_ACCOUNTS_FILE);
    const before = await readFile(file, 'utf8');

    const otherKey = await open({ keychain: null, cipher: aesCipher() });
    await expect(otherKey.get('https://a.example')).rejects.toThrow(
      /cannot be read .*delete it, then sign in again/,
    );
    await expect(otherKey.put(account('https://a.example', 'bob@example.com'))).rejects.toThrow(
      /cannot be read/,
    );
    expect(await readFile(file, 'utf8')).toBe(before);
  });

  it('with no cipher (the CLI) or none available, finds nothing and refuses to store, saying what to do', async () => {
    for (const cipher of [undefined, aesCipher(undefined, false)]) {
      const store = await open({ keychain: null, cipher });
      expect(store.kind).toBe('none');
      expect(await store.list()).toEqual([]);
      expect(await store.get('https://a.example')).toBeNull();
      const put = store.put(account('https://a.example', 'ann@example.com'));
      await expect(put).rejects.toBeInstanceOf(NoKeychainError);
      await expect(put).rejects.toThrow(
        cipher
          ? /No keychain is available .*encryption is not available either.*gnome-keyring, then sign in again/
          : /No keychain is available .*Use --token or WORKSPACE_SYNC_TOKEN, or start a Secret Service such as gnome-keyring/,
      );
      expect(await store.remove('https://a.example', 'ann@example.com')).toBe(false);
      expect(await filesUnder(root)).toEqual([]);
    }
  });
});

describe('accounts of earlier versions (plain text in <state>/accounts.json)', () => {
  async function legacyFile(accounts: Account[]): Promise<string> {
    const legacy = FileAccountStore.inStateDir(stateDir);
    for (const a of accounts) await legacy.put(a);
    return legacy.file;
  }

  it('move into the keychain on open, and the file is deleted', async () => {
    const ann = account('https://a.example', 'ann@example.com');
    const bob = account('https://b.example', 'bob@example.com');
    const file = await legacyFile([ann, bob]);
    const log = recordingLog();

    const store = await open({ log });
    expect(store.kind).toBe('keychain');
    expect(await filesUnder(stateDir)).toEqual([]);
    expect((await store.get('https://a.example'))?.refreshToken).toBe(ann.refreshToken);
    expect((await store.get('https://b.example'))?.clientSecret).toBe(bob.clientSecret);
    expect((await keytar.findCredentials(service)).map((e) => e.account).sort()).toEqual([
      'ann@example.com on https://a.example',
      'bob@example.com on https://b.example',
    ]);
    const said = log.lines.join('\n');
    expect(said).toContain('accounts moved into the keychain');
    expect(said).toContain(file);
    for (const secret of [ann, bob].flatMap(secretsOf)) expect(said).not.toContain(secret);
  });

  it('do not replace a newer save of the same account in the keychain', async () => {
    const old = account('https://a.example', 'ann@example.com');
    await legacyFile([old]);
    const newer = account('https://a.example', 'ann@example.com');
    await keytar.setPassword(
      service,
      'ann@example.com on https://a.example',
      JSON.stringify({ version: 1, ...newer, savedAt: Date.now() + 60_000 }),
    );
    const store = await open();
    expect((await store.get('https://a.example'))?.accessToken).toBe(newer.accessToken);
    expect(await filesUnder(stateDir)).toEqual([]);
  });

  it('move into the encrypted file where there is no keychain', async () => {
    const ann = account('https://a.example', 'ann@example.com');
    await legacyFile([ann]);
    const store = await open({ keychain: null, cipher: aesCipher() });
    expect(store.kind).toBe('encrypted-file');
    expect((await store.get('https://a.example'))?.accessToken).toBe(ann.accessToken);
    expect((await readdir(stateDir)).sort()).toEqual([ENCRYPTED_ACCOUNTS_FILE]);
    await expectNoTokenOnDisk(root, [ann]);
  });

  it('stay where they are, usable and removable but never added to, when there is nowhere safe', async () => {
    const ann = account('https://a.example', 'ann@example.com');
    const bob = account('https://a.example', 'bob@example.com');
    const file = await legacyFile([ann, bob]);
    const before = await readFile(file, 'utf8');

    const store = await open({ keychain: null });
    expect(store.kind).toBe('none');
    expect(await readFile(file, 'utf8')).toBe(before);
    expect((await store.get('https://a.example', 'ann@example.com'))?.accessToken).toBe(
      ann.accessToken,
    );
    expect((await store.list()).length).toBe(2);
    await expect(store.put(account('https://a.example', 'ann@example.com'))).rejects.toThrow(
      NoKeychainError,
    );
    expect(await readFile(file, 'utf8')).toBe(before);
    // A logout takes the tokens off the disk.
    expect(await store.remove('https://a.example', 'bob@example.com')).toBe(true);
    expect(await readFile(file, 'utf8')).not.toContain(bob.accessToken);
    expect((await store.get('https://a.example'))?.email).toBe('ann@example.com');

    // Once a keychain works, they move.
    const later = await open();
    expect(later.kind).toBe('keychain');
    expect((await later.get('https://a.example'))?.accessToken).toBe(ann.accessToken);
    expect(await filesUnder(stateDir)).toEqual([]);
  });

  it('an unreadable file stays, and does not hide the keychain', async () => {
    const store0 = await open();
    const ann = account('https://a.example', 'ann@example.com');
    await store0.put(ann);
    await mkdir(stateDir, { recursive: true });
    await writeFile(path.join(stateDir, 'accounts.json'), '{ not json');
    const log = recordingLog();
    const store = await open({ log });
    expect((await store.get('https://a.example'))?.accessToken).toBe(ann.accessToken);
    expect(await readFile(path.join(stateDir, 'accounts.json'), 'utf8')).toBe('{ not json');
    expect(log.lines.join('\n')).toMatch(/could not be moved.*not valid JSON/);
  });

  it('in a file the app encrypted without a keychain move into the keychain when one works', async () => {
    const cipher = aesCipher();
    const ann = account('https://a.example', 'ann@example.com');
    await (await open({ keychain: null, cipher })).put(ann);
    expect(await readdir(stateDir)).toEqual([ENCRYPTED_ACCOUNTS_FILE]);

    // The CLI has no cipher: the file stays for the app.
    const cli = await open();
    expect(await cli.get('https://a.example')).toBeNull();
    expect(await readdir(stateDir)).toEqual([ENCRYPTED_ACCOUNTS_FILE]);

    const app = await open({ cipher });
    expect(app.kind).toBe('keychain');
    expect((await app.get('https://a.example'))?.accessToken).toBe(ann.accessToken);
    expect(await readdir(stateDir)).toEqual([]);
  });
});

describe('deferredAccountStore', () => {
  it('opens the store on first use only, once', async () => {
    let opened = 0;
    const store: AccountStore = deferredAccountStore(async () => {
      opened++;
      return open();
    });
    expect(opened).toBe(0);
    await Promise.all([store.list(), store.get('https://a.example')]);
    await store.put(account('https://a.example', 'ann@example.com'));
    expect(opened).toBe(1);
  });
});
