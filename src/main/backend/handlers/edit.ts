import { AppCallError, type EditOutcome, type Entry } from '../../../shared/app-api';
import type { ServiceClient } from '../../api/client';
import { Moves } from '../../api/moves';
import type { SignedIn } from '../accounts';
import { editRefusal } from '../edit-words';
import { appError, fail } from '../errors';
import { entryOf } from '../map';
import type { HandlerContext, HandlersOf } from './context';

// File operations in Browse (issue 42): straight to the service as the person, in any workspace
// they see. No journal is touched: in a synced workspace the engine learns each change from the
// feed at its next pass, as it learns a colleague's (docs/SYNC.md, "Changes made in Browse").

type Item = { kind: 'folder' | 'file'; id: number; name: string };

/** A name the service would change (it replaces `/` and `\`): refused here, said in words. */
function checkName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) fail('invalid', { key: 'edit.nameEmpty' });
  if (/[/\\]/.test(trimmed)) fail('invalid', { key: 'edit.nameSlash' });
  return trimmed;
}

/** Runs `op`; a refusal of the service's is thrown in words naming `name`. */
async function worded<T>(name: string, op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    const refusal = editRefusal(err, name);
    if (refusal) fail(refusal.kind, refusal.words);
    throw err;
  }
}

/**
 * What the person just made is theirs: its `user_id` is their id on the service, which sign-in
 * could not always learn (no workspace owned, no event yet: identity.ts). Browse's listing then
 * says which items are theirs (a Creator may delete those).
 */
export function learnWho(s: SignedIn, made: { user_id?: number | null | undefined }): void {
  if (s.userId === null && typeof made.user_id === 'number') s.userId = made.user_id;
}

/** Each item on its own (one bad item never blocks the rest): how many, and each refused. */
async function eachOf(items: Item[], op: (item: Item) => Promise<void>): Promise<EditOutcome> {
  const outcome: EditOutcome = { done: 0, failed: [] };
  for (const item of items) {
    try {
      await op(item);
      outcome.done++;
    } catch (err) {
      const refusal = editRefusal(err, item.name);
      const said =
        err instanceof AppCallError ? err.error : refusal && appError(refusal.kind, refusal.words);
      if (!said) throw err;
      const { message, words } = said;
      outcome.failed.push({ kind: item.kind, id: item.id, name: item.name, message, words });
    }
  }
  return outcome;
}

export function editHandlers(ctx: HandlerContext): HandlersOf<'edit'> {
  // One per client: whether the server has the move extension is learned once (api/moves.ts).
  const moves = new WeakMap<ServiceClient, Moves>();
  const movesOf = (s: SignedIn) => {
    let m = moves.get(s.client);
    if (!m) moves.set(s.client, (m = new Moves(s.client)));
    return m;
  };

  return {
    'edit.newFolder': async (p): Promise<Entry> => {
      const name = checkName(p.name);
      const s = await ctx.account(p);
      const folder = await worded(name, () =>
        s.client.createFolder(p.workspaceId, p.parentId, name),
      );
      learnWho(s, folder);
      return entryOf({ kind: 'folder', folder });
    },
    'edit.rename': async (p): Promise<Entry> => {
      const name = checkName(p.name);
      const s = await ctx.account(p);
      if (p.kind === 'folder') {
        const folder = await worded(name, () => s.client.renameFolder(p.itemId, name));
        return entryOf({ kind: 'folder', folder });
      }
      const file = await worded(name, () => s.client.renameFile(p.itemId, name));
      return entryOf({ kind: 'file', file });
    },
    'edit.move': async (p) => {
      const s = await ctx.account(p);
      const m = movesOf(s);
      return eachOf(p.items, async (item) => {
        const moved =
          item.kind === 'folder'
            ? await m.moveFolder(item.id, p.to)
            : await m.moveFile(item.id, p.to);
        if (!moved.supported) fail('unsupported', { key: 'edit.moveUnsupported' });
      });
    },
    'edit.delete': async (p) => {
      const s = await ctx.account(p);
      return eachOf(p.items, (item) =>
        item.kind === 'folder' ? s.client.deleteFolder(item.id) : s.client.deleteFile(item.id),
      );
    },
  };
}
