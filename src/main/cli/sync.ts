import { english, type Translator } from '../../shared/i18n';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { isInside, pairsOnDisk } from '../links/pair-lookup';
import {
  changeSelection,
  countUploads,
  isFirstSync,
  openSync,
  type OpenSync,
  refusePlace,
  rootFolderId,
  SyncFatalError,
  SyncPassError,
} from '../engine';
import { ENGINE_RETRY } from '../accounts/connect';
import type { Logger } from '../core/logger';
import { ApiError } from '../api/errors';
import { UserError } from '../errors/user-error';
import { proxyShownFor } from '../api/proxy';
import { processTransfers } from '../api/throttle';
import { LIMIT_KBPS } from '../../shared/app-api';
import { resolveFolderPaths } from './folders';
import {
  cliLanguage,
  CliError,
  connectionOptions,
  EXIT,
  messageOf,
  parseOptions,
  positiveInt,
  positiveNumber,
  proxyHelp,
  required,
  UsageError,
  type CommandContext,
} from './common';
import { connect, type Connection } from './connect';
import { RunningStatusFile, runningFile } from '../state/running';
import { checkSyncDir } from './dir';
import { requireServerOrSandbox, sandboxAvailable } from './sandbox';
import { tokenFrom } from './token';
import { JsonReporter, TextReporter, type SyncReporter } from './output';

/** The help of `sync`; the demo sandbox only where this program has one. */
export function syncUsage(demo = sandboxAvailable(), tr: Translator = english): string {
  return tr.t('cli.help.sync', { demo: demo ? 'yes' : 'no', proxy: proxyHelp(21, tr) });
}

export const syncOptions = {
  ...connectionOptions,
  workspace: { type: 'string' },
  dir: { type: 'string' },
  once: { type: 'boolean' },
  'confirm-deletes': { type: 'boolean' },
  'confirm-remote-deletes': { type: 'boolean' },
  'keep-local-copies': { type: 'boolean' },
  exclude: { type: 'string', multiple: true },
  poll: { type: 'string' },
  'limit-up': { type: 'string' },
  'limit-down': { type: 'string' },
  json: { type: 'boolean' },
  merge: { type: 'boolean' },
  'on-demand': { type: 'string' },
  'free-unused-days': { type: 'string' },
} as const;

/** A transfer limit given on the command line, in KB/s (0 for none), or a usage error. */
export function limitKBps(value: string | undefined, option: string): number {
  if (value === undefined) return 0;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n > LIMIT_KBPS.max) {
    throw new UsageError(
      { key: 'cli.err.limit', params: { option, max: LIMIT_KBPS.max, value } },
      'sync',
    );
  }
  return n;
}

export function errorKind(err: unknown): string {
  if (err instanceof SyncFatalError || err instanceof SyncPassError || err instanceof ApiError)
    return err.kind;
  // A refusal said in words (a folder that holds files, a system folder) is not a fault of ours.
  if (err instanceof UserError) return 'refused';
  return 'internal';
}

const isAbort = (err: unknown) =>
  err instanceof Error && (err.name === 'AbortError' || err.name === 'SyncAborted');

class Interrupted extends Error {
  override readonly name = 'SyncAborted';
}

/** Settles with `work`, or rejects with Interrupted as soon as `signal` aborts. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Interrupted());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Interrupted());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

export const parseSync = (args: string[]) => {
  const values = parseOptions('sync', args, syncOptions);
  requireServerOrSandbox(values, 'sync');
  const mode = values['on-demand'];
  if (mode !== undefined && mode !== 'online' && mode !== 'full') {
    throw new UsageError({ key: 'cli.files.err.mode', params: { value: mode } }, 'sync');
  }
  freeUnusedDays(values['free-unused-days']);
  return values;
};

/** `--free-unused-days N|off`: days (1 to 36,500), null for off, undefined when not given. */
export function freeUnusedDays(value: string | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'off') return null;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 36_500) {
    throw new UsageError({ key: 'cli.files.err.days', params: { value } }, 'sync');
  }
  return n;
}

/** The answer given in advance to deletions on the service past the guard, if any. */
function remoteDeletesOf(values: ReturnType<typeof parseSync>): 'trash' | 'keep' | undefined {
  const trash = values['confirm-remote-deletes'] === true;
  const keep = values['keep-local-copies'] === true;
  if (trash && keep) {
    throw new UsageError(
      {
        key: 'cli.err.notBoth',
        params: { a: '--confirm-remote-deletes', b: '--keep-local-copies' },
      },
      'sync',
    );
  }
  return trash ? 'trash' : keep ? 'keep' : undefined;
}

