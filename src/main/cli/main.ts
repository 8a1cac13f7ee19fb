// `workspace-sync <command> [options]`: the headless client, as the app ships it (`<app> --cli`,
// or `node --import tsx src/main/cli/main.ts`: no embedded sandbox). From source, with the
// sandbox: src/dev/cli.ts (`npm run -s cli -- ARGS`, the `workspace-sync` bin).
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { redact } from '../api/errors';
import { createFileLogger } from '../core/file-log';
import {
  login,
  loginUsage,
  logout,
  logoutUsage,
  parseLogin,
  parseLogout,
  parseWorkspaces,
  workspaces,
  workspacesUsage,
} from './commands';
import {
  cliLanguage,
  EXIT,
  messageOf,
  sayError,
  PROGRAM,
  UsageError,
  wantsHelp,
  writeLine,
  type CliIo,
  type CommandContext,
} from './common';
import { deferredAccountStore, keychainService, openAccountStore } from '../accounts/keychain';
import { integrate, integrateUsage, parseIntegrate } from './integrate-command';
import { files, filesUsage, parseFiles } from './files';
import { folders, foldersUsage, parseFolders } from './folders';
import { link, linkUsage, parseLink } from './link';
import { defaultStateDir, placesOf } from '../state/state-dir';
import { logMoves, moveToPlaces } from '../state/move-places';
import { parseSync, sync, syncUsage } from './sync';
import { parseStatus, status, statusUsage } from './status';
import { parseUi, ui, uiUsage } from './ui';
import { sandboxAvailable } from './sandbox';
import { keepHeapNearLive } from '../core/heap';
import { configureProxy } from '../api/proxy';
import type { Translator, Words } from '../../shared/i18n';
import { checkProxyUrl, PROXY_EXAMPLE, type ProxyProblem } from '../../shared/proxy-url';

interface Prepared {
  state: string | undefined;
  verbose: boolean;
  /** `--proxy`, checked; '' when not given (the environment's proxies). */
  proxy: string;
  run(ctx: CommandContext): Promise<number>;
}

interface Command {
  /** The help text, in the language (and whether this program has the demo sandbox). */
  usage: (tr: Translator) => string;
  /** Parses the options (throwing UsageError) before anything is touched. */
  prepare(args: string[]): Prepared;
  /** Whether the command ends itself cleanly on SIGINT/SIGTERM (otherwise main stops waiting). */
  handlesSignal: boolean;
}

function command<V extends { state?: string; verbose?: boolean; proxy?: string }>(
  usage: (tr: Translator) => string,
  parse: (args: string[]) => V,
  run: (values: V, ctx: CommandContext) => Promise<number>,
  handlesSignal = false,
): Command {
  return {
    usage,
    handlesSignal,
    prepare(args) {
      const values = parse(args);
      const problem = values.proxy === undefined ? null : checkProxyUrl(values.proxy);
      if (problem)
        throw new UsageError({ key: 'cli.err.proxy', params: { problem: proxyWords(problem) } });
      return {
        state: values.state,
        verbose: values.verbose === true,
        proxy: values.proxy ?? '',
        run: (ctx) => run(values, ctx),
      };
    },
  };
}

/** What is wrong with `--proxy`, as `describeProxyProblem` says it, in words. */
function proxyWords(problem: ProxyProblem): Words {
  const example = PROXY_EXAMPLE;
  switch (problem.kind) {
    case 'no-scheme':
      return { key: 'cli.err.proxy.noScheme', params: { example } };
    case 'scheme':
      return { key: 'cli.err.proxy.scheme', params: { scheme: problem.scheme, example } };
    case 'not-url':
      return { key: 'cli.err.proxy.notUrl', params: { example } };
    case 'no-host':
      return { key: 'cli.err.proxy.noHost', params: { example } };
    case 'path':
      return { key: 'cli.err.proxy.path', params: { example } };
    case 'no-user':
      return { key: 'cli.err.proxy.noUser' };
  }
}

const COMMANDS: Record<string, Command> = {
  login: command(loginUsage, parseLogin, login),
  logout: command(logoutUsage, parseLogout, logout),
  workspaces: command((tr) => workspacesUsage(undefined, tr), parseWorkspaces, workspaces),
  sync: command((tr) => syncUsage(undefined, tr), parseSync, sync, true),
  status: command(statusUsage, parseStatus, status),
  ui: command((tr) => uiUsage(undefined, tr), parseUi, ui, true),
  link: command(linkUsage, parseLink, link),
  integrate: command(integrateUsage, parseIntegrate, integrate),
  folders: command(foldersUsage, parseFolders, folders),
  files: command(filesUsage, parseFiles, files),
};

export function usage(env: NodeJS.ProcessEnv = process.env): string {
  const tr = cliLanguage(env);
  return tr.t('cli.usage', {
    program: PROGRAM,
    state: defaultStateDir(env),
    sandbox: sandboxAvailable() ? tr.t('cli.usageSandbox') : '',
  });
}

const never = new AbortController().signal;

