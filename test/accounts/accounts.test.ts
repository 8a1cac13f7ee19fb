import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { redact } from '../../src/main/api/errors';
import {
  AmbiguousAccountError,
  FileAccountStore,
  MemoryAccountStore,
  normalizeServer,
  type Account,
} from '../../src/main/accounts/accounts';
import { tempDir } from '../cli/run-cli';

let tmp: { dir: string; remove(): Promise<void> };
beforeEach(async () => {
  tmp = await tempDir('accounts');
});
afterEach(async () => {
  await tmp.remove();
});

const account = (server: string, email: string, n = 1): Account => ({
  server,
  email,
  accessToken: `access-${email}-${n}`,
  refreshToken: `refresh-${email}-${n}`,
  clientId: 'workspace-sync',
});

// FileAccountStore is the plain-text file of versions before the keychain (keychain.ts moves it
// into the keychain; keychain.test.ts): still read, and a store for tests that need no keychain.
describe('FileAccountStore', () => {
  it('keeps accounts per (server, email) in a 0600 file, replaced atomically', async () => {
    const store = FileAccountStore.inStateDir(path.join(tmp.dir, 'state'));
    expect(await store.list()).toEqual([]);
    expect(await store.get('https://a.example')).toBeNull();

    await store.put(account('https://a.example/api/v1/', 'ann@example.com'));
    await store.put(account('https://b.example', 'ann@example.com'));
    expect(await store.get('https://A.example/api/v1')).toMatchObject({
      server: 'https://a.example/api/v1',
      email: 'ann@example.com',
      accessToken: 'access-ann@example.com-1',
    });
    // Replacing the same account keeps one entry.
    await store.put(account('https://a.example/api/v1', 'ANN@example.com', 2));
    const list = await store.list();
    expect(list.map((a) => [a.server, a.email])).toEqual([
      ['https://b.example', 'ann@example.com'],
      ['https://a.example/api/v1', 'ANN@example.com'],
    ]);
    expect(JSON.stringify(list)).not.toContain('access-');
    expect((await store.get('https://a.example/api/v1', 'ann@example.com'))?.accessToken).toBe(
      'access-ANN@example.com-2',
    );

    const file = path.join(tmp.dir, 'state', 'accounts.json');
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(path.dirname(file))).toEqual(['accounts.json']); // no temp file left
    expect(JSON.parse(await readFile(file, 'utf8')).version).toBe(1);
  });

  it('needs an email when a server has several accounts', async () => {
    const store = FileAccountStore.inStateDir(tmp.dir);
    await store.put(account('https://a.example', 'ann@example.com'));
    await store.put(account('https://a.example', 'bob@example.com'));
    await expect(store.get('https://a.example')).rejects.toBeInstanceOf(AmbiguousAccountError);
    await expect(store.get('https://a.example')).rejects.toThrow(/--email/);
    expect((await store.get('https://a.example', 'bob@example.com'))?.email).toBe(
      'bob@example.com',
    );
    expect(await store.remove('https://a.example', 'bob@example.com')).toBe(true);
    expect(await store.remove('https://a.example', 'bob@example.com')).toBe(false);
    expect((await store.get('https://a.example'))?.email).toBe('ann@example.com');
  });

  it('serializes concurrent writes and registers the tokens it holds as secrets', async () => {
    const store = FileAccountStore.inStateDir(tmp.dir);
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => store.put(account('https://a.example', `u${i}@x.org`))),
    );
    expect(await store.list()).toHaveLength(10);
    // A fresh store reading the file registers what it read.
    const again = new FileAccountStore(store.file);
    const got = await again.get('https://a.example', 'u3@x.org');
    expect(redact(`token ${got!.accessToken} and ${got!.refreshToken}`)).toBe(
      'token [redacted] and [redacted]',
    );
  });

  it('refuses to overwrite a file it cannot read', async () => {
    const store = FileAccountStore.inStateDir(tmp.dir);
    await writeFile(store.file, '{ not json');
    await expect(store.put(account('https://a.example', 'ann@example.com'))).rejects.toThrow(
      /not valid JSON/,
    );
    expect(await readFile(store.file, 'utf8')).toBe('{ not json');
  });
  it('loses no account when two processes write the file at once', async () => {
    // Two stores on one file stand for two processes (two syncs renewing their tokens): each
    // rewrites the whole list, so without a lock across them one's entry was written over.
    const state = path.join(tmp.dir, 'state');
    const [a, b] = [FileAccountStore.inStateDir(state), FileAccountStore.inStateDir(state)];
    const emails = Array.from({ length: 12 }, (_, i) => `user${i}@example.com`);
    await Promise.all(emails.map((e, i) => (i % 2 ? a : b).put(account('https://a.example', e))));
    expect((await a.list()).map((x) => x.email).sort()).toEqual([...emails].sort());
    expect(await readdir(state)).toEqual(['accounts.json']); // no lock left behind
  });
});

describe('MemoryAccountStore', () => {
  it('keeps accounts per (server, email) for the life of the process, nothing on disk', async () => {
    const store = new MemoryAccountStore();
    await store.put(account('https://a.example/', 'ann@example.com'));
    await store.put(account('https://a.example', 'bob@example.com'));
    await store.put(account('https://a.example', 'ANN@example.com', 2));
    expect((await store.list()).map((a) => a.email)).toEqual([
      'bob@example.com',
      'ANN@example.com',
    ]);
    await expect(store.get('https://a.example')).rejects.toBeInstanceOf(AmbiguousAccountError);
    expect((await store.get('https://A.example', 'ann@example.com'))?.accessToken).toBe(
      'access-ANN@example.com-2',
    );
    expect(redact('access-ANN@example.com-2')).toBe('[redacted]');
    expect(await store.remove('https://a.example', 'bob@example.com')).toBe(true);
    expect(await store.remove('https://a.example', 'bob@example.com')).toBe(false);
    expect((await store.get('https://a.example'))?.email).toBe('ANN@example.com');
    expect(await readdir(tmp.dir)).toEqual([]);
  });
});

describe('normalizeServer', () => {
  it('gives one spelling per server', () => {
    expect(normalizeServer('HTTPS://Files.Example.com/api/v1/')).toBe(
      'https://files.example.com/api/v1',
    );
    expect(normalizeServer('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
    expect(() => normalizeServer('files.example.com')).toThrow(/not a URL/);
  });
});
