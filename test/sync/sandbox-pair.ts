import type { ServiceClient } from '../../src/main/api/client';
import type { RoleName } from '../../src/service/roles';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/service/sandbox';
import { clientFor, openPair, tokenOf, type Pair, type TempDirs } from './harness';

// Set-up shared by the tests against a sandbox (kept out of harness.ts, which child processes
// import without a sandbox of their own).

/** The client of the sandbox's user with `role`, the Administrator unless said. */
export const clientAs = (sb: RunningSandbox, role: RoleName = 'Administrator'): ServiceClient =>
  clientFor(sb.baseUrl, tokenOf(sb.users.find((u) => u.role === role)!));

/** A sandbox (empty unless `options` say otherwise), the Administrator's client and a pair. */
export async function startWithPair(
  dirs: TempDirs,
  options: SandboxOptions = {},
): Promise<{ sb: RunningSandbox; client: ServiceClient; pair: Pair }> {
  const sb = await startSandbox({ seed: 'empty', ...options });
  try {
    const client = clientAs(sb);
    const pair = await openPair(sb, client, dirs, {});
    return { sb, client, pair };
  } catch (err) {
    await sb.close();
    throw err;
  }
}

/** Runs `body` with an empty sandbox and the Administrator's client; closes the sandbox after. */
export async function withSandbox(
  body: (ctx: { sb: RunningSandbox; client: ServiceClient }) => Promise<void>,
): Promise<void> {
  const sb = await startSandbox({ seed: 'empty' });
  try {
    await body({ sb, client: clientAs(sb) });
  } finally {
    await sb.close();
  }
}

/** Runs `body` with `pair`, then closes the pair and runs `after` (if any), whatever happened. */
export async function usingPair(
  pair: Pair,
  body: (pair: Pair) => Promise<void>,
  after?: () => void,
): Promise<void> {
  try {
    await body(pair);
  } finally {
    await pair.close();
    after?.();
  }
}
