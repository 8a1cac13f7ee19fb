import type { ContentSort, FolderEntry, ServiceClient } from '../../api/client';
import { entryOf } from '../map';
import { ReversedListings } from '../reversed';
import { downloadZip } from '../zip';
import type { HandlerContext, HandlersOf } from './context';

/**
 * `limit` items of a folder from `offset` on: the service is asked from that offset (a page at
 * the end of a 20,000-item folder costs what the first one does), page after page until the
 * limit is reached, and no page beyond it.
 */
async function contentsAt(
  client: ServiceClient,
  folderId: number,
  opts: { offset: number; limit: number; query?: string; sort?: ContentSort },
): Promise<{ seen: FolderEntry[]; nextOffset: number | null; total: number | null }> {
  const seen: FolderEntry[] = [];
  let at: number | null = opts.offset;
  let total: number | null = null;
  let cut = false;
  while (at !== null && seen.length < opts.limit) {
    const page = await client.folderContentsPage(folderId, {
      offset: at,
      ...(opts.query ? { query: opts.query } : {}),
      ...(opts.sort ? { sort: opts.sort } : {}),
    });
    total = page.total;
    const room = opts.limit - seen.length;
    cut = page.entries.length > room;
    seen.push(...page.entries.slice(0, room));
    at = page.next;
  }
  const end = opts.offset + seen.length;
  // More follows when the last page was cut at the limit, or when the service has a next one.
  const more = cut || (at !== null && (total === null || end < total));
  return { seen, nextOffset: more ? end : null, total };
}

/** Browse's folders on the service: a page of contents, the path to one, one as a zip. */
export function folderHandlers(ctx: HandlerContext): HandlersOf<'folders'> {
  // One per signed-in client: where each listing's folders end, remembered while it lasts.
  const reversed = new WeakMap<ServiceClient, ReversedListings>();
  const reversedOf = (client: ServiceClient) => {
    let r = reversed.get(client);
    if (!r) reversed.set(client, (r = new ReversedListings(client)));
    return r;
  };
  return {
    'folders.contents': async (p) => {
      const s = await ctx.account(p);
      const opts = {
        offset: p.offset ?? 0,
        limit: p.limit ?? 100,
        ...(p.query ? { query: p.query } : {}),
        ...(p.sort ? { sort: p.sort } : {}),
      };
      const got = p.reversed
        ? await reversedOf(s.client).contents(p.folderId, opts)
        : await contentsAt(s.client, p.folderId, opts);
      ctx.folderIndex(s).remember(got.seen);
      // Who added each item, for the window's offer of a delete to a Creator (issue 42).
      const mine = (e: FolderEntry) =>
        s.userId === null
          ? {}
          : { mine: (e.kind === 'folder' ? e.folder : e.file).user_id === s.userId };
      const items = got.seen.map((e) => ({ ...entryOf(e), ...mine(e) }));
      return { items, nextOffset: got.nextOffset, total: got.total };
    },
    'folders.path': async (p) => ctx.folderIndex(await ctx.account(p)).path(p.folderId),
    'folders.downloadZip': async (p) => {
      const s = await ctx.account(p);
      const trail = await ctx.folderIndex(s).path(p.folderId);
      const name = trail[trail.length - 1]?.name ?? `folder-${p.folderId}`;
      return downloadZip({
        client: s.client,
        folderId: p.folderId,
        folderName: name,
        to: p.to,
        home: ctx.home,
        progress: (bytes) => ctx.emit('zip-progress', { folderId: p.folderId, bytes, total: null }),
      });
    },
  };
}
