import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import lockfile from 'proper-lockfile';

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

/** How long a lock may go untouched before it counts as left behind by a dead process. */
const STALE_MS = 20_000;

/** Runs `fn` while no other process holds the lock of `target` (a path; it need not exist). */
export async function withProcessLock<T>(target: string, fn: () => Promise<T>): Promise<T> {
  await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
  const release = await lockfile.lock(target, {
    realpath: false,
    stale: STALE_MS,
    update: STALE_MS / 4,
    // What is held is a request or a file's rewrite: wait for it, up to about half a minute.
    retries: { retries: 60, factor: 1.2, minTimeout: 20, maxTimeout: 1_000 },
  });
  try {
    return await fn();
  } finally {
    await release().catch(() => {
      // Taken over as stale (held past STALE_MS): the other holder has it now.
    });
  }
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
