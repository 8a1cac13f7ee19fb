import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Keychain } from '../../src/main/accounts/keychain';
import { programArgv } from '../bundles';

export const repoRoot = path.resolve(import.meta.dirname, '../..');

/**
 * The keychain service of this test file (each file gets its modules afresh): test files run at
 * the same time in one private keyring, and must not see each other's accounts.
 */
export const KEYCHAIN_TEST_SERVICE = `Workspace Sync test ${process.pid} ${randomBytes(4).toString('hex')}`;

/** Whether the tests run inside scripts/with-keyring.mjs's private D-Bus session and keyring. */
export function insidePrivateKeyring(): boolean {
  const marker = process.env.WORKSPACE_SYNC_TEST_KEYRING;
  return !!marker && marker === process.env.DBUS_SESSION_BUS_ADDRESS;
}

// A name in a variable: keytar is optional, and the tests must type-check where it did not build.
const KEYTAR: string = 'keytar';

/**
 * keytar itself, for the tests that look into the keychain behind the app's back. Where it did
 * not build (no libsecret), those tests fail with one line saying what to install.
 */
export async function requireKeytar(): Promise<Keychain> {
  let mod: unknown;
  try {
    mod = await import(KEYTAR);
  } catch (err) {
    const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new Error(
      `keytar is not built on this machine (${why}): these tests need it. ` +
        'Debian/Ubuntu: sudo apt-get install libsecret-1-dev python3 make g++, then npm ci.',
    );
  }
  return ((mod as { default?: Keychain }).default ?? mod) as Keychain;
}

/**
 * Fails the tests that use the OS keychain unless they run in a keyring of their own: they must
 * never read or write the developer's.
 */
export function requirePrivateKeyring(): void {
  if (insidePrivateKeyring()) return;
  throw new Error(
    'These tests use the OS keychain and run only in a private keyring: ' +
      'node scripts/with-keyring.mjs npx vitest run FILE (npm test does it). ' +
      'It needs dbus-run-session and gnome-keyring-daemon (Debian/Ubuntu: sudo apt-get install dbus gnome-keyring).',
  );
}

/**
 * The environment of a child `workspace-sync`: no WORKSPACE_SYNC_* variable from the machine
 * running the tests, this file's keychain service, and outside a private keyring a session bus
 * address that leads nowhere, so that a child can never reach the developer's keyring.
 */
export function cliEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('WORKSPACE_SYNC_')) env[k] = v;
  }
  env.WORKSPACE_SYNC_KEYCHAIN_SERVICE = KEYCHAIN_TEST_SERVICE;
  if (!insidePrivateKeyring()) env.DBUS_SESSION_BUS_ADDRESS = NO_BUS;
  return Object.assign(env, extra);
}

/** A D-Bus address where nothing listens. */
export const NO_BUS = 'unix:path=/nonexistent/workspace-sync-test-no-bus';

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * `workspace-sync ARGS` from source as a command line: Node running the dev entry, bundled once
 * for this test run (the same code, started without tsx's compiler), else through tsx.
 */
export const cliArgv = (args: string[]): string[] => [
  process.execPath,
  ...programArgv('cli'),
  ...args,
];

/** How a CLI child is started: its extra environment, and a command it runs under. */
export interface CliSpawnOptions {
  env?: Record<string, string>;
  /** A command the CLI runs under, with its own arguments (`setpriv …`, `unshare …`). */
  under?: string[];
}

/** Starts `workspace-sync ARGS` as a child, from the repository root, in `cliEnv`'s environment. */
export function spawnCli(args: string[], opts: CliSpawnOptions = {}) {
  const [cmd, ...argv] = [...(opts.under ?? []), ...cliArgv(args)];
  return spawn(cmd!, argv, {
    cwd: repoRoot,
    env: cliEnv(opts.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** A CLI child started by `startCli`: its output so far, its first line, its end. */
export interface CliChild {
  child: ReturnType<typeof spawnCli>;
  /** Everything written so far. */
  out: { stdout: string; stderr: string };
  /** Its first line on stdout; rejected (with its stderr) if it ends before writing one. */
  firstLine: Promise<string>;
  /** Resolves once it has ended and its output is complete. */
  exited: Promise<CliRun>;
}

/**
 * Starts `workspace-sync ARGS` as a real child process, the way a person does (through tsx, from
 * the repository root), in `cliEnv`'s environment (plus `opts.env`), `opts.stdin` written to it
 * and closed; gathers its output.
 */
export function startCli(
  args: string[],
  opts: CliSpawnOptions & { stdin?: string } = {},
): CliChild {
  const child = spawnCli(args, opts);
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (d: Buffer) => (out.stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out.stderr += d.toString()));
  child.stdin.on('error', () => {}); // the CLI may exit before reading it all
  child.stdin.end(opts.stdin ?? '');
  const firstLine = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('close', () => reject(new Error(`exited early: ${out.stderr}`)));
  });
  firstLine.catch(() => {}); // only a caller that waits for it learns that it never came
  const exited = new Promise<CliRun>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, ...out }));
  });
  return { child, out, firstLine, exited };
}

/** `startCli` to its end: the exit code or signal, and the whole output. */
export function runCli(
  args: string[],
  opts: CliSpawnOptions & { stdin?: string } = {},
): Promise<CliRun> {
  return startCli(args, opts).exited;
}

/** A temporary directory and its removal. */
export async function tempDir(prefix: string): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), `ws-cli-${prefix}-`));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** `sync --json` of a sandbox's workspace into `dir`, its state in `state`, then `extra`. */
export function syncArgs(
  sb: { baseUrl: string; workspaceId: number },
  dir: string,
  state: string,
  ...extra: string[]
): string[] {
  return [
    'sync',
    '--json',
    '--server',
    sb.baseUrl,
    '--workspace',
    String(sb.workspaceId),
    '--dir',
    dir,
    '--state',
    state,
    ...extra,
  ];
}
