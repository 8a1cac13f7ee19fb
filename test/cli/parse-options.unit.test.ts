import { describe, expect, it } from 'vitest';
import { parseLogin, parseWorkspaces } from '../../src/main/cli/commands';
import {
  joinOptionValues,
  parseCommandLine,
  parseOptions,
  UsageError,
} from '../../src/main/cli/common';
import { parseLink } from '../../src/main/cli/link';
import { parseSync } from '../../src/main/cli/sync';
import { parseUi } from '../../src/main/cli/ui';

// The CLI's option parsing (strict `parseArgs`): values that begin with '-', as a random
// base64url token does one time in 64.

const options = {
  token: { type: 'string' },
  file: { type: 'string', short: 'f' },
  verbose: { type: 'boolean', short: 'v' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The UsageError that `run` throws. */
function usageError(run: () => unknown): UsageError {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return err as UsageError;
  }
  throw new Error('no UsageError was thrown');
}

describe('parseOptions: values that begin with -', () => {
  it('takes `--opt VALUE` whatever VALUE begins with', () => {
    expect(parseOptions('t', ['--token', '-Xy_9'], options)).toEqual({ token: '-Xy_9' });
    expect(parseOptions('t', ['--token', '--Xy', '--verbose'], options)).toEqual({
      token: '--Xy',
      verbose: true,
    });
    expect(parseOptions('t', ['--token', '-'], options)).toEqual({ token: '-' });
    expect(parseOptions('t', ['--token', '-v'], { token: { type: 'string' } })).toEqual({
      token: '-v',
    });
    // The other spellings are as they were.
    expect(parseOptions('t', ['--token=-Xy'], options)).toEqual({ token: '-Xy' });
    expect(parseOptions('t', ['--token', 'plain'], options)).toEqual({ token: 'plain' });
    expect(parseOptions('t', ['--token', ''], options)).toEqual({ token: '' });
    expect(parseOptions('t', ['--token', 'a=b'], options)).toEqual({ token: 'a=b' });
  });

  it('takes `-x VALUE` (alone or ending a group of short options) whatever VALUE begins with', () => {
    expect(parseOptions('t', ['-f', '-abc'], options)).toEqual({ file: '-abc' });
    expect(parseOptions('t', ['-vf', '-abc'], options)).toEqual({ verbose: true, file: '-abc' });
    expect(parseOptions('t', ['-f-abc'], options)).toEqual({ file: '-abc' });
    expect(parseOptions('t', ['-fabc', '-v'], options)).toEqual({ file: 'abc', verbose: true });
  });

  it('parses a boolean option followed by another one as two options', () => {
    expect(parseOptions('t', ['--verbose', '-h'], options)).toEqual({ verbose: true, help: true });
    expect(parseOptions('t', ['-v', '--token', '-x'], options)).toEqual({
      verbose: true,
      token: '-x',
    });
    expect(usageError(() => parseOptions('t', ['--verbose', '-x'], options)).message).toBe(
      'unknown option -x',
    );
  });

  it('says a value is missing when the option ends the line, or is followed by an option or --', () => {
    for (const args of [
      ['--token'],
      ['--verbose', '--token'],
      ['--token', '--verbose'],
      ['--token', '--file=x'],
      ['--token', '-h'],
      ['--token', '--'],
    ]) {
      const err = usageError(() => parseOptions('t', args, options));
      expect(err.message, args.join(' ')).toBe("Option '--token <value>' argument missing");
      expect(err.command).toBe('t');
    }
    expect(usageError(() => parseOptions('t', ['-f', '-v'], options)).message).toBe(
      "Option '-f <value>' argument missing",
    );
  });

  it('leaves positionals and everything after -- alone', () => {
    expect(parseCommandLine('t', ['-', 'a', '--token', '-x', 'b'], options)).toEqual({
      values: { token: '-x' },
      positionals: ['-', 'a', 'b'],
    });
    expect(parseCommandLine('t', ['--verbose', '--', '--token', '-x'], options)).toEqual({
      values: { verbose: true },
      positionals: ['--token', '-x'],
    });
    expect(parseCommandLine('t', ['--token', '-x', '--', '--file', '-y'], options)).toEqual({
      values: { token: '-x' },
      positionals: ['--file', '-y'],
    });
    expect(joinOptionValues('t', ['--', '--token', '-x'], options)).toEqual([
      '--',
      '--token',
      '-x',
    ]);
    expect(usageError(() => parseOptions('t', ['--token', '-x', 'b'], options)).message).toBe(
      'unexpected argument b',
    );
  });

  it("holds for every command's options: tokens, paths, names, numbers", () => {
    const server = 'https://files.example.com';
    expect(parseWorkspaces(['--server', server, '--token', '-tok', '--json'])).toMatchObject({
      server,
      token: '-tok',
      json: true,
    });
    expect(
      parseSync([
        '--server',
        server,
        '--token',
        '-tok',
        '--dir',
        '-dir',
        '--state',
        '-state',
        '--workspace',
        '-1',
      ]),
    ).toMatchObject({ token: '-tok', dir: '-dir', state: '-state', workspace: '-1' });
    expect(parseLink(['--token', '-tok', '--copy', '--', '-file'])).toMatchObject({
      token: '-tok',
      copy: true,
      paths: ['-file'],
    });
    expect(parseLogin(['--email', '-ann@example.com', '--client-secret', '-s'])).toMatchObject({
      email: '-ann@example.com',
      'client-secret': '-s',
    });
    // The command's own check of the value now speaks, not parseArgs.
    expect(usageError(() => parseUi(['--sandbox', '--port', '-1'])).message).toBe(
      '--port must be a port number (0-65535), not "-1"',
    );
  });
});
