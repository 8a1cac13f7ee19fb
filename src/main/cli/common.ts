import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UserError } from '../errors/user-error';
import type { Logger } from '../core/logger';
import type { AccountStore } from '../accounts/accounts';
import type { Places } from '../state/state-dir';
import { english, languageOfEnv, translator, type Translator, type Words } from '../../shared/i18n';
import { WordedError } from '../../shared/worded-error';

import { printable } from '../errors/user-error';

export { messageOf, PROGRAM, sayError } from '../errors/user-error';

/** Options every command takes. */
export const commonOptions = {
  state: { type: 'string' },
  verbose: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * The option of every command that talks to a service: the proxy to go through, over the
 * environment's HTTPS_PROXY, HTTP_PROXY and NO_PROXY (which every command honours without it).
 */
export const proxyOption = {
  proxy: { type: 'string' },
} as const;

/** The line of `--proxy` in a command's help, its description starting at `column`. */
export function proxyHelp(column: number, tr: Translator = english): string {
  return `  ${'--proxy URL'.padEnd(column - 2)}${tr.t('cli.help.proxy1')}
${' '.repeat(column)}${tr.t('cli.help.proxy2')}`;
}

/** Options of the commands that talk to a service as a signed-in user. */
export const connectionOptions = {
  server: { type: 'string' },
  token: { type: 'string' },
  'token-file': { type: 'string' },
  email: { type: 'string' },
  sandbox: { type: 'boolean' },
  ...proxyOption,
  ...commonOptions,
} as const;

/** Exit statuses. */
export const EXIT = { ok: 0, failure: 1, usage: 2, interrupted: 130 } as const;

export type Output = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
export type Input = NodeJS.ReadableStream & { isTTY?: boolean };

/** The CLI's world, so that `main` runs the same in a test as in a process. */
/** The CLI's language: LC_ALL, LC_MESSAGES or LANG of its environment (English by default). */
export const cliLanguage = (env: NodeJS.ProcessEnv): Translator => translator(languageOfEnv(env));

export interface CliIo {
  stdout: Output;
  stderr: Output;
  stdin: Input;
  env: NodeJS.ProcessEnv;
  /** Aborted on SIGINT/SIGTERM (the process entry wires it). */
  signal?: AbortSignal;
}

/** What every command gets besides its options. */
export interface CommandContext {
  io: CliIo;
  signal: AbortSignal;
  /** `places.state`: journals, trash, account files. */
  stateDir: string;
  /** Where settings, pairs and logs go (all in the state directory when one is given). */
  places: Places;
  log: Logger;
  accounts: AccountStore;
}

/** A mistake in the command line: the message, a pointer to --help, exit 2. */
export class UsageError extends WordedError {
  constructor(
    message: string | Words,
    readonly command?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A failure whose message is complete for a person: printed as is, exit 1. */
export class CliError extends UserError {
  constructor(message: string | Words) {
    super(message);
    this.name = 'CliError';
  }
}

/** A line of output; names and servers' words in it are shown, never obeyed (`printable`). */
export function writeLine(out: Output, line: string): void {
  out.write(printable(line) + '\n');
}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * `args` with each option that takes a value joined to its value (`--token VALUE` becomes
 * `--token=VALUE`, `-t VALUE` becomes `-tVALUE`), so that a value may begin with '-': strict
 * `parseArgs` refuses a separate one that does ("argument is ambiguous"), and a token, a
 * password, a path or a name may well begin with one (a random base64url token does 1 time in
 * 64). Boolean options, positionals and everything after `--` are left as they are. A value
 * forgotten (the option is followed by `--` or by one of the command's own options) is a usage
 * error, worded as when the option is the last argument, rather than a value.
 */
export function joinOptionValues(command: string, args: string[], options: Options): string[] {
  const byShort = new Map<string, string>();
  for (const [name, o] of Object.entries(options)) if (o.short) byShort.set(o.short, name);
  const takesValue = (name: string) =>
    Object.hasOwn(options, name) && options[name]!.type === 'string';
  /** The option (`--name` or `-x`) that `arg` leaves waiting for the next argument, if any. */
  const waiting = (arg: string): string | undefined => {
    if (arg.startsWith('--'))
      return !arg.includes('=') && takesValue(arg.slice(2)) ? arg : undefined;
    if (!arg.startsWith('-')) return undefined;
    // A short option, or a group of them (`-vt`): only the last may wait for a value.
    for (let i = 1; i < arg.length; i++) {
      const name = byShort.get(arg[i]!);
      if (name === undefined) return undefined;
      if (takesValue(name)) return i === arg.length - 1 ? `-${arg[i]}` : undefined;
    }
    return undefined;
  };
  const isOption = (arg: string) =>
    arg === '--' ||
    (arg.startsWith('--') && Object.hasOwn(options, arg.slice(2).split('=')[0]!)) ||
    (/^-[^-]$/.test(arg) && byShort.has(arg[1]!));

  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return out.concat(args.slice(i));
    const option = waiting(arg);
    const value = args[i + 1];
    // (An option left waiting at the very end: parseArgs says that its value is missing.)
    if (option === undefined || value === undefined) {
      out.push(arg);
      continue;
    }
    if (isOption(value))
      throw new UsageError({ key: 'cli.err.valueMissing', params: { option } }, command);
    out.push(arg.startsWith('--') ? `${arg}=${value}` : arg + value);
    i++;
  }
  return out;
}

/** `parseArgs` in strict mode, its complaints turned into usage errors. */
export function parseOptions<O extends Options>(command: string, args: string[], options: O) {
  return parseCommandLine(command, args, options, false).values;
}

/** Like `parseOptions`, for a command that also takes arguments (`--` ends the options). */
export function parseCommandLine<O extends Options>(
  command: string,
  args: string[],
  options: O,
  allowPositionals = true,
) {
  try {
    const joined = joinOptionValues(command, args, options);
    return parseArgs({ args: joined, options, strict: true, allowPositionals });
  } catch (err) {
    const code = (err as { code?: string }).code ?? '';
    if (!code.startsWith('ERR_PARSE_ARGS')) throw err;
    throw new UsageError(parseArgsWords(code, (err as Error).message), command);
  }
}

/**
 * The words of a complaint of `parseArgs` (its codes, the option or argument taken from its
 * English message); one it has that we do not know stays its English first line.
 */
function parseArgsWords(code: string, message: string): Words | string {
  const quoted = /'([^']*)'/.exec(message)?.[1];
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      if (quoted !== undefined) return { key: 'cli.unknownOption', params: { option: quoted } };
      break;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      if (quoted !== undefined)
        return { key: 'cli.err.unexpectedArgument', params: { arg: quoted } };
      break;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      // "Option '-t, --token <value>' argument missing", "Option '--once' does not take an argument"
      const missing = /^Option '([^']+) <value>' argument missing/.exec(message);
      if (missing) return { key: 'cli.err.valueMissing', params: { option: missing[1]! } };
      const noValue = /^Option '([^']+)' does not take an argument/.exec(message);
      if (noValue) return { key: 'cli.err.takesNoValue', params: { option: noValue[1]! } };
      const ambiguous = /^Option '([^']+)' argument is ambiguous/.exec(message);
      if (ambiguous) return { key: 'cli.err.ambiguous', params: { option: ambiguous[1]! } };
      break;
    }
  }
  return message.split('\n')[0]!.replace(/\.$/, '');
}

export function required(value: string | undefined, option: string, command: string): string {
  if (value === undefined || value === '')
    throw new UsageError({ key: 'cli.err.required', params: { option } }, command);
  return value;
}

export function positiveInt(value: string, option: string, command: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n <= 0) {
    throw new UsageError({ key: 'cli.err.positiveInt', params: { option, value } }, command);
  }
  return n;
}

export function positiveNumber(value: string, option: string, command: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0) {
    throw new UsageError({ key: 'cli.err.positiveNumber', params: { option, value } }, command);
  }
  return n;
}

/** True when `args` asks for help (before a `--` that ends the options). */
export function wantsHelp(args: string[]): boolean {
  for (const a of args) {
    if (a === '--') return false;
    if (a === '--help' || a === '-h') return true;
  }
  return false;
}
