// Finding a keychain that works: keytar loaded (it is optional, and may not have built), its
// calls one at a time, and a probe that stores, reads and deletes a throwaway entry, since a
// Secret Service may answer lookups and still refuse to store.
import { randomBytes } from 'node:crypto';

/** The part of keytar the store uses. */
export interface Keychain {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
  findCredentials(service: string): Promise<{ account: string; password: string }[]>;
}

/** What an older version's probe entries were named after (they were filed among the accounts). */
export const PROBE_PREFIX = 'probe ';

export const describe = (err: unknown) =>
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
export function loadKeytar(): Promise<Keychain | string> {
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
export async function probe(keychain: Keychain, accountsService: string): Promise<string | null> {
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
