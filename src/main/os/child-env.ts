/**
 * The environment variables this program reads that hold secrets: a pasted access token
 * (`--token`'s stand-in) and the OAuth client's secret (accounts/oauth-client.ts).
 */
export const SECRET_ENV = ['WORKSPACE_SYNC_TOKEN', 'WORKSPACE_SYNC_CLIENT_SECRET'] as const;

/**
 * The environment for a program we start (xdg-open, the file manager and the browser it starts,
 * a clipboard tool, notify-send): ours without our secrets, which are no business of theirs and
 * would live on in long-running children (a file manager). Every spawn site uses it.
 */
export function childEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out = { ...env };
  dropSecrets(out);
  return out;
}

/** Removes our secrets from `env` in place (the app's own process.env, see src/main/index.ts). */
export function dropSecrets(env: NodeJS.ProcessEnv): void {
  for (const name of SECRET_ENV) delete env[name];
}
