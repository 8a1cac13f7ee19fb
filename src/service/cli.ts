// `npm run -s sandbox -- [--port 0] [--host 127.0.0.1] [--seed demo|empty] [--data PATH]
//   [--base-path /api/v1] [--faults SPEC] [--no-extensions] [--token-ttl SECONDS]`
import { parseArgs } from 'node:util';
import { startSandbox } from './sandbox';

const USAGE = `usage: npm run -s sandbox -- [options]

Starts the sandbox: a complete local Workspace Content Service. When it listens it prints one
JSON line (base_url, workspace_id, client_id, client_secret, users) and runs until SIGINT/SIGTERM.

  --port N            port to listen on (default 0: any free port)
  --host ADDR         address to bind (default 127.0.0.1)
  --seed demo|empty   demo workspace with content, or one empty workspace (default demo)
  --data PATH         keep the database and files in PATH (default: a temporary directory)
  --base-path PATH    serve everything under a path prefix, e.g. /api/v1
  --faults SPEC       e.g. fail=0.1,lost=0.05,reset=0.02,latency=5-20,ratelimit=50,expire=0.01,after=1,seed=7
  --no-extensions     refuse the move extensions (PUT with parent_id / folder_id)
  --token-ttl SECS    access token lifetime (default 3600)
  --rotate-refresh    each refresh grant answers a new refresh token and retires the old one
  --link-password-required  a link may be on only with a password (422 on password otherwise)
  --max-upload-mb N   upload size cap (default 5120)
  -h, --help          this text`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      host: { type: 'string', default: '127.0.0.1' },
      seed: { type: 'string', default: 'demo' },
      data: { type: 'string' },
      'base-path': { type: 'string' },
      faults: { type: 'string' },
      'no-extensions': { type: 'boolean', default: false },
      'token-ttl': { type: 'string' },
      'rotate-refresh': { type: 'boolean', default: false },
      'link-password-required': { type: 'boolean', default: false },
      'max-upload-mb': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port: not a port: ${values.port}`);
  if (values.seed !== 'demo' && values.seed !== 'empty')
    throw new Error('--seed must be demo or empty');
  const sandbox = await startSandbox({
    port,
    host: values.host,
    seed: values.seed,
    dataDir: values.data,
    basePath: values['base-path'],
    faults: values.faults,
    extensions: !values['no-extensions'],
    rotateRefreshTokens: values['rotate-refresh'],
    linkPasswordRequired: values['link-password-required'],
    accessTokenTtlSeconds: values['token-ttl'] ? Number(values['token-ttl']) : undefined,
    maxUploadBytes: values['max-upload-mb']
      ? Number(values['max-upload-mb']) * 1024 * 1024
      : undefined,
  });
  // Listening before the line goes out: whoever reads it may stop us at once, and a signal
  // that comes before its listener ends the process by default, without closing the sandbox.
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.error(`sandbox: ${signal}, closing`);
    sandbox.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error('sandbox: error while closing:', err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  console.log(
    JSON.stringify({
      base_url: sandbox.baseUrl,
      workspace_id: sandbox.workspaceId,
      client_id: sandbox.clientId,
      client_secret: sandbox.clientSecret,
      users: sandbox.users,
    }),
  );
}

main().catch((err: unknown) => {
  console.error(`sandbox: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
