import { PassThrough } from 'node:stream';
import { main } from '../../src/main/cli/main';

// The CLI's `main` run in this process with captured output: for cases refused before anything
// reaches a server or the keychain, many of them in a second (a child process costs ~1 s each).

/** Runs `workspace-sync ARGS` in-process with exactly `env`: its exit status and its output. */
export async function runMain(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await main(args, { stdout, stderr, stdin: new PassThrough(), env });
  return { code, out, err };
}