/**
 * A first sync of a folder inside or around another pair's folder is refused. One that already
 * holds files would upload them into the workspace (a merge): refused, with how many, unless
 * `--merge` says so (as rclone bisync asks --resync). A pair with a journal synced before: its
 * files are known, nothing to ask.
 */
async function refuseUnasked(
  conn: Connection,
  workspaceId: number,
  dir: string,
  givenDir: string,
  stateDir: string,
  log: CommandContext['log'],
  merge: boolean,
): Promise<void> {
  if (!isFirstSync({ server: conn.server, user: conn.user, workspaceId, dir, stateDir })) return;
  // Two pairs in one tree would each upload the other's files (the window refuses it too).
  const real = await realpath(dir).catch(() => dir);
  for (const other of pairsOnDisk(stateDir, log)) {
    const mine = [dir, real];
    const theirs = [other.root, other.realRoot];
    if (mine.some((m) => theirs.some((t) => isInside(m, t) || isInside(t, m))))
      throw new CliError({
        key: 'cli.err.dirOverlaps',
        params: { dir: givenDir, other: other.root, workspace: other.workspaceId },
      });
  }
  if (merge) return;
  const found = await countUploads(dir);
  if (found.count === 0) return;
  const workspace = await conn.client.getWorkspace(workspaceId);
  throw new CliError({
    key: 'cli.err.notEmpty',
    params: {
      dir: givenDir,
      n: found.count,
      more: found.more ? 'yes' : 'no',
      workspace: workspace.name,
    },
  });
}

export async function sync(
  values: ReturnType<typeof parseSync>,
  ctx: CommandContext,
): Promise<number> {
  const { io, log, signal } = ctx;
  const checked = checkedOptions(values);
  const { givenDir, dir, pollIntervalMs, remoteDeletes } = checked;
  let workspaceId = checked.workspaceId;

  const reporter: SyncReporter = values.json
    ? new JsonReporter(io.stdout)
    : new TextReporter(io.stdout, io.stdout.isTTY === true, Date.now, cliLanguage(io.env));
  let conn: Connection | undefined;
  let opened: OpenSync | undefined;
  let running: RunningStatusFile | undefined;
  try {
    await checkSyncDir(dir, givenDir, 'sync');
    // /etc, the home folder itself, the disk's top: refused before signing in.
    refusePlace(dir, dir, {});
    conn = await connectFor(values, ctx);
    if (conn.sandbox) {
      workspaceId ??= conn.sandbox.workspaceId;
      reporter.sandbox({ baseUrl: conn.sandbox.baseUrl, workspaceId, email: conn.user });
    }
    if (workspaceId === undefined)
      throw new UsageError({ key: 'cli.err.required', params: { option: '--workspace' } }, 'sync');
    logStart(log, conn, workspaceId, dir, values.once === true);
    await refuseUnasked(conn, workspaceId, dir, givenDir, ctx.stateDir, log, values.merge === true);
    opened = await openSync({
      client: conn.client,
      server: conn.server,
      user: conn.user,
      workspaceId,
      dir,
      stateDir: ctx.stateDir,
      log,
      pollIntervalMs,
      // Conflict copies are named in the language the CLI speaks (LC_ALL, LC_MESSAGES, LANG).
      language: cliLanguage(io.env).lang,
      tuning: {
        confirmDeletes: values['confirm-deletes'] === true,
        remoteDeletes,
      },
    });
    const { engine } = opened;
    const mode = values['on-demand'];
    if (mode === 'online' || mode === 'full') opened.journal.onDemand.setMode(mode);
    const days = freeUnusedDays(values['free-unused-days']);
    if (days !== undefined) opened.journal.onDemand.setFreeUnusedDays(days);
    if (values.exclude !== undefined) {
      await excludeAtSetup(conn, opened, workspaceId, values.exclude);
    }
    // What `workspace-sync status` reads, from another process.
    const statusFile = new RunningStatusFile(
      runningFile(ctx.stateDir, opened.journalFile),
      { server: conn.server, user: conn.user, workspaceId, dir },
      (err) => log.warn('the running status file could not be written', { err }),
    );
    running = statusFile;
    reportTo(engine, reporter, statusFile, log);
    await runEngine(engine, values.once === true, signal, reporter, log);
    return EXIT.ok;
  } catch (err) {
    if (signal.aborted && isAbort(err)) {
      // Interrupted: continuous mode ends cleanly; an interrupted --once did not complete.
      log.info('sync interrupted', { once: values.once === true });
      return values.once ? EXIT.interrupted : EXIT.ok;
    }
    const explained = conn ? conn.explain(err) : err;
    reporter.error(errorKind(err), messageOf(explained));
    throw explained;
  } finally {
    reporter.close();
    await running?.close();
    await opened?.close().catch((err: unknown) => log.error('closing the sync failed', { err }));
    await conn?.close().catch((err: unknown) => log.error('closing failed', { err }));
  }
}

