import type { ItemDetails } from '../../../shared/app-api';
import { syncedItem } from '../../folders/synced-tree';
import type { SignedIn } from '../accounts';
import { resolveInsideRoot } from '../attention';
import { fail } from '../errors';
import { activityOf } from '../map';
import { failOpen } from '../open-failed';
import type { HandlerContext, HandlersOf } from './context';
import { pairOf } from './synced';

/**
 * An item's details (its author's name learned from their events), and opening a synced item on
 * this computer through its pair's journal (inside its folder only).
 */
export function itemHandlers(ctx: HandlerContext): HandlersOf<'items'> {
  const { pairs } = ctx;
  /** Names of users by account and id, learned from their events (the contract has no users). */
  const names = new Map<string, string | null>();

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

    'items.openSynced': async (p) => {
      const candidates = pairs
        .list()
        .filter((x) => x.accountId === p.accountId && x.workspaceId === p.workspaceId);
      if (candidates.length === 0) return fail('not-found', { key: 'backend.workspaceNotSynced' });
      for (const pair of candidates) {
        const { dir, journal } = pairOf(pairs, pair.id);
        const row = syncedItem(journal, p.itemId);
        if (!row || row.kind !== p.kind) continue;
        if (row.state !== 'synced')
          return fail('forbidden', { key: 'backend.roleNoDownload', params: { name: row.name } });
        const abs = resolveInsideRoot(dir, row.localPath);
        try {
          await (p.how === 'open' ? ctx.open(abs) : ctx.show(abs));
        } catch (err) {
          failOpen(err, abs, 'item');
        }
        return null;
      }
      return fail('not-found', { key: 'backend.notSyncedYet' });
    },
  };
}
