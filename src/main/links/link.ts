import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { AccountStore } from '../accounts/accounts';
import { connectToServer, type Connection } from '../accounts/connect';
import { ForbiddenError, NotFoundError, ValidationError } from '../api/errors';
import type { Link } from '../api/schemas';
import { UserError, type Words } from '../errors/user-error';
import { CACHE_DIR } from '../engine';
import type { Logger } from '../core/logger';
import { shareUrl } from './share-url';
import { isInside, pairOf, pairsOnDisk, syncedItem, type PairOnDisk } from './pair-lookup';

export type LinkProblem =
  | 'missing'
  | 'outside'
  | 'not-synced'
  | 'changed'
  | 'link-off'
  | 'link-expired'
  | 'gone'
  | 'needs-password';

/** Why a local path has no share link to give, in words for the person who chose it. */
export class LinkError extends UserError {
  constructor(
    readonly problem: LinkProblem,
    message: string | Words,
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

export const quoted = (name: string) => `“${name}”`;

export interface Located {
  pair: PairOnDisk;
  abs: string;
  kind: 'file' | 'folder';
  remoteId: number;
  /** The service's name; null for the sync folder (the workspace's name, asked of the service). */
  name: string | null;
}

/** Which synced item a local path is, from the journals alone (no request yet). */
export function locate(localPath: string, opts: ShareLinkOptions): Located {
  const abs = path.resolve(localPath);
  // Through symlinks: one whose target is gone has no item either.
  if (!statSync(abs, { throwIfNoEntry: false })) {
    throw new LinkError('missing', { key: 'cli.err.notExist', params: { path: abs } });
  }
  // The item a symlink points at is the one the person means (a link on the desktop, say).
  const real = realpathSync.native(abs);
  const pair = pairOf(real, pairsOnDisk(opts.stateDir, opts.log));
  if (!pair) throw new LinkError('outside', { key: 'cli.link.err.outside', params: { path: abs } });
  const rel = path.relative(pair.realRoot, real).split(path.sep).join('/');
  if (rel === '') {
    // The sync folder is the workspace's root folder: a folder with a link of its own.
    if (pair.rootFolderId === null) {
      throw new LinkError('not-synced', { key: 'cli.link.err.rootNotYet', params: { path: abs } });
    }
    return { pair, abs, kind: 'folder', remoteId: pair.rootFolderId, name: null };
  }
  const notYet = () =>
    new LinkError('not-synced', { key: 'cli.link.err.notYet', params: { path: abs } });
  if (isInside(rel, CACHE_DIR)) {
    throw new LinkError('not-synced', { key: 'cli.link.err.cache', params: { path: abs } });
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
    throw new LinkError('changed', { key: 'cli.link.err.changed', params: { path: abs } });
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
      // A service that requires a password for links (a 422 on it): asked in words, where a
      // password can be given (Copy link with options…), never a bare refusal.
      if (err instanceof ValidationError && Object.hasOwn(err.errors, 'password'))
        throw new LinkError('needs-password', {
          key: 'cli.link.err.password',
          params: { name: quoted(name) },
        });
      if (!(err instanceof ForbiddenError)) throw err;
      throw new LinkError('link-off', { key: 'cli.link.err.off', params: { name: quoted(name) } });
    }
  }
  if (expired(link)) {
    throw new LinkError('link-expired', {
      key: 'cli.link.err.expired',
      params: { name: quoted(name), date: link.token_expires_at ?? '' },
    });
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
  const conn = await connectToServer({
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
      throw new LinkError('gone', { key: 'cli.link.err.gone', params: { path: at.abs } });
    }
    throw conn.explain(err);
  } finally {
    await conn.close();
  }
}
