// `workspace-sync folders DIR [--exclude PATH] [--include PATH]`: the selective sync of a sync
// folder, shown and changed. The selection is data in the pair's journal (sync/loop/selection.ts);
// an engine running the pair (here or in the app) applies a change before its next pass.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { ServiceClient } from '../api/client';
import { connectToServer } from '../accounts/connect';
import { pairsOnDisk, type PairOnDisk } from '../links/pair-lookup';
import { childFolders, excludedPath, folderAtPath } from '../sync/folder-choice';
import { changeSelection, openPairJournal } from '../sync/loop/selection';
import type { RemoteItem } from '../sync/remote';
import {
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
import { usageOf } from './connect';
import { tokenFrom } from './token';

export const FOLDERS_USAGE = `usage: ${PROGRAM} folders DIR [--exclude PATH]... [--include PATH]... [options]

Shows which folders of the workspace synced in DIR are synced on this computer, and changes it
(selective sync). A folder left out is neither downloaded nor uploaded into, with all below it;
its copy here goes to the trash at the next sync, unless something in it was not sent yet (then
it is kept, and the sync says so). Nothing is deleted on the service. A folder chosen again
comes down at the next sync. Folders made on the service later are synced.

  --exclude PATH     leave out this folder of the workspace (e.g. Reports/2023); repeatable
  --include PATH     sync this folder again; repeatable
  --token-file PATH  read an access token for the folder's server from PATH (- for standard
                     input); default: $WORKSPACE_SYNC_TOKEN, else the remembered account that
                     syncs the folder
  --token TOKEN      the same, from the command line (visible to every user in ps: avoid)
${proxyHelp(21)}
  --state DIR        state directory: settings, journals, logs, trash
                     (default: $WORKSPACE_SYNC_STATE or the platform's)
  --verbose          mirror the log to stderr; stack traces on failure
  -h, --help         this text

It lists the top-level folders of the workspace, and the deeper ones left out, one a line:
"synced" or "not synced", then the path.

examples:
  ${PROGRAM} folders ~/Q3
  ${PROGRAM} folders ~/Q3 --exclude Archive --exclude "Reports/2023"
  ${PROGRAM} folders ~/Q3 --include Archive`;

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
  if (positionals.length === 0) throw new UsageError('DIR is required', 'folders');
  if (positionals.length > 1)
    throw new UsageError(`unexpected argument ${positionals[1]!}`, 'folders');
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
      throw new UsageError(`${option} ${p}: no such folder in the workspace`, command);
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
    throw new CliError(`${abs} does not exist.`);
  }
  const pair = pairsOnDisk(ctx.stateDir, ctx.log).find((p) => p.realRoot === real);
  if (!pair) {
    throw new CliError(
      `${abs} is not a sync folder (no sync of it in ${ctx.stateDir}): start one with "${PROGRAM} sync --dir ${dir} ...".`,
    );
  }
  return pair;
}

export async function folders(
  values: ReturnType<typeof parseFolders>,
  ctx: CommandContext,
): Promise<number> {
  const { io, log } = ctx;
  const pair = pairAt(values.dir, ctx);
  let token: string | undefined;
  try {
    token = await tokenFrom(values, io, 'folders');
  } catch (err) {
    throw usageOf(err, 'folders');
  }
  const conn = await connectToServer({
    server: pair.server,
    email: pair.user || undefined,
    token,
    env: io.env,
    accounts: ctx.accounts,
    log,
    retry: { maxAttempts: 3, maxTotalMs: 5000 },
  }).catch((err: unknown) => {
    throw usageOf(err, 'folders');
  });
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
    const excluded = journal.excluded();
    const out = new Set(excluded.map((e) => e.id));
    for (const f of await childFolders(client, rootId)) {
      writeLine(io.stdout, `${out.has(f.id) ? 'not synced' : 'synced    '}  ${f.name}`);
      out.delete(f.id);
    }
    for (const e of excluded) {
      if (!out.has(e.id)) continue;
      const shown = excludedPath(journal, rootId, e);
      if (shown !== null) writeLine(io.stdout, `not synced  ${shown}`);
    }
    if (exclude.length > 0) {
      writeLine(
        io.stderr,
        `Left out: ${exclude.map((f) => f.name).join(', ')}. The next sync moves the copy here to the trash, unless it holds changes not sent yet.`,
      );
    }
    if (include.length > 0) {
      writeLine(
        io.stderr,
        `Chosen again: ${include.map((f) => f.name).join(', ')}. The next sync brings it down.`,
      );
    }
    return EXIT.ok;
  } catch (err) {
    throw conn.explain(err);
  } finally {
    journal.close();
    await conn.close();
  }
}
