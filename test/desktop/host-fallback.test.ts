import { fork } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import type { Account } from '../../src/shared/app-api';
import { EngineClient, type MainCipher } from '../../src/main/engine-client';
import { safeStorage } from './fake-electron';

// The engine host where no keychain answers (no D-Bus session): tokens are encrypted by main's
// safeStorage, asked over the channel, and stored in the state directory, never in plain text.

const root = path.resolve(import.meta.dirname, '../..');
let sb: RunningSandbox;
let stateDir: string;

function startHost(cipher: MainCipher): { client: EngineClient; exited: Promise<number | null> } {
  const child = fork(path.join(root, 'src/main/host/index.ts'), [], {
    execArgv: ['--import', 'tsx'],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // No Secret Service reachable: keytar loads, its probe fails.
    env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus', DISPLAY: '' },
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const client = new EngineClient(
    {
      post: (m) => void child.send(m),
      onMessage: (l) => child.on('message', (m) => l(m as never)),
      onExit: (l) => child.on('exit', (code) => l(code ?? 1)),
      kill: () => void child.kill(),
    },
    { stateDir, cipher: true, version: 'test', verbose: false },
    {
      push: () => undefined,
      othersActivity: () => undefined,
      openExternal: () => undefined,
      openPath: () => Promise.resolve(null),
      exited: () => undefined,
    },
    cipher,
  );
  return { client, exited };
}

beforeAll(async () => {
  sb = await startSandbox({ seed: 'demo' });
  stateDir = await mkdtemp(path.join(tmpdir(), 'ws-host-fallback-'));
});
afterAll(async () => {
  await sb?.close();
  await rm(stateDir, { recursive: true, force: true });
});

describe('the engine host without a keychain', () => {
  it("keeps the tokens encrypted by main's safeStorage, and finds them again after a restart", async () => {
    const owner = sb.users[0]!;
    const first = startHost(safeStorage);
    await first.client.whenReady();
    const signed = await first.client.call('accounts.signIn', {
      server: sb.baseUrl,
      email: owner.email,
      password: owner.password,
    });
    expect(signed.ok).toBe(true);
    const account = (signed as { result: Account }).result;
    await first.client.stop(20_000);
    expect(await first.exited).toBe(0);

    // Nothing in the state directory holds a token in the clear.
    const files = await readdir(stateDir, { recursive: true });
    expect(files).toContain('accounts.enc.json');
    expect(files).not.toContain('accounts.json');
    for (const f of files) {
      const text = await readFile(path.join(stateDir, f)).catch(() => Buffer.alloc(0));
      expect(text.includes(owner.password), f).toBe(false);
    }
    const encrypted = await readFile(path.join(stateDir, 'accounts.enc.json'), 'utf8');
    expect(encrypted).not.toMatch(/accessToken|refreshToken/);

    const second = startHost(safeStorage);
    await second.client.whenReady();
    const listed = await second.client.call('accounts.list', {});
    expect(listed).toMatchObject({ ok: true, result: [{ id: account.id, email: owner.email }] });
    const workspaces = await second.client.call('workspaces.list', { accountId: account.id });
    expect(workspaces.ok).toBe(true);
    await second.client.stop(20_000);
    expect(await second.exited).toBe(0);
  });

  it('without safeStorage either, signing in says why nothing can be remembered', async () => {
    const none: MainCipher = {
      isEncryptionAvailable: () => false,
      encryptString: () => {
        throw new Error('unavailable');
      },
      decryptString: () => {
        throw new Error('unavailable');
      },
    };
    const dir = stateDir;
    stateDir = await mkdtemp(path.join(tmpdir(), 'ws-host-nocipher-'));
    try {
      const host = startHost(none);
      await host.client.whenReady();
      const owner = sb.users[0]!;
      const signed = await host.client.call('accounts.signIn', {
        server: sb.baseUrl,
        email: owner.email,
        password: owner.password,
      });
      expect(signed.ok).toBe(false);
      expect((signed as { error: { message: string } }).error.message).toMatch(/keychain/i);
      expect(await readdir(stateDir)).not.toContain('accounts.json');
      await host.client.stop(20_000);
    } finally {
      await rm(stateDir, { recursive: true, force: true });
      stateDir = dir;
    }
  });
});
