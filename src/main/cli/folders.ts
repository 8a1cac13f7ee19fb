// `workspace-sync folders DIR [--exclude PATH] [--include PATH]`: the selective sync of a sync
// folder, shown and changed. The selection is data in the pair's journal (sync/loop/selection.ts);
// an engine running the pair (here or in the app) applies a change before its next pass.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { english, type Translator } from '../../shared/i18n';
import type { ServiceClient } from '../api/client';
import { pairsOnDisk, type PairOnDisk } from '../links/pair-lookup';
import { childFolders, excludedPath, folderAtPath } from '../folders/folder-choice';
import { changeSelection, openPairJournal, type RemoteItem } from '../engine';
import {
  cliLanguage,
  CliError,
  commonOptions,
  EXIT,
  parseCommandLine,
  PROGRAM,
  proxyHelp,
  proxyOption,
  UsageError,
  writeLine,
  type CommandContext,
} from './common';
import { connectToPair } from './connect';

/** The help of `folders`. */
export const foldersUsage = (tr: Translator = english): string =>
  tr.t('cli.help.folders', { program: PROGRAM, proxy: proxyHelp(21, tr) });

const foldersOptions = {
  ...commonOptions,
  ...proxyOption,
  exclude: { type: 'string', multiple: true },
  include: { type: 'string', multiple: true },
  token: { type: 'string' },
  'token-file': { type: 'string' },
} as const;

export function parseFolders(args: string[]) {
  const { values, positionals } = parseCommandLine('folders', args, foldersOptions);
  if (positionals.length === 0)
    throw new UsageError({ key: 'cli.err.required', params: { option: 'DIR' } }, 'folders');
  if (positionals.length > 1)
    throw new UsageError(
      { key: 'cli.err.unexpectedArgument', params: { arg: positionals[1]! } },
      'folders',
    );
  return { ...values, dir: positionals[0]! };
}

/** Remote folder paths resolved to folders, or a usage error naming the first that is none. */
export async function resolveFolderPaths(
  client: ServiceClient,
  rootId: number,
  paths: readonly string[],
  option: string,
  command: string,
): Promise<RemoteItem[]> {
  const found: RemoteItem[] = [];
  for (const p of paths) {
    const folder = await folderAtPath(client, rootId, p);
    if (!folder) {
      throw new UsageError({ key: 'cli.err.noSuchFolder', params: { option, path: p } }, command);
    }
    found.push(folder);
  }
  return found;
}

/** The pair whose folder is DIR itself (symlinks resolved). */
function pairAt(dir: string, ctx: CommandContext): PairOnDisk {
  const abs = path.resolve(dir);
  let real: string;
  try {
    real = realpathSync.native(abs);
  } catch {
    throw new CliError({ key: 'cli.err.notExist', params: { path: abs } });
  }
  const pair = pairsOnDisk(ctx.stateDir, ctx.log).find((p) => p.realRoot === real);
  if (!pair) {
    throw new CliError({
      key: 'cli.err.notSyncFolder',
      params: { path: abs, state: ctx.stateDir, program: PROGRAM, dir },
    });
  }
  return pair;
}

export async function folders(
  values: ReturnType<typeof parseFolders>,
  ctx: CommandContext,
): Promise<number> {
  const { io, log } = ctx;
  const tr = cliLanguage(io.env);
  const pair = pairAt(values.dir, ctx);
  const conn = await connectToPair(pair, values, ctx, 'folders');
  const journal = openPairJournal(pair.journal, pair.profile);
  try {
    const { client } = conn;
    const rootId = pair.rootFolderId ?? (await client.rootFolder(pair.workspaceId)).id;
    const exclude = await resolveFolderPaths(
      client,
      rootId,
      values.exclude ?? [],
      '--exclude',
      'folders',
    );
    const include = await resolveFolderPaths(
      client,
      rootId,
      values.include ?? [],
      '--include',
      'folders',
    );
    if (exclude.length + include.length > 0) {
      changeSelection(journal, {
        exclude: exclude.map((f) => ({ id: f.id, parentId: f.parentId, name: f.name })),
        include: include.map((f) => f.id),
      });
      log.info('selection changed', { exclude: exclude.length, include: include.length });
    }
    const excluded = journal.selection.all();
    const out = new Set(excluded.map((e) => e.id));
    for (const f of await childFolders(client, rootId)) {
      const key = out.has(f.id) ? 'cli.folders.notSynced' : 'cli.folders.synced';
      writeLine(io.stdout, tr.t(key, { name: f.name }));
      out.delete(f.id);
    }
    for (const e of excluded) {
      if (!out.has(e.id)) continue;
      const shown = excludedPath(journal, rootId, e);
      if (shown !== null) writeLine(io.stdout, tr.t('cli.folders.notSynced', { name: shown }));
    }
    if (exclude.length > 0) {
      const names = exclude.map((f) => f.name).join(', ');
      writeLine(io.stderr, tr.t('cli.folders.leftOut', { names }));
    }
    if (include.length > 0) {
      const names = include.map((f) => f.name).join(', ');
      writeLine(io.stderr, tr.t('cli.folders.chosenAgain', { names }));
    }
    return EXIT.ok;
  } catch (err) {
    throw conn.explain(err);
  } finally {
    journal.close();
    await conn.close();
  }
}
