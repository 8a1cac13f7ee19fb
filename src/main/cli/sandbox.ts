import { englishOf } from '../../shared/i18n';
import { CliError, UsageError } from './common';

/**
 * The embedded demo sandbox as the CLI uses it (`--sandbox`, never implied): the service's
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

/** Whether this program has the embedded sandbox (the source entry), for its help and errors. */
export function sandboxAvailable(): boolean {
  return starter !== null;
}

/** Why `--sandbox` fails in the shipped program (its English). */
export const NO_SANDBOX = englishOf({ key: 'cli.err.noSandbox' });

/**
 * Checks that the options name a service (`--server`) or ask for the demo (`--sandbox`). The
 * demo is never implied: a real folder synced against it would fill with demo files.
 */
export function requireServerOrSandbox(
  values: { server?: string; sandbox?: boolean },
  command: string,
): void {
  if (values.sandbox && values.server !== undefined)
    throw new UsageError(
      { key: 'cli.err.exclusive', params: { a: '--sandbox', b: '--server' } },
      command,
    );
  if (values.sandbox || values.server !== undefined) return;
  throw new UsageError(
    sandboxAvailable()
      ? { key: 'cli.err.serverOrSandbox' }
      : { key: 'cli.err.required', params: { option: '--server URL' } },
    command,
  );
}

/** A new embedded sandbox; a CliError saying why not in the shipped program. */
export function startEmbeddedSandbox(): Promise<EmbeddedSandbox> {
  if (!starter) return Promise.reject(new CliError({ key: 'cli.err.noSandbox' }));
  return starter();
}
