import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { ForbiddenError, NotFoundError } from '../api/errors';
import type { Link } from '../api/schemas';
import { CACHE_DIR } from '../sync/plan';
import type { Logger } from '../sync/ports';
import type { AccountStore } from '../accounts/accounts';
import { shareUrl } from '../backend/map';
import { copyText } from '../os/clipboard';
import {
  CliError,
  commonOptions,
  EXIT,
  messageOf,
  parseCommandLine,
  PROGRAM,
  UsageError,
  writeLine,
  type CommandContext,
} from './common';
import { connect, type Connection } from './connect';
import { notify } from '../os/notify';
import { isInside, pairOf, pairsOnDisk, syncedItem, type PairOnDisk } from './pair-lookup';

export type LinkProblem =
  'missing' | 'outside' | 'not-synced' | 'changed' | 'link-off' | 'link-expired' | 'gone';

/** Why a local path has no share link to give, in words for the person who chose it. */
export class LinkError extends CliError {
  constructor(
    readonly problem: LinkProblem,
    message: string,
  ) {
    super(message);
    this.name = 'LinkError';
  }
}

export interface ShareLink {
  /** The absolute share URL: anyone with it opens the item (conventions.md, Shared content). */
  url: string;
  /** The item's name on the service (the workspace's name for the sync folder itself). */
  name: string;
  kind: 'file' | 'folder';
  /** The link was off and has just been turned on, so that the URL works. */
  enabledNow: boolean;
  requirePassword: boolean;
  /** When the link stops working (the service's ISO 8601 time), or null. */
  expiresAt: string | null;
}

export interface ShareLinkOptions {
  stateDir: string;
  accounts: AccountStore;
  env: NodeJS.ProcessEnv;
  log: Logger;
  /** An access token for the pair's server (otherwise $WORKSPACE_SYNC_TOKEN, else the account). */
  token?: string;
}

/** A short budget: a person is waiting on a menu click; the service's answer comes at once. */
const LINK_RETRY = { maxAttempts: 3, maxTotalMs: 5000 };

const quoted = (name: string) => `“${name}”`;

interface Located {
  pair: PairOnDisk;
  abs: string;
  kind: 'file' | 'folder';
  remoteId: number;
  /** The service's name; null for the sync folder (the workspace's name, asked of the service). */
  name: string | null;
}

/** Which synced item a local path is, from the journals alone (no request yet). */
function locate(localPath: string, opts: ShareLinkOptions): Located {
  const abs = path.resolve(localPath);
  // Through symlinks: one whose target is gone has no item either.
  if (!statSync(abs, { throwIfNoEntry: false })) {
    throw new LinkError('missing', `${abs} does not exist.`);
  }
  // The item a symlink points at is the one the person means (a link on the desktop, say).
  const real = realpathSync.native(abs);
  const pair = pairOf(real, pairsOnDisk(opts.stateDir, opts.log));
  if (!pair) throw new LinkError('outside', `${abs} is not in a folder Workspace Sync syncs.`);
  const rel = path.relative(pair.realRoot, real).split(path.sep).join('/');
  if (rel === '') {
    // The sync folder is the workspace's root folder: a folder with a link of its own.
    if (pair.rootFolderId === null) {
      throw new LinkError('not-synced', `${abs} has not been synced yet: try again once it has.`);
    }
    return { pair, abs, kind: 'folder', remoteId: pair.rootFolderId, name: null };
  }
  const notYet = () =>
    new LinkError(
      'not-synced',
      `${abs} has not been synced yet: try again once Workspace Sync has synced it.`,
    );
  if (isInside(rel, CACHE_DIR)) {
    throw new LinkError('not-synced', `${abs} is Workspace Sync's own working folder: not synced.`);
  }
  const item = syncedItem(pair, rel);
  if (!item || item.state !== 'synced') throw notYet();
  const now = statSync(real);
  const kindNow = now.isDirectory() ? 'folder' : 'file';
  // Another file under the same name (saved anew, replaced) is not the synced item until the
  // engine has looked at it: its link would be the old one's.
  const same =
    kindNow === item.kind &&
    (item.ino === null || (Number(now.ino) === item.ino && Number(now.dev) === item.dev));
  if (!same) {
    throw new LinkError(
      'changed',
      `${abs} has changed since it was last synced: try again once Workspace Sync has synced it.`,
    );
  }
  return { pair, abs, kind: item.kind, remoteId: item.remoteId, name: item.remoteName };
}

function expired(link: Link): boolean {
  if (!link.token_expires_at) return false;
  const at = Date.parse(link.token_expires_at);
  return Number.isFinite(at) && at <= Date.now();
}

