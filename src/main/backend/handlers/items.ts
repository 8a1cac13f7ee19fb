import type { ItemDetails } from '../../../shared/app-api';
import { syncedItem } from '../../folders/synced-tree';
import type { SignedIn } from '../accounts';
import { resolveInsideRoot } from '../attention';
import { fail } from '../errors';
import { activityOf } from '../map';
import { OnDeviceItems } from '../on-device';
import { failOpen } from '../open-failed';
import { PLACEHOLDER_SUFFIX } from '../../../shared/placeholder';
import type { HandlerContext, HandlersOf, Params } from './context';
import { pairOf } from './synced';

/**
 * An item's details (its author's name learned from their events), and opening a synced item on
 * this computer through its pair's journal (inside its folder only).
 */
export function itemHandlers(ctx: HandlerContext): HandlersOf<'items'> {
  const { pairs } = ctx;
  /** Names of users by account and id, learned from their events (the contract has no users). */
  const names = new Map<string, string | null>();
  const onDevice = new OnDeviceItems(pairs);

  const nameOf = async (s: SignedIn, userId: number): Promise<string | null> => {
    if (userId === s.userId) return s.info.name;
    const key = `${s.info.id}:${userId}`;
    if (names.has(key)) return names.get(key) ?? null;
    let name: string | null = null;
    try {
      for await (const e of s.client.listEvents({ actor: userId })) {
        name = activityOf(e).subject || null;
        break;
      }
    } catch (err) {
      ctx.log.info('no name for a user', { err });
    }
    names.set(key, name);
    return name;
  };

  return {
    'items.details': async (p): Promise<ItemDetails> => {
      const s = await ctx.account(p);
      if (p.kind === 'file') {
        const f = await s.client.getFile(p.itemId);
        const version = (f as Record<string, unknown>).version;
        return {
          size: f.size,
          createdAt: f.created_at ?? null,
          updatedAt: f.updated_at,
          by: typeof f.user_id === 'number' ? await nameOf(s, f.user_id) : null,
          version:
            typeof version === 'number' || typeof version === 'string' ? String(version) : null,
        };
      }
      const k = await ctx.folderIndex(s).details(p.itemId);
      return {
        size: k.size,
        createdAt: k.createdAt,
        updatedAt: k.updatedAt,
        by: k.userId === null ? null : await nameOf(s, k.userId),
        version: null,
      };
    },

    'items.openSynced': (p) => openSynced(ctx, onDevice, p),

    'items.onDevice': (p) =>
      Promise.resolve(onDevice.folder(p.accountId, p.workspaceId, p.folderId, p.above)),
    'items.onDemand': (p) => onDevice.act(p.accountId, p.workspaceId, p.kind, p.itemId, p.op),
  };
}

/**
 * Opens a synced item with its app, or shows it in its folder, through its pair's journal (inside
 * its folder only); a file online only is downloaded first, as a placeholder's double-click does.
 */
async function openSynced(
  ctx: HandlerContext,
  onDevice: OnDeviceItems,
  p: Params<'items.openSynced'>,
): Promise<null> {
  const { pairs } = ctx;
  const candidates = pairs
    .list()
    .filter((x) => x.accountId === p.accountId && x.workspaceId === p.workspaceId);
  if (candidates.length === 0) return fail('not-found', { key: 'backend.workspaceNotSynced' });
  for (const pair of candidates) {
    const { dir, journal } = pairOf(pairs, pair.id);
    const row = syncedItem(journal, p.itemId);
    if (!row || row.kind !== p.kind) continue;
    let rel = row.localPath;
    if (row.state === 'online' && p.how === 'show') rel += PLACEHOLDER_SUFFIX;
    else if (row.state === 'online') {
      // Online only: opened as a placeholder's double-click opens it, downloaded first.
      const got = await onDevice.act(p.accountId, p.workspaceId, p.kind, p.itemId, 'download');
      if (got.waiting)
        return fail('conflict', { key: 'backend.onDemand.notYet', params: { name: row.name } });
    } else if (row.state !== 'synced')
      return fail('forbidden', { key: 'backend.roleNoDownload', params: { name: row.name } });
    const abs = resolveInsideRoot(dir, rel);
    try {
      await (p.how === 'open' ? ctx.open(abs) : ctx.show(abs));
    } catch (err) {
      failOpen(err, abs, 'item');
    }
    return null;
  }
  return fail('not-found', { key: 'backend.notSyncedYet' });
}
