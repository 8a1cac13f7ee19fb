import { english, type Translator } from '../../shared/i18n';
import { hostname } from 'node:os';
import { collect } from '../api/client';
import { NotAuthenticatedError, registerSecret } from '../api/errors';
import { signInWithPassword } from '../api/oauth';
import { assertSafeBaseUrl } from '../api/transport';
import { normalizeServer } from '../accounts/accounts';
import { oauthClient } from '../accounts/oauth-client';
import {
  cliLanguage,
  CliError,
  UsageError,
  commonOptions,
  connectionOptions,
  EXIT,
  parseOptions,
  proxyHelp,
  proxyOption,
  required,
  writeLine,
  type CommandContext,
  type Input,
} from './common';
import { apiBaseNotice, connect } from './connect';
import { findApiBase } from '../accounts/api-base';
import { requireServerOrSandbox, sandboxAvailable } from './sandbox';
import { tokenFrom } from './token';

/** The first line of a stream (without its line break), reading no further than needed. */
export async function readFirstLine(input: Input): Promise<string> {
  let text = '';
  for await (const chunk of input) {
    text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
    if (text.includes('\n')) break;
  }
  return text.split('\n')[0]!.replace(/\r$/, '');
}

export const loginUsage = (tr: Translator = english): string =>
  tr.t('cli.help.login', { proxy: proxyHelp(26, tr) });

export const loginOptions = {
  server: { type: 'string' },
  email: { type: 'string' },
  'password-stdin': { type: 'boolean' },
  store: { type: 'string' },
  'client-id': { type: 'string' },
  'client-secret': { type: 'string' },
  ...proxyOption,
  ...commonOptions,
} as const;

export const parseLogin = (args: string[]) => parseOptions('login', args, loginOptions);

export async function login(
  values: ReturnType<typeof parseLogin>,
  ctx: CommandContext,
): Promise<number> {
  const tr = cliLanguage(ctx.io.env);
  const given = normalizeServer(required(values.server, '--server', 'login'));
  const email = required(values.email, '--email', 'login').trim();
  const store = values.store ?? 'keychain';
  if (store !== 'keychain' && store !== 'file') {
    throw new UsageError({ key: 'cli.err.store', params: { value: store } }, 'login');
  }
  assertSafeBaseUrl(given);
  // Before the password is asked for: the account belongs to the API's base URL.
  const server = await findApiBase(given, { log: ctx.log });
  if (server !== given) writeLine(ctx.io.stderr, apiBaseNotice(server, given, tr));
  const client = oauthClient(ctx.io.env, {
    clientId: values['client-id'],
    clientSecret: values['client-secret'],
  });
  registerSecret(client.clientSecret);
  if (store === 'keychain') {
    const cannot = await ctx.accounts.cannotRemember?.();
    if (cannot) throw new CliError({ key: 'cli.err.cannotRemember', params: { reason: cannot } });
  } else if (!ctx.accounts.putInFile) {
    throw new CliError({ key: 'cli.err.noAccountFile' });
  }

  const password = await askPassword(values['password-stdin'] === true, email, ctx, tr);
  if (password === '') throw new CliError({ key: 'cli.err.noPassword' });
  registerSecret(password);

  const tokens = await signInWithPassword({
    baseUrl: server,
    email,
    password,
    ...client,
    device: hostname(),
    transport: { log: ctx.log },
  }).catch((err: unknown) => {
    if (!(err instanceof NotAuthenticatedError)) throw err;
    // "The service did not accept the sign-in (Wrong email or password.)." → its reason.
    const reason = /\((.*)\)\.?$/.exec(err.message)?.[1] ?? err.message;
    throw new CliError({
      key: 'cli.err.signInRefused',
      params: { server, email, reason: reason.replace(/\.?$/, '.') },
    });
  });
  const account = {
    server,
    email,
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken ?? null,
    clientId: client.clientId,
    clientSecret: client.clientSecret,
  };
  if (store === 'file' && ctx.accounts.putInFile) {
    const file = await ctx.accounts.putInFile(account);
    // Said once, here: the person chose it; later runs use the file without a word.
    writeLine(ctx.io.stderr, tr.t('cli.tokensInFile', { file }));
  } else {
    await ctx.accounts.put(account);
  }
  ctx.log.info('signed in', { server, email, store });
  writeLine(ctx.io.stdout, tr.t('cli.signedIn', { email, server }));
  return EXIT.ok;
}

