// A second process opening the account store again and again (each open probes the keychain),
// as a CLI command does while the app runs: `node --import tsx keychain-prober.ts SERVICE N`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openAccountStore } from '../../src/main/accounts/keychain';
import { silentLogger } from '../../src/main/sync/ports';

const [service, times] = process.argv.slice(2);
const stateDir = mkdtempSync(path.join(tmpdir(), 'ws-prober-'));
try {
  for (let i = 0; i < Number(times); i++) {
    const store = await openAccountStore({ stateDir, log: silentLogger, service });
    if (store.kind !== 'keychain') throw new Error(`no keychain: ${store.keychainProblem}`);
  }
} finally {
  rmSync(stateDir, { recursive: true, force: true });
}
