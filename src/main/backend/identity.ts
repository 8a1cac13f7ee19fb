// Who the signed-in person is on the service: the contract has no "me" endpoint, so their id
// and name are read from what it does tell (a workspace they own, a member list, their events).
import { parseDetail } from '../../shared/detail';
import type { ServiceClient } from '../api/client';
import { upTo } from './bounded';
import { atLeast } from './map';

export interface Identity {
  userId: number | null;
  name: string | null;
  email: string | null;
}

/**
 * Who the tokens belong to. The contract has no "me" endpoint: the owner id of a workspace the
 * user owns is theirs, and the member list of a workspace where they moderate names them.
 * Anything unknown stays null (the email stands in for the name).
 */
export async function identify(client: ServiceClient, email: string | null): Promise<Identity> {
  let userId: number | null = null;
  const moderated: number[] = [];
  // A look through the first ones only: a service listing without end must not hold sign-in.
  for await (const w of upTo(client.listWorkspaces())) {
    if (userId === null && w.is_owner === true && typeof w.owner_id === 'number')
      userId = w.owner_id;
    if (atLeast(w.effective_role, 'Moderator')) moderated.push(w.id);
  }
  // Not an owner: the user's own events say who they are (and how the service names them).
  const actor = userId === null ? await ownActor(client).catch(() => null) : null;
  if (actor) userId = actor.id;
  const wanted = email?.toLowerCase() ?? null;
  for (const workspaceId of moderated.slice(0, 3)) {
    try {
      for await (const r of upTo(client.listRolemaps(workspaceId))) {
        const user = (r.user ?? {}) as Record<string, unknown>;
        const id = r.user_id ?? (typeof user.id === 'number' ? user.id : null);
        const mail = typeof user.email === 'string' ? user.email : null;
        const mine =
          (userId !== null && id === userId) ||
          (wanted !== null && mail !== null && mail.toLowerCase() === wanted);
        if (!mine) continue;
        const name = [user.first_name, user.last_name]
          .filter((p): p is string => typeof p === 'string' && p.trim() !== '')
          .join(' ');
        return { userId: id ?? userId, name: name || actor?.name || null, email: mail };
      }
    } catch {
      // The member list is a courtesy: without it the email stands in for the name.
    }
  }
  return { userId, name: actor?.name || null, email: null };
}

/** Up to `n` items of a list. */
async function firstOf<T>(items: AsyncIterable<T>, n: number): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) {
    out.push(item);
    if (out.length >= n) break;
  }
  return out;
}

/**
 * The user's id from their own recent events: those the feed drops when asked to leave out the
 * user's own (`filter_self`). Null when they did nothing lately.
 */
async function ownActor(client: ServiceClient): Promise<{ id: number; name: string } | null> {
  const N = 60;
  // Both reads see the same events: those up to a second ago (times have whole seconds). One
  // arriving between the reads would shift the second list and hide the user's own.
  const endTime = Math.floor(Date.now() / 1000) * 1000 - 1000;
  const all = await firstOf(client.listEvents({ endTime }), N);
  const others = await firstOf(client.listEvents({ filterSelf: true, endTime }), N);
  const kept = new Set(others.map((e) => e.id));
  // Both lists are newest first; past the end of a full page of others nothing can be told.
  const oldest = others.length < N ? -Infinity : Math.min(...others.map((e) => e.id));
  const mine = all.find((e) => !kept.has(e.id) && e.id >= oldest && typeof e.user_id === 'number');
  if (!mine || typeof mine.user_id !== 'number') return null;
  return { id: mine.user_id, name: parseDetail(mine.detail).subject };
}
