import { fail } from '../errors';
import { commentOf } from '../map';
import { gather } from '../bounded';
import type { HandlerContext, HandlersOf } from './context';
import { roleForItem } from './roles';

/** An item's comments: list them (with what this user may do), add one, delete one. */
export function commentHandlers(ctx: HandlerContext): HandlersOf<'comments'> {
  return {
    'comments.list': async (p) => {
      const s = await ctx.account(p);
      const role = await roleForItem(s, ctx.folderIndex(s), p.kind, p.itemId);
      return gather(s.client.listComments(p.kind, p.itemId), (c) =>
        commentOf(c, { userId: s.userId, role }),
      );
    },
    'comments.add': async (p) => {
      const s = await ctx.account(p);
      if (p.body.trim() === '') return fail('invalid', { key: 'backend.writeSomething' });
      const c = await s.client.addComment(p.kind, p.itemId, p.body);
      // The service names the author: that is this user (the contract has no "me").
      if (s.userId === null && typeof c.user_id === 'number') s.userId = c.user_id;
      return commentOf(c, { userId: s.userId, role: null });
    },
    'comments.delete': async (p) => {
      const s = await ctx.account(p);
      await s.client.deleteComment(p.kind, p.itemId, p.commentId);
      return null;
    },
  };
}
