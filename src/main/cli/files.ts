// `workspace-sync files download|free|pin|unpin|status|open PATH...`: files on demand (docs/SYNC.md)
// for paths inside a synced folder. Each action goes to the pair's engine as a message, and one
// pass of that pair runs (as `sync --once` does), so what was asked is done when the command ends;
// a download that is only that (the plain case: loop/fetch-asked.ts) is done without the pass.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { english, type Translator, type Words } from '../../shared/i18n';
import { PLACEHOLDER_SUFFIX } from '../../shared/placeholder';
import {
  leftBehind,
  notHereWords,
  openPairJournal,
  openSync,
  onDemandStateOf,
  SyncFatalError,
  type OnDemandOp,
} from '../engine';
import { isInside, pairOf, pairsOnDisk, type PairOnDisk } from '../links/pair-lookup';
import { isFileUri, localPathOf } from '../os/file-arg';
import { notify } from '../os/notify';
import { OpenFailed, openInFileManager } from '../os/open-path';
import { doorPath, knock } from '../core/pair-door';
import {
  cliLanguage,
  CliError,
  commonOptions,
  EXIT,
  parseCommandLine,
  PROGRAM,
  proxyHelp,
  proxyOption,
  sayError,
  UsageError,
  writeLine,
  type CommandContext,
} from './common';
import { connectToPair, usageOf } from './connect';

export const filesUsage = (tr: Translator = english): string =>
  tr.t('cli.help.files', { program: PROGRAM, proxy: proxyHelp(21, tr) });

const ACTIONS = ['download', 'free', 'pin', 'unpin', 'status', 'open'] as const;
type FilesAction = (typeof ACTIONS)[number];

const filesOptions = {
  ...commonOptions,
  ...proxyOption,
  token: { type: 'string' },
  'token-file': { type: 'string' },
  // A double-click has no terminal: the download and a failure are said as desktop notices.
  notify: { type: 'boolean' },
} as const;

export function parseFiles(args: string[]) {
  const { values, positionals } = parseCommandLine('files', args, filesOptions);
  const [action, ...paths] = positionals;
  if (action === undefined) {
    throw new UsageError(
      { key: 'cli.err.required', params: { option: ACTIONS.join('|') } },
      'files',
    );
  }
  if (!(ACTIONS as readonly string[]).includes(action)) {
    throw new UsageError({ key: 'cli.files.err.op', params: { op: action } }, 'files');
  }
  if (paths.length === 0) {
    throw new UsageError({ key: 'cli.err.required', params: { option: 'PATH' } }, 'files');
  }
  if (action === 'open' && paths.length > 1) {
    throw new UsageError({ key: 'cli.files.err.openOne', params: { n: paths.length } }, 'files');
  }
  // A file manager's handler may pass URIs: the path each names.
  const local = paths.map((p) => (isFileUri(p) ? localPathOf(p, '/') : p));
  return { ...values, action: action as FilesAction, paths: local };
}

interface Located {
  pair: PairOnDisk;
  /** '/'-separated, relative to the pair's folder ('' for the folder itself). */
  rel: string;
  shown: string;
}

/**
 * The pair and relative path of each PATH. Its folder is resolved through links, not the path
 * itself: the file of a placeholder is not on disk.
 */
function locate(paths: readonly string[], ctx: CommandContext): Located[] {
  const pairs = pairsOnDisk(ctx.stateDir, ctx.log);
  return paths.map((p) => {
    const abs = path.resolve(p);
    let real: string;
    try {
      real = path.join(realpathSync.native(path.dirname(abs)), path.basename(abs));
    } catch {
      throw new CliError({ key: 'cli.err.notExist', params: { path: abs } });
    }
    const pair = pairOf(real, pairs);
    if (!pair || !isInside(real, pair.realRoot)) {
      throw new CliError({ key: 'cli.files.err.outside', params: { path: abs } });
    }
    const rel = path.relative(pair.realRoot, real).split(path.sep).join('/');
    return { pair, rel, shown: p };
  });
}

/** Each path's state, one line each: on this device, online only, pinned. */
function sayStatus(located: readonly Located[], ctx: CommandContext, tr: Translator): void {
  for (const [journalFile, here] of byPair(located)) {
    const journal = openPairJournal(journalFile, here[0]!.pair.profile);
    try {
      for (const l of here) {
        const st = onDemandStateOf(journal, l.rel);
        const path = l.shown;
        const pinned = st?.pinned ? 'yes' : 'no';
        let line: string;
        if (!st) line = tr.t('cli.files.notSynced', { path });
        else if (st.online === 0) line = tr.t('cli.files.here', { path, pinned });
        else if (st.kind === 'file' || st.online === st.files)
          line = tr.t('cli.files.online', { path, pinned });
        else line = tr.t('cli.files.partly', { path, pinned, online: st.online, files: st.files });
        writeLine(ctx.io.stdout, line);
      }
    } finally {
      journal.close();
    }
  }
}

function byPair(located: readonly Located[]): Map<string, Located[]> {
  const out = new Map<string, Located[]>();
  for (const l of located) out.set(l.pair.journal, [...(out.get(l.pair.journal) ?? []), l]);
  return out;
}

/** Tries at the pair's door before the CLI says another process keeps it busy. */
const DOOR_TRIES = 50;

/**
 * The action on one pair's paths, done by whichever process runs the pair (the app, a `sync`):
 * asked at its door (core/pair-door.ts), answered once the round that does it has run. With none
 * running, this process opens the pair's engine for one pass; two engines on one pair would race
 * on its disk and journal, so opening takes the door, and a process that took it meanwhile is
 * asked instead.
 */
