import { open } from 'node:fs/promises';
import { registerSecret } from '../api/errors';
import { english, type Translator } from '../../shared/i18n';
import {
  cliLanguage,
  CliError,
  PROGRAM,
  UsageError,
  writeLine,
  type CliIo,
  type Input,
} from './common';

/** Said once per run of `--token`: why it is a bad idea, and what to use instead. */
const tokenWarning = (tr: Translator) => tr.t('cli.token.warning', { program: PROGRAM });
/** The warning in English. */
export const TOKEN_ON_COMMAND_LINE = tokenWarning(english);

/** A token is a line of text; anything longer is the wrong file (and must not fill memory). */
const MAX_TOKEN_BYTES = 64 * 1024;

/** Reads at most `max` + 1 bytes of a stream: enough to tell that it holds more than `max`. */
async function readUpTo(input: Input, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of input) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    chunks.push(buf);
    size += buf.length;
    if (size > max) break;
  }
  return Buffer.concat(chunks);
}

function fileProblem(file: string, err: unknown): CliError {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR')
    return new CliError({ key: 'cli.token.missing', params: { file } });
  if (code === 'EISDIR') return new CliError({ key: 'cli.token.isFolder', params: { file } });
  if (code === 'EACCES' || code === 'EPERM')
    return new CliError({ key: 'cli.token.denied', params: { file } });
  return new CliError({
    key: 'cli.token.unreadable',
    params: { file, code: code ?? 'unknown error' },
  });
}

/** The first line of a token file (`-`: standard input), trimmed; a CliError saying what is wrong. */
async function readTokenFile(file: string, io: CliIo): Promise<string> {
  let bytes: Buffer;
  if (file === '-' && io.stdin.isTTY) {
    // Typed (or pasted) at a terminal: asked for without echo, like a password. Loaded only
    // here: every command's start paid for it (a double-clicked placeholder waits on that).
    const { read } = await import('read');
    const typed = await read({
      prompt: cliLanguage(io.env).t('cli.token.prompt'),
      silent: true,
      replace: '',
      input: io.stdin,
      output: io.stderr,
      terminal: true,
    })
      .catch(() => '')
      .finally(() => io.stderr.write('\n'));
    bytes = Buffer.from(typed);
  } else if (file === '-') {
    bytes = await readUpTo(io.stdin, MAX_TOKEN_BYTES);
  } else {
    let handle;
    try {
      handle = await open(file, 'r');
      // A folder opens on Linux; reading it fails with EISDIR.
      bytes = await readUpTo(handle.createReadStream({ autoClose: false }), MAX_TOKEN_BYTES);
    } catch (err) {
      throw fileProblem(file, err);
    } finally {
      await handle?.close();
    }
  }
  if (bytes.length > MAX_TOKEN_BYTES)
    throw new CliError(
      file === '-'
        ? { key: 'cli.token.stdinTooLong' }
        : { key: 'cli.token.tooLong', params: { file } },
    );
  const token = bytes.toString('utf8').split('\n')[0]!.trim();
  if (token === '')
    throw new CliError(
      file === '-' ? { key: 'cli.token.stdinEmpty' } : { key: 'cli.token.empty', params: { file } },
    );
  registerSecret(token);
  return token;
}

/**
 * The access token the options give, if any: `--token-file` (a file, or `-` for standard input)
 * or `--token` (with a warning on stderr, never the token). Undefined when neither is given:
 * WORKSPACE_SYNC_TOKEN or a remembered account then apply.
 */
export async function tokenFrom(
  values: { token?: string; 'token-file'?: string },
  io: CliIo,
  command: string,
): Promise<string | undefined> {
  const file = values['token-file'];
  if (file !== undefined && values.token !== undefined)
    throw new UsageError(
      { key: 'cli.err.exclusive', params: { a: '--token', b: '--token-file' } },
      command,
    );
  if (file === '') throw new UsageError({ key: 'cli.token.needsFile' }, command);
  if (file !== undefined) return readTokenFile(file, io);
  if (values.token !== undefined) {
    if (values.token.trim() !== '') registerSecret(values.token.trim());
    writeLine(io.stderr, tokenWarning(cliLanguage(io.env)));
  }
  return values.token;
}