/** Resolves with `work`'s exit status, or with 130 as soon as `signal` aborts. */
function orInterrupted(work: Promise<number>, signal: AbortSignal): Promise<number> {
  if (signal.aborted) return Promise.resolve(EXIT.interrupted);
  return new Promise<number>((resolve, reject) => {
    const onAbort = () => resolve(EXIT.interrupted);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (code) => {
        signal.removeEventListener('abort', onAbort);
        resolve(code);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

/**
 * Runs one command line (without the program name) and resolves with the exit status. Failures
 * are one line `workspace-sync: <message>` on stderr (a stack trace only with --verbose), never
 * holding a secret; usage mistakes exit 2.
 */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  const tr = cliLanguage(io.env);
  const usageError = (message: string, command?: string) => {
    writeLine(io.stderr, `${PROGRAM}: ${message}`);
    writeLine(
      io.stderr,
      tr.t('cli.seeHelp', { command: `${PROGRAM}${command ? ` ${command}` : ''}` }),
    );
    return EXIT.usage;
  };

  if (name === undefined || name === '') return usageError(tr.t('cli.noCommand'));
  if (name === '--help' || name === '-h' || name === 'help') {
    writeLine(io.stdout, usage(io.env));
    return EXIT.ok;
  }
  if (name.startsWith('-')) return usageError(tr.t('cli.unknownOption', { option: name }));
  const cmd = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!cmd) return usageError(tr.t('cli.unknownCommand', { name }));
  if (wantsHelp(args)) {
    writeLine(io.stdout, cmd.usage(tr));
    return EXIT.ok;
  }
  let prepared: Prepared;
  try {
    prepared = cmd.prepare(args);
  } catch (err) {
    if (err instanceof UsageError) return usageError(sayError(tr, err), err.command ?? name);
    throw err;
  }

  const { verbose } = prepared;
  const signal = io.signal ?? never;
  let log: ReturnType<typeof createFileLogger> | undefined;
  try {
    const places = placesOf(prepared.state, io.env);
    const stateDir = places.state;
    // Before the log opens: earlier versions' logs may be moving to where this one writes.
    const moved = moveToPlaces(places);
    log = createFileLogger({
      file: path.join(places.logs, 'workspace-sync.log'),
      verbose,
    });
    logMoves(log, moved);
    const ctx: CommandContext = {
      io,
      signal,
      stateDir,
      places,
      log,
      // The OS keychain, opened only by a command that needs an account (no Electron, no cipher:
      // without a keychain the CLI remembers nothing and says so).
      accounts: deferredAccountStore(() =>
        openAccountStore({ stateDir, log: ctx.log, service: keychainService(io.env) }),
      ),
    };
    // Every request of this process goes through the shared dispatcher: the proxy first.
    configureProxy({ setting: prepared.proxy, env: io.env });
    const work = prepared.run(ctx);
    const code = await (cmd.handlesSignal ? work : orInterrupted(work, signal));
    if (code === EXIT.interrupted) writeLine(io.stderr, `${PROGRAM}: ${tr.t('cli.interrupted')}`);
    return code;
  } catch (err) {
    if (err instanceof UsageError) return usageError(sayError(tr, err), err.command ?? name);
    log?.error(`${name} failed`, { err });
    writeLine(io.stderr, `${PROGRAM}: ${sayError(tr, err)}`);
    if (verbose && err instanceof Error && err.stack) writeLine(io.stderr, redact(err.stack));
    return EXIT.failure;
  } finally {
    await log?.close();
  }
}

function flushed(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => stream.write('', () => resolve()));
}

/**
 * The process: SIGINT/SIGTERM abort the running command (a second one exits at once), then
 * the process exits with the command's status once its output is written.
 */
export async function runProcess(argv: string[]): Promise<never> {
  keepHeapNearLive();
  const controller = new AbortController();
  let signals = 0;
  const onSignal = (sig: NodeJS.Signals) => {
    if (++signals > 1) {
      const again = cliLanguage(process.env).t('cli.signalAgain', { signal: sig });
      process.stderr.write(`${PROGRAM}: ${again}\n`);
      process.exit(EXIT.interrupted);
    }
    // An AbortError, as every stage takes an abort to be: a plain Error('SIGTERM') came out of
    // an interrupted `sync --once` as a failure ("workspace-sync: SIGTERM", exit 1), not 130.
    const reason = new Error(sig);
    reason.name = 'AbortError';
    controller.abort(reason);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let code: number;
  try {
    code = await main(argv, {
      stdout: process.stdout,
      stderr: process.stderr,
      stdin: process.stdin,
      env: process.env,
      signal: controller.signal,
    });
  } catch (err) {
    process.stderr.write(`${PROGRAM}: ${messageOf(err)}\n`);
    code = EXIT.failure;
  }
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
}

/** Whether the module at `moduleUrl` is the script Node was started with (`node FILE`). */
export function isEntry(moduleUrl: string): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}

// Inside the app (bundled into its main process) the app decides: `--cli` runs `main`.
if (!process.versions.electron && isEntry(import.meta.url)) void runProcess(process.argv.slice(2));
