/**
 * The OAuth client the app signs in as when nothing else is said: the one the sandbox registers
 * (`SANDBOX_CLIENT_ID`/`SANDBOX_CLIENT_SECRET` in src/service/sandbox.ts, which the app does not
 * ship; test/tooling/shipped.test.ts keeps the two equal).
 */
export const DEFAULT_CLIENT_ID = 'workspace-sync';
export const DEFAULT_CLIENT_SECRET = 'sandbox-secret';

/** The OAuth client to sign in as: flags, then the environment, then the default client. */
export function oauthClient(
  env: NodeJS.ProcessEnv,
  flags: { clientId?: string; clientSecret?: string } = {},
): { clientId: string; clientSecret: string } {
  return {
    clientId: flags.clientId || env.WORKSPACE_SYNC_CLIENT_ID || DEFAULT_CLIENT_ID,
    clientSecret: flags.clientSecret || env.WORKSPACE_SYNC_CLIENT_SECRET || DEFAULT_CLIENT_SECRET,
  };
}