async function askService(conn: Connection, at: Located): Promise<ShareLink> {
  const { client } = conn;
  const name =
    at.name ??
    (await client.getWorkspace(at.pair.workspaceId).then(
      (w) => w.name,
      () => at.abs,
    ));
  let link = await client.getLink(at.kind, at.remoteId);
  let enabledNow = false;
  // Copy link gives a link that works, as the window's does: a link that is off is turned on,
  // when the person's role allows changing links (Moderator and above).
  if (!link.token_accessible) {
    try {
      link = await client.updateLink(at.kind, at.remoteId, { token_accessible: true });
      enabledNow = true;
    } catch (err) {
      if (!(err instanceof ForbiddenError)) throw err;
      throw new LinkError(
        'link-off',
        `The link of ${quoted(name)} is turned off, and your role in the workspace cannot turn it on: ask a Moderator or the workspace's owner.`,
      );
    }
  }
  if (expired(link)) {
    throw new LinkError(
      'link-expired',
      `The link of ${quoted(name)} expired on ${link.token_expires_at}: a Moderator can give it a new expiry in the Workspace Sync window.`,
    );
  }
  return {
    url: shareUrl(conn.server, link.link),
    name,
    kind: at.kind,
    enabledNow,
    requirePassword: link.require_password,
    expiresAt: link.token_expires_at ?? null,
  };
}

/**
 * The share link of a synced local file or folder: the pair whose folder holds the path
 * (symlinks resolved; relative paths from the working directory), the item it is in that pair's
 * journal, then the service's link for it. Throws a LinkError (or the connection's own words:
 * not signed in, signed out, offline) when there is none to give.
 */
export async function shareLinkForPath(
  localPath: string,
  opts: ShareLinkOptions,
): Promise<ShareLink> {
  const at = locate(localPath, opts);
  const conn = await connect({
    command: 'link',
    server: at.pair.server,
    email: at.pair.user || undefined,
    token: opts.token,
    env: opts.env,
    accounts: opts.accounts,
    log: opts.log,
    retry: LINK_RETRY,
  });
  try {
    return await askService(conn, at);
  } catch (err) {
    if (err instanceof NotFoundError) {
      throw new LinkError(
        'gone',
        `${at.abs} is no longer on the service (deleted there, or you lost access to it).`,
      );
    }
    throw conn.explain(err);
  } finally {
    await conn.close();
  }
}

export const LINK_USAGE = `usage: ${PROGRAM} link PATH [--copy] [options]

Prints the share link of a synced file or folder: the address at which anyone with the link
opens it. A link that is turned off is turned on first, as "Copy link" does in the window (your
role must allow changing links: Moderator and above), and the command says so.

  --copy         also put the link on the clipboard (wl-copy, xclip or xsel on Linux)
  --notify       also say how it went in a desktop notification (notify-send), for file
                 manager menus, which show no terminal
  --token TOKEN  an access token for the folder's server (default: $WORKSPACE_SYNC_TOKEN, else
                 the remembered account that syncs the folder)
  --state DIR    state directory: settings, journals, logs, trash
                 (default: $WORKSPACE_SYNC_STATE or the platform's)
  --verbose      mirror the log to stderr; stack traces on failure
  -h, --help     this text

The link goes to stdout, on one line; what else happened (copied, turned on) to stderr.
Exit status 1 when PATH is not synced (yet), or the service refused.

examples:
  ${PROGRAM} link ~/Q3/Reports/Summary.pdf
  ${PROGRAM} link --copy ~/Q3/Reports`;

const linkOptions = {
  ...commonOptions,
  copy: { type: 'boolean' },
  notify: { type: 'boolean' },
  token: { type: 'string' },
} as const;

export function parseLink(args: string[]) {
  const { values, positionals } = parseCommandLine('link', args, linkOptions);
  if (positionals.length === 0) throw new UsageError('PATH is required', 'link');
  return { ...values, paths: positionals };
}

function notes(link: ShareLink): string[] {
  const out: string[] = [];
  if (link.enabledNow)
    out.push(`The link was turned off: it is on now, so anyone with it can open the ${link.kind}.`);
  if (link.requirePassword) out.push("Opening it asks for the link's password.");
  if (link.expiresAt) out.push(`It works until ${link.expiresAt}.`);
  return out;
}

export async function link(
  values: ReturnType<typeof parseLink>,
  ctx: CommandContext,
): Promise<number> {
  const { io, log } = ctx;
  const tell = (summary: string, body: string, urgent = false) =>
    values.notify ? notify(summary, body, { env: io.env, urgent, log }) : Promise.resolve(false);
  try {
    if (values.paths.length > 1) {
      throw new CliError(
        `Choose one file or folder at a time (${values.paths.length} were given).`,
      );
    }
    const found = await shareLinkForPath(values.paths[0]!, {
      stateDir: ctx.stateDir,
      accounts: ctx.accounts,
      env: io.env,
      log,
      token: values.token,
    });
    writeLine(io.stdout, found.url);
    for (const line of notes(found)) writeLine(io.stderr, line);
    let summary = `Link of ${quoted(found.name)}`;
    if (values.copy) {
      const { via } = await copyText(found.url, io.env);
      writeLine(io.stderr, `Copied the link of ${quoted(found.name)} to the clipboard (${via}).`);
      summary = `Copied the link of ${quoted(found.name)}`;
    }
    log.info('share link', {
      kind: found.kind,
      enabledNow: found.enabledNow,
      copied: !!values.copy,
    });
    await tell(summary, [found.url, ...notes(found)].join('\n'));
    return EXIT.ok;
  } catch (err) {
    await tell('Workspace Sync could not copy the link', messageOf(err), true);
    throw err;
  }
}