/** The password: the first line of stdin when asked so, else typed at the terminal, unechoed. */
async function askPassword(
  fromStdin: boolean,
  email: string,
  ctx: CommandContext,
  tr: ReturnType<typeof cliLanguage>,
): Promise<string> {
  if (fromStdin) {
    return readFirstLine(ctx.io.stdin);
  } else if (ctx.io.stdin.isTTY) {
    // Loaded only here, not at every command's start.
    const { read } = await import('read');
    return await read({
      prompt: tr.t('cli.passwordPrompt', { email }),
      silent: true,
      replace: '',
      input: ctx.io.stdin,
      output: ctx.io.stderr,
      terminal: true,
    })
      .catch((err: unknown) => {
        const why = err instanceof Error ? err.message : String(err);
        throw new CliError(
          why === 'canceled'
            ? { key: 'cli.err.signInCancelled' }
            : { key: 'cli.err.noPasswordRead', params: { why } },
        );
      })
      .finally(() => ctx.io.stderr.write('\n')); // the Enter that was not echoed
  } else {
    throw new CliError({ key: 'cli.err.noTerminal' });
  }
}

export const logoutUsage = (tr: Translator = english): string => tr.t('cli.help.logout');

export const logoutOptions = {
  server: { type: 'string' },
  email: { type: 'string' },
  ...commonOptions,
} as const;

export const parseLogout = (args: string[]) => parseOptions('logout', args, logoutOptions);

export async function logout(
  values: ReturnType<typeof parseLogout>,
  ctx: CommandContext,
): Promise<number> {
  const server = normalizeServer(required(values.server, '--server', 'logout'));
  const account = await ctx.accounts.get(server, values.email);
  if (!account || !(await ctx.accounts.remove(server, account.email))) {
    throw new CliError(
      values.email
        ? { key: 'cli.err.noAccountOf', params: { email: values.email, server } }
        : { key: 'cli.err.noAccount', params: { server } },
    );
  }
  ctx.log.info('signed out', { server, email: account.email });
  writeLine(
    ctx.io.stdout,
    cliLanguage(ctx.io.env).t('cli.signedOut', { email: account.email, server }),
  );
  return EXIT.ok;
}

/** The help of `workspaces`; the demo sandbox only where this program has one. */
export function workspacesUsage(demo = sandboxAvailable(), tr: Translator = english): string {
  return tr.t('cli.help.workspaces', {
    demo: demo ? 'yes' : 'no',
    json: '{"id", "name", "role"}',
    proxy: proxyHelp(22, tr),
  });
}

export const workspacesOptions = { ...connectionOptions, json: { type: 'boolean' } } as const;

/** A name shown in a table: control characters would break the line. */
const printable = (s: string) => s.replace(/\p{Cc}/gu, '?');

/** Columns padded to their widest cell; the last one is not padded. */
export function table(rows: string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows)
    row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) =>
    row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '),
  );
}

export const parseWorkspaces = (args: string[]) => {
  const values = parseOptions('workspaces', args, workspacesOptions);
  requireServerOrSandbox(values, 'workspaces');
  return values;
};

export async function workspaces(
  values: ReturnType<typeof parseWorkspaces>,
  ctx: CommandContext,
): Promise<number> {
  const conn = await connect({
    command: 'workspaces',
    server: values.server,
    token: await tokenFrom(values, ctx.io, 'workspaces'),
    email: values.email,
    sandbox: values.sandbox,
    env: ctx.io.env,
    accounts: ctx.accounts,
    log: ctx.log,
    stderr: ctx.io.stderr,
  });
  try {
    const list = await collect(conn.client.listWorkspaces()).catch((err: unknown) => {
      throw conn.explain(err);
    });
    const rows = list.map((w) => ({ id: w.id, name: w.name, role: w.effective_role ?? '' }));
    const tr = cliLanguage(ctx.io.env);
    if (values.json) {
      for (const row of rows) writeLine(ctx.io.stdout, JSON.stringify(row));
    } else if (rows.length === 0) {
      writeLine(ctx.io.stdout, tr.t('cli.noWorkspaces', { server: conn.server }));
    } else {
      const lines = table([
        [tr.t('cli.column.id'), tr.t('cli.column.name'), tr.t('cli.column.role')],
        ...rows.map((r) => [String(r.id), printable(r.name), printable(r.role) || '-']),
      ]);
      for (const line of lines) writeLine(ctx.io.stdout, line);
    }
    ctx.log.info('listed workspaces', { server: conn.server, count: rows.length });
    return EXIT.ok;
  } finally {
    await conn.close();
  }
}