async function actOnPair(
  op: OnDemandOp,
  here: readonly Located[],
  values: ReturnType<typeof parseFiles>,
  ctx: CommandContext,
  tr: Translator,
): Promise<void> {
  const pair = here[0]!.pair;
  const paths = here.map((l) => l.rel);
  const door = doorPath(pair.journal);
  for (let tries = 1; ; tries++) {
    const answer = await knock(door, { v: 1, op, paths });
    if (answer === 'none') {
      const ran = await onePass(op, here, values, ctx);
      if (ran) return;
    } else if (answer.kind === 'done') {
      return;
    } else if (answer.kind === 'refused') {
      // The engine's own words (its keys), said in this process's language.
      throw new CliError(answer.words as Words);
    } else if (answer.kind === 'later') {
      if (op === 'download') throw new CliError(answer.words as Words);
      writeLine(ctx.io.stderr, tr.say(answer.words));
      return;
    }
    if (tries >= DOOR_TRIES) {
      throw new CliError({ key: 'engine.pairBusy', params: { dir: pair.root } });
    }
    await sleep(Math.min(20 * tries, 500), undefined, { signal: ctx.signal });
  }
}

/**
 * One pass of the pair by this process (a download of the plain case: just the asked files);
 * false when another process took its door meanwhile.
 */
async function onePass(
  op: OnDemandOp,
  here: readonly Located[],
  values: ReturnType<typeof parseFiles>,
  ctx: CommandContext,
): Promise<boolean> {
  const { io, log } = ctx;
  const pair = here[0]!.pair;
  const conn = await connectToPair(pair, values, ctx, 'files');
  try {
    const opened = await openSync({
      client: conn.client,
      server: conn.server,
      user: conn.user,
      workspaceId: pair.workspaceId,
      dir: pair.root,
      stateDir: ctx.stateDir,
      log,
      language: cliLanguage(io.env).lang,
    }).catch((err: unknown) => {
      if (err instanceof SyncFatalError && err.kind === 'busy') return null;
      throw err;
    });
    if (!opened) return false;
    try {
      const rels = here.map((l) => l.rel);
      // Only what was asked, when nothing else is to decide (loop/fetch-asked.ts): no round.
      const asked = op === 'download' ? await opened.engine.fetchAsked(rels, ctx.signal) : 'round';
      if (asked === 'round') {
        const refused = await opened.engine.filesOnDemand(op, rels).then(
          () => null,
          (err: unknown) => err,
        );
        await opened.engine.syncOnce(ctx.signal);
        log.info('files on demand', { op, paths: here.length, refused: refused !== null });
        if (refused !== null) throw refused;
      }
      // A file that could not come (its problem says why), or gone there meanwhile: not "done".
      const left = op === 'download' || op === 'pin' ? leftBehind(opened.journal, rels) : undefined;
      if (left) throw new CliError(notHereWords(left));
      return true;
    } finally {
      await opened.close();
    }
  } catch (err) {
    throw conn.explain(err);
  } finally {
    await conn.close();
  }
}

/**
 * With --notify (a file manager's double-click or menu entry: no terminal), what happens is also
 * said as desktop notices: a download while it runs, the outcome of a menu's action, a failure
 * in words. `open` says no success: the file's own program opening is that.
 */
export async function files(
  values: ReturnType<typeof parseFiles>,
  ctx: CommandContext,
): Promise<number> {
  const tr = cliLanguage(ctx.io.env);
  if (!values.notify || values.action === 'status') return act(values, ctx, tr);
  const { env } = ctx.io;
  const { action } = values;
  const name = path.basename(realOf(values.paths[0] ?? ''));
  const others = values.paths.length - 1;
  const tell = (summary: string, body: string, urgent = false) =>
    notify(summary, body, { env, urgent, log: ctx.log });
  try {
    if (action === 'open') await tell(tr.t('cli.files.notify.downloading', { name }), '');
    if (action === 'download')
      await tell(tr.t('cli.files.notify.downloadingMany', { name, others }), '');
    const code = await act(values, ctx, tr);
    if (action !== 'open') await tell(tr.t('cli.files.notify.done', { action, name, others }), '');
    return code;
  } catch (caught) {
    const err = usageOf(caught, 'files');
    const summary =
      action === 'open'
        ? tr.t('cli.files.notify.failed', { name })
        : tr.t('cli.files.notify.actionFailed', { action, name });
    await tell(summary, sayError(tr, err), true);
    throw err;
  }
}

async function act(
  values: ReturnType<typeof parseFiles>,
  ctx: CommandContext,
  tr: Translator,
): Promise<number> {
  const located = locate(values.paths, ctx);
  if (values.action !== 'status') {
    const op: OnDemandOp = values.action === 'open' ? 'download' : values.action;
    for (const here of byPair(located).values()) await actOnPair(op, here, values, ctx, tr);
  }
  if (values.action === 'open') {
    const l = located[0]!;
    const real = path.join(l.pair.realRoot, ...realOf(l.rel).split('/'));
    writeLine(ctx.io.stderr, tr.t('cli.files.opening', { path: real }));
    await openInFileManager(real, ctx.io.env).catch((err: unknown) => {
      if (!(err instanceof OpenFailed)) throw err;
      // Downloaded all the same: the way out is to open it by hand.
      if (err.reason.missing)
        throw new CliError({ key: 'backend.noProgram', params: { path: real } });
      const { program } = err;
      const code = String(err.reason.code);
      throw new CliError({ key: 'backend.openFailed', params: { program, code, path: real } });
    });
    return EXIT.ok;
  }
  sayStatus(located, ctx, tr);
  return EXIT.ok;
}

/** The file a placeholder's path names (the path itself for any other). */
const realOf = (rel: string) =>
  rel.endsWith(PLACEHOLDER_SUFFIX) ? rel.slice(0, -PLACEHOLDER_SUFFIX.length) : rel;
