import type { ServiceClient } from '../../src/main/api/client';
import type { RoleName } from '../../src/service/roles';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/service/sandbox';
import { clientFor, openPair, tokenOf, type Pair, type TempDirs } from './harness';

// Set-up shared by the tests against a sandbox (kept out of harness.ts, which child processes
// import without a sandbox of their own).

/** The client of the sandbox's user with `role`, the Administrator unless said. */
export const clientAs = (sb: RunningSandbox, role: RoleName = 'Administrator'): ServiceClient =>
  clientFor(sb.baseUrl, tokenOf(sb.users.find((u) => u.role === role)!));

/** What `pairWithSandbox` opens: the sandbox, the client of its user, and their pair. */
export interface SandboxPair {
  sb: RunningSandbox;
  client: ServiceClient;
  pair: Pair;
}

/**
 * The set-up of the suites that sync against a sandbox: a sandbox (empty unless `sandbox` says
 * otherwise), the client of its user with role `as` (the Administrator unless said) and a pair
 * opened with that client and `pair`'s options. Nothing is synced yet. Close with `closeBoth`.
 */
export async function pairWithSandbox(
  dirs: TempDirs,
  options: { sandbox?: SandboxOptions; as?: RoleName; pair?: Parameters<typeof openPair>[3] } = {},
): Promise<SandboxPair> {
  const sb = await startSandbox({ seed: 'empty', ...options.sandbox });
  try {
    const client = clientAs(sb, options.as);
    const pair = await openPair(sb, client, dirs, options.pair ?? {});
    return { sb, client, pair };
  } catch (err) {
    await sb.close();
    throw err;
  }
}

/**
 * Closes the pair, then the sandbox, each if it was opened: a suite's `afterEach`, given the
 * pair in use at the end (a test may have reopened it).
 */
export async function closeBoth(
  pair: Pair | undefined,
  sb: RunningSandbox | undefined,
): Promise<void> {
  try {
    await pair?.close();
  } finally {
    await sb?.close();
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
