import type { ActivityEvent } from '../../../shared/app-api';
import type { Words } from '../../../shared/i18n';
import { ApiError } from '../../api/errors';
import type * as S from '../../api/schemas';
import type { SignedIn } from '../accounts';
import { gather } from '../bounded';
import { fail } from '../errors';
import type { FolderIndex } from '../folders';
import { activityOf, type Me } from '../map';
import type { HandlerContext, HandlersOf } from './context';
import { epochOf } from './instants';
import { roleIn } from './roles';

const AUDIT_FORBIDDEN: Words = { key: 'backend.auditForbidden' };

/** Files of a burst asked for at once (activity.burstFolder). */
const BURST_READS = 6;

/** Events read past the ones kept, at most, before a folded page answers what it has. */
const FOLD_SCAN = 1000;

/** Reads `offset + limit` items at most (one more to know whether a next page exists). */
async function page<T, U>(
  items: AsyncIterable<T>,
  offset: number,
  limit: number,
  map: (item: T) => U,
): Promise<{ items: U[]; nextOffset: number | null }> {
  const out: U[] = [];
  let index = 0;
  for await (const item of items) {
    if (index >= offset + limit) return { items: out, nextOffset: offset + limit };
    if (index >= offset) out.push(map(item));
    index++;
  }
  return { items: out, nextOffset: null };
}

/**
 * A page of events without the person's own downloads and views (`ownRead`), counted in
 * `folded`: read from the service's `offset` until `limit` are kept. A sync that brought down
 * 10,000 files leaves 10,000 such events in a row; a page stops after FOLD_SCAN of them and
 * answers the service's offset to go on from, so no call reads the whole feed.
 */
async function foldedPage(
  events: AsyncIterable<S.Event>,
  offset: number,
  limit: number,
  me: Me,
): Promise<{ items: ActivityEvent[]; nextOffset: number | null; folded: number }> {
  const items: ActivityEvent[] = [];
  let read = 0;
  let folded = 0;
  for await (const e of events) {
    if (items.length >= limit || folded >= FOLD_SCAN)
      return { items, nextOffset: offset + read, folded };
    read++;
    const event = activityOf(e, me);
    if (event.ownRead) folded++;
    else items.push(event);
  }
  return { items, nextOffset: null, folded };
}

/**
 * The folder that holds every one of `fileIds` (each file's last ancestor), or null: they are
 * in several, one is gone or hidden from this person. Read a few at a time, and it stops at
 * the second folder found.
 */
async function folderOfAll(
  s: SignedIn,
  folders: FolderIndex,
  fileIds: readonly number[],
): Promise<{ id: number; name: string } | null> {
  let parent: number | null = null;
  try {
    for (let i = 0; i < fileIds.length; i += BURST_READS) {
      const files = await Promise.all(
        fileIds.slice(i, i + BURST_READS).map((id) => s.client.getFile(id)),
      );
      for (const f of files) {
        const up = f.ancestor_ids?.at(-1);
        if (up === undefined || (parent !== null && up !== parent)) return null;
        parent = up;
      }
    }
    if (parent === null) return null;
    const trail = await folders.path(parent);
    const name = trail.at(-1)?.name;
    return name === undefined ? null : { id: parent, name };
  } catch (err) {
    if (err instanceof ApiError && (err.kind === 'not-found' || err.kind === 'forbidden'))
      return null;
    throw err;
  }
}

/** The account's feed (a page, filtered), a file's audit trail, a burst's folder, a role. */
export function activityHandlers(ctx: HandlerContext): HandlersOf<'activity'> {
  return {
    'activity.list': async (p) => {
      const s = await ctx.account(p);
      const offset = p.offset ?? 0;
      const startTime = epochOf(p.from, 'from');
      const endTime = epochOf(p.to, 'to');
      if (startTime !== undefined && endTime !== undefined && startTime > endTime)
        return fail('invalid', { key: 'backend.fromBeforeTo' });
      const events = s.client.listEvents({
        ...(p.workspaces ? { workspaces: p.workspaces } : {}),
        ...(p.verbs ? { verbs: p.verbs } : {}),
        ...(p.actor !== undefined ? { actor: p.actor } : {}),
        ...(p.othersOnly !== undefined ? { filterSelf: p.othersOnly } : {}),
        ...(startTime !== undefined ? { startTime } : {}),
        ...(endTime !== undefined ? { endTime } : {}),
        offset,
      });
      const me = { userId: s.userId, name: s.info.name };
      // The service skips to the offset: a page costs the same at the end of a long feed.
      if (!p.foldOwnReads) {
        const got = await page(events, 0, p.limit ?? 50, (e) => activityOf(e, me));
        return {
          items: got.items,
          nextOffset: got.nextOffset === null ? null : offset + got.nextOffset,
        };
      }
      return foldedPage(events, offset, p.limit ?? 50, me);
    },
    'activity.auditTrail': async (p) => {
      const s = await ctx.account(p);
      try {
        const me = { userId: s.userId, name: s.info.name };
        return await gather(s.client.fileAuditTrail(p.fileId), (e) => activityOf(e, me));
      } catch (err) {
        if (err instanceof ApiError && (err.kind === 'forbidden' || err.kind === 'not-found'))
          return fail('forbidden', AUDIT_FORBIDDEN);
        throw err;
      }
    },
    'activity.burstFolder': async (p) => {
      const s = await ctx.account(p);
      return { folder: await folderOfAll(s, ctx.folderIndex(s), p.fileIds) };
    },
    'activity.role': async (p) => ({ role: await roleIn(await ctx.account(p), p.workspaceId) }),
  };
}