/** Signed in (the token given, or the account's), or the embedded sandbox started. */
async function connectFor(
  values: ReturnType<typeof parseSync>,
  ctx: CommandContext,
): Promise<Connection> {
  const { io, log, signal } = ctx;
  const token = await untilAborted(tokenFrom(values, io, 'sync'), signal);
  return untilAborted(
    connect({
      command: 'sync',
      server: values.server,
      token,
      email: values.email,
      sandbox: values.sandbox,
      env: io.env,
      accounts: ctx.accounts,
      log,
      stderr: io.stderr,
      retry: ENGINE_RETRY,
    }),
    signal,
  );
}

function logStart(
  log: Logger,
  conn: Connection,
  workspaceId: number,
  dir: string,
  once: boolean,
): void {
  log.info('sync starting', {
    server: conn.server,
    // Which proxy, if any (shown without its password): the first thing to look at offline.
    proxy: proxyShownFor(new URL(conn.server)) ?? 'none',
    user: conn.user,
    workspaceId,
    dir,
    once,
  });
}

/** The sync command's options, checked: bad input is a usage error before anything starts. */
function checkedOptions(values: ReturnType<typeof parseSync>): {
  givenDir: string;
  dir: string;
  workspaceId: number | undefined;
  pollIntervalMs: number | undefined;
  remoteDeletes: ReturnType<typeof remoteDeletesOf>;
} {
  const embedded = values.sandbox === true;
  const givenDir = required(values.dir, '--dir', 'sync');
  const dir = path.resolve(givenDir);
  const workspaceId: number | undefined =
    values.workspace === undefined
      ? undefined
      : positiveInt(values.workspace, '--workspace', 'sync');
  if (workspaceId === undefined && !embedded)
    throw new UsageError({ key: 'cli.err.required', params: { option: '--workspace' } }, 'sync');
  const pollIntervalMs =
    values.poll === undefined ? undefined : positiveNumber(values.poll, '--poll', 'sync') * 1000;
  const remoteDeletes = remoteDeletesOf(values);
  // The process's limits: every request of this run shares them (throttle.ts).
  processTransfers.setKBps({
    upKBps: limitKBps(values['limit-up'], '--limit-up'),
    downKBps: limitKBps(values['limit-down'], '--limit-down'),
  });
  return { givenDir, dir, workspaceId, pollIntervalMs, remoteDeletes };
}

/** Before the first pass: a folder left out at setup (`--exclude`) is never downloaded. */
async function excludeAtSetup(
  conn: Connection,
  opened: OpenSync,
  workspaceId: number,
  exclude: NonNullable<ReturnType<typeof parseSync>['exclude']>,
): Promise<void> {
  const rootId = await rootFolderId(conn.client, opened.journal, workspaceId);
  const out = await resolveFolderPaths(conn.client, rootId, exclude, '--exclude', 'sync');
  changeSelection(opened.journal, {
    exclude: out.map((f) => ({ id: f.id, parentId: f.parentId, name: f.name })),
  });
}

/** What the engine says, to the terminal (or JSON) and to the running status file. */
function reportTo(
  engine: OpenSync['engine'],
  reporter: SyncReporter,
  statusFile: RunningStatusFile,
  log: Logger,
): void {
  engine.on('status', (s) => {
    reporter.status(s);
    statusFile.update(s);
  });
  engine.on('problem', (p) => {
    log.warn('problem', { ...p });
    reporter.problem(p);
  });
  engine.on('conflict', (c) => reporter.conflict(c));
  engine.on('notice', (n) => reporter.notice(n));
}

/** One pass (`--once`, its summary said), or passes until the signal stops them. */
async function runEngine(
  engine: OpenSync['engine'],
  once: boolean,
  signal: AbortSignal,
  reporter: SyncReporter,
  log: Logger,
): Promise<void> {
  if (once) {
    const summary = await engine.syncOnce(signal);
    if (signal.aborted) throw new Interrupted();
    log.info('sync pass complete', { ...summary });
    reporter.summary(summary);
  } else {
    await engine.run(signal);
    log.info('sync stopped', { reason: signal.aborted ? 'signal' : 'engine' });
    if (signal.aborted) reporter.stopped();
  }
}
