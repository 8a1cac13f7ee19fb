import { CliError } from './common';

/**
 * The embedded demo sandbox as the CLI uses it (`--sandbox`, or no `--server`): the service's
 * local implementation (src/service), which the app does not ship. Only the source entry
 * (src/dev/cli.ts: `npm run cli`, `npm run demo`, bin/workspace-sync.mjs) provides one.
 */
export interface EmbeddedSandbox {
  baseUrl: string;
  /** The seeded demo workspace. */
  workspaceId: number;
  clientId: string;
  clientSecret: string;
  /** The seeded users, the owner first. */
  users: { email: string; password: string }[];
  close(): Promise<void>;
}

/** Starts a sandbox seeded with the demo workspace. */
export type SandboxStarter = () => Promise<EmbeddedSandbox>;

let starter: SandboxStarter | null = null;

/** Makes `--sandbox` available (the source entry calls it before running the CLI). */
export function provideSandbox(start: SandboxStarter): void {
  starter = start;
}

export const NO_SANDBOX =
  'The embedded demo sandbox (--sandbox, the default without --server) is only available when run from source (npm run -s cli): pass --server URL.';

/** A new embedded sandbox; a CliError saying why not in the shipped program. */
export function startEmbeddedSandbox(): Promise<EmbeddedSandbox> {
  if (!starter) return Promise.reject(new CliError(NO_SANDBOX));
  return starter();
}
