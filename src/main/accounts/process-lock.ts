import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { UserError } from '../errors/user-error';

// Several processes may share the account store: two `sync` units of the same user, the app's
// engine host beside a CLI sync. Two things must then not interleave across processes:
// - renewing one account's tokens: a service that rotates refresh tokens retires the old one at
//   each renewal, so two processes renewing with the same refresh token sign one of them out.
//   A renewal runs under a lock per account and starts by reading the store again (a token
//   another process renewed meanwhile is used, not renewed again: `Session`);
// - rewriting a file of accounts: each writer reads the list, changes its entry and writes the
//   whole list back, so without a lock one process's renewal could be written over by another's.
// The locks are proper-lockfile's: an atomic mkdir beside the target, kept fresh while held and
// taken over when its holder died (a crashed process never leaves everyone signed out).
// proper-lockfile counts a lock stale only by an mtime in the past and removes it with rmdir: a
// lock dated ahead (the clock set back after a crash) stayed fresh for as long as the clock was
// set back, and one holding a stray file could never be removed; so both are cleared before
// locking (`clearBroken`).

/** How long a lock may go untouched before it counts as left behind by a dead process. */
const STALE_MS = 20_000;

/**
 * How long to wait for a held lock: what is held is a request or a file's rewrite, so up to about
 * 45 s (20 ms growing by 1.2 to 1 s, 60 tries).
 */
const WAIT = { retries: 60, factor: 1.2, minTimeout: 20, maxTimeout: 1_000 };

/**
 * Runs `fn` while no other process holds the lock of `target` (a path; it need not exist);
 * `wait` shortens the wait for a held lock (tests).
 */
export async function withProcessLock<T>(
  target: string,
  fn: () => Promise<T>,
  wait: { retries: number } = WAIT,
): Promise<T> {
  await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
  await clearBroken(`${target}.lock`);
  let release: () => Promise<void>;
  // Loaded when a lock is taken, not at every start of the CLI.
  const { default: lockfile } = await import('proper-lockfile');
  try {
    release = await lockfile.lock(target, {
      realpath: false,
      stale: STALE_MS,
      update: STALE_MS / 4,
      retries: { ...WAIT, ...wait },
      // A lock taken from under its holder (a stale takeover, one cleared as broken while put
      // back): proper-lockfile's default throws from a timer, which ends the whole process (the
      // engine host, every pair's sync with it). The holder finishes its step instead.
      onCompromised: () => undefined,
    });
  } catch (err) {
    throw lockError(err, target);
  }
  try {
    return await fn();
  } finally {
    await release().catch(() => {
      // Taken over as stale (held past STALE_MS): the other holder has it now.
    });
  }
}

/**
 * Removes a lock no live holder can have made: one dated more than STALE_MS ahead (a holder
 * dates its lock by its own clock, at most a second ahead) or holding any entry (proper-lockfile
 * keeps its lock an empty folder). It is renamed aside and looked at again there: a lock another
 * process cleared and took between the look and the rename is put back, not removed (the same
 * narrow race as proper-lockfile's own stale takeover).
 */
async function clearBroken(lockDir: string): Promise<void> {
  const broken = async (dir: string) => {
    const st = await stat(dir);
    if (st.mtimeMs > Date.now() + STALE_MS) return true;
    return !st.isDirectory() || (await readdir(dir)).length > 0;
  };
  try {
    if (!(await broken(lockDir))) return;
    const aside = `${lockDir}.stale-${randomBytes(6).toString('hex')}`;
    await rename(lockDir, aside);
    if (await broken(aside)) await rm(aside, { recursive: true, force: true });
    else await rename(aside, lockDir);
  } catch {
    // Gone meanwhile, or not ours to clear: the lock's own rules decide.
  }
}

/** proper-lockfile's failures in words: who reads them is a person, not a programmer. */
function lockError(err: unknown, target: string): Error {
  const code = (err as { code?: unknown } | null)?.code;
  const file = `${target}.lock`;
  if (code === 'ELOCKED') return new UserError({ key: 'account.lockHeld', params: { file } });
  return new UserError({
    key: 'account.lockFailed',
    params: { file, why: typeof code === 'string' ? code : String(err) },
  });
}

/** Runs `fn` while no other process renews the tokens of (server, email) kept in `stateDir`. */
export function withRenewLock<T>(
  stateDir: string,
  server: string,
  email: string,
  fn: () => Promise<T>,
): Promise<T> {
  // Hashed: an email and a URL are not file names on every system.
  const key = createHash('sha256').update(`${server}\n${email.toLowerCase()}`).digest('hex');
  return withProcessLock(path.join(stateDir, 'locks', `renew-${key.slice(0, 32)}`), fn);
}
