// Moving accounts into a vault: from the plain-text file of versions before the keychain, and
// from the app's encrypted file into a keychain that works again. Nothing is deleted before
// the vault is seen to keep it.
import { unlink } from 'node:fs/promises';
import type { Logger } from '../core/logger';
import { normalizeServer, type Account } from './accounts';
import type { Vault } from './vault';

/**
 * Moves the accounts of `from` into `vault` (unless the vault holds a newer save of one), reads
 * each back, and only then deletes the file. False, with the file left as it was, when any step
 * fails: nothing is lost, and the next start tries again.
 */
export async function moveAccounts(
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
