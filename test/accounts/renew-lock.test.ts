import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeServer } from '../../src/main/accounts/accounts';
import { withProcessLock } from '../../src/main/accounts/process-lock';
import { wordsOf } from '../../src/shared/i18n';
import { startSandbox, type RunningSandbox } from '../../src/service/sandbox';
import { NO_BUS, runCli, tempDir } from '../cli/run-cli';

// A renewal lock left behind where proper-lockfile alone never takes it over: dated a day
// ahead (the clock set back after a crash) or holding a stray file. Each made every renewal
// fail after about 45 s ("Lock file is already being held", ENOTEMPTY … rmdir); the real CLI
// now clears it and renews, against the real sandbox whose clock has moved past the token.

const NO_KEYCHAIN = { DBUS_SESSION_BUS_ADDRESS: NO_BUS };
const DAY_MS = 24 * 3600 * 1000;

let sb: RunningSandbox;
let tmp: { dir: string; remove(): Promise<void> };

beforeAll(async () => {
  sb = await startSandbox({ seed: 'demo' });
  tmp = await tempDir('renew-lock');
});
afterAll(async () => {
  await sb?.close();
  await tmp?.remove();
});

const ann = () => sb.users.find((u) => u.role === 'Administrator')!;

/** Where `withRenewLock` (process-lock.ts) keeps the lock of Ann's tokens in `state`. */
function renewLockDir(state: string): string {
  const key = createHash('sha256')
    .update(`${normalizeServer(sb.baseUrl)}\n${ann().email.toLowerCase()}`)
    .digest('hex');
  return path.join(state, 'locks', `renew-${key.slice(0, 32)}.lock`);
}

/** Signs Ann in to a fresh state folder (tokens in a file), then lets her access token expire. */
async function signedInThenExpired(name: string): Promise<string> {
  const state = path.join(tmp.dir, name);
  const login = await runCli(
    [
      'login',
      '--server',
      sb.baseUrl,
      '--email',
      ann().email,
      '--password-stdin',
      '--state',
      state,
      '--store',
      'file',
    ],
    { stdin: `${ann().password}\n`, env: NO_KEYCHAIN },
  );
  expect(login.code, login.stderr).toBe(0);
  sb.advanceClock(2 * 3600);
  return state;
}

/** A command that needs the service: it renews the expired token under the lock. */
async function listWorkspaces(state: string) {
  return runCli(['workspaces', '--server', sb.baseUrl, '--state', state], { env: NO_KEYCHAIN });
}

describe('a renewal lock left behind', () => {
  it('dated a day ahead is stale: it is cleared and the renewal goes on', async () => {
    const state = await signedInThenExpired('ahead');
    const lock = renewLockDir(state);
    await mkdir(lock, { recursive: true });
    const ahead = new Date(Date.now() + DAY_MS);
    await utimes(lock, ahead, ahead);

    const run = await listWorkspaces(state);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Q3 Planning');
    expect(existsSync(lock)).toBe(false);
  }, 90_000);

  it('holding a stray file is stale: it is cleared and the renewal goes on', async () => {
    const state = await signedInThenExpired('stray');
    const lock = renewLockDir(state);
    await mkdir(lock, { recursive: true });
    await writeFile(path.join(lock, 'stray.txt'), 'left here by something else\n');

    const run = await listWorkspaces(state);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Q3 Planning');
    expect(existsSync(lock)).toBe(false);
  }, 90_000);

  it("held by a live process past the wait: said in words, not proper-lockfile's", async () => {
    const target = path.join(tmp.dir, 'held', 'accounts.json');
    let letGo!: () => void;
    const holding = new Promise<void>((resolve) => (letGo = resolve));
    let held!: () => void;
    const taken = new Promise<void>((resolve) => (held = resolve));
    const holder = withProcessLock(target, () => {
      held();
      return holding;
    });
    await taken;
    // Three tries, not the ~45 s a process waits: what is checked is the words of the refusal.
    const err = await withProcessLock(target, () => Promise.resolve(), { retries: 3 }).catch(
      (e: unknown) => e,
    );
    letGo();
    await holder;
    expect(wordsOf(err)).toEqual({ key: 'account.lockHeld', params: { file: `${target}.lock` } });
    expect((err as Error).message).not.toMatch(/Lock file|already being held/);
  }, 90_000);
});
